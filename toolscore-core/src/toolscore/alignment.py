"""The one-to-one pairing of expected and actual calls, computed once per evaluation.

Calls pair only with calls of the same tool name. Within a tool, the pairing

1. has as many pairs as possible (``min(#expected, #actual)``),
2. then the most correct arguments in total (an expected call with ``args=None`` counts 0),
3. then, among those, the first in lexicographic order of decisions: expected calls in order,
   each preferring "unpaired" first and then actual calls by ascending index.

Rule 3 is the reference's tie-break (it changes argument precision in about one random case
in six), so the numbers agree with the reference wherever it is exact (at most 12 actual calls
of a tool); above that the reference is greedy and this pairing is never worse.

How (per tool, ``G`` expected and ``T`` actual calls):

* Small and common cases take fast paths (one call on a side; every expected call matched in
  full by the actual call at the same position).
* Otherwise the argument weights are found through an index of actual values by
  :func:`toolscore.compare.match_key`, so only pairs sharing a value are ever compared.
* Phase 1 computes a maximum-weight matching on those pairs with integer duals ``u, v >= 0``
  (a primal-dual Hungarian method with Dijkstra searches, warm-started greedily). Pairs that
  share no value weigh 0 and are never needed to reach the optimum.
* Phase 2 picks the lexicographically first optimum: a full pairing is optimal exactly when all
  its pairs are tight (``u + v == weight``), every actual call with ``v > 0`` is paired and
  every expected call with ``u > 0`` is paired. Expected calls are fixed in order, each to its
  first option that still admits such a pairing, found by an alternating-path search.

Both phases are polynomial; on realistic traces they touch little more than the pairs that
share argument values, so thousands of calls align in milliseconds.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from toolscore.compare import count_correct, match_key, values_match
from toolscore.matchers import ANY, Matcher

if TYPE_CHECKING:
    from toolscore.model import ToolCall

__all__ = ["Alignment", "align"]


@attrs.frozen
class Alignment:
    """Which actual call each expected call is paired with.

    ``pairs`` holds ``(expected index, actual index)`` sorted by expected index; ``correct``
    holds, per pair, the number of expected arguments the actual call got right (0 for an
    expected call with ``args=None``).
    """

    pairs: tuple[tuple[int, int], ...]
    correct: tuple[int, ...]
    expected_count: int
    actual_count: int
    _by_expected: dict[int, int] = attrs.field(init=False, repr=False, eq=False)
    _by_actual: dict[int, int] = attrs.field(init=False, repr=False, eq=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_expected", dict(self.pairs))
        object.__setattr__(self, "_by_actual", {a: e for e, a in self.pairs})

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
    expected: Sequence[ToolCall], actual: Sequence[ToolCall], *, strict: bool = False
) -> Alignment:
    """Pair expected with actual calls (see the module docstring); ``strict`` as in compare."""
    if len(expected) == 1 and len(actual) == 1:  # the most common case, kept cheap
        gold, trace = expected[0], actual[0]
        if gold.tool != trace.tool:
            return Alignment((), (), 1, 1)
        weight = count_correct(gold.args, trace.args, strict=strict) if gold.args else 0
        return Alignment(((0, 0),), (weight,), 1, 1)
    gold_by_tool: dict[str, list[int]] = {}
    for index, call in enumerate(expected):
        gold_by_tool.setdefault(call.tool, []).append(index)
    trace_by_tool: dict[str, list[int]] = {}
    for index, call in enumerate(actual):
        trace_by_tool.setdefault(call.tool, []).append(index)
    found: list[tuple[int, int, int]] = []
    for tool, gold_indexes in gold_by_tool.items():
        trace_indexes = trace_by_tool.get(tool)
        if not trace_indexes:
            continue
        gold_args = [expected[i].args for i in gold_indexes]
        trace_args = [actual[j].args or {} for j in trace_indexes]
        for gi, tj, weight in align_group(gold_args, trace_args, strict=strict):
            found.append((gold_indexes[gi], trace_indexes[tj], weight))
    found.sort()
    return Alignment(
        tuple((i, j) for i, j, _ in found),
        tuple(w for _, _, w in found),
        len(expected),
        len(actual),
    )


# -- one tool ----------------------------------------------------------------------------------

Args = Mapping[str, Any]


def align_group(
    gold: Sequence[Args | None], trace: Sequence[Args], *, strict: bool = False
) -> list[tuple[int, int, int]]:
    """Pair the calls of one tool: ``(gold position, trace position, correct args)`` triples.

    ``gold[i]`` is ``None`` for "do not check arguments"; ``trace`` args are never ``None``.
    """
    n_gold, n_trace = len(gold), len(trace)
    if not n_gold or not n_trace:
        return []
    if n_trace == 1:
        # One actual call: it pairs with the LAST expected call of the highest weight, since
        # every earlier one prefers "unpaired".
        weights = [count_correct(g, trace[0], strict=strict) for g in gold]
        best = max(weights)
        last = max(i for i, w in enumerate(weights) if w == best)
        return [(last, 0, best)]
    if n_gold == 1:
        # One expected call: the first actual call of the highest weight.
        weights = [count_correct(gold[0], t, strict=strict) for t in trace]
        best = max(weights)
        return [(0, weights.index(best), best)]
    if n_gold <= n_trace:
        diagonal = _diagonal(gold, trace, strict)
        if diagonal is not None:
            return diagonal
    adjacency = _weights(gold, trace, strict)
    mates = _solve(n_gold, n_trace, adjacency)
    return [(i, t, adjacency[i].get(t, 0)) for i, t in enumerate(mates) if t is not None]


def _diagonal(
    gold: Sequence[Args | None], trace: Sequence[Args], strict: bool
) -> list[tuple[int, int, int]] | None:
    """Expected call k paired with actual call k, when each gets every argument right.

    Every expected call then has its best possible weight, and each takes the first free
    actual call, so this is the lexicographically first optimum.
    """
    out = []
    for k, args in enumerate(gold):
        if args:
            got = trace[k]
            for key, want in args.items():
                if key not in got or not values_match(want, got[key], strict=strict):
                    return None
            out.append((k, k, len(args)))
        else:
            out.append((k, k, 0))
    return out


def _weights(
    gold: Sequence[Args | None], trace: Sequence[Args], strict: bool
) -> list[dict[int, int]]:
    """Positive weights only: ``adjacency[i][t]`` = correct args of gold i against trace t."""
    # Index the actual values per argument name.
    holders: dict[Any, list[int]] = {}
    keyed: dict[Any, dict[Any, list[int]]] = {}
    unkeyed: dict[Any, list[int]] = {}
    for t, args in enumerate(trace):
        for name, value in args.items():
            holders.setdefault(name, []).append(t)
            key = match_key(value, strict=strict)
            if key is None:
                unkeyed.setdefault(name, []).append(t)
            else:
                keyed.setdefault(name, {}).setdefault(key, []).append(t)
    adjacency: list[dict[int, int]] = []
    for wanted in gold:
        row: dict[int, int] = {}
        adjacency.append(row)
        if not wanted:
            continue
        for name, want in wanted.items():
            having = holders.get(name)
            if having is None:
                continue
            if want is ANY:
                hits: Any = having
            elif isinstance(want, Matcher) or (key := match_key(want, strict=strict)) is None:
                hits = [t for t in having if values_match(want, trace[t][name], strict=strict)]
            else:
                hits = keyed.get(name, {}).get(key, ())
                odd = unkeyed.get(name)
                if odd:
                    hits = [
                        *hits,
                        *(t for t in odd if values_match(want, trace[t][name], strict=strict)),
                    ]
            for t in hits:
                row[t] = row.get(t, 0) + 1
    return adjacency


def _solve(n_gold: int, n_trace: int, adjacency: list[dict[int, int]]) -> list[int | None]:
    """The lexicographically first maximum-weight pairing; ``mates[i]`` is gold i's trace."""
    if n_gold <= n_trace:
        greedy = _lexicographic_greedy(n_gold, n_trace, adjacency)
        if greedy is not None:
            return list(greedy)
    u, v, mate_g, mate_t = _max_weight(n_gold, n_trace, adjacency)
    return _first_optimum(n_gold, n_trace, adjacency, u, v, mate_g, mate_t)


