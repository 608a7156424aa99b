"""Benchmark ``evaluate()``: ours against the reference ``tool-scorer`` 1.10.0, side by side.

Usage::

    .venv/bin/python benchmarks/bench_evaluate.py            # full run (the reference's N=10000
                                                              # takes about half a minute)
    .venv/bin/python benchmarks/bench_evaluate.py --quick    # skip the reference at N=10000

Each implementation runs in its own interpreter (ours: this one; the reference:
``$TOOLSCORE_REFERENCE_PYTHON`` or ``/opt/refvenv/bin/python``) executing this same file with
``--worker``, which generates the same seeded case and prints its median CPU time as JSON; a
fresh interpreter per case and implementation.

Cases: N = 1, 100, 1000, 10000 expected calls over 20 tool names with 3-5 arguments each
(strings, ints, floats, bools, lists and nested dicts); the actual calls are the expected ones
with wrong tool names, changed arguments, dropped calls, duplicates and swaps. Plus one tool
with 100 expected and 12 actual calls (the reference's exact search is exponential in the
actual calls of a tool). Timings exclude building the plugin manager (done once per process);
ours runs with core's built-in plugins only (``TOOLSCORE_NO_PLUGINS=1``).

Targets (issue 2): ≤ 1.0× the reference at N=1, ≤ 0.05× at N=1000, ≤ 0.01× at N=10000,
near-linear growth, and the 100×12 case under 50 ms.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

TOOLS = [f"tool_{k:02d}" for k in range(20)]
SIZES = (1, 100, 1000, 10000)


def _args(rng: random.Random) -> dict[str, Any]:
    args: dict[str, Any] = {
        "query": f"find {rng.randrange(10**6)} items",
        "limit": rng.randint(1, 1000),
    }
    optional = [
        (
            "filters",
            lambda: {
                "lang": rng.choice(["en", "de", "fr"]),
                "range": {"from": rng.randint(0, 99), "to": rng.randint(100, 999)},
            },
        ),
        ("tags", lambda: [f"t{rng.randrange(1000)}" for _ in range(rng.randint(1, 3))]),
        ("verbose", lambda: rng.random() < 0.5),
        ("threshold", lambda: round(rng.random() * 100, 3)),
    ]
    rng.shuffle(optional)
    for key, make in optional[: rng.randint(1, 3)]:
        args[key] = make()
    return args


def make_case(n: int, seed: int = 7) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``n`` expected calls and the perturbed actual calls."""
    rng = random.Random(seed)
    expected = [{"tool": rng.choice(TOOLS), "args": _args(rng)} for _ in range(n)]
    actual: list[dict[str, Any]] = []
    for call in expected:
        item = copy.deepcopy(call)
        roll = rng.random()
        if roll < 0.05:
            item["tool"] = rng.choice(TOOLS)  # wrong name
        elif roll < 0.15:
            key = rng.choice(list(item["args"]))
            item["args"][key] = "changed"  # changed argument
        elif roll < 0.18:
            actual.append(copy.deepcopy(item))  # duplicate
        elif roll < 0.20:
            continue  # dropped
        actual.append(item)
    for k in range(len(actual) - 1):
        if rng.random() < 0.03:
            actual[k], actual[k + 1] = actual[k + 1], actual[k]  # swap
    return expected, actual


