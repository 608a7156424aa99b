"""`import toolscore` and `toolscore --help`: ours vs the reference tool-scorer 1.10.0.

Targets (issue 27): import <= 0.25x the reference, --help <= 0.5x (issue 2 had 0.5x and 0.7x).
Run: ``uv run python benchmarks/bench_startup.py`` (set TOOLSCORE_REFERENCE_PYTHON to the
reference's interpreter).

Each measurement is a fresh interpreter. Ours and the reference's runs are interleaved, so
load from other processes on this small machine hits both alike; medians and minimums of
``--repeats`` rounds are reported. Bytecode caches are written and used, as in any install.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from _common import print_table, reference_python

CASES = {
    "python": "pass",
    "import toolscore": "import toolscore",
    "toolscore --help": "from toolscore.cli import main; import sys; sys.argv=['toolscore','--help']; main()",
}
TARGETS = {"import toolscore": 0.25, "toolscore --help": 0.5}


def run_once(python: str, code: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([python, "-c", code], capture_output=True, env=env, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=30)
    options = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    interpreters = {"ours": sys.executable}
    reference = reference_python()
    if reference:
        interpreters["reference"] = reference
    samples: dict[tuple[str, str], list[float]] = {}
    for python in interpreters.values():  # warm-up: write bytecode caches
        for code in CASES.values():
            run_once(python, code, env)
    for _ in range(options.repeats):
        for case, code in CASES.items():
            for who, python in interpreters.items():
                samples.setdefault((who, case), []).append(run_once(python, code, env))

    def ms(who: str, case: str, how: str) -> float:
        values = samples[(who, case)]
        return 1000 * (statistics.median(values) if how == "median" else min(values))

    rows = []
    for case, target in TARGETS.items():
        row: list[object] = [
            case,
            f"{ms('ours', case, 'median'):.1f}",
            f"{ms('ours', case, 'min'):.1f}",
        ]
        if reference:
            ratio_median = ms("ours", case, "median") / ms("reference", case, "median")
            ratio_min = ms("ours", case, "min") / ms("reference", case, "min")
            row += [
                f"{ms('reference', case, 'median'):.1f}",
                f"{ms('reference', case, 'min'):.1f}",
                f"{ratio_median:.2f}x",
                f"{ratio_min:.2f}x",
                f"<= {target}x",
            ]
        rows.append(row)
    header = [
        "what",
        "ours median ms",
        "ours min",
        "ref median ms",
        "ref min",
        "ratio (median)",
        "ratio (min)",
        "target",
    ]
    print_table(
        f"startup, {options.repeats} interleaved rounds (bare interpreter: ours "
        f"{ms('ours', 'python', 'median'):.1f} ms)",
        header[: len(rows[0])],
        rows,
    )
    if not reference:
        print("(no reference interpreter found; set TOOLSCORE_REFERENCE_PYTHON)")


if __name__ == "__main__":
    main()
