"""The verdict cache: judge once, re-run offline.

Layout (one small JSON file per verdict, so concurrent runs never overwrite each other's
entries and every write is an atomic ``os.replace``)::

    <cache dir>/v1/<pair key[:2]>/<pair key>/<judge key>.json

``pair key`` is the SHA-256 of the prompt version and the pair's canonical JSON (tool names
and arguments only); ``judge key`` is a hash of the judge's identity (``provider:model``).
Together they key a verdict on (judge model, prompt version, pair). Verdicts that other judge
models left for the same pair sit next to each other, which is how judge drift is found.

The cache is plain JSON and deterministic: commit it, and CI re-runs need no API key.
A file that cannot be read or does not match its key is ignored (and replaced by the next
fresh verdict), never trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Final

from toolscore.fileio import atomic_write_json

from toolscore_judge.parsing import Verdict, clamp_score

__all__ = ["VerdictCache", "judge_key", "pair_key"]

LAYOUT: Final = "v1"


def pair_key(prompt_version: str, pair: str) -> str:
    """The cache key of a pair (as :func:`toolscore_judge.prompts.canonical_pair` renders it)."""
    return hashlib.sha256(f"{prompt_version}\0{pair}".encode()).hexdigest()


def judge_key(identity: str) -> str:
    """The file name stem of a judge's verdicts."""
    return hashlib.sha256(identity.encode("utf-8")).hexdigest()[:20]


class VerdictCache:
    """Verdicts on disk under ``root``, keyed by (judge identity, prompt version, pair)."""

    def __init__(self, root: str | os.PathLike[str], prompt_version: str) -> None:
        self.root = Path(root).expanduser()
        self.prompt_version = prompt_version

    def _folder(self, pair: str) -> Path:
        key = pair_key(self.prompt_version, pair)
        return self.root / LAYOUT / key[:2] / key

    def _read(self, path: Path, pair: str) -> tuple[str, Verdict] | None:
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or data.get("prompt_version") != self.prompt_version:
            return None
        identity = data.get("judge")
        score = clamp_score(data.get("score"))
        explanation = data.get("explanation")
        if not isinstance(identity, str) or score is None or not isinstance(explanation, str):
            return None
        if path.stem != judge_key(identity) or data.get("pair") != json.loads(pair):
            return None
        return identity, Verdict(score, explanation)

    def get(self, pair: str, identity: str) -> Verdict | None:
        """The verdict ``identity`` gave for ``pair``, if cached."""
        found = self._read(self._folder(pair) / f"{judge_key(identity)}.json", pair)
        return found[1] if found is not None and found[0] == identity else None

    def others(self, pair: str, identity: str) -> dict[str, Verdict]:
        """Verdicts other judges gave for ``pair``, by their identity."""
        folder = self._folder(pair)
        try:
            paths = sorted(folder.glob("*.json"))
        except OSError:
            return {}
        out: dict[str, Verdict] = {}
        for path in paths:
            found = self._read(path, pair)
            if found is not None and found[0] != identity:
                out[found[0]] = found[1]
        return out

    def put(self, pair: str, identity: str, verdict: Verdict) -> None:
        """Store a fresh verdict (atomically).

        :raises OSError: the cache folder is not writable.
        """
        atomic_write_json(
            self._folder(pair) / f"{judge_key(identity)}.json",
            {
                "judge": identity,
                "prompt_version": self.prompt_version,
                "pair": json.loads(pair),
                "score": verdict.score,
                "explanation": verdict.explanation,
            },
        )
