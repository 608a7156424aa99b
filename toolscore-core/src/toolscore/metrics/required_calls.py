"""``required_call_recall``: the share of expected calls the trace completed, repeats counted.

Each expected call needs its own actual call of the same tool that did not fail. Arguments and
order are ignored. ``None`` when nothing was expected. It enters the score only through the
``required_call_recall`` weight (0 by default).
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


def calculate_required_call_recall(
    gold_calls: Sequence[ToolCall], trace_calls: Sequence[ToolCall]
) -> float | None:
    """Σ min(expected count, non-failed actual count) per tool / #expected."""
    return _recall(summarize(gold_calls, trace_calls))


def _recall(summary: CallSummary) -> float | None:
    """:func:`calculate_required_call_recall` from the evaluation's shared summary."""
    if not summary.expected_tools:
        return None
    made = summary.made_counts.get
    completed = 0
    for tool, n in summary.expected_counts.items():
        done = made(tool, 0)
        completed += n if n < done else done  # min(n, done), without the call
    return completed / len(summary.expected_tools)


class RequiredCallRecall:
    """The metric object registered for ``required_call_recall``."""

    def compute(self, context: EvaluationContext) -> float | None:
        return _recall(context.summary)


@hookimpl
def toolscore_register_metrics() -> Iterator[MetricSpec]:
    yield MetricSpec(
        name="required_call_recall",
        factory=RequiredCallRecall,
        summary="share of expected calls made without failing, repeats counted",
        order=80,
    )
