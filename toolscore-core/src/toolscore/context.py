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
    """The tool names of one evaluation's calls, counted and grouped once for every metric.

    Why: six built-in metrics (invocation, selection, tool correctness, sequence,
    efficiency, required calls) and the alignment each walked both call lists to count,
    group or collect the same tool names; they now read this record, built in one pass per
    side (:func:`summarize`). Counts and groups are in order of first appearance, as each
    metric counted them.
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
    #: Positions of the expected calls of each tool, ascending.
    expected_positions: dict[str, list[int]] = attrs.field(factory=dict)
    #: Positions of the actual calls of each tool, ascending.
    actual_positions: dict[str, list[int]] = attrs.field(factory=dict)
    #: Actual calls that failed.
    error_count: int = 0


def summarize(expected: Sequence[ToolCall], actual: Sequence[ToolCall]) -> CallSummary:
    """The :class:`CallSummary` of ``expected`` and ``actual`` calls."""
    expected_tools = [call.tool for call in expected]
    expected_positions = _positions(expected_tools)
    actual_tools = [call.tool for call in actual]
    actual_positions = _positions(actual_tools)
    actual_counts = {tool: len(group) for tool, group in actual_positions.items()}
    failed = [call for call in actual if call.is_error]
    if failed:
        made_counts: dict[str, int] = {}
        for call in actual:
            if not call.is_error:
                made_counts[call.tool] = made_counts.get(call.tool, 0) + 1
    else:  # every call was made: the same counts, in the same order
        made_counts = actual_counts.copy()
    return CallSummary(
        expected_tools,
        actual_tools,
        {tool: len(group) for tool, group in expected_positions.items()},
        actual_counts,
        made_counts,
        expected_positions,
        actual_positions,
        len(failed),
    )


def _positions(tools: list[str]) -> dict[str, list[int]]:
    """The positions of each tool in ``tools``, in order of first appearance."""
    groups: dict[str, list[int]] = {}
    get = groups.get
    for index, tool in enumerate(tools):
        group = get(tool)
        if group is None:
            groups[tool] = [index]
        else:
            group.append(index)
    return groups


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
    #: The :class:`CallSummary`, when the evaluator computed it already (it pairs the calls
    #: with it); computed on first use otherwise.
    _summary: CallSummary | None = attrs.field(default=None, repr=False, eq=False)

    @property
    def summary(self) -> CallSummary:
        """The tools of the calls, counted on first use and shared by every metric after."""
        summary = self._summary
        if summary is None:
            summary = summarize(self.expected, self.actual)
            object.__setattr__(self, "_summary", summary)
        return summary
