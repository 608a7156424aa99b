"""Throughput and peak memory of ``toolscore eval-batch`` against a plain ``evaluate()`` loop.

Generates a dataset of N cases of 1-20 calls (deterministic), then times, each in a fresh
process: ``plain`` (read a line, ``json.loads``, ``toolscore.evaluate``, write the same
result line, no fsync), ``workers1`` and ``workers2`` (the local executor) and ``dask`` (a
LocalCluster of 2 workers). Prints cases/s, the parent's peak RSS and the largest child's,
and the load average at the start, as one JSON object per mode.

The machine may be shared: ``--repeat N`` runs the modes round-robin N times and ends with
one ``best`` line per mode: the fastest run, the median rate, the ratio to the fastest plain
run, and the ratio to the plain run of the same round (worst and median over the rounds), so
a run disturbed by another process shows as an outlier rather than as the result.

    python benchmarks/bench_batch.py --cases 200000 --modes plain,workers1,workers2,dask
    python benchmarks/bench_batch.py --cases 3000 --instructions   # needs valgrind
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TOOLS = ("search", "book", "pay", "email", "lookup", "cancel", "refund", "weather")


def generate(path: Path, n: int, seed: int = 7) -> None:
    rnd = random.Random(seed)
    with path.open("w", encoding="utf-8") as handle:
        for i in range(n):
            expected = [
                {"tool": rnd.choice(TOOLS), "args": {"q": rnd.randint(0, 5), "n": rnd.choice("ab")}}
                for _ in range(rnd.randint(1, 20))
            ]
            actual = []
            for call in expected:
                roll = rnd.random()
                if roll < 0.1:
                    continue
                if roll < 0.2:
                    actual.append({"tool": call["tool"], "args": {"q": -1, "n": "a"}})
                    continue
                actual.append(call)
                if roll > 0.97:
                    actual.append({"tool": rnd.choice(TOOLS), "args": {}})
            handle.write(
                json.dumps({"id": f"case-{i:07d}", "expected": expected, "actual": actual}) + "\n"
            )


def plain(dataset: Path, out: Path) -> int:
    import toolscore

    n = 0
    with dataset.open(encoding="utf-8") as source, out.open("w", encoding="utf-8") as sink:
        for line in source:
            record = json.loads(line)
            result = toolscore.evaluate(record["expected"], record["actual"])
            sink.write(
                json.dumps(
                    {"id": record["id"], "score": result.score, "grade": result.grade,
                     "metrics": result.metrics}, default=repr
                ) + "\n"
            )  # fmt: skip
            n += 1
    return n


def batch(dataset: Path, out: Path, workers: int, executor: str) -> int:
    from toolscore.batch import evaluate_dataset

    run = evaluate_dataset(dataset, workers=workers, executor=executor, out=out)
    return run.finish().cases


def child(mode: str, dataset: Path, out: Path) -> None:
    start = time.perf_counter()
    if mode == "plain":
        n = plain(dataset, out)
    elif mode == "dask":
        n = batch(dataset, out, 2, "dask")
    else:
        n = batch(dataset, out, int(mode.removeprefix("workers")), "local")
    elapsed = time.perf_counter() - start
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    print(
        json.dumps(
            {
                "mode": mode,
                "cases": n,
                "seconds": round(elapsed, 2),
                "cases_per_s": round(n / elapsed, 1),
                # CPU seconds of this process and its children (pool workers; not Dask's
                # nanny-spawned workers): the work done, whatever the machine's load.
                "cpu_seconds": round(cpu, 2),
                "parent_peak_rss_mb": round(
                    resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1
                ),
                "largest_child_peak_rss_mb": round(
                    resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1
                ),
            }
        ),
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200_000)
    parser.add_argument("--modes", default="plain,workers1,workers2,dask")
    parser.add_argument("--repeat", type=int, default=1, help="rounds over the modes")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions per case under valgrind (plain and workers1) instead of timing",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--dataset", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.dataset, args.out)
        return
    if args.instructions:
        instructions(args.cases)
        return
    with tempfile.TemporaryDirectory() as tmp:
        dataset = Path(tmp) / f"cases-{args.cases}.jsonl"
        generate(dataset, args.cases)
        print(json.dumps({"cases": args.cases, "dataset_mb": round(dataset.stat().st_size / 2**20, 1),
                          "cpus": os.cpu_count()}), flush=True)  # fmt: skip
        modes = args.modes.split(",")
        runs: dict[str, list[dict[str, Any]]] = {mode: [] for mode in modes}
        for _round in range(args.repeat):
            for mode in modes:
                # The previous run's output (650 MB at 200k cases) is still being written back;
                # flushed now, it does not compete with the next run for the CPUs and the disk.
                os.sync()
                load = os.getloadavg()
                print(
                    json.dumps({"mode": mode, "load_before": [round(x, 2) for x in load]}),
                    flush=True,
                )
                proc = subprocess.run(
                    [sys.executable, __file__, "--child", mode, "--dataset", str(dataset),
                     "--out", str(Path(tmp) / f"{mode}.jsonl")],
                    check=True, stdout=subprocess.PIPE, text=True,
                )  # fmt: skip
                print(proc.stdout, end="", flush=True)
                row = json.loads(proc.stdout.strip().splitlines()[-1])
                row["load_before"] = [round(x, 2) for x in load]
                runs[mode].append(row)
        if args.repeat > 1:
            for line in summarize(runs):
                print(json.dumps(line), flush=True)


def instructions(cases: int) -> None:
    """Instructions per case of ``plain`` and ``workers1``, counted by valgrind's callgrind.

    A count does not move with the machine's load or clock, which on a shared VM swing a
    timed run by 10-20 %. Each mode runs on ``cases`` and on a third as many; the difference
    divided by the difference in cases is the per-case cost, start-up excluded. Takes a few
    minutes (callgrind runs code about 50 times slower).
    """
    small = max(1, cases // 3)
    with tempfile.TemporaryDirectory() as tmp:
        sizes = {n: Path(tmp) / f"cases-{n}.jsonl" for n in (small, cases)}
        for n, path in sizes.items():
            generate(path, n)
        counts: dict[tuple[str, int], int] = {}
        for mode in ("plain", "workers1"):
            for n, path in sizes.items():
                out = Path(tmp) / f"callgrind-{mode}-{n}.out"
                subprocess.run(
                    ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                     sys.executable, __file__, "--child", mode, "--dataset", str(path),
                     "--out", str(Path(tmp) / f"{mode}.jsonl")],
                    check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )  # fmt: skip
                summary = next(
                    line for line in out.read_text().splitlines() if line.startswith("summary:")
                )
                counts[mode, n] = int(summary.split()[1])
        per_case = {
            mode: (counts[mode, cases] - counts[mode, small]) / (cases - small)
            for mode in ("plain", "workers1")
        }
        print(json.dumps({
            "instructions_per_case": {mode: round(value) for mode, value in per_case.items()},
            "workers1_vs_plain": round(per_case["workers1"] / per_case["plain"], 4),
            "startup_instructions": {
                mode: round(counts[mode, small] - small * per_case[mode])
                for mode in ("plain", "workers1")
            },
        }), flush=True)  # fmt: skip


def summarize(runs: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """One line per mode: its best and median rate, and its ratio to the plain loop.

    ``vs_plain`` compares bests; ``vs_plain_paired`` is the ratio to the plain run of the
    same round (the two met the same load), as its worst and median over the rounds.
    """
    plain = runs.get("plain") or []
    out = []
    for mode, rows in runs.items():
        rates = [float(row["cases_per_s"]) for row in rows]
        best = max(rows, key=lambda row: float(row["cases_per_s"]))
        line: dict[str, Any] = {
            "best": mode,
            **best,
            "median_cases_per_s": round(statistics.median(rates), 1),
            "rounds": len(rows),
        }
        if plain:
            plain_best = max(float(row["cases_per_s"]) for row in plain)
            paired = [rate / float(p["cases_per_s"]) for rate, p in zip(rates, plain)]
            line["vs_plain"] = round(float(best["cases_per_s"]) / plain_best, 3)
            line["vs_plain_paired"] = {
                "worst": round(min(paired), 3),
                "median": round(statistics.median(paired), 3),
            }
        out.append(line)
    return out


if __name__ == "__main__":
    main()
