"""toolscore-mcp timings, ours and the reference tool-scorer 1.10.0 side by side.

1. ``toolscore demo`` wall time (target: 1.5 s or less).
2. ``toolscore mcp test`` on a server with 5 tools that each take 200 ms (30 scenarios);
   target: ours at most 0.5x the reference, thanks to concurrent scenarios.

The reference runs from ``/opt/refvenv/bin/toolscore`` or ``$TOOLSCORE_REFERENCE_PYTHON -m
toolscore.cli``. Run: ``python benchmarks/bench_mcp.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SLOW_SERVER = ROOT / "tests" / "mcp" / "servers" / "slow5_server.py"


def ours() -> list[str]:
    exe = Path(sys.executable).parent / "toolscore"
    return (
        [str(exe)]
        if exe.exists()
        else [sys.executable, "-c", "from toolscore.cli import main; main()"]
    )


def reference() -> list[str] | None:
    python = os.environ.get("TOOLSCORE_REFERENCE_PYTHON")
    if python:
        return [python, "-m", "toolscore.cli"]
    exe = Path("/opt/refvenv/bin/toolscore")
    return [str(exe)] if exe.exists() else None


def wall(argv: list[str], repeat: int) -> float:
    """Median wall time of ``argv`` (after one warm-up run that also compiles bytecode)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(argv, capture_output=True, env=env, check=False)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, env=env, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ref = reference()
    slow = f"{sys.executable} {SLOW_SERVER}"
    rows = [
        ("toolscore demo", ["demo"], 1.5, None),
        ("mcp test, 5 tools x 200 ms", ["mcp", "test", slow], None, 0.5),
    ]
    print(f"{'benchmark':32} {'ours':>9} {'reference':>10} {'ratio':>7}  target")
    for name, command, absolute, ratio_target in rows:
        mine = wall([*ours(), *command], args.repeat)
        theirs = wall([*ref, *command], args.repeat) if ref else float("nan")
        ratio = mine / theirs if ref else float("nan")
        target = f"<= {absolute:.1f} s" if absolute else f"<= {ratio_target:.1f}x"
        met = (mine <= absolute) if absolute else (ratio <= (ratio_target or 0))
        print(
            f"{name:32} {mine:8.2f}s {theirs:9.2f}s {ratio:6.2f}x  {target} {'ok' if met else 'MISSED'}"
        )
    if shutil.which("nproc"):
        print(f"(cpus: {os.cpu_count()}, load: {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
