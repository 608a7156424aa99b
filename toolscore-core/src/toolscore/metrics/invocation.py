"""``invocation_accuracy``: did the agent call tools when it should, and only those?

Set based: ``max(0, (|G∩T| - 0.5·(|T-G| + |G-T|)) / |G|)``, capped at 1.
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


def calculate_invocation_accuracy(
    gold_calls: Sequence[ToolCall], trace_calls: Sequence[ToolCall]
) -> float:
    """Tool-name set overlap with a half-point penalty per missing or unexpected tool.

    ``(shared - 0.5 * (missing + unexpected)) / expected`` over the sets of tool names, clamped
    to [0, 1]; 1.0 when both sides are empty, 0.0 when only one is.
    """
    return _accuracy(summarize(gold_calls, trace_calls))


def _accuracy(summary: CallSummary) -> float:
    """:func:`calculate_invocation_accuracy` from the evaluation's shared summary."""
    if not summary.expected_tools and not summary.actual_tools:
        return 1.0
    if not summary.expected_tools or not summary.actual_tools:
        return 0.0
    expected = summary.expected_counts.keys()
    called = summary.actual_counts.keys()
    shared = len(expected & called)
    # Unexpected tools (called - expected) and missing ones (expected - called), counted
    # without building either set.
    penalty = (len(called) - shared) + (len(expected) - shared)
    accuracy = max(0.0, (shared - penalty * 0.5) / len(expected))
    return min(1.0, accuracy)


class InvocationAccuracy:
    """The metric object registered for ``invocation_accuracy``."""

    def compute(self, context: EvaluationContext) -> float:
        return _accuracy(context.summary)


@hookimpl
def toolscore_register_metrics() -> Iterator[MetricSpec]:
    yield MetricSpec(
        name="invocation_accuracy",
        factory=InvocationAccuracy,
        summary="expected tools called, minus half a point per missing or unexpected tool",
        order=10,
    )