def _lexicographic_greedy(
    n_gold: int, n_trace: int, adjacency: list[dict[int, int]]
) -> list[int] | None:
    """Each gold call in order takes the first free trace call of its row maximum.

    When every gold call gets its row maximum this way (``n_gold <= n_trace``), the pairing
    reaches the upper bound "sum of row maxima", so it is optimal, and every choice was the
    first one possible: it is the lexicographically first optimum. Otherwise ``None``.
    """
    taken = [False] * n_trace
    mates: list[int] = []
    next_free = 0
    for row in adjacency:
        if row:
            best = max(row.values())
            choice = -1
            for t, w in row.items():
                if w == best and not taken[t] and (choice < 0 or t < choice):
                    choice = t
            if choice < 0:
                return None
            # A zero-weight trace call before ``choice`` is never better: weights are >= 0
            # and ``best`` > 0, so ``choice`` is the first free call of the row maximum.
        else:
            while taken[next_free]:
                next_free += 1
            choice = next_free
        taken[choice] = True
        mates.append(choice)
    return mates


def _max_weight(
    n_gold: int, n_trace: int, adjacency: list[dict[int, int]]
) -> tuple[list[int], list[int], list[int], list[int]]:
    """Maximum-weight matching on the positive pairs, with optimal duals ``u, v >= 0``.

    Invariants: ``u[i] + v[t] >= w(i, t)`` for every pair (pairs sharing no value weigh 0 and
    are covered by ``u, v >= 0``); matched pairs are tight; unmatched trace calls have
    ``v == 0``; processed unmatched gold calls have ``u == 0``.
    """
    u = [max(row.values()) if row else 0 for row in adjacency]
    v = [0] * n_trace
    mate_g = [-1] * n_gold
    mate_t = [-1] * n_trace
    for i, row in enumerate(adjacency):  # greedy warm start on tight pairs
        if u[i]:
            choice = -1
            for t, w in row.items():
                if w == u[i] and mate_t[t] < 0 and (choice < 0 or t < choice):
                    choice = t
            if choice >= 0:
                mate_g[i] = choice
                mate_t[choice] = i
    for start in range(n_gold):
        if mate_g[start] < 0 and u[start] > 0:
            _augment(start, adjacency, u, v, mate_g, mate_t)
    return u, v, mate_g, mate_t


