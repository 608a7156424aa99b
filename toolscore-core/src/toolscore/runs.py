"""Repeated runs of one case: pass@k, pass^k, flakiness, and the calls that differ.

Why: an agent is not deterministic. Scoring one run says little about the next; scoring ``n``
runs of the same case tells how often it passes (``c`` of ``n``) and what a user running it
``k`` times should expect:

* ``pass@k = 1 − C(n−c, k) / C(n, k)`` — the chance that at least one of ``k`` runs drawn
  from the ``n`` passes (the usual code-generation metric);
* ``pass^k = C(c, k) / C(n, k)`` — the chance that all ``k`` pass (τ-bench's reliability
  metric, the one to gate on);
* ``flaky`` — some runs pass and some fail (``0 < c < n``).

A run passes when its score reaches ``threshold`` and, under ``match=``, its trajectory
matches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import comb
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from toolscore.model import ToolCall
    from toolscore.result import EvaluationResult

__all__ = [
    "CallDifference",
    "RunsResult",
    "differing_calls",
    "evaluate_runs",
    "pass_at_k",
    "pass_hat_k",
    "summarise",
]


def _check(n: int, c: int, k: int) -> None:
    if not 0 <= c <= n:
        raise ValueError(f"passing runs must be between 0 and n={n}, got {c}")
    if not 1 <= k <= n:
        raise ValueError(f"k must be between 1 and the number of runs ({n}), got {k}")


def pass_at_k(n: int, c: int, k: int) -> float:
    """``1 − C(n−c, k) / C(n, k)``: at least one of ``k`` runs passes."""
    _check(n, c, k)
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """``C(c, k) / C(n, k)``: all ``k`` runs pass."""
    _check(n, c, k)
    return comb(c, k) / comb(n, k)


@attrs.frozen
class RunsResult:
    """The verdict over ``n`` runs of one case."""

    n: int
    passed: int
    k: int
    threshold: float
    pass_at_k: float
    pass_hat_k: float
    runs: tuple[EvaluationResult, ...]
    #: Per run, whether it passed.
    outcomes: tuple[bool, ...]
    #: Positions where the runs' calls differ (see :func:`differing_calls`).
    differences: tuple[Mapping[str, Any], ...] = ()

    @property
    def flaky(self) -> bool:
        """Some runs pass and some fail."""
        return 0 < self.passed < self.n

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``toolscore eval GOLD RUN1 RUN2 ... --k K`` writes one per case)."""
        return {
            "n": self.n,
            "passed": self.passed,
            "k": self.k,
            "threshold": self.threshold,
            "pass_at_k": self.pass_at_k,
            "pass_hat_k": self.pass_hat_k,
            "flaky": self.flaky,
            "runs": [
                {"run": i + 1, "score": r.score, "grade": r.grade, "passed": ok}
                for i, (r, ok) in enumerate(zip(self.runs, self.outcomes))
            ],
            "differences": [dict(d) for d in self.differences],
        }


def _signature(call: ToolCall) -> str:
    from toolscore.diff import format_call

    return format_call(call)


class CallDifference(dict[str, Any]):
    """One position where the runs differ: a plain dict (``{"position", "variants"}``) that
    prints as one line, ``call #1: search(q='paris') in runs 1, 3; search(q='rome') in run 2``.
    """

    def __str__(self) -> str:
        parts = []
        for variant in self.get("variants", ()):
            numbers = list(variant.get("runs", ()))
            word = "run" if len(numbers) == 1 else "runs"
            call = variant.get("call") or "no call"
            parts.append(f"{call} in {word} {', '.join(map(str, numbers))}")
        return f"call #{self.get('position')}: " + "; ".join(parts)


def differing_calls(runs: Sequence[Sequence[ToolCall]]) -> list[CallDifference]:
    """Positions where the runs did not all make the same call.

    Each item is ``{"position": p (1-based), "variants": [{"call": "search(q='x')" or
    None for "no call", "runs": [run numbers]}, ...]}``, variants by first appearance.
    """
    longest = max((len(r) for r in runs), default=0)
    out: list[CallDifference] = []
    for position in range(longest):
        variants: dict[str | None, list[int]] = {}
        for number, calls in enumerate(runs, start=1):
            key = _signature(calls[position]) if position < len(calls) else None
            variants.setdefault(key, []).append(number)
        if len(variants) > 1:
            out.append(
                CallDifference(
                    position=position + 1,
                    variants=[{"call": call, "runs": nums} for call, nums in variants.items()],
                )
            )
    return out


def evaluate_runs(
    expected: list[Any],
    runs: Sequence[Any],
    *,
    k: int,
    threshold: float = 0.9,
    **evaluate_options: Any,
) -> RunsResult:
    """Score every run of one case against ``expected`` and summarise them.

    :param runs: one actual trajectory per run (anything :func:`toolscore.evaluate` takes).
    :param k: the ``k`` of pass@k and pass^k, between 1 and ``len(runs)``.
    :param threshold: the score a run needs to pass (default 0.9, as ``assert_tools``).
    :param evaluate_options: passed to :func:`toolscore.evaluate` (``weights``, ``strict``,
        ``match``, ...).
    :raises ValueError: no runs, or ``k`` outside ``1..len(runs)``.
    :raises TypeError: ``k`` is not an integer (``"2"``), or ``threshold`` not a number.
    """
    from toolscore.evaluation import evaluate

    if not runs:
        raise ValueError("evaluate_runs needs at least one run")
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"k must be a whole number of runs, got {k!r}")
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
        raise TypeError(f"threshold must be a number between 0.0 and 1.0, got {threshold!r}")
    if not 0.0 <= threshold <= 1.0:
        raise ValueError(f"threshold must be between 0.0 and 1.0, got {threshold}")
    results = tuple(evaluate(expected, run, **evaluate_options) for run in runs)
    return summarise(results, k=k, threshold=threshold)


def _passes(result: EvaluationResult, threshold: float) -> bool:
    verdict = result.metrics.get("trajectory_match")
    if isinstance(verdict, Mapping) and not verdict.get("matched", True):
        return False
    return round(result.score, 12) >= threshold


def summarise(results: Sequence[EvaluationResult], *, k: int, threshold: float = 0.9) -> RunsResult:
    """The :class:`RunsResult` of runs already scored (used by the CLI and the pytest plugin)."""
    n = len(results)
    outcomes = tuple(_passes(r, threshold) for r in results)
    c = sum(outcomes)
    _check(n, c, k)
    return RunsResult(
        n=n,
        passed=c,
        k=k,
        threshold=threshold,
        pass_at_k=pass_at_k(n, c, k),
        pass_hat_k=pass_hat_k(n, c, k),
        runs=tuple(results),
        outcomes=outcomes,
        differences=tuple(differing_calls([r.trace_calls for r in results])),
    )
