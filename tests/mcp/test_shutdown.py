"""How ``mcp test`` ends a stdio server: stdin closed, then SIGTERM, then SIGKILL.

A server that exits when its stdin closes is never signalled. One still tearing down a moment
later gets SIGTERM (the run is over; waiting for its interpreter to wind down would only keep
the user waiting), and one that ignores SIGTERM too is killed, so the command still ends.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from mcp_support import run_cli

SERVERS = Path(__file__).parent / "servers"

SCRIPT = """
import signal, sys, time
sys.path.insert(0, {servers!r})
from _stdio import serve, text_result

log = open({log!r}, "a", buffering=1)
mode = sys.argv[1]
if mode == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
else:
    def on_term(signum, frame):
        log.write("sigterm\\n")
        sys.exit(0)
    signal.signal(signal.SIGTERM, on_term)
tools = [{{"name": "echo", "description": "Echo a word back.", "inputSchema": {{"type": "object",
          "properties": {{"word": {{"type": "string", "description": "The word."}}}}}}}}]
serve("shutdown", tools, lambda name, args: text_result(args.get("word", "")))
log.write("eof\\n")
if mode != "prompt":
    time.sleep(30)  # a long teardown (slow), or none at all (stubborn)
log.write("exited\\n")
"""


def _run(tmp_path: Path, mode: str) -> tuple[list[str], float]:
    log = tmp_path / f"{mode}.log"
    script = tmp_path / "server.py"
    script.write_text(SCRIPT.format(servers=str(SERVERS), log=str(log)), encoding="utf-8")
    start = time.monotonic()
    done = run_cli(
        "mcp", "test", f"{sys.executable} {script} {mode}", "-o", str(tmp_path / "r.json")
    )
    elapsed = time.monotonic() - start
    assert done.returncode == 0, done.stderr
    return log.read_text(encoding="utf-8").split(), elapsed


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_server_that_exits_on_eof_gets_no_signal(tmp_path: Path) -> None:
    events, _ = _run(tmp_path, "prompt")
    assert events == ["eof", "exited"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_server_still_running_after_eof_gets_sigterm(tmp_path: Path) -> None:
    events, elapsed = _run(tmp_path, "slow")
    assert events == ["eof", "sigterm"]
    assert elapsed < 20  # not the 30 s its teardown would take


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_server_that_ignores_eof_and_sigterm_is_killed(tmp_path: Path) -> None:
    events, elapsed = _run(tmp_path, "stubborn")
    assert events == ["eof"]
    assert elapsed < 20
