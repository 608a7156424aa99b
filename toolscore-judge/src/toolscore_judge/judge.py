"""The batched, cached judge behind every built-in provider.

For the pairs it is given (core pairs them from the alignment), :class:`BatchJudge`:

1. looks each pair up in the verdict cache (a fully cached run sends nothing and needs no key);
2. asks for the remaining distinct pairs in batched requests: one for a usual trace, several
   of at most ``max_batch_pairs`` pairs and ``max_batch_chars`` characters for a long one;
3. keeps each usable verdict of an answer and asks again, one pair at a time, only for the
   pairs the answer left out or garbled;
4. stores the fresh verdicts, and reports verdicts other judge models left for the same pairs
   as ``judge_drift`` (and a :class:`JudgeDriftWarning`) instead of changing scores silently.

A transport failure of the first batched request (after the retries) raises
:class:`~toolscore_judge.transport.JudgeRequestError`; core records it in
``semantic_metrics["error"]`` and the evaluation goes on. After a later one, the verdicts
already received are kept (and cached) and the pairs left are reported as failed.

A pair without a verdict (an answer that cannot be read even when asked alone, an empty
answer, a request that failed) is unknown, not wrong: its entry in ``per_call_scores`` is
``None``, ``semantic_score`` is ``None`` and ``error`` says how many pairs could not be judged
and why. Scoring it 0.0 would report a bad agent where there is only a bad judge answer.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

from toolscore.model import ToolCall

from toolscore_judge.backends import Backend
from toolscore_judge.cache import VerdictCache
from toolscore_judge.config import JudgeConfig
from toolscore_judge.parsing import AnswerError, Verdict, parse_batch, parse_single
from toolscore_judge.prompts import (
    PROMPT_VERSION,
    SYSTEM_PROMPT,
    batch_prompt,
    canonical_pair,
    pair_prompt,
)
from toolscore_judge.transport import JudgeRequestError

__all__ = ["BatchJudge", "JudgeDriftWarning", "length_penalty", "semantic_score"]

NO_RESPONSE = "No response from model"


class JudgeDriftWarning(UserWarning):
    """Cached verdicts from another judge model exist for the pairs just judged."""


def length_penalty(gold_count: int, trace_count: int) -> float:
    """``1 - |g - t| / max(g, t)``: fewer or more calls than expected lower the score."""
    if gold_count == trace_count:
        return 1.0
    return 1.0 - abs(gold_count - trace_count) / max(gold_count, trace_count, 1)


def semantic_score(scores: Sequence[float], gold_count: int, trace_count: int) -> float:
    """The mean pair score (0 without pairs) times :func:`length_penalty`."""
    mean = math.fsum(scores) / len(scores) if scores else 0.0
    return mean * length_penalty(gold_count, trace_count)


class BatchJudge:
    """A judge for one provider: cache, batched requests, per-pair fallback."""

    def __init__(self, config: JudgeConfig, backend_type: type[Backend], provider: str) -> None:
        self.config = config
        self.backend_type = backend_type
        self.provider = provider
        self.identity = config.identity(provider)
        self.cache = (
            VerdictCache(str(config.cache_dir), PROMPT_VERSION) if config.cache_enabled else None
        )

    # -- asking ------------------------------------------------------------------------------

    def _ask(
        self, backend: Backend, pairs: Sequence[str]
    ) -> tuple[dict[int, Verdict], dict[int, str]]:
        """Verdicts for ``pairs`` (distinct canonical pairs), and failure notes for the rest."""
        verdicts: dict[int, Verdict] = {}
        failures: dict[int, str] = {}
        broken: str | None = None  # a transport failure stops every further request
        batches = _batches(pairs, self.config.max_batch_pairs, self.config.max_batch_chars)
        for batch in batches:
            if broken is None:
                try:
                    answer = backend.complete(
                        SYSTEM_PROMPT, batch_prompt([pairs[i] for i in batch])
                    )
                except JudgeRequestError as exc:
                    if batch.start == 0:
                        raise
                    broken = f"Evaluation failed: {exc}"
                else:
                    try:
                        found = parse_batch(answer, len(batch))
                    except AnswerError:
                        found = {}
                    verdicts.update((batch.start + k, verdict) for k, verdict in found.items())
            for index in batch:
                if index in verdicts:
                    continue
                if broken is not None:
                    failures[index] = broken
                    continue
                try:
                    answer = backend.complete(SYSTEM_PROMPT, pair_prompt(pairs[index]))
                except JudgeRequestError as exc:
                    broken = failures[index] = f"Evaluation failed: {exc}"
                    continue
                if not answer.strip():
                    failures[index] = NO_RESPONSE
                    continue
                try:
                    verdicts[index] = parse_single(answer)
                except AnswerError as exc:
                    failures[index] = f"Evaluation failed: {exc}"
        return verdicts, failures

    # -- the Judge protocol ------------------------------------------------------------------

    def judge(
        self, pairs: Sequence[tuple[ToolCall, ToolCall]], *, gold_count: int, trace_count: int
    ) -> dict[str, Any]:
        """The ``semantic_metrics`` mapping for ``pairs``.

        :raises toolscore_judge.config.MissingAPIKeyError: a request is needed and no key is set.
        :raises JudgeRequestError: the batched request failed (after retries).
        """
        canon = [canonical_pair(expected, actual) for expected, actual in pairs]
        verdicts: dict[int, Verdict] = {}
        notes: dict[int, str] = {}
        cache_hits = 0
        if self.cache is not None:
            for i, pair in enumerate(canon):
                hit = self.cache.get(pair, self.identity)
                if hit is not None:
                    verdicts[i] = hit
                    cache_hits += 1
        missing = list(dict.fromkeys(p for i, p in enumerate(canon) if i not in verdicts))
        cache_error: str | None = None
        if missing:
            backend = self.backend_type(self.config, self.provider)
            fresh, failures = self._ask(backend, missing)
            by_pair = {missing[j]: v for j, v in fresh.items()}
            failed = {missing[j]: note for j, note in failures.items()}
            for i, pair in enumerate(canon):
                if i in verdicts:
                    continue
                if pair in by_pair:
                    verdicts[i] = by_pair[pair]
                else:
                    notes[i] = failed.get(pair, NO_RESPONSE)
            if self.cache is not None:
                for pair, verdict in by_pair.items():
                    try:
                        self.cache.put(pair, self.identity, verdict)
                    except OSError as exc:
                        cache_error = f"could not write the verdict cache: {exc}"
        scores = [verdicts[i].score if i in verdicts else None for i in range(len(canon))]
        explanations = [
            verdicts[i].explanation if i in verdicts else notes[i] for i in range(len(canon))
        ]
        judged = [score for score in scores if score is not None]
        result: dict[str, Any] = {
            "semantic_score": (None if notes else semantic_score(judged, gold_count, trace_count)),
            "per_call_scores": scores,
            "explanations": explanations,
            "model_used": self.config.model,
            "gold_count": gold_count,
            "trace_count": trace_count,
            "provider": self.provider,
            "prompt_version": PROMPT_VERSION,
            "cached": bool(canon) and cache_hits == len(canon),
            "cache_hits": cache_hits,
            "failed_pairs": len(notes),
            "judge_drift": self._drift(canon, verdicts, gold_count, trace_count),
        }
        if notes:
            first = min(notes)
            result["error"] = (
                f"{len(notes)} of {len(canon)} pair(s) could not be judged, so there is no "
                f"semantic score (pair {first}: {notes[first]})"
            )
        if cache_error is not None:
            result["cache_error"] = cache_error
        return result

    # -- drift -------------------------------------------------------------------------------

    def _drift(
        self, canon: Sequence[str], verdicts: dict[int, Verdict], gold_count: int, trace_count: int
    ) -> dict[str, Any] | None:
        """What other judge models said about the same pairs, when the cache knows."""
        if self.cache is None or not canon:
            return None
        others = [self.cache.others(pair, self.identity) for pair in canon]
        models = sorted({name for found in others for name in found})
        if not models:
            return None
        per_model: dict[str, dict[str, Any]] = {}
        for name in models:
            theirs = [found[name].score for found in others if name in found]
            complete = len(theirs) == len(canon)
            per_model[name] = {
                "pairs": len(theirs),
                "semantic_score": (
                    semantic_score(theirs, gold_count, trace_count) if complete else None
                ),
            }
        changed: list[dict[str, Any]] = []
        for i, found in enumerate(others):
            if i not in verdicts:
                continue
            deltas = {
                n: v.score for n, v in found.items() if abs(v.score - verdicts[i].score) > 1e-9
            }
            if deltas:
                changed.append({"pair": i, "score": verdicts[i].score, "other_scores": deltas})
        max_delta = max(
            (abs(s - c["score"]) for c in changed for s in c["other_scores"].values()),
            default=0.0,
        )
        drift = {
            "judge": self.identity,
            "other_judges": per_model,
            "changed_pairs": changed,
            "max_delta": max_delta,
        }
        warnings.warn(
            f"judge drift: verdicts from {', '.join(models)} are cached for pairs now judged by "
            f"{self.identity}; {len(changed)} of {len(canon)} pair score(s) differ "
            f"(largest change {max_delta:.2f}). See semantic_metrics['judge_drift'].",
            JudgeDriftWarning,
            stacklevel=2,
        )
        return drift


def _batches(pairs: Sequence[str], max_pairs: int, max_chars: int) -> list[range]:
    """Consecutive runs of ``pairs`` within both limits; a pair over ``max_chars`` goes alone."""
    out: list[range] = []
    start = size = 0
    for index, pair in enumerate(pairs):
        if index > start and (index - start >= max_pairs or size + len(pair) > max_chars):
            out.append(range(start, index))
            start, size = index, 0
        size += len(pair)
    if pairs:
        out.append(range(start, len(pairs)))
    return out
