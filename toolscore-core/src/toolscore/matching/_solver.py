"""Finding the pairing :mod:`toolscore.matching.alignment` defines, for the calls of one tool.

The rules (most pairs, then most correct arguments, then the lexicographically first
decisions) are stated in :mod:`toolscore.matching.alignment`; this module finds that pairing without
trying pairings one by one.

How (per tool, ``G`` expected and ``T`` actual calls):

* Small and common cases take fast paths (one call on a side; every expected call matched in
  full by the actual call at the same position).
* Otherwise actual scalar values are indexed by :func:`toolscore.matching.values.match_key`, so they
  are never compared pair by pair. Containers, matchers and other objects are compared only
  with the few actual calls that get a gold call's scalars right, or, for the gold calls
  that need a full weight row, one by one until a name is asked for often enough to pay for
  keying its containers. Sets of actual calls are bit masks, one machine word per 30-odd
  calls, so an argument every call shares (a flag, a language) stays cheap.
* Phase 1 computes a maximum-weight matching with integer duals ``u, v >= 0`` (a primal-dual
  Hungarian method: a greedy warm start on tight pairs, alternating paths of row maxima,
  then one Dijkstra search, level by level on the small integer distances, per gold call
  left over). Pairs that share no value weigh 0 and are never needed to reach the optimum.
* Phase 2 picks the lexicographically first optimum: a full pairing is optimal exactly when all
  its pairs are tight (``u + v == weight``), every actual call with ``v > 0`` is paired and
  every expected call with ``u > 0`` is paired. Expected calls are fixed in order, each to its
  first option that still admits such a pairing, found by an alternating-path search.
* When every expected call can take the first free actual call of its row maximum (the usual
  case when ``G <= T``), that greedy pairing is already the answer and both phases are skipped.

Both phases are polynomial; on realistic traces they touch little more than the calls that
share argument values: 10,000 calls over 20 tools align in about 0.2 s, one tool with 100
expected and 12 actual calls in about 2 ms (an exhaustive search over pairings takes seconds).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toolscore.matching.matchers import ANY
from toolscore.matching.values import count_correct, key_function, values_match

__all__ = ["Args", "align_group"]

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
    rows = _Rows(gold, trace, strict)
    mates = _solve(n_gold, n_trace, rows)
    return [(i, t, rows.weight(i, t)) for i, t in enumerate(mates) if t is not None]


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


# Sets of trace calls are bit masks: bit t stands for trace call t.


#: ``_BYTE_BITS[b]``: the set bits of the byte value ``b``, ascending.
_BYTE_BITS = tuple(tuple(k for k in range(8) if value >> k & 1) for value in range(256))


def _bits(mask: int) -> list[int]:
    """The set bits of ``mask``, ascending.

    Few bits are peeled off one by one; many are read byte by byte from a table, since
    peeling costs a few operations on the whole (possibly long) mask per bit.
    """
    if mask.bit_count() <= 4:
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out
    data = mask.to_bytes((mask.bit_length() + 7) // 8, "little")
    table = _BYTE_BITS
    return [
        base + k
        for base, byte in zip(range(0, 8 * len(data), 8), data)
        if byte
        for k in table[byte]
    ]


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


class _Rows:
    """Per gold call, which trace calls get how many of its arguments right.

    Scalar values (strings, numbers, booleans, ``None``) are indexed up front by
    :func:`toolscore.matching.values.match_key`, which is cheap for them. Containers, matchers and
    other objects ("deferred" values) are not: keying a nested dict costs about ten
    comparisons, and most gold calls never need it. ``top(i)`` (the row maximum and the trace
    calls reaching it) compares a gold call's deferred values only with the few trace calls
    that get all its scalar values right; the full ``row(i)`` (``row[c]``: trace calls with
    exactly ``c`` right) is built only for the gold calls that need it, comparing deferred
    values one by one, or through an index of the trace's containers under a name once that
    name has been asked for often enough to pay for one.
    """

    def __init__(self, gold: Sequence[Args | None], trace: Sequence[Args], strict: bool) -> None:
        self.gold = gold
        self.trace = trace
        self.strict = strict
        self.size = len(trace)
        self.everything = (1 << self.size) - 1
        self.key_of = key_of = key_function(strict)
        lenient = not strict
        index: dict[tuple[Any, Any], int] = {}  # (name, scalar key) -> trace calls
        containers: dict[Any, list[int]] = {}  # name -> trace calls holding a container
        others: dict[Any, list[int]] = {}  # name -> trace calls holding anything else
        get = index.get
        bit = 1
        for t, args in enumerate(trace):
            for name, value in args.items():
                kind = type(value)
                if kind is str and lenient:
                    pair = (name, value.strip())
                elif kind in _SCALAR_TYPES:
                    key = key_of(value)
                    if key is None:  # NaN matches nothing, not even itself
                        others.setdefault(name, []).append(t)
                        continue
                    pair = (name, key)
                else:
                    (containers if kind in _CONTAINER_TYPES else others).setdefault(
                        name, []
                    ).append(t)
                    continue
                index[pair] = get(pair, 0) | bit
            bit <<= 1
        self.index = index
        self.containers = containers
        self.others = others
        self._container_keys: dict[Any, dict[Any, int]] = {}
        self._container_asks: dict[Any, int] = {}
        self._holders: dict[Any, int] = {}
        # Per gold call: the masks of its scalar arguments that some trace call gets right,
        # and its deferred arguments (checked later, only where needed).
        self.scalar_hits: list[list[int]] = []
        self.deferred: list[list[tuple[Any, Any]]] = []
        for wanted in gold:
            found: list[int] = []
            later: list[tuple[Any, Any]] = []
            if wanted:
                for name, want in wanted.items():
                    kind = type(want)
                    if kind is str and lenient:
                        hit = get((name, want.strip()), 0)
                    elif kind in _SCALAR_TYPES and want == want:
                        hit = get((name, key_of(want)), 0)
                    else:
                        later.append((name, want))
                        continue
                    if name in others:
                        hit |= self._compare(name, want, others[name])
                    if hit:
                        found.append(hit)
            self.scalar_hits.append(found)
            self.deferred.append(later)
        self._hits: dict[int, list[int]] = {}
        self._tops: dict[int, tuple[int, int]] = {}
        self._rows: dict[int, list[int]] = {}

    def _compare(self, name: Any, want: Any, positions: Iterable[int]) -> int:
        trace, strict = self.trace, self.strict
        hit = 0
        if not strict and type(want) in _CONTAINER_TYPES:
            # values_match() of a plain container in lenient mode is exactly ``==``.
            for t in positions:
                if want == trace[t][name]:
                    hit |= 1 << t
            return hit
        for t in positions:
            if values_match(want, trace[t][name], strict=strict):
                hit |= 1 << t
        return hit

    def _holders_of(self, name: Any) -> int:
        """The trace calls that have an argument ``name`` at all."""
        known = self._holders.get(name)
        if known is None:
            known = 0
            for t, args in enumerate(self.trace):
                if name in args:
                    known |= 1 << t
            self._holders[name] = known
        return known

    def _deferred_hit(self, name: Any, want: Any) -> int:
        """The trace calls that get the deferred argument ``name=want`` right."""
        if want is ANY:
            return self._holders_of(name)
        if type(want) not in _CONTAINER_TYPES:  # a matcher or another object
            return self._compare(name, want, _bits(self._holders_of(name)))
        hit = 0
        positions = self.containers.get(name)
        if positions:
            keys = self._container_keys.get(name)
            if keys is None:
                asks = self._container_asks.get(name, 0) + 1
                self._container_asks[name] = asks
                if asks >= _INDEX_AFTER:
                    keys = self._container_keys[name] = self._key_containers(name, positions)
            key = self.key_of(want) if keys is not None else None
            if keys is None or key is None:
                hit = self._compare(name, want, positions)
            else:
                hit = keys.get(key, 0)
                unkeyed = keys.get(_UNKEYED)
                if unkeyed:
                    hit |= self._compare(name, want, _bits(unkeyed))
        if name in self.others:
            hit |= self._compare(name, want, self.others[name])
        return hit

    def _key_containers(self, name: Any, positions: list[int]) -> dict[Any, int]:
        """Key -> trace calls, for the containers under ``name`` (``_UNKEYED``: no key)."""
        keys: dict[Any, int] = {}
        key_of, trace = self.key_of, self.trace
        for t in positions:
            key = key_of(trace[t][name])
            if key is None:
                key = _UNKEYED
            keys[key] = keys.get(key, 0) | 1 << t
        return keys

    def hits(self, i: int) -> list[int]:
        """The masks of gold call ``i``'s arguments that some trace call gets right."""
        known = self._hits.get(i)
        if known is None:
            known = list(self.scalar_hits[i])
            for name, want in self.deferred[i]:
                hit = self._deferred_hit(name, want)
                if hit:
                    known.append(hit)
            self._hits[i] = known
        return known

    def top(self, i: int) -> tuple[int, int]:
        """``(row maximum, trace calls reaching it)`` of gold call ``i``."""
        known = self._tops.get(i)
        if known is not None:
            return known
        every = self.everything
        scalar_hits = self.scalar_hits[i]
        for hit in scalar_hits:
            every &= hit
        deferred = self.deferred[i]
        if deferred and every and every.bit_count() <= _FEW:
            # The trace calls that get every argument right, if any, are among these few.
            full = 0
            for t in _bits(every):
                if self._matches_all(deferred, self.trace[t]):
                    full |= 1 << t
            if full:
                known = (len(scalar_hits) + len(deferred), full)
                self._tops[i] = known
                return known
        if deferred:
            hits = self.hits(i)
            every = self.everything
            for hit in hits:
                every &= hit
        else:
            hits = scalar_hits
        if every or not hits:
            known = (len(hits), every)
        else:
            row = self.row(i)
            known = (len(row) - 1, row[-1])
        self._tops[i] = known
        return known

    def _matches_all(self, deferred: list[tuple[Any, Any]], got: Args) -> bool:
        """Whether the trace arguments ``got`` get every deferred argument right."""
        strict = self.strict
        for name, want in deferred:
            if name not in got:
                return False
            value = got[name]
            if not strict and type(want) in _CONTAINER_TYPES:  # as in _compare: plain ==
                if want != value:
                    return False
            elif not values_match(want, value, strict=strict):
                return False
        return True

    def row(self, i: int) -> list[int]:
        """``row[c]``: the trace calls with exactly ``c`` of gold call ``i``'s arguments right."""
        row = self._rows.get(i)
        if row is not None:
            return row
        at_least = [self.everything]  # at_least[c]: trace calls with >= c right
        for hit in self.hits(i):
            at_least.append(at_least[-1] & hit)
            for c in range(len(at_least) - 2, 0, -1):
                at_least[c] |= at_least[c - 1] & hit
        while len(at_least) > 1 and not at_least[-1]:
            at_least.pop()
        row = [a ^ b for a, b in itertools.pairwise(at_least)] + [at_least[-1]]
        self._rows[i] = row
        return row

    def weight(self, i: int, t: int) -> int:
        """Correct arguments of gold call ``i`` against trace call ``t``."""
        best, reaching = self.top(i)
        if reaching >> t & 1:
            return best
        row = self.row(i)
        return next((c for c in range(len(row) - 1, 0, -1) if row[c] >> t & 1), 0)


