"""Shared dataset generator for the batch tests (deterministic, small)."""

from __future__ import annotations

import json
import random
from pathlib import Path

TOOLS = ("search", "book", "pay", "email", "lookup")


def make_dataset(path: Path, n: int, seed: int = 3) -> list[dict[str, object]]:
    """Write ``n`` cases of 1-8 calls with some wrong, missing and extra calls."""
    rnd = random.Random(seed)
    records: list[dict[str, object]] = []
    for i in range(n):
        expected = [
            {"tool": rnd.choice(TOOLS), "args": {"q": rnd.randint(0, 3)}}
            for _ in range(rnd.randint(1, 8))
        ]
        actual: list[dict[str, object]] = []
        for call in expected:
            roll = rnd.random()
            if roll < 0.15:
                continue
            if roll < 0.3:
                actual.append({"tool": call["tool"], "args": {"q": 99}})
                continue
            actual.append(call)
            if roll > 0.95:
                actual.append({"tool": rnd.choice(TOOLS), "args": {}, "is_error": True})
        records.append({"id": f"c{i:05d}", "expected": expected, "actual": actual})
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return records


def sorted_lines(path: Path) -> list[str]:
    """The results file's lines with keys sorted, in id order (the byte-for-byte comparison)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return sorted(json.dumps(r, sort_keys=True) for r in rows)
