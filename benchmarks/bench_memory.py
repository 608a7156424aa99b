"""Peak memory (max RSS) of a process that evaluates N calls, ours vs the reference.

Run: ``uv run python benchmarks/bench_memory.py`` (TOOLSCORE_REFERENCE_PYTHON as for the other
benchmarks). Each figure is one fresh interpreter: import, build the seeded case of
``bench_evaluate.py``, evaluate once, report ``ru_maxrss``; the baseline row is the same
process without the evaluation, so the difference is what evaluating costs.
"""

from __future__ import annotations

import json
import subprocess
import sys
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


if __name__ == "__main__":
    main()
