"""Pairing calls of one tool by a canonical key of their arguments, under the ``exact`` policy.

When every value of every argument set has a match key (:func:`~toolscore.matching.values.match_key`:
plain values, no matchers), two argument sets are compatible under ``exact`` exactly when
their key sets are equal, so the compatibility graph falls apart into complete bipartite
blocks, one per key: a comparison of multisets, no call compared with another and no flow.

The pairs are those :func:`~toolscore.matching._pairing.pair_tool` finds with its flow: on
such blocks its greedy warm start is already maximum, and it hands out the members of a
block in ascending order as long as each side of the block is one group of identical calls
(always true under strict comparison, where the key is the grouping key). A block whose
lenient key joins two or more calls on both sides is left to the flow: ``None``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolscore.matching.policies import ArgsRule
from toolscore.matching.values import NO_KEY

if TYPE_CHECKING:
    from toolscore.model import ToolCall

__all__ = ["pair_by_key"]

_KEY_TYPES = frozenset({str, int, float, bool, type(None)})


def args_key(
    args: Mapping[str, Any] | None, rule: ArgsRule, keyf: Callable[[Any], Hashable | None]
) -> Hashable | None:
    """The canonical key of one argument set (``None`` when a value has none, or no args)."""
    if args is None:
        return NO_KEY
    cleaned = rule.clean(args)
    if not _KEY_TYPES.issuperset(map(type, cleaned)):
        return NO_KEY
    pairs = []
    for name, value in cleaned.items():
        key = keyf(value)
        if key is NO_KEY or name != name:
            return NO_KEY
        pairs.append((name, key))
    return frozenset(pairs)


def _blocks(
    calls: Sequence[tuple[int, Mapping[str, Any] | None]],
    rule: ArgsRule,
    keyf: Callable[[Any], Hashable | None],
) -> dict[Hashable, list[int]] | None:
    blocks: dict[Hashable, list[int]] = {}
    for position, args in calls:
        key = args_key(args, rule, keyf)
        if key is NO_KEY:
            return None
        members = blocks.get(key)
        if members is None:
            blocks[key] = [position]
        else:
            members.append(position)
    return blocks


def pair_by_key(
    expected: Sequence[tuple[int, ToolCall]],
    actual: Sequence[tuple[int, ToolCall]],
    rule: ArgsRule,
    keyf: Callable[[Any], Hashable | None],
    *,
    strict: bool,
) -> list[tuple[int, int]] | None:
    """The sorted pairs of one tool under an ``exact`` ``rule``, or ``None`` when the flow
    must decide (a value without a key, args not checked, or a lenient block of several
    calls on both sides)."""
    wanted = _blocks([(i, c.args) for i, c in expected], rule, keyf)
    if wanted is None:
        return None
    found = _blocks([(j, c.actual_args) for j, c in actual], rule, keyf)
    if found is None:
        return None
    pairs: list[tuple[int, int]] = []
    for key, members in wanted.items():
        others = found.get(key)
        if others is None:
            continue
        if not strict and len(members) > 1 and len(others) > 1:
            return None
        pairs.extend(zip(members, others))
    pairs.sort()
    return pairs
