"""Peak memory (max RSS) of a process that evaluates N calls, ours vs the reference; and of
one that loads a large trace file, as a multiple of the file's size.

Run: ``uv run python benchmarks/bench_memory.py`` (TOOLSCORE_REFERENCE_PYTHON as for the other
benchmarks). Each figure is one fresh interpreter: import, build the seeded case of
``bench_evaluate.py``, evaluate once, report ``ru_maxrss``; the baseline row is the same
process without the evaluation, so the difference is what evaluating costs.

The trace rows write a canonical trace of about 10 and 40 MB (``TOOLSCORE_BENCH_TRACE_MB=100``
adds a 100 MB one) and report the peak of ``load_trace`` and of ``toolscore validate`` (which
used to decode the file twice and hold both copies at once), beside the reference's
``load_trace``. Decoded JSON takes about 3.7 times its text in Python objects, so about 4-5x
the file is the floor for loading it whole.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import print_table, reference_python

HERE = Path(__file__).resolve().parent
PROBE = """
import json, resource, sys
sys.path.insert(0, {here!r})
from bench_evaluate import make_case
expected, actual = make_case({n})
import toolscore
if {evaluate}:
    toolscore.evaluate(expected, actual)
print(json.dumps(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))
"""


def peak_mib(python: str, n: int, evaluate: bool) -> float:
    code = PROBE.format(here=str(HERE), n=n, evaluate=evaluate)
    out = subprocess.run(
        [python, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"TOOLSCORE_NO_PLUGINS": "1", "PATH": ""},
    )
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


LOAD_PROBE = """
import json, resource, sys
from toolscore.core import load_trace
calls = load_trace({path!r})
print(json.dumps(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))
"""
VALIDATE_PROBE = """
import json, resource, sys
from toolscore.cli import main
try:
    main(["validate", {path!r}])
except SystemExit:
    pass
print(json.dumps(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))
"""


def write_trace(path: Path, megabytes: int) -> int:
    """A canonical trace of about ``megabytes`` MB (realistic calls: nested args, results)."""
    calls = [
        {
            "tool": f"tool_{i % 50}",
            "args": {
                "query": f"some search text {i}",
                "limit": i % 10,
                "filters": {"b": "x" * 100},
            },
            "result": {"ok": True, "items": ["r" * 50] * 3},
        }
        for i in range(megabytes * 2420)
    ]
    path.write_text(json.dumps(calls), encoding="utf-8")
    return path.stat().st_size


def probe_mib(python: str, probe: str, path: Path) -> float:
    out = subprocess.run(
        [python, "-c", probe.format(path=str(path))],
        capture_output=True,
        text=True,
        check=True,
        env={"TOOLSCORE_NO_PLUGINS": "1", "PATH": "", "COLUMNS": "100"},
    )
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def trace_rows(reference: str | None) -> list[list[object]]:
    sizes = [10, 40]
    extra = os.environ.get("TOOLSCORE_BENCH_TRACE_MB")
    if extra:
        sizes.append(int(extra))
    rows: list[list[object]] = []
    with tempfile.TemporaryDirectory() as folder:
        for megabytes in sizes:
            path = Path(folder) / f"trace_{megabytes}.json"
            size_mib = write_trace(path, megabytes) / 2**20
            row: list[object] = [f"{size_mib:.0f} MiB trace"]
            for python, probe in (
                (sys.executable, LOAD_PROBE),
                (sys.executable, VALIDATE_PROBE),
                (reference, LOAD_PROBE),
            ):
                if python is None:
                    continue
                peak = probe_mib(python, probe, path)
                row.append(f"{peak:.0f} ({peak / size_mib:.1f}x)")
            rows.append(row)
    return rows


def main() -> None:
    reference = reference_python()
    rows = []
    for n in (1000, 10000):
        row: list[object] = [f"N={n}"]
        for python in (sys.executable, reference):
            if python is None:
                continue
            base, used = peak_mib(python, n, False), peak_mib(python, n, True)
            row += [f"{used:.1f}", f"+{used - base:.1f}"]
        rows.append(row)
    header = ["case", "ours peak MiB", "ours +evaluate", "ref peak MiB", "ref +evaluate"]
    print_table("peak RSS of one evaluate() in a fresh interpreter", header[: len(rows[0])], rows)
    loading = trace_rows(reference)
    header = ["file", "ours load_trace MiB", "ours validate MiB", "ref load_trace MiB"]
    print_table("peak RSS loading a large trace (x file size)", header[: len(loading[0])], loading)


if __name__ == "__main__":
    main()