#: Types whose values the alignment keys up front (cheap), and containers (keyed on demand).
_SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})
_CONTAINER_TYPES = frozenset({dict, list, tuple})
#: ``_Rows.top`` checks deferred values itself when at most this many calls are candidates.
_FEW = 8
#: Containers under a name are keyed once this many gold values have been compared with them.
_INDEX_AFTER = 8
#: The key under which ``_Rows`` files containers that have no key of their own.
_UNKEYED = object()


def _solve(n_gold: int, n_trace: int, rows: _Rows) -> list[int | None]:
    """The lexicographically first maximum-weight pairing; ``mates[i]`` is gold i's trace."""
    if n_gold <= n_trace:
        greedy = _lexicographic_greedy(n_gold, n_trace, rows)
        if greedy is not None:
            return list(greedy)
    phase1 = _MaxWeight(n_gold, n_trace, rows)
    return _Chooser(phase1).run()


def _lexicographic_greedy(n_gold: int, n_trace: int, rows: _Rows) -> list[int] | None:
    """Each gold call in order takes the first free trace call of its row maximum.

    When every gold call gets its row maximum this way (``n_gold <= n_trace``), the pairing
    reaches the upper bound "sum of row maxima", so it is optimal, and every choice was the
    first one possible: it is the lexicographically first optimum. Otherwise ``None``.
    """
    free = (1 << n_trace) - 1
    mates: list[int] = []
    for i in range(n_gold):
        best = rows.top(i)[1] & free
        if not best:
            return None
        low = best & -best
        free ^= low
        mates.append(low.bit_length() - 1)
    return mates


