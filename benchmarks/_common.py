"""Helpers shared by the benchmark scripts: finding the reference, timing subprocesses, tables."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def reference_python() -> str | None:
    """The interpreter that has the reference ``tool-scorer`` 1.10.0, if any is available."""
    candidates = [
        os.environ.get("TOOLSCORE_REFERENCE_PYTHON"),
        str(ROOT / ".nox" / "reference" / "bin" / "python"),
        str(ROOT / ".ci" / ".reference" / "bin" / "python"),
        "/opt/refvenv/bin/python",
    ]
    for candidate in candidates:
        if candidate and Path(candidate).exists():
            return candidate
    return None


def time_command(
    argv: Sequence[str], *, repeats: int = 15, env: dict[str, str] | None = None
) -> tuple[float, float]:
    """Median wall time (s) and peak child RSS (MiB) of running ``argv`` ``repeats`` times."""
    full_env = {**os.environ, **(env or {})}
    # Bytecode caches must be written and used, as in any real install: with
    # PYTHONDONTWRITEBYTECODE set, every run of an editable checkout recompiles its sources
    # while the reference (a wheel, compiled at install) does not.
    full_env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run(argv, capture_output=True, env=full_env, check=True)  # warm caches, write .pyc
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, env=full_env, check=True)
        times.append(time.perf_counter() - start)
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return statistics.median(times), peak_kib / 1024


def print_table(title: str, header: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    print(f"\n{title}")
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    line = "  ".join(str(h).ljust(w) for h, w in zip(header, widths))
    print(line)
    print("-" * len(line))
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)))


def our_python() -> str:
    return sys.executable
