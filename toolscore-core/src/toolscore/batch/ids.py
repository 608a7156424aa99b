"""Which case ids a run has seen, in about 8 bytes per id, so duplicates can be reported.

Why: ``--resume`` keys on ids, so two records with one id cannot both be kept: the second is
a bad record. Holding every id of a dataset of millions as a Python string (about 100 bytes
each) would make a run's memory grow with the dataset far more than anything else it keeps.
This keeps a 64-bit hash of each id instead, packed into one of :data:`BUCKETS` byte strings
picked by the hash, so a lookup is a C-speed scan of a few hundred bytes.

Two different ids with the same 64-bit hash would be taken for a duplicate: for a million ids
the odds are about one in 40 million. The hash is Python's (keyed per process), which is fine
because one process, the one reading the results, holds the whole set.
"""

from __future__ import annotations

#: Byte strings the hashes are spread over (a power of two: the low bits of a hash pick one).
BUCKETS = 4096


class SeenIds:
    """The set of ids seen so far: :meth:`add` says whether an id is new."""

    def __init__(self) -> None:
        self._buckets = [bytearray() for _ in range(BUCKETS)]
        self._count = 0

    def add(self, case_id: str) -> bool:
        """Remember ``case_id``; ``False`` (and nothing changes) if it was seen before."""
        key = hash(case_id)
        bucket = self._buckets[key & (BUCKETS - 1)]
        packed = key.to_bytes(8, "little", signed=True)
        at = bucket.find(packed)
        while at >= 0:
            if at % 8 == 0:
                return False
            at = bucket.find(packed, at + 1)  # a match across two entries: look further
        bucket += packed
        self._count += 1
        return True

    def __len__(self) -> int:
        return self._count
