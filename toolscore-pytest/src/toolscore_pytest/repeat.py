"""``@pytest.mark.toolscore_repeat``: run a test body ``n`` times and gate on pass^k.

Why: an agent is not deterministic, so one green run proves little. A repeated test runs its
body ``n`` times (fixtures are set up once), each repetition records its evaluations through
the ``toolscore_runs`` fixture (or returns an ``EvaluationResult``), and the test passes when
pass^k — the chance that ``k`` runs drawn from the ``n`` all pass, τ-bench's reliability
metric — reaches ``gate``. The default gate 1.0 asks that every ``k``-combination passes.

A repetition passes when its body raises nothing and every result it recorded scores at
least ``threshold`` (and, under ``match=``, its trajectory matches). ``pytest.skip`` and
other outcome exceptions stop the whole test as usual.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs
import pytest

if TYPE_CHECKING:
    from toolscore.result import EvaluationResult

__all__ = ["MARKER", "RepeatSpec", "RunRecorder", "run_repeated"]

#: The marker's name (its help line is registered in plugin.py, which imports nothing else).
MARKER = "toolscore_repeat"


@attrs.frozen
class RepeatSpec:
    """The marker's arguments, checked."""

    n: int
    k: int
    threshold: float
    gate: float

    @classmethod
    def from_marker(cls, mark: pytest.Mark) -> RepeatSpec:
        """:raises ValueError: a bad value, in one line naming the marker."""
        kwargs: dict[str, Any] = dict(mark.kwargs)
        if mark.args:
            kwargs.setdefault("n", mark.args[0])
        unknown = set(kwargs) - {"n", "k", "threshold", "gate"}
        if unknown:
            raise ValueError(f"{MARKER}: unknown argument(s) {sorted(unknown)}")
        n = kwargs.get("n", 5)
        k = kwargs.get("k", n)
        threshold = kwargs.get("threshold", 0.9)
        gate = kwargs.get("gate", 1.0)
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"{MARKER}: n must be a positive integer, got {n!r}")
        if not isinstance(k, int) or not 1 <= k <= n:
            raise ValueError(f"{MARKER}: k must be an integer between 1 and n={n}, got {k!r}")
        for name, value in (("threshold", threshold), ("gate", gate)):
            if not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise ValueError(f"{MARKER}: {name} must be between 0 and 1, got {value!r}")
        return cls(n, k, float(threshold), float(gate))


class RunRecorder:
    """The ``toolscore_runs`` fixture: what each repetition of a test evaluated.

    Call :meth:`evaluate` (``toolscore.evaluate`` that also records) or :meth:`record` with an
    ``EvaluationResult`` or a plain bool from the test body.
    """

    def __init__(self, threshold: float = 0.9) -> None:
        self.threshold = threshold
        #: Per finished repetition, the results it recorded.
        self.runs: list[list[EvaluationResult | bool]] = []
        self._current: list[EvaluationResult | bool] = []

    def record(self, result: EvaluationResult | bool) -> EvaluationResult | bool:
        """Record one evaluation (or verdict) of the running repetition; returns it."""
        self._current.append(result)
        return result

    def evaluate(self, expected: list[Any], actual: Any, **kwargs: Any) -> EvaluationResult:
        """``toolscore.evaluate(expected, actual, **kwargs)``, recorded."""
        from toolscore.evaluation import evaluate

        result = evaluate(expected, actual, **kwargs)
        self.record(result)
        return result

    def passes(self, item: EvaluationResult | bool) -> bool:
        """Whether one recorded item passes at this recorder's threshold."""
        if isinstance(item, bool):
            return item
        verdict = item.metrics.get("trajectory_match")
        if isinstance(verdict, Mapping) and not verdict.get("matched", True):
            return False
        return round(item.score, 12) >= self.threshold

    def _finish_run(self) -> list[EvaluationResult | bool]:
        done, self._current = self._current, []
        self.runs.append(done)
        return done


def _outcome_exception(exc: BaseException) -> bool:
    """pytest's own control-flow exceptions (skip, xfail, exit): never a failed run."""
    return isinstance(exc, pytest.skip.Exception) or not isinstance(exc, Exception)


def run_repeated(
    function: Callable[..., Any], kwargs: Mapping[str, Any], spec: RepeatSpec, recorder: RunRecorder
) -> tuple[bool, str, float]:
    """Run ``function(**kwargs)`` ``spec.n`` times: (passed the gate, report, pass^k)."""
    from toolscore.result import EvaluationResult
    from toolscore.runs import pass_at_k, pass_hat_k

    if inspect.iscoroutinefunction(function):
        raise ValueError(f"{MARKER}: async test functions are not supported")
    recorder.threshold = spec.threshold
    outcomes: list[bool] = []
    lines: list[str] = []
    for number in range(1, spec.n + 1):
        problem = None
        try:
            returned = function(**kwargs)
        except BaseException as exc:
            if _outcome_exception(exc):
                raise
            problem = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        else:
            if isinstance(returned, EvaluationResult):
                recorder.record(returned)
        recorded = recorder._finish_run()
        failing = [r for r in recorded if not recorder.passes(r)]
        if problem is None and failing:
            scores = ", ".join(
                "failed" if isinstance(r, bool) else f"score {r.score:.2f}" for r in failing
            )
            problem = f"{scores} (threshold {spec.threshold:g})"
        outcomes.append(problem is None)
        lines.append(f"  run {number}: " + ("passed" if problem is None else problem))
    passed = sum(outcomes)
    hat = pass_hat_k(spec.n, passed, spec.k)
    at = pass_at_k(spec.n, passed, spec.k)
    head = (
        f"{passed}/{spec.n} runs passed; pass^{spec.k} = {hat:.4f} "
        f"({'>=' if hat >= spec.gate else '<'} gate {spec.gate:g}), pass@{spec.k} = {at:.4f}"
    )
    return round(hat, 12) >= spec.gate, "\n".join([head, *lines]), hat
