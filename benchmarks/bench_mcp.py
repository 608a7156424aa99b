"""toolscore-mcp timings, ours and the reference tool-scorer 1.10.0 side by side.

1. ``toolscore demo``: target, ours no slower than the reference's demo (ratio <= 1.0).
2. ``toolscore mcp test`` on a server with 5 tools that each take 200 ms (30 scenarios);
   target: ours at most 0.5x the reference, thanks to concurrent scenarios.

The two products run in turns (ours, the reference, ours, ...), each round after one warm-up
run that also writes bytecode, with ``PYTHONDONTWRITEBYTECODE`` removed from the environment:
a user's install runs from compiled bytecode, so a shell that sets it would time our sources
being recompiled on every run. Best and median of the rounds are printed, and the ratio of
each. The reference comes from ``$TOOLSCORE_REFERENCE_PYTHON`` or the usual places
(``benchmarks/_common.py``).

    python benchmarks/bench_mcp.py [--rounds N] [--only demo]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _common import reference_python

ROOT = Path(__file__).resolve().parents[1]
SLOW_SERVER = ROOT / "tests" / "mcp" / "servers" / "slow5_server.py"


def ours() -> list[str]:
    exe = Path(sys.executable).parent / "toolscore"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "toolscore"]


def reference() -> list[str] | None:
    python = reference_python()
    if python is None:
        return None
    exe = Path(python).parent / "toolscore"
    return [str(exe)] if exe.exists() else [python, "-m", "toolscore.cli"]


def interleaved(commands: dict[str, list[str]], rounds: int) -> dict[str, list[float]]:
    """Wall times of each command, run in turns ``rounds`` times after one warm-up each."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for argv in commands.values():
        subprocess.run(argv, capture_output=True, env=env, check=False)
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, argv in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, capture_output=True, env=env, check=False)
            times[name].append(time.perf_counter() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--only", choices=("demo", "slow"), default=None)
    args = parser.parse_args()
    ref = reference()
    slow = f"{sys.executable} {SLOW_SERVER}"
    rows = [
        ("demo", "toolscore demo", ["demo"], 1.0, args.rounds),
        (
            "slow",
            "mcp test, 5 tools x 200 ms",
            ["mcp", "test", slow],
            0.5,
            max(3, args.rounds // 5),
        ),
    ]
    print(f"{'benchmark':28} {'ours best/median':>17} {'reference':>17} {'ratio':>11}  target")
    for key, name, command, target, rounds in rows:
        if args.only and key != args.only:
            continue
        commands = {"ours": [*ours(), *command]}
        if ref:
            commands["reference"] = [*ref, *command]
        times = interleaved(commands, rounds)
        mine = times["ours"]
        theirs = times.get("reference", [float("nan")])
        best = min(mine) / min(theirs)
        median = statistics.median(mine) / statistics.median(theirs)
        verdict = "ok" if median <= target else "MISSED"
        print(
            f"{name:28} {min(mine):7.3f}/{statistics.median(mine):.3f}s "
            f"{min(theirs):7.3f}/{statistics.median(theirs):.3f}s "
            f"{best:5.2f}/{median:.2f}x  <= {target:.1f}x {verdict}"
        )
    print(f"(rounds: {args.rounds}, cpus: {os.cpu_count()}, load: {os.getloadavg()[0]:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
