"""``selection_accuracy``: the share of actual calls whose tool is one of the expected tools.

Repeats of an expected tool still count as correct, and missing calls do not lower it
(``required_call_recall`` covers those).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from toolscore._markers import hookimpl
from toolscore.context import summarize
from toolscore.specs import MetricSpec

if TYPE_CHECKING:
    from toolscore.context import CallSummary, EvaluationContext
    from toolscore.model import ToolCall


def calculate_selection_accuracy(
    gold_calls: Sequence[ToolCall], trace_calls: Sequence[ToolCall]
) -> float:
    """Actual calls to an expected tool / all actual calls."""
    return _accuracy(summarize(gold_calls, trace_calls))


def _accuracy(summary: CallSummary) -> float:
    """:func:`calculate_selection_accuracy` from the evaluation's shared summary."""
    if not summary.actual_tools:
        return 0.0 if summary.expected_tools else 1.0
    if not summary.expected_tools:
        return 0.0
    names = summary.expected_counts
    selected = 0
    for tool, n in summary.actual_counts.items():
        if tool in names:
            selected += n
    return selected / len(summary.actual_tools)


class SelectionAccuracy:
    """The metric object registered for ``selection_accuracy``."""

    def compute(self, context: EvaluationContext) -> float:
        return _accuracy(context.summary)


@hookimpl
def toolscore_register_metrics() -> Iterator[MetricSpec]:
    yield MetricSpec(
        name="selection_accuracy",
        factory=SelectionAccuracy,
        summary="share of actual calls that use an expected tool",
        order=20,
    )