def make_wide_case(seed: int = 11) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One tool: 100 expected calls, 12 actual calls (copies of some, some changed)."""
    rng = random.Random(seed)
    expected = [{"tool": "search", "args": _args(rng)} for _ in range(100)]
    actual = []
    for call in rng.sample(expected, 12):
        item = copy.deepcopy(call)
        if rng.random() < 0.3:
            item["args"]["limit"] = -1
        actual.append(item)
    return expected, actual


def _time(function: Any, *, min_seconds: float, max_repeats: int) -> tuple[float, float, Any]:
    """(best, median) CPU seconds per call over repeats, and the last call's return value.

    Each repeat loops until it lasts >= 20 ms. CPU time of the (single-threaded) worker, not
    wall time, so that other processes on a busy machine do not count against either
    implementation.
    """
    clock = time.process_time
    start = clock()
    value = function()
    once = clock() - start
    loops = max(1, int(0.02 / once)) if once < 0.02 else 1
    samples = [once] if loops == 1 else []
    deadline = clock() + min_seconds
    while len(samples) < max_repeats and (len(samples) < 3 or clock() < deadline):
        start = clock()
        for _ in range(loops):
            value = function()
        samples.append((clock() - start) / loops)
    return min(samples), statistics.median(samples), value


def worker(sizes: list[int], wide: bool) -> None:
    """Time ``toolscore.evaluate`` of whichever toolscore this interpreter imports."""
    import toolscore

    warm_e, warm_a = make_case(1)
    toolscore.evaluate(warm_e, warm_a)  # builds the plugin manager (ours) once
    out: dict[str, Any] = {}
    cases = {str(n): make_case(n) for n in sizes}
    if wide:
        cases["100x12"] = make_wide_case()
    for name, (expected, actual) in cases.items():
        big = len(expected) >= 10000
        best, median, result = _time(
            lambda e=expected, a=actual: toolscore.evaluate(e, a),
            min_seconds=0.5 if not big else 0.0,
            max_repeats=2 if big else 15,
        )
        out[name] = {"best": best * 1000, "median": median * 1000, "score": result.score}
    json.dump(out, sys.stdout)


def _run_worker(python: str, sizes: list[int], wide: bool) -> dict[str, Any]:
    argv = [python, str(Path(__file__).resolve()), "--worker", "--sizes", ",".join(map(str, sizes))]
    if wide:
        argv.append("--wide")
    # Core only: third-party metric plugins installed in the dev environment (the example
    # call-budget metric) would add their own cost to ours.
    env = {**os.environ, "TOOLSCORE_NO_PLUGINS": "1"}
    completed = subprocess.run(argv, capture_output=True, text=True, check=True, cwd="/", env=env)
    result: dict[str, Any] = json.loads(completed.stdout)
    return result


def _merge(into: dict[str, Any], run: dict[str, Any]) -> None:
    """Keep, per case, the best figure and the median of the per-round medians."""
    for name, figures in run.items():
        seen = into.setdefault(name, {"best": figures["best"], "medians": [], "score": 0.0})
        seen["best"] = min(seen["best"], figures["best"])
        seen["medians"].append(figures["median"])
        seen["score"] = figures["score"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help=argparse.SUPPRESS)
    parser.add_argument("--wide", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="skip the reference at N=10000")
    parser.add_argument(
        "--rounds", type=int, default=3, help="interleaved rounds per case (default 3)"
    )
    options = parser.parse_args()
    sizes = [int(s) for s in options.sizes.split(",") if s]
    if options.worker:
        worker(sizes, options.wide)
        return

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _common import print_table, reference_python

    # One fresh interpreter per case, implementation and round, so that no case's data sits
    # in memory (and in the garbage collector's way) while another is timed. Rounds alternate
    # ours and the reference, so that a slow spell of a shared machine hits both alike.
    ours: dict[str, Any] = {}
    theirs: dict[str, Any] = {}
    reference_path = reference_python()
    for size in [*sizes, 0]:
        case_sizes, wide = ([size], False) if size else ([], True)
        for _ in range(max(1, options.rounds)):
            _merge(ours, _run_worker(sys.executable, case_sizes, wide=wide))
            if reference_path and not (options.quick and size >= 10000):
                _merge(theirs, _run_worker(reference_path, case_sizes, wide=wide))
    rows = []
    for name in [*map(str, sizes), "100x12"]:
        mine = ours[name]
        mine_median = statistics.median(mine["medians"])
        ref = theirs.get(name)
        label = f"N={name}" if name.isdigit() else f"one tool {name.replace('x', ' vs ')}"
        if ref:
            ref_median = statistics.median(ref["medians"])
            figures = [
                f"{ref['best']:.3f}",
                f"{ref_median:.3f}",
                f"{mine['best'] / ref['best']:.4f}x",
                f"{mine_median / ref_median:.4f}x",
                f"{ref['score']:.6f}",
            ]
        else:
            figures = ["-"] * 5
        rows.append(
            [
                label,
                f"{mine['best']:.3f}",
                f"{mine_median:.3f}",
                *figures[:2],
                *figures[2:4],
                f"{mine['score']:.6f}",
                figures[4],
            ]
        )
    print_table(
        "evaluate(): CPU time per call (ms), ours vs reference tool-scorer 1.10.0 "
        f"({options.rounds} interleaved rounds; best, and median of the round medians)",
        [
            "case",
            "ours best",
            "ours median",
            "ref best",
            "ref median",
            "ratio best",
            "ratio median",
            "our score",
            "ref score",
        ],
        rows,
    )
    growth = [ours[str(n)]["best"] for n in sizes if n >= 100]
    if len(growth) >= 2:
        steps = ", ".join(f"{b / a:.1f}x" for a, b in itertools.pairwise(growth))
        print(f"\nours (best), growth per 10x more calls from N=100: {steps}")


if __name__ == "__main__":
    main()
