"""The one-to-one pairing of expected and actual calls, computed once per evaluation.

Calls pair only with calls of the same tool name. Within a tool, the pairing

1. has as many pairs as possible (``min(#expected, #actual)``),
2. then the most correct arguments in total (an expected call with ``args=None`` counts 0),
3. then, among those, the first in lexicographic order of decisions: expected calls in order,
   each preferring "unpaired" first and then actual calls by ascending index.

Rule 3 settles ties, and ties matter: which of two equally good pairings is taken changes
argument precision in about one random case in six, so the order is fixed and every number is
reproducible (docs/compat.md, "Pairing").

This module holds the result (:class:`Alignment`) and :func:`align`, which splits the calls by
tool name; :mod:`toolscore.matching._solver` finds the pairing of one tool's calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from toolscore.matching._solver import align_group
from toolscore.matching.values import count_correct

if TYPE_CHECKING:
    from toolscore.context import CallSummary
    from toolscore.model import ToolCall

__all__ = ["Alignment", "align"]


class _AlignmentSlots:
    """The storage of :class:`Alignment`'s fields, filled by :func:`_alignment` and then made
    an ``Alignment`` (same layout): attrs' frozen ``__init__`` sets each field through
    ``object.__setattr__``, and every evaluation builds one."""

    __slots__ = (
        "__weakref__",
        "_by_actual_map",
        "_by_expected_map",
        "actual_count",
        "correct",
        "expected_count",
        "pairs",
    )


@attrs.frozen
class Alignment(_AlignmentSlots):
    """Which actual call each expected call is paired with.

    ``pairs`` holds ``(expected index, actual index)`` sorted by expected index; ``correct``
    holds, per pair, the number of expected arguments the actual call got right (0 for an
    expected call with ``args=None``).
    """

    pairs: tuple[tuple[int, int], ...]
    correct: tuple[int, ...]
    expected_count: int
    actual_count: int
    # The lookups by index, built on first use: the metrics of an evaluation walk ``pairs``,
    # so most alignments never need them.
    _by_expected_map: dict[int, int] | None = attrs.field(
        default=None, init=False, repr=False, eq=False
    )
    _by_actual_map: dict[int, int] | None = attrs.field(
        default=None, init=False, repr=False, eq=False
    )

    @property
    def _by_expected(self) -> dict[int, int]:
        found = self._by_expected_map
        if found is None:
            found = dict(self.pairs)
            object.__setattr__(self, "_by_expected_map", found)
        return found

    @property
    def _by_actual(self) -> dict[int, int]:
        found = self._by_actual_map
        if found is None:
            found = {a: e for e, a in self.pairs}
            object.__setattr__(self, "_by_actual_map", found)
        return found

    def actual_for(self, expected_index: int) -> int | None:
        """The actual call paired with expected call ``expected_index``, or ``None``."""
        return self._by_expected.get(expected_index)

    def expected_for(self, actual_index: int) -> int | None:
        """The expected call paired with actual call ``actual_index``, or ``None``."""
        return self._by_actual.get(actual_index)

    def correct_for(self, expected_index: int) -> int:
        """Correct arguments of the pair of ``expected_index`` (0 when unpaired)."""
        position = self._position(expected_index)
        return 0 if position is None else self.correct[position]

    def _position(self, expected_index: int) -> int | None:
        if expected_index not in self._by_expected:
            return None
        lo, hi = 0, len(self.pairs)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.pairs[mid][0] < expected_index:
                lo = mid + 1
            else:
                hi = mid
        return lo

    @property
    def unmatched_expected(self) -> tuple[int, ...]:
        """Expected indexes without a partner, ascending."""
        return tuple(i for i in range(self.expected_count) if i not in self._by_expected)

    @property
    def unmatched_actual(self) -> tuple[int, ...]:
        """Actual indexes without a partner, ascending."""
        return tuple(j for j in range(self.actual_count) if j not in self._by_actual)


def align(
    expected: Sequence[ToolCall],
    actual: Sequence[ToolCall],
    *,
    strict: bool = False,
    summary: CallSummary | None = None,
) -> Alignment:
    """Pair expected with actual calls (see the module docstring); ``strict`` as in compare.

    :param summary: the calls' :class:`~toolscore.context.CallSummary`, when the caller has
        it: its positions per tool are the groups to pair, so they are not collected again.
    """
    if len(expected) == 1 and len(actual) == 1:  # the most common case, kept cheap
        gold, trace = expected[0], actual[0]
        if gold.tool != trace.tool:
            return _alignment((), (), 1, 1)
        weight = count_correct(gold.args, trace.args, strict=strict) if gold.args else 0
        return _alignment(((0, 0),), (weight,), 1, 1)
    if summary is None:
        gold_by_tool = _by_tool(expected)
        trace_by_tool = _by_tool(actual)
    else:
        gold_by_tool = summary.expected_positions
        trace_by_tool = summary.actual_positions
    found: list[tuple[int, int, int]] = []
    for tool, gold_indexes in gold_by_tool.items():
        trace_indexes = trace_by_tool.get(tool)
        if not trace_indexes:
            continue
        if len(gold_indexes) == 1 and len(trace_indexes) == 1:
            # One call on each side (most tools of a short trace): they pair, as align_group
            # would pair them, without building its argument lists.
            i, j = gold_indexes[0], trace_indexes[0]
            only = expected[i].args
            weight = count_correct(only, actual[j].args, strict=strict) if only else 0
            found.append((i, j, weight))
            continue
        gold_args = [expected[i].args for i in gold_indexes]
        trace_args = [actual[j].args or {} for j in trace_indexes]
        for gi, tj, weight in align_group(gold_args, trace_args, strict=strict):
            found.append((gold_indexes[gi], trace_indexes[tj], weight))
    found.sort()
    return _alignment(
        tuple([(i, j) for i, j, _ in found]),
        tuple([w for _, _, w in found]),
        len(expected),
        len(actual),
    )


def _by_tool(calls: Sequence[ToolCall]) -> dict[str, list[int]]:
    """The positions of the calls of each tool, in order of first appearance."""
    groups: dict[str, list[int]] = {}
    for index, call in enumerate(calls):
        group = groups.get(call.tool)
        if group is None:
            groups[call.tool] = [index]
        else:
            group.append(index)
    return groups


def _alignment(
    pairs: tuple[tuple[int, int], ...],
    correct: tuple[int, ...],
    expected_count: int,
    actual_count: int,
) -> Alignment:
    """``Alignment(pairs, correct, expected_count, actual_count)``, built directly."""
    alignment: Any = object.__new__(_AlignmentSlots)
    alignment.pairs = pairs
    alignment.correct = correct
    alignment.expected_count = expected_count
    alignment.actual_count = actual_count
    alignment._by_expected_map = None
    alignment._by_actual_map = None
    alignment.__class__ = Alignment
    built: Alignment = alignment
    return built


# Alignment adds no slot to its storage: what lets a filled storage become one.
assert Alignment.__basicsize__ == _AlignmentSlots.__basicsize__
