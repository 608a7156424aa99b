"""What every metric receives: the calls, the options, the one shared alignment, and the one
shared summary of the calls' tools (:class:`CallSummary`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Literal

import attrs

if TYPE_CHECKING:
    from toolscore.matching.alignment import Alignment
    from toolscore.model import ToolCall


class _NotApplicable:
    """Returned by a metric that does not apply to this evaluation; the key is left out."""

    _instance: _NotApplicable | None = None

    def __new__(cls) -> _NotApplicable:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NOT_APPLICABLE"


NOT_APPLICABLE: Final = _NotApplicable()


@attrs.frozen
class CallSummary:
    """The tool names of one evaluation's calls, counted once for every metric.

    Why: six built-in metrics (invocation, selection, tool correctness, sequence,
    efficiency, required calls) each walked both call lists to count or collect the same tool
    names; they now read this record, built in one pass per side (:func:`summarize`).
    Counts are in order of first appearance, as each metric counted them.
    """

    #: Tool names of the expected calls, in order.
    expected_tools: list[str]
    #: Tool names of the actual calls, in order.
    actual_tools: list[str]
    #: Expected calls per tool.
    expected_counts: dict[str, int]
    #: Actual calls per tool.
    actual_counts: dict[str, int]
    #: Actual calls per tool that did not fail (``is_error`` false).
    made_counts: dict[str, int]


def summarize(expected: Sequence[ToolCall], actual: Sequence[ToolCall]) -> CallSummary:
    """The :class:`CallSummary` of ``expected`` and ``actual`` calls."""
    expected_tools = [call.tool for call in expected]
    expected_counts: dict[str, int] = {}
    for tool in expected_tools:
        expected_counts[tool] = expected_counts.get(tool, 0) + 1
    actual_tools: list[str] = []
    actual_counts: dict[str, int] = {}
    made_counts: dict[str, int] = {}
    for call in actual:
        tool = call.tool
        actual_tools.append(tool)
        actual_counts[tool] = actual_counts.get(tool, 0) + 1
        if not call.is_error:
            made_counts[tool] = made_counts.get(tool, 0) + 1
    return CallSummary(expected_tools, actual_tools, expected_counts, actual_counts, made_counts)


@attrs.frozen
class EvaluationContext:
    """Inputs of one evaluation, handed to every metric.

    ``alignment`` pairs expected with actual calls one-to-one per tool name; it is computed
    once by the evaluator, and no metric re-pairs on its own.
    """

    expected: Sequence[ToolCall]
    actual: Sequence[ToolCall]
    alignment: Alignment
    #: Strict argument comparison (types must match exactly).
    strict: bool = False
    #: Validated forbidden-call rules, or ``None`` when none were given.
    forbidden: Sequence[Mapping[str, Any]] | None = None
    #: ``"evaluate"`` for in-memory calls, ``"trace"`` for ``evaluate_trace`` (files).
    mode: Literal["evaluate", "trace"] = "evaluate"
    #: ``evaluate_trace(validate_side_effects=...)``.
    validate_side_effects: bool = False
    #: Extra options for third-party metrics (``toolscore eval --option k=v`` and the API).
    options: Mapping[str, Any] = attrs.field(factory=dict)
    _summary: CallSummary | None = attrs.field(default=None, init=False, repr=False, eq=False)

    @property
    def summary(self) -> CallSummary:
        """The tools of the calls, counted on first use and shared by every metric after."""
        summary = self._summary
        if summary is None:
            summary = summarize(self.expected, self.actual)
            object.__setattr__(self, "_summary", summary)
        return summary
