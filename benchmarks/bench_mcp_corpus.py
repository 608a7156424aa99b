"""``mcp test`` on the whole real-server corpus, ours and the reference tool-scorer 1.10.0.

For each of the pinned real servers in ``tests/mcp/real/servers`` (installed by
``tests/mcp/real/install.py``), time one full ``toolscore mcp test`` run of ours and one of the
reference, interleaved round by round so both meet the same machine load, and report the best
and median wall time and the peak memory (max RSS of the ``toolscore`` process) per server and
for the whole corpus. Target (issue 24): ours at most 0.6x the reference's corpus wall
time, with the extra probes; no slower on any server with fewer than 5 tools.

Both run from compiled bytecode: a warm-up run of each precedes the timed rounds (and
``PYTHONDONTWRITEBYTECODE`` is removed from their environment).

The jobs are the same where they can be: the same server command and environment, the same
per-call timeout. ``{sandbox}`` in a command is ours to fill; the reference knows no sandbox,
so each reference run gets a sandbox made the same way (``toolscore_mcp.sandbox.sandbox``) and the
literal paths. The reference does not pass environment variables to a stdio server itself, so
the manifest's ``env`` goes into its process environment (and through ``--env`` to ours).

    uv run python benchmarks/bench_mcp_corpus.py --install-dir /tmp/mcp-real [--rounds 3]
        [--timeout 30] [--servers time,git,...]

The reference runs from ``$TOOLSCORE_REFERENCE_PYTHON -m toolscore.cli`` (``.ci/run`` and
``nox -s bench`` make that venv).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SERVERS = ROOT / "tests" / "mcp" / "real" / "servers"
INSTALL = ROOT / "tests" / "mcp" / "real" / "install.py"
#: A run that takes longer than this is stopped and counted at this value.
RUN_CAP_SECONDS = 900.0


def ours() -> list[str]:
    exe = Path(sys.executable).parent / "toolscore"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "toolscore"]


def reference() -> list[str]:
    python = os.environ.get("TOOLSCORE_REFERENCE_PYTHON")
    if not python:
        raise SystemExit("set TOOLSCORE_REFERENCE_PYTHON to the reference venv's python")
    return [python, "-m", "toolscore.cli"]


def install(directory: Path) -> str:
    """Install the corpus (a no-op when it is already there); return its PATH fragment."""
    done = subprocess.run(
        [sys.executable, str(INSTALL), str(directory)],
        stdout=subprocess.PIPE,
        text=True,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1]


def timed(argv: Sequence[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one run in ``cwd``, capped at
    :data:`RUN_CAP_SECONDS`."""
    start = time.perf_counter()
    # Its own session: a server that signals its process group (a kill tool sent pid 0 by the
    # reference) ends that run, never this benchmark.
    process = subprocess.Popen(
        argv,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=cwd,
        start_new_session=True,
    )
    deadline = start + RUN_CAP_SECONDS
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            process.returncode = os.waitstatus_to_exitcode(status)
            break
        if time.perf_counter() > deadline:
            os.killpg(process.pid, signal.SIGKILL)
            _, _, usage = os.wait4(process.pid, 0)
            break
        time.sleep(0.02)
    elapsed = min(time.perf_counter() - start, RUN_CAP_SECONDS)
    return elapsed, usage.ru_maxrss / 1024


def _env(bin_path: str, extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PATH"] = os.pathsep.join([bin_path, env.get("PATH", "")])
    env.update(extra)
    return env


def runs_for(manifest: dict[str, Any], bin_path: str, timeout: str) -> tuple[Any, Any]:
    """Two callables, one run of ours and one of the reference, on this server."""
    from toolscore_mcp.sandbox.sandbox import Sandbox

    command: list[str] = manifest["command"]
    server_env: dict[str, str] = manifest.get("env", {})

    def run_ours() -> tuple[float, float]:
        argv = [*ours(), "mcp", "test", "--timeout", timeout]
        for key, value in server_env.items():
            argv += ["--env", f"{key}={value}"]
        with tempfile.TemporaryDirectory(prefix="bench-ours-") as folder:
            return timed([*argv, "--", *command], _env(bin_path, {}), Path(folder))

    def run_reference() -> tuple[float, float]:
        with Sandbox.create() as sandbox:
            literal = [sandbox.substitute(word) for word in command]
            env = {k: sandbox.substitute(v) for k, v in server_env.items()}
            line = subprocess.list2cmdline(literal)
            argv = [*reference(), "mcp", "test", line, "--timeout", timeout]
            # In its sandbox: the reference's servers write files into their working
            # directory (an empty file name became '.docx' in the checkout).
            return timed(argv, _env(bin_path, env), sandbox.root)

    return run_ours, run_reference


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--install-dir", type=Path, default=Path("/tmp/mcp-real"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--timeout", default="30")
    parser.add_argument("--servers", default="", help="comma-separated manifest names")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    names = [n for n in args.servers.split(",") if n]
    manifests = [
        json.loads(p.read_text(encoding="utf-8"))
        for p in sorted(SERVERS.glob("*.json"))
        if not names or p.stem in names
    ]
    bin_path = install(args.install_dir)
    rows: list[dict[str, Any]] = []
    print(f"{'server':22} {'ours best/median':>18} {'ref best/median':>18} {'ratio':>6}"
          f" {'RSS ours/ref MiB':>17}")  # fmt: skip
    for manifest in manifests:
        run_ours, run_reference = runs_for(manifest, bin_path, args.timeout)
        run_ours(), run_reference()  # warm-up: bytecode, npm caches
        mine: list[tuple[float, float]] = []
        theirs: list[tuple[float, float]] = []
        for _ in range(args.rounds):
            mine.append(run_ours())
            theirs.append(run_reference())
        row = {
            "server": manifest["name"],
            "ours_best": min(t for t, _ in mine),
            "ours_median": statistics.median(t for t, _ in mine),
            "ref_best": min(t for t, _ in theirs),
            "ref_median": statistics.median(t for t, _ in theirs),
            "ours_rss": max(m for _, m in mine),
            "ref_rss": max(m for _, m in theirs),
        }
        rows.append(row)
        print(
            f"{row['server']:22} {row['ours_best']:8.2f}/{row['ours_median']:7.2f}s"
            f" {row['ref_best']:8.2f}/{row['ref_median']:7.2f}s"
            f" {row['ours_median'] / row['ref_median']:5.2f}x"
            f" {row['ours_rss']:8.0f}/{row['ref_rss']:<8.0f}",
            flush=True,
        )
    ours_total = sum(r["ours_median"] for r in rows)
    ref_total = sum(r["ref_median"] for r in rows)
    ratio = ours_total / ref_total if ref_total else float("nan")
    verdict = "ok" if ratio <= 0.6 else "MISSED"
    print(f"{'corpus (sum of medians)':22} {ours_total:17.2f}s {ref_total:17.2f}s {ratio:5.2f}x"
          f"  target <= 0.6x {verdict}")  # fmt: skip
    print(f"(cpus: {os.cpu_count()}, load: {os.getloadavg()[0]:.1f}, rounds: {args.rounds})")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "ratio": ratio}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
