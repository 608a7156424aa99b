"""``tool_correctness_metrics``: which expected tools were called at least once (set based).

Also home of :func:`calculate_tool_correctness_with_args`, a stricter library-only variant.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from toolscore._markers import hookimpl
from toolscore.context import summarize
from toolscore.specs import MetricSpec

if TYPE_CHECKING:
    from toolscore.context import CallSummary, EvaluationContext
    from toolscore.model import ToolCall


def calculate_tool_correctness(
    gold_calls: Sequence[ToolCall], trace_calls: Sequence[ToolCall], strict_order: bool = False
) -> dict[str, Any]:
    """Expected tools called / expected tools, with the sorted name lists.

    ``strict_order=True`` counts positional name matches instead (never used by evaluate).
    """
    if not strict_order:
        return _correctness(summarize(gold_calls, trace_calls))
    called = {call.tool for call in trace_calls}
    if not gold_calls:
        return {
            "tool_correctness": 0.0 if trace_calls else 1.0,
            "expected_tools": [],
            "called_tools": sorted(called),
            "missing_tools": [],
            "extra_tools": sorted(called),
            "correct_count": 0,
            "total_expected": 0,
        }
    expected = {call.tool for call in gold_calls}
    expected_sequence = [call.tool for call in gold_calls]
    called_sequence = [call.tool for call in trace_calls]
    correct = sum(1 for e, c in zip(expected_sequence, called_sequence) if e == c)
    return {
        "tool_correctness": correct / len(expected_sequence),
        "expected_tools": sorted(expected),
        "called_tools": sorted(called),
        "expected_sequence": expected_sequence,
        "called_sequence": called_sequence,
        "correct_count": correct,
        "total_expected": len(expected_sequence),
        "strict_order": True,
    }


def _correctness(summary: CallSummary) -> dict[str, Any]:
    """:func:`calculate_tool_correctness` (set based) from the evaluation's shared summary."""
    called = summary.actual_counts  # its keys are the set of called tools
    if not summary.expected_tools:
        return {
            "tool_correctness": 0.0 if summary.actual_tools else 1.0,
            "expected_tools": [],
            "called_tools": sorted(called),
            "missing_tools": [],
            "extra_tools": sorted(called),
            "correct_count": 0,
            "total_expected": 0,
        }
    expected = summary.expected_counts  # its keys are the set of expected tools
    expected_tools = sorted(expected)
    called_tools = sorted(called)
    # The sorted differences, filtered from the sorted lists rather than built as sets.
    missing = [tool for tool in expected_tools if tool not in called]
    extra = [tool for tool in called_tools if tool not in expected]
    correct = len(expected) - len(missing)
    return {
        "tool_correctness": correct / len(expected),
        "expected_tools": expected_tools,
        "called_tools": called_tools,
        "missing_tools": missing,
        "extra_tools": extra,
        "correct_count": correct,
        "total_expected": len(expected),
        "strict_order": False,
    }


def calculate_tool_correctness_with_args(
    gold_calls: Sequence[ToolCall], trace_calls: Sequence[ToolCall]
) -> dict[str, Any]:
    """Greedy first fit: a match needs the same tool and equal args (``None`` gold args: any).

    Library only; ``evaluate()`` does not use it.
    """
    if not gold_calls:
        return {
            "tool_correctness_strict": 0.0 if trace_calls else 1.0,
            "matches": [],
            "mismatches": list(trace_calls),
        }
    matches: list[tuple[ToolCall, ToolCall]] = []
    mismatches: list[ToolCall] = []
    remaining = list(trace_calls)
    for gold in gold_calls:
        for position, trace in enumerate(remaining):
            if gold.tool == trace.tool and (gold.args is None or gold.args == trace.args):
                matches.append((gold, trace))
                del remaining[position]
                break
        else:
            mismatches.append(gold)
    mismatches.extend(remaining)
    return {
        "tool_correctness_strict": len(matches) / len(gold_calls),
        "matches": matches,
        "mismatches": mismatches,
        "match_count": len(matches),
        "total_expected": len(gold_calls),
    }


class ToolCorrectness:
    """The metric object registered for ``tool_correctness_metrics``."""

    def compute(self, context: EvaluationContext) -> dict[str, Any]:
        return _correctness(context.summary)


@hookimpl
def toolscore_register_metrics() -> Iterator[MetricSpec]:
    yield MetricSpec(
        name="tool_correctness_metrics",
        factory=ToolCorrectness,
        summary="which expected tools were called at least once",
        order=30,
    )
