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


class _SummarySlots:
    """The storage of :class:`CallSummary`'s fields, without the frozen guard.

    Why: an evaluation builds one summary and one context; attrs' frozen ``__init__`` sets
    each field through ``object.__setattr__``, which cost more than some metrics. These are
    filled with plain attribute stores here and then made the frozen class by assigning
    ``__class__`` (the same layout), as :meth:`toolscore.model.ToolCall.from_fields` does.
    """

    __slots__ = (
        "__weakref__",
        "actual_counts",
        "actual_positions",
        "actual_tools",
        "error_count",
        "expected_counts",
        "expected_positions",
        "expected_tools",
        "made_counts",
    )


class _ContextSlots:
    """The storage of :class:`EvaluationContext`'s fields (see :class:`_SummarySlots`)."""

    __slots__ = (
        "__weakref__",
        "_summary",
        "actual",
        "alignment",
        "expected",
        "forbidden",
        "mode",
        "options",
        "strict",
        "validate_side_effects",
    )


_new = object.__new__


@attrs.frozen
class CallSummary(_SummarySlots):
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
    summary: Any = _new(_SummarySlots)
    summary.expected_tools = expected_tools
    summary.actual_tools = actual_tools
    summary.expected_counts = {tool: len(group) for tool, group in expected_positions.items()}
    summary.actual_counts = actual_counts
    summary.made_counts = made_counts
    summary.expected_positions = expected_positions
    summary.actual_positions = actual_positions
    summary.error_count = len(failed)
    summary.__class__ = CallSummary
    built: CallSummary = summary
    return built


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
class EvaluationContext(_ContextSlots):
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


def evaluation_context(
    expected: Sequence[ToolCall],
    actual: Sequence[ToolCall],
    alignment: Alignment,
    *,
    strict: bool,
    forbidden: Sequence[Mapping[str, Any]] | None,
    mode: Literal["evaluate", "trace"],
    validate_side_effects: bool,
    options: Mapping[str, Any],
    summary: CallSummary | None,
) -> EvaluationContext:
    """``EvaluationContext(...)`` with every field given, built without attrs' ``__init__``
    (see :class:`_SummarySlots`): what the evaluator builds once per evaluation."""
    context: Any = _new(_ContextSlots)
    context.expected = expected
    context.actual = actual
    context.alignment = alignment
    context.strict = strict
    context.forbidden = forbidden
    context.mode = mode
    context.validate_side_effects = validate_side_effects
    context.options = options
    context._summary = summary
    context.__class__ = EvaluationContext
    built: EvaluationContext = context
    return built


# Each frozen class adds no slot to its storage: what lets a filled storage become it.
assert CallSummary.__basicsize__ == _SummarySlots.__basicsize__
assert EvaluationContext.__basicsize__ == _ContextSlots.__basicsize__