def _augment(
    start: int,
    adjacency: list[dict[int, int]],
    u: list[int],
    v: list[int],
    mate_g: list[int],
    mate_t: list[int],
) -> None:
    """One Dijkstra search from the free gold call ``start``, then a dual update.

    The search ends at a free trace call (the matching grows) or when some gold call's dual
    reaches 0 (that call may then stay unmatched at no loss).
    """
    dist_t: dict[int, int] = {}
    pred_t: dict[int, int] = {}
    done_t: dict[int, int] = {}
    done_g: dict[int, int] = {start: 0}
    heap: list[tuple[int, int, int]] = [(u[start], 1, start)]

    def relax(gold: int, base: int) -> None:
        ug = u[gold]
        for t, w in adjacency[gold].items():
            if t in done_t:
                continue
            d = base + ug + v[t] - w
            if d < dist_t.get(t, d + 1):
                dist_t[t] = d
                pred_t[t] = gold
                heapq.heappush(heap, (d, 0, t))

    relax(start, 0)
    while True:
        d, kind, node = heapq.heappop(heap)
        if kind == 1:  # this gold call's dual reaches zero
            delta, exit_gold, exit_trace = d, node, -1
            break
        if node in done_t or d > dist_t[node]:
            continue
        done_t[node] = d
        mate = mate_t[node]
        if mate < 0:
            delta, exit_gold, exit_trace = d, -1, node
            break
        done_g[mate] = d
        heapq.heappush(heap, (d + u[mate], 1, mate))
        relax(mate, d)
    for gold, d in done_g.items():
        u[gold] -= delta - d
    for t, d in done_t.items():
        v[t] += delta - d
    if exit_trace < 0:
        if exit_gold == start:
            return
        exit_trace = mate_g[exit_gold]
        mate_g[exit_gold] = -1
        mate_t[exit_trace] = -1
    t = exit_trace
    while True:
        gold = pred_t[t]
        previous = mate_g[gold]
        mate_g[gold] = t
        mate_t[t] = gold
        if gold == start:
            return
        t = previous


def _first_optimum(
    n_gold: int,
    n_trace: int,
    adjacency: list[dict[int, int]],
    u: list[int],
    v: list[int],
    mate_g: list[int],
    mate_t: list[int],
) -> list[int | None]:
    """The lexicographically first optimal pairing, from a maximum matching and its duals."""
    return _Chooser(n_gold, n_trace, adjacency, u, v, mate_g, mate_t).run()


