"""The weights the pairing solver (:mod:`toolscore.matching._solver`) maximises.

``WeightRows`` answers, per gold call, which trace calls get how many of its arguments right,
without comparing every gold call with every trace call; sets of trace calls are bit masks
(``set_bits``, ``lowest_bit``), one machine word per 30-odd calls.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toolscore.matching.matchers import ANY
from toolscore.matching.values import key_function, values_match

__all__ = ["Args", "WeightRows", "lowest_bit", "set_bits"]

Args = Mapping[str, Any]


# Sets of trace calls are bit masks: bit t stands for trace call t.


#: ``_BYTE_BITS[b]``: the set bits of the byte value ``b``, ascending.
_BYTE_BITS = tuple(tuple(k for k in range(8) if value >> k & 1) for value in range(256))


def set_bits(mask: int) -> list[int]:
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


def lowest_bit(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


class WeightRows:
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
            return self._compare(name, want, set_bits(self._holders_of(name)))
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
                    hit |= self._compare(name, want, set_bits(unkeyed))
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
            for t in set_bits(every):
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
#: ``WeightRows.top`` checks deferred values itself when at most this many calls are candidates.
_FEW = 8
#: Containers under a name are keyed once this many gold values have been compared with them.
_INDEX_AFTER = 8
#: The key under which ``WeightRows`` files containers that have no key of their own.
_UNKEYED = object()