class _MaxWeight:
    """Phase 1: a maximum-weight matching with optimal duals ``u, v >= 0``.

    Invariants: ``u[i] + v[t] >= w(i, t)`` for every pair; matched pairs are tight; unmatched
    trace calls have ``v == 0``; processed unmatched gold calls have ``u == 0``. Duals start
    at ``u = row maximum``, ``v = 0``; a greedy pass matches tight pairs, alternating paths of
    row maxima match more, then each remaining gold call runs one Dijkstra search (on small
    integer distances, level by level).
    """

    def __init__(self, n_gold: int, n_trace: int, rows: _Rows) -> None:
        self.n_gold = n_gold
        self.n_trace = n_trace
        self.rows = rows
        tops = [rows.top(i) for i in range(n_gold)]
        self.u = [best for best, _ in tops]
        self.v = [0] * n_trace
        #: v value -> trace calls with that dual.
        self.v_class: dict[int, int] = {0: (1 << n_trace) - 1}
        self.mate_g = [-1] * n_gold
        self.mate_t = [-1] * n_trace
        self.free = (1 << n_trace) - 1
        # Warm start on tight pairs: gold calls with a single best trace call first, then the
        # others by decreasing row maximum, so that weak rows do not take strong rows' partners.
        unique = [i for i, (w, m) in enumerate(tops) if w and not m & (m - 1)]
        others = sorted(
            (i for i, (w, m) in enumerate(tops) if w and m & (m - 1)), key=lambda i: -tops[i][0]
        )
        for i in unique + others:
            best = tops[i][1] & self.free
            if best:
                t = _lowest(best)
                self.mate_g[i], self.mate_t[t] = t, i
                self.free ^= 1 << t
        top_sets = [m for _, m in tops]
        left = [i for i in range(n_gold) if self.mate_g[i] < 0 and self.u[i] > 0]
        left = [i for i in left if not self._augment_tight(i, top_sets)]
        for i in left:
            self._augment(i)

    def _augment_tight(self, start: int, top_sets: list[int]) -> bool:
        """Match the free gold call ``start`` along an alternating path of row maxima only.

        Valid before any Dijkstra search: the duals are still ``u = row maximum``, ``v = 0``,
        so the tight pairs are exactly the row maxima and no full row is needed. Usually every
        gold call is matched this way and the searches are skipped. ``False``: no such path.
        """
        mate_g, mate_t = self.mate_g, self.mate_t
        seen = 0
        reached_by: dict[int, int] = {}  # trace call -> the gold call whose row reached it
        queue = [start]
        for gold in queue:  # breadth first; the queue grows while it is read
            options = top_sets[gold] & ~seen
            if not options:
                continue
            open_ = options & self.free
            if open_:
                t = _lowest(open_)
                self.free ^= 1 << t
                while True:  # shift each gold call on the path to the trace call it reached
                    previous = mate_g[gold]
                    mate_g[gold], mate_t[t] = t, gold
                    if gold == start:
                        return True
                    t = previous
                    gold = reached_by[t]
            seen |= options
            for t in _bits(options):
                reached_by[t] = gold
                queue.append(mate_t[t])
        return False

    def _augment(self, start: int) -> None:
        """Search from the free gold call ``start``; ends at a free trace call (the matching
        grows) or where a gold call's dual reaches 0 (it may stay unmatched at no loss)."""
        u, v, rows, v_class = self.u, self.v, self.rows, self.v_class
        front: dict[int, int] = {}  # distance -> trace calls reached at that distance
        pred: dict[int, int] = {}
        dist_t: dict[int, int] = {}
        dist_g: dict[int, int] = {start: 0}
        exits: dict[int, list[int]] = {u[start]: [start]}
        done = 0

        def expand(gold: int, base: int) -> None:
            ug = u[gold]
            row = rows.row(gold)
            for c in range(1, len(row)):
                reach = row[c] & ~done
                if not reach:
                    continue
                for value, members in v_class.items():
                    new = reach & members
                    if not new:
                        continue
                    at = base + ug + value - c
                    for level, mask in front.items():
                        if level <= at:
                            new &= ~mask
                    if not new:
                        continue
                    for level in front:
                        if level > at:
                            front[level] &= ~new
                    front[at] = front.get(at, 0) | new
                    for t in _bits(new):
                        pred[t] = gold

        expand(start, 0)
        exit_trace = exit_gold = -1
        while True:
            level = min([k for k, m in front.items() if m] + list(exits))
            current = front.pop(level, 0)
            while current and exit_trace < 0:
                reached_free = current & self.free
                if reached_free:
                    exit_trace = _lowest(reached_free)
                    break
                done |= current
                for t in _bits(current):
                    dist_t[t] = level
                    holder = self.mate_t[t]
                    dist_g[holder] = level
                    exits.setdefault(level + u[holder], []).append(holder)
                    expand(holder, level)
                current = front.pop(level, 0)
            if exit_trace >= 0:
                break
            waiting = exits.pop(level, None)
            if waiting:
                exit_gold = waiting[0]
                break
        delta = level
        for gold, d in dist_g.items():
            u[gold] -= delta - d
        for t, d in dist_t.items():
            if d < delta:
                bit = 1 << t
                v_class[v[t]] &= ~bit
                if not v_class[v[t]]:
                    del v_class[v[t]]
                v[t] += delta - d
                v_class[v[t]] = v_class.get(v[t], 0) | bit
        if exit_trace < 0:
            if exit_gold == start:
                return
            exit_trace = self.mate_g[exit_gold]
            self.mate_g[exit_gold] = -1
        t = exit_trace
        while True:
            gold = pred[t]
            previous = self.mate_g[gold]
            self.mate_g[gold] = t
            self.mate_t[t] = gold
            self.free &= ~(1 << t)
            if gold == start:
                return
            t = previous


