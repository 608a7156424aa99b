"""Which case ids a run has seen, in about 9 bytes per id, so duplicates can be reported.

Why: ``--resume`` keys on ids, so two records with one id cannot both be kept: the second is
a bad record. Holding every id of a dataset of millions as a Python string (about 100 bytes
each) would make a run's memory grow with the dataset far more than anything else it keeps.
This keeps a 64-bit hash of each id instead, packed into byte strings picked by the hash's low
bits, so a lookup is a C-speed scan of at most a couple of kilobytes. When the buckets fill
up (:data:`MAX_LOAD` hashes each on average) they double, each splitting on the next bit of
the hash, so a lookup costs the same at ten million ids as at ten thousand.

Two different ids with the same 64-bit hash would be taken for a duplicate: for a million ids
the odds are about one in 40 million. The hash is Python's (keyed per process), which is fine
because one process, the one reading the results, holds the whole set.
"""

from __future__ import annotations

import sys

#: Buckets to start with (a power of two: the low bits of a hash pick one).
BUCKETS = 4096
#: Mean hashes per bucket past which the buckets double.
MAX_LOAD = 128

_ORDER = sys.byteorder  # packed as memoryview.cast("q") reads them back


class SeenIds:
    """The set of ids seen so far: :meth:`add` says whether an id is new."""

    def __init__(self, buckets: int = BUCKETS) -> None:
        if buckets < 1 or buckets & (buckets - 1):
            raise ValueError(f"buckets must be a power of two, got {buckets}")
        self._buckets = [bytearray() for _ in range(buckets)]
        self._mask = buckets - 1
        self._count = 0

    def add(self, case_id: str) -> bool:
        """Remember ``case_id``; ``False`` (and nothing changes) if it was seen before."""
        bucket, packed = self._slot(case_id)
        if _holds(bucket, packed):
            return False
        bucket += packed
        self._count += 1
        if self._count > MAX_LOAD * len(self._buckets):
            self._double()
        return True

    def _slot(self, case_id: object) -> tuple[bytearray, bytes]:
        key = hash(case_id)
        return self._buckets[key & self._mask], key.to_bytes(8, _ORDER, signed=True)

    def _double(self) -> None:
        """Twice the buckets: bucket ``i`` splits into ``i`` and ``i + n`` on hash bit ``n``."""
        old = self._buckets
        n = len(old)
        new = [bytearray() for _ in range(2 * n)]
        for index, bucket in enumerate(old):
            low, high = new[index], new[index + n]
            for key in memoryview(bucket).cast("q"):
                (high if key & n else low).extend(key.to_bytes(8, _ORDER, signed=True))
        self._buckets = new
        self._mask = 2 * n - 1

    def __len__(self) -> int:
        return self._count

    def __contains__(self, case_id: object) -> bool:
        return _holds(*self._slot(case_id))


def _holds(bucket: bytearray, packed: bytes) -> bool:
    """Whether ``packed`` is one of the 8-byte entries of ``bucket`` (not a match that
    straddles two of them)."""
    at = bucket.find(packed)
    while at >= 0:
        if at % 8 == 0:
            return True
        at = bucket.find(packed, at + 1)
    return False