class _Chooser:
    """Phase 2: fix gold calls in order, each to its first option that keeps an optimum.

    Dummy calls make the pairing perfect: ``n_trace - n_gold`` dummy gold calls (they hold the
    trace calls left unpaired, allowed only where ``v == 0``) or ``n_gold - n_trace`` dummy
    trace calls ("unpaired", allowed only for gold calls with ``u == 0``). Optimal pairings are
    then exactly the perfect matchings on tight pairs, where a pair sharing no value is tight
    when ``u == v == 0``: a complete block between the zero-dual calls of both sides, handled
    implicitly rather than listed.
    """

    def __init__(
        self,
        n_gold: int,
        n_trace: int,
        adjacency: list[dict[int, int]],
        u: list[int],
        v: list[int],
        mate_g: list[int],
        mate_t: list[int],
    ) -> None:
        self.n_gold = n_gold
        self.n_trace = n_trace
        self.u = u
        self.v = v
        extra_gold = max(0, n_trace - n_gold)
        extra_trace = max(0, n_gold - n_trace)
        self.mate_g = mate_g + [-1] * extra_gold
        self.mate_t = mate_t + [-1] * extra_trace
        dummies = list(range(n_trace, n_trace + extra_trace))
        free_gold = [i for i in range(n_gold) if mate_g[i] < 0]  # all have u == 0
        free_trace = [t for t in range(n_trace) if mate_t[t] < 0]  # all have v == 0
        if extra_trace:  # "unpaired" goes to the earliest free gold calls
            pairs = zip(free_gold, dummies + free_trace)
        else:
            pairs = zip(free_gold + list(range(n_gold, n_gold + extra_gold)), free_trace)
        for i, t in pairs:
            self.mate_g[i] = t
            self.mate_t[t] = i
        self.tight = [
            sorted(t for t, w in row.items() if u[i] + v[t] == w) for i, row in enumerate(adjacency)
        ]
        # A gold call with u > 0 and one tight pair holds that trace call in every optimum.
        pinned = [False] * n_trace
        for i in range(n_gold):
            if u[i] > 0 and len(self.tight[i]) == 1:
                pinned[self.tight[i][0]] = True
        self.zero_trace = [t for t in range(n_trace) if v[t] == 0 and not pinned[t]]
        self.zero_block = [t for t in range(n_trace) if v[t] == 0] + dummies
        self.position = {t: p for p, t in enumerate(self.zero_trace)}
        self.skip = list(range(len(self.zero_trace) + 1))
        self.fixed = [False] * len(self.mate_g)
        self.open_dummies = set(dummies)

    def run(self) -> list[int | None]:
        for i in range(self.n_gold):
            current = self.mate_g[i]
            flexible = current < self.n_trace and (self.u[i] == 0 or len(self.tight[i]) > 1)
            if flexible:
                self._choose(i, current)
            self.fixed[i] = True
            held = self.mate_g[i]
            self.open_dummies.discard(held)
            p = self.position.get(held)
            if p is not None:
                self.skip[p] = p + 1
        return [t if t < self.n_trace else None for t in self.mate_g[: self.n_gold]]

    def _next_alive(self, p: int) -> int:
        skip = self.skip
        root = p
        while skip[root] != root:
            root = skip[root]
        while skip[p] != root:
            skip[p], p = root, skip[p]
        return root

    def _is_zero(self, gold: int) -> bool:
        return gold >= self.n_gold or self.u[gold] == 0

    def _choose(self, i: int, current: int) -> None:
        """Give gold call ``i`` its first feasible option, rerouting the others."""
        search = _Search(self, i, current)
        chosen = None
        if self._is_zero(i) and self.open_dummies:
            dummy = min(self.open_dummies)
            if search.reaches(dummy):
                chosen = dummy
        if chosen is None:
            candidates = [t for t in self.tight[i] if t < current]
            if self._is_zero(i):
                p = self._next_alive(0)
                while p < len(self.zero_trace) and self.zero_trace[p] < current:
                    candidates.append(self.zero_trace[p])
                    p = self._next_alive(p + 1)
                candidates.sort()
            for y in candidates:
                if search.reaches(y):
                    chosen = y
                    break
        if chosen is None:
            return
        chain = [current]  # from ``current`` back to ``chosen`` along the found path
        while chain[-1] != chosen:
            chain.append(search.parent[chain[-1]])
        chain.reverse()
        movers = [self.mate_t[y] for y in chain[:-1]]
        for gold, y in zip(movers, chain[1:]):
            self.mate_g[gold] = y
            self.mate_t[y] = gold
        self.mate_g[i] = chosen
        self.mate_t[chosen] = i


class _Search:
    """Alternating-path search of one phase-2 step.

    Option ``y`` is feasible for gold call ``i`` when the call holding ``y`` can move along
    tight pairs, through unfixed gold calls, until one of them takes ``current`` (the trace
    call ``i`` gives up). Every trace call seen by a failed search is infeasible for this step.
    """

    def __init__(self, chooser: _Chooser, gold: int, current: int) -> None:
        self.c = chooser
        self.gold = gold
        self.current = current
        self.target_in_block = chooser.v[current] == 0
        self.seen: set[int] = set()
        self.parent: dict[int, int] = {}
        self.block_open = False

    def reaches(self, origin: int) -> bool:
        c, seen, parent, current = self.c, self.seen, self.parent, self.current
        if origin in seen:
            return False
        seen.add(origin)
        stack = [origin]
        while stack:
            y = stack.pop()
            holder = c.mate_t[y]
            if holder == self.gold or c.fixed[holder]:
                continue
            if c._is_zero(holder):
                if self.target_in_block:
                    parent[current] = y
                    return True
                if not self.block_open:
                    self.block_open = True
                    for z in c.zero_block:
                        if z not in seen:
                            seen.add(z)
                            parent[z] = y
                            stack.append(z)
            if holder < c.n_gold:
                for z in c.tight[holder]:
                    if z == current:
                        parent[current] = y
                        return True
                    if z not in seen:
                        seen.add(z)
                        parent[z] = y
                        stack.append(z)
        return False