class _Chooser:
    """Phase 2: fix gold calls in order, each to its first option that keeps an optimum.

    A full pairing is optimal exactly when all its pairs are tight (``u + v == weight``), every
    trace call with ``v > 0`` is paired and every gold call with ``u > 0`` is paired. Dummy
    calls turn that into a perfect matching on tight pairs: ``n_trace - n_gold`` dummy gold
    calls hold the trace calls left unpaired (tight only where ``v == 0``), ``n_gold - n_trace``
    dummy trace calls stand for "unpaired" (tight only for gold calls with ``u == 0``; bits
    ``n_trace`` and up).
    """

    def __init__(self, phase1: _MaxWeight) -> None:
        n_gold, n_trace = phase1.n_gold, phase1.n_trace
        self.n_gold, self.n_trace = n_gold, n_trace
        extra_gold = max(0, n_trace - n_gold)
        extra_trace = max(0, n_gold - n_trace)
        self.mate_g = phase1.mate_g + [-1] * extra_gold
        self.mate_t = phase1.mate_t + [-1] * extra_trace
        dummies = list(range(n_trace, n_trace + extra_trace))
        free_gold = [i for i in range(n_gold) if phase1.mate_g[i] < 0]  # all have u == 0
        free_trace = list(_bits(phase1.free))  # all have v == 0
        if extra_trace:  # "unpaired" goes to the earliest free gold calls
            pairs = zip(free_gold, dummies + free_trace)
        else:
            pairs = zip(free_gold + list(range(n_gold, n_gold + extra_gold)), free_trace)
        for i, t in pairs:
            self.mate_g[i] = t
            self.mate_t[t] = i
        u, v_class = phase1.u, phase1.v_class
        dummy_mask = ((1 << extra_trace) - 1) << n_trace
        self.tight: list[int] = []
        pinned = 0
        rows = phase1.rows
        for i in range(n_gold):
            mask = dummy_mask if u[i] == 0 else 0
            best, reaching = rows.top(i)
            if u[i] == best:  # only the row maximum can be tight
                mask |= reaching & v_class.get(0, 0)
            else:
                row = rows.row(i)
                for c in range(u[i], len(row)):
                    mask |= row[c] & v_class.get(c - u[i], 0)
            self.tight.append(mask)
            if u[i] > 0 and not mask & (mask - 1):
                pinned |= mask  # its only option: held in every optimum
        self.tight += [v_class.get(0, 0)] * extra_gold
        self.fixed = [False] * len(self.mate_g)
        self.open = ((1 << (n_trace + extra_trace)) - 1) & ~pinned
        self.dummy_mask = dummy_mask

    def run(self) -> list[int | None]:
        for i in range(self.n_gold):
            current = self.mate_g[i]
            options = self.tight[i]
            if current < self.n_trace and options & (options - 1):
                self._choose(i, current)
            self.fixed[i] = True
            self.open &= ~(1 << self.mate_g[i])
        return [t if t < self.n_trace else None for t in self.mate_g[: self.n_gold]]

    def _choose(self, i: int, current: int) -> None:
        """Give gold call ``i`` its first feasible option, rerouting the others."""
        search = _Search(self, i, current)
        options = self.tight[i] & self.open
        chosen = -1
        skip = options & self.dummy_mask
        if skip and search.reaches(_lowest(skip)):
            chosen = _lowest(skip)
        if chosen < 0:
            for y in _bits(options & ((1 << current) - 1)):
                if search.reaches(y):
                    chosen = y
                    break
        if chosen < 0:
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
        self.seen = 0
        self.parent: dict[int, int] = {}

    def reaches(self, origin: int) -> bool:
        c, parent, current = self.c, self.parent, self.current
        if self.seen >> origin & 1:
            return False
        self.seen |= 1 << origin
        stack = [origin]
        while stack:
            y = stack.pop()
            holder = c.mate_t[y]
            if holder == self.gold or c.fixed[holder]:
                continue
            options = c.tight[holder]
            if options >> current & 1:
                parent[current] = y
                return True
            new = options & ~self.seen
            if new:
                self.seen |= new
                for z in _bits(new):
                    parent[z] = y
                    stack.append(z)
        return False
