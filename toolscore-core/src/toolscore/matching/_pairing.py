"""Which expected calls can pair with which actual calls, and a maximum pairing of them.

For one tool at a time (calls pair only within a tool name), the compatible pairs are found
without comparing every expected call with every actual call in the common case:

1. calls with identical arguments are grouped (one node with a multiplicity);
2. actual groups are indexed by ``(key, match key of the value)``
   (:func:`toolscore.matching.values.match_key`), so an expected call with at least one plain value
   only looks at the actual groups that got that value right (or whose value has no key);
   under ``subset`` the index is built on the expected side instead;
3. each candidate is confirmed with the real comparison (:meth:`ArgsRule.accepts`).

Only an expected call made of matchers alone, or a callable policy, compares with every
group of its tool. The maximum matching itself is :func:`max_group_matching`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolscore.matching._flow import max_group_matching
from toolscore.matching._keyed import pair_by_key
from toolscore.matching.policies import ArgsRule, get_path, is_missing
from toolscore.matching.values import NO_KEY, key_function

if TYPE_CHECKING:
    from toolscore.model import ToolCall

__all__ = ["pair_by_flow", "pair_tool"]

_Args = Mapping[str, Any]
_ANY_GROUP = ("any",)
_EMPTY = ("empty",)


def _group(
    calls: Sequence[tuple[int, _Args | None]], rule: ArgsRule
) -> tuple[list[list[int]], list[_Args | None]]:
    """Group interchangeable calls: ``(members per group, representative args per group)``.

    The key is the strict one (types included) whatever the comparison mode, so a matcher
    such as ``IsType(int)`` can never tell two members of a group apart.
    """
    keyf = key_function(True)
    index: dict[Hashable, int] = {}
    members: list[list[int]] = []
    reps: list[_Args | None] = []
    for position, args in calls:
        if args is None:
            key: Hashable | None = _ANY_GROUP
        else:
            cleaned = rule.clean(args)
            key = keyf(dict(cleaned)) if type(cleaned) is not dict else keyf(cleaned)
        if key is NO_KEY:
            members.append([position])
            reps.append(args)
            continue
        slot = index.get(key)
        if slot is None:
            index[key] = len(members)
            members.append([position])
            reps.append(args)
        else:
            members[slot].append(position)
    return members, reps


def _items(args: _Args, rule: ArgsRule) -> list[tuple[Any, Any]]:
    """The (key, value) items a rule compares: paths for ``paths``, else top-level items."""
    if rule.kind == "paths":
        out = []
        for path in rule.paths:
            value = get_path(args, path)
            if not is_missing(value):
                out.append((path, value))
        return out
    return [(key, value) for key, value in rule.clean(args).items()]


class _Index:
    """Groups by ``(key, value key)``; groups whose value at a key has no key stay apart."""

    def __init__(
        self,
        reps: Sequence[_Args | None],
        rule: ArgsRule,
        keyf: Callable[[Any], Hashable | None],
    ) -> None:
        self.keyf = keyf
        self.rule = rule
        self.by_value: dict[tuple[Any, Hashable], list[int]] = {}
        self.unkeyed: dict[Any, list[int]] = {}
        self.wildcard: list[int] = []  # groups with args=None: compatible with everything
        self.empty: list[int] = []
        for g, args in enumerate(reps):
            if args is None:
                self.wildcard.append(g)
                continue
            items = _items(args, rule)
            if not items:
                self.empty.append(g)
            for key, value in items:
                vkey = keyf(value)
                if vkey is NO_KEY:
                    self.unkeyed.setdefault(key, []).append(g)
                else:
                    self.by_value.setdefault((key, vkey), []).append(g)

    def candidates(self, items: Sequence[tuple[Any, Any]], n_groups: int) -> list[int] | None:
        """Groups that may agree on every keyed item; ``None`` means "no narrowing possible"."""
        best: list[int] | None = None
        for key, value in items:
            vkey = self.keyf(value)
            if vkey is NO_KEY:
                continue
            hits = self.by_value.get((key, vkey), [])
            extra = self.unkeyed.get(key, [])
            size = len(hits) + len(extra)
            if best is None or size < len(best):
                best = hits + extra if extra else hits
                if not best:
                    break
        if best is None:
            return None
        return best + self.wildcard if self.wildcard else best


def pair_tool(
    expected: Sequence[tuple[int, ToolCall]],
    actual: Sequence[tuple[int, ToolCall]],
    rule: ArgsRule,
    *,
    strict: bool = False,
) -> list[tuple[int, int]]:
    """A maximum set of compatible ``(expected index, actual index)`` pairs for one tool."""
    if not expected or not actual:
        return []
    if len(expected) == 1 and len(actual) == 1:  # the usual case: one call of the tool each
        (i, want), (j, got) = expected[0], actual[0]
        return [(i, j)] if rule.accepts(want.args, got.actual_args, strict=strict) else []
    keyf = key_function(strict)
    if rule.kind == "exact":
        keyed = pair_by_key(expected, actual, rule, keyf, strict=strict)
        if keyed is not None:
            return keyed
    return pair_by_flow(expected, actual, rule, keyf, strict=strict)


def pair_by_flow(
    expected: Sequence[tuple[int, ToolCall]],
    actual: Sequence[tuple[int, ToolCall]],
    rule: ArgsRule,
    keyf: Callable[[Any], Hashable | None],
    *,
    strict: bool,
) -> list[tuple[int, int]]:
    """:func:`pair_tool` by a maximum flow between groups of identical calls (any policy)."""
    exp_members, exp_reps = _group([(i, c.args) for i, c in expected], rule)
    act_members, act_reps = _group([(j, c.actual_args) for j, c in actual], rule)
    edges = _edges(exp_reps, act_reps, rule, keyf, strict)
    flows = max_group_matching([len(m) for m in exp_members], [len(m) for m in act_members], edges)
    pairs: list[tuple[int, int]] = []
    act_free = [list(reversed(m)) for m in act_members]
    for g, flow in enumerate(flows):
        pool = list(reversed(exp_members[g]))
        for h in sorted(flow):
            for _ in range(flow[h]):
                pairs.append((pool.pop(), act_free[h].pop()))
    pairs.sort()
    return pairs


def _edges(
    exp_reps: Sequence[_Args | None],
    act_reps: Sequence[_Args | None],
    rule: ArgsRule,
    keyf: Callable[[Any], Hashable | None],
    strict: bool,
) -> list[list[int]]:
    n_exp, n_act = len(exp_reps), len(act_reps)
    edges: list[list[int]] = [[] for _ in range(n_exp)]
    everything = list(range(n_act))
    if rule.kind == "ignore":
        return [list(everything) for _ in range(n_exp)]
    if rule.kind == "callable":
        for g, want in enumerate(exp_reps):
            edges[g] = [h for h in everything if rule.accepts(want, act_reps[h], strict=strict)]
        return edges
    if rule.kind == "subset":
        # Each actual item must be expected: index the expected side, look up from actuals.
        index = _Index(exp_reps, rule, keyf)
        for h, got in enumerate(act_reps):
            items = _items(got or {}, rule)
            found = index.candidates(items, n_exp)
            lookup: Sequence[int] = range(n_exp) if found is None else found
            for g in lookup:
                if rule.accepts(exp_reps[g], got, strict=strict):
                    edges[g].append(h)
        return [sorted(set(row)) for row in edges]
    index = _Index(act_reps, rule, keyf)
    for g, want in enumerate(exp_reps):
        if want is None:
            edges[g] = list(everything)
            continue
        items = _items(want, rule)
        if not items and rule.kind == "exact":
            pool: Sequence[int] = index.empty
        else:
            found = index.candidates(items, n_act)
            pool = everything if found is None else found
        edges[g] = sorted({h for h in pool if rule.accepts(want, act_reps[h], strict=strict)})
    return edges
