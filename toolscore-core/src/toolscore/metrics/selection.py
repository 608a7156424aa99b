"""``selection_accuracy``: the share of actual calls whose tool is one of the expected tools.

Repeats of an expected tool still count as correct, and missing calls do not lower it
(``required_call_recall`` covers those).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from toolscore._markers import hookimpl
from toolscore.specs import MetricSpec

if TYPE_CHECKING:
    from toolscore.context import EvaluationContext
    from toolscore.model import ToolCall


def calculate_selection_accuracy(
    gold_calls: Sequence[ToolCall], trace_calls: Sequence[ToolCall]
) -> float:
    """Actual calls to an expected tool / all actual calls."""
    if not trace_calls:
        return 0.0 if gold_calls else 1.0
    if not gold_calls:
        return 0.0
    names = {call.tool for call in gold_calls}
    return sum(1 for call in trace_calls if call.tool in names) / len(trace_calls)


class SelectionAccuracy:
    """The metric object registered for ``selection_accuracy``."""

    def compute(self, context: EvaluationContext) -> float:
        return calculate_selection_accuracy(context.expected, context.actual)


@hookimpl
def toolscore_register_metrics() -> Iterator[MetricSpec]:
    yield MetricSpec(
        name="selection_accuracy",
        factory=SelectionAccuracy,
        summary="share of actual calls that use an expected tool",
        order=20,
    )
