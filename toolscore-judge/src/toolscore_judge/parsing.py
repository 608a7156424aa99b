"""Reading verdicts out of a model's answer, however it was wrapped.

Models put JSON in Markdown fences, wrap it in prose, return an object holding the array, or
drop an item. :func:`parse_batch` keeps every verdict it can trust and leaves the rest to the
caller, which asks again for those pairs one by one.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

__all__ = ["AnswerError", "Verdict", "clamp_score", "extract_json", "parse_batch", "parse_single"]

NO_EXPLANATION: Final = "No explanation provided"

_FENCE: Final = re.compile(r"```[A-Za-z0-9_+-]*[ \t]*\r?\n(.*?)```", re.DOTALL)
_MAX_OPENERS: Final = 64


class AnswerError(ValueError):
    """The model answered, but not with usable verdicts."""


@attrs.frozen
class Verdict:
    """The judge's score (0..1) and reason for one pair."""

    score: float
    explanation: str


def extract_json(text: str) -> Any:
    """The JSON value in ``text``: bare, inside a Markdown fence, or embedded in prose.

    :raises AnswerError: the text is empty or holds no JSON value.
    """
    stripped = text.strip()
    if not stripped:
        raise AnswerError("empty answer")
    for candidate in [*(m.group(1) for m in _FENCE.finditer(stripped)), stripped]:
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    decoder = json.JSONDecoder()
    openers = [i for i, ch in enumerate(stripped) if ch in "[{"][:_MAX_OPENERS]
    for start in openers:
        try:
            value, _ = decoder.raw_decode(stripped, start)
        except ValueError:
            continue
        return value
    raise AnswerError(f"no JSON in the answer: {_preview(stripped)}")


def clamp_score(value: Any) -> float | None:
    """A finite number (or numeric string) clamped to [0, 1]; ``None`` when it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None
    if not isinstance(value, (int, float)):
        return None
    number = float(value)
    if math.isnan(number):
        return None
    return min(1.0, max(0.0, number))


def _explanation(item: Mapping[str, Any]) -> str:
    value = item.get("explanation")
    if value is None or (isinstance(value, str) and not value.strip()):
        return NO_EXPLANATION
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _as_list(data: Any, count: int) -> Sequence[Any]:
    if isinstance(data, list):
        return data
    if isinstance(data, dict):
        for value in data.values():
            if isinstance(value, list):
                return value
        if count == 1 and "score" in data:
            return [data]
    raise AnswerError("expected a JSON array of verdicts, or an object holding one")


def _index(item: Mapping[str, Any]) -> int | None:
    raw = item.get("index")
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    if isinstance(raw, str) and raw.strip().isdigit():
        return int(raw.strip())
    return None


def parse_batch(text: str, count: int) -> dict[int, Verdict]:
    """The usable verdicts of a batched answer for ``count`` pairs, by pair index.

    Items are placed by their ``index``; items without one are placed by position, but only
    when the answer has exactly ``count`` items. Items with a missing or non-numeric score,
    an index out of range or a repeated index are left out. Scores are clamped to [0, 1].

    :raises AnswerError: no JSON, or JSON of the wrong shape.
    """
    items = _as_list(extract_json(text), count)
    positional = len(items) == count
    verdicts: dict[int, Verdict] = {}
    for position, item in enumerate(items):
        if not isinstance(item, Mapping):
            continue
        index = _index(item)
        if index is None and "index" not in item and positional:
            index = position
        if index is None or not 0 <= index < count or index in verdicts:
            continue
        score = clamp_score(item.get("score"))
        if score is None:
            continue
        verdicts[index] = Verdict(score, _explanation(item))
    return verdicts


def parse_single(text: str) -> Verdict:
    """The verdict of a one-pair answer.

    :raises AnswerError: no JSON, or no numeric ``score`` in it.
    """
    verdicts = parse_batch(text, 1)
    if 0 not in verdicts:
        raise AnswerError(f"no numeric score in the answer: {_preview(text.strip())}")
    return verdicts[0]


def _preview(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")
