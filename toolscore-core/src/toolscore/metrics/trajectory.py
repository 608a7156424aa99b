"""``trajectory_metrics``: did the agent take the expected path, step by step?

Step ``i`` of the trace is compared with step ``i`` of the expected calls: same tool, and every
expected argument present with an equal value (plain ``==``: no stripping, ``1 == 1.0``,
matchers through ``__eq__``; extra actual arguments are ignored). This positional, plain
comparison is kept on purpose: this metric's numbers must not drift (docs/compat.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolscore._markers import hookimpl
from toolscore.specs import MetricSpec

if TYPE_CHECKING:
    from toolscore.context import EvaluationContext
    from toolscore.model import ToolCall

_EMPTY: Mapping[str, Any] = {}


def calculate_trajectory_accuracy(
    gold_calls: Sequence[ToolCall], trace_calls: Sequence[ToolCall]
) -> dict[str, Any]:
    """Step match rate × path efficiency, with one detail record per step."""
    if not gold_calls:
        empty = 0.0 if trace_calls else 1.0
        return {
            "trajectory_accuracy": empty,
            "step_match_rate": empty,
            "path_efficiency": 1.0,
            "correct_steps": 0,
            "total_expected_steps": 0,
            "trajectory_details": [],
        }
    if not trace_calls:
        return _nothing_done(gold_calls)
    details, correct = _step_details(gold_calls, trace_calls)
    n_gold, n_trace = len(gold_calls), len(trace_calls)
    step_match_rate = correct / n_gold
    path_efficiency = n_gold / n_trace if n_trace > n_gold else 1.0
    return {
        "trajectory_accuracy": step_match_rate * path_efficiency,
        "step_match_rate": step_match_rate,
        "path_efficiency": path_efficiency,
        "correct_steps": correct,
        "total_expected_steps": n_gold,
        "trajectory_details": details,
    }


def _nothing_done(gold_calls: Sequence[ToolCall]) -> dict[str, Any]:
    """The value when the agent made no call: every expected step missing."""
    return {
        "trajectory_accuracy": 0.0,
        "step_match_rate": 0.0,
        "path_efficiency": 0.0,
        "correct_steps": 0,
        "total_expected_steps": len(gold_calls),
        "trajectory_details": [
            {
                "step": n,
                "expected_tool": gold.tool,
                "actual_tool": None,
                "matches": False,
                "expected_args": gold.args or {},
                "actual_args": {},
                "error": "Agent did not execute this step",
            }
            for n, gold in enumerate(gold_calls, 1)
        ],
    }


def _step_details(
    gold_calls: Sequence[ToolCall], trace_calls: Sequence[ToolCall]
) -> tuple[list[dict[str, Any]], int]:
    """One record per step (position by position, then the steps only one side has) and
    the number of steps that match."""
    details: list[dict[str, Any]] = []
    append = details.append
    correct = 0
    for n, (gold, trace) in enumerate(zip(gold_calls, trace_calls), 1):
        # Same tool, and every expected argument present and ``==`` (the module docstring).
        want_args, got_args = gold.args, trace.args
        matches = gold.tool == trace.tool
        if matches and want_args is not None:
            got = got_args or _EMPTY
            for key, want in want_args.items():
                # ``not ==``, as all() read it before: a value's own ``!=`` may disagree.
                if key not in got or not want == got[key]:  # noqa: SIM201
                    matches = False
                    break
        correct += matches
        append(
            {
                "step": n,
                "expected_tool": gold.tool,
                "actual_tool": trace.tool,
                "matches": matches,
                "expected_args": want_args or {},
                "actual_args": got_args or {},
            }
        )
    n_gold, n_trace = len(gold_calls), len(trace_calls)
    for n in range(n_trace, n_gold):
        details.append(
            {
                "step": n + 1,
                "expected_tool": gold_calls[n].tool,
                "actual_tool": None,
                "matches": False,
                "expected_args": gold_calls[n].args or {},
                "actual_args": {},
                "error": "Agent stopped early - step not executed",
            }
        )
    for n in range(n_gold, n_trace):
        details.append(
            {
                "step": n + 1,
                "expected_tool": None,
                "actual_tool": trace_calls[n].tool,
                "matches": False,
                "expected_args": {},
                "actual_args": trace_calls[n].args or {},
                "error": "Unnecessary step - not in expected path",
            }
        )
    return details, correct


def _normalize_tool_name(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "")


def calculate_partial_trajectory_accuracy(
    gold_calls: Sequence[ToolCall],
    trace_calls: Sequence[ToolCall],
    allow_tool_name_variations: bool = False,
) -> dict[str, float]:
    """Multiset overlap of tool names / #expected; library only (not used by evaluate).

    With ``allow_tool_name_variations`` names are lower-cased and ``_``/``-`` removed.
    """
    if not gold_calls:
        return {"partial_trajectory_accuracy": 0.0 if trace_calls else 1.0}
    if not trace_calls:
        return {"partial_trajectory_accuracy": 0.0}
    gold_names = [c.tool for c in gold_calls]
    remaining = [c.tool for c in trace_calls]
    if allow_tool_name_variations:
        gold_names = [_normalize_tool_name(n) for n in gold_names]
        remaining = [_normalize_tool_name(n) for n in remaining]
    matched = 0
    for name in gold_names:
        if name in remaining:
            matched += 1
            remaining.remove(name)
    return {"partial_trajectory_accuracy": matched / len(gold_calls)}


class TrajectoryMetrics:
    """The metric object registered for ``trajectory_metrics``."""

    def compute(self, context: EvaluationContext) -> dict[str, Any]:
        return calculate_trajectory_accuracy(context.expected, context.actual)


@hookimpl
def toolscore_register_metrics() -> Iterator[MetricSpec]:
    yield MetricSpec(
        name="trajectory_metrics",
        factory=TrajectoryMetrics,
        summary="positional step-by-step comparison with the expected path",
        order=50,
    )
