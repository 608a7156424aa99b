"""``mcp test`` starts a stdio server before it is ready for it, and launches it only once.

The command starts the server first so its start-up overlaps ours; the run's first connection
must take that very process over, never start a second one beside it, and a process nobody
takes over must not outlive the run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from mcp_support import run_cli

SAMPLE = Path(__file__).parents[2] / "toolscore-mcp/src/toolscore_mcp/sample_server.py"


def logging_server(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the sample server that appends its PID to a log file when it starts."""
    log = tmp_path / "launches.log"
    script = tmp_path / "logged_server.py"
    script.write_text(
        "import os, runpy, sys\n"
        f"with open({str(log)!r}, 'a') as handle:\n"
        "    handle.write(f'{os.getpid()}\\n')\n"
        f"runpy.run_path({str(SAMPLE)!r}, run_name='__main__')\n",
        encoding="utf-8",
    )
    return script, log


def launches(log: Path) -> list[int]:
    return [int(line) for line in log.read_text(encoding="utf-8").split()]


def test_the_run_takes_over_the_server_the_command_started(tmp_path: Path) -> None:
    script, log = logging_server(tmp_path)
    done = run_cli("mcp", "test", f"{sys.executable} {script}")
    assert done.returncode == 0, done.stderr
    assert "Grade B" in done.stdout
    assert len(launches(log)) == 1


def test_the_sdk_client_launches_its_own_and_nothing_is_started_ahead(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    script, log = logging_server(tmp_path)
    done = run_cli("mcp", "test", "--client", "sdk", f"{sys.executable} {script}")
    assert done.returncode == 0, done.stderr
    assert len(launches(log)) == 1


def test_a_command_that_names_the_sandbox_is_started_once_and_the_sandbox_is_removed(
    tmp_path: Path,
) -> None:
    script, log = logging_server(tmp_path)
    temp = tmp_path / "temp"
    temp.mkdir()
    done = run_cli(
        "mcp", "test", f"{sys.executable} {script} --data {{sandbox}}", env={"TMPDIR": str(temp)}
    )
    assert done.returncode == 0, done.stderr
    assert len(launches(log)) == 1
    assert list(temp.iterdir()) == []  # the sandbox it was started on is gone at exit


def test_an_unclaimed_server_is_ended(tmp_path: Path) -> None:
    from toolscore_mcp.client.prelaunch import prelaunch
    from toolscore_mcp.client.target import ServerTarget

    script, _log = logging_server(tmp_path)
    early = prelaunch(ServerTarget(command=(sys.executable, str(script))))
    assert early is not None
    popen = early.popen
    assert popen is not None
    other = ServerTarget(command=(sys.executable, str(script), "--other"))
    assert early.claim(other) is None
    early.discard()
    assert popen.poll() is not None
    early.discard()  # twice is harmless


def test_a_command_that_cannot_start_is_left_to_the_run_to_report(tmp_path: Path) -> None:
    from toolscore_mcp.client.prelaunch import prelaunch
    from toolscore_mcp.client.target import ServerTarget

    missing = str(tmp_path / "no-such-server")
    assert prelaunch(ServerTarget(command=(missing,))) is None
    done = run_cli("mcp", "test", missing)
    assert done.returncode != 0
    assert "Failed to" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def test_no_server_process_outlives_the_run(tmp_path: Path) -> None:
    script, log = logging_server(tmp_path)
    done = run_cli("mcp", "test", f"{sys.executable} {script}")
    assert done.returncode == 0, done.stderr
    for pid in launches(log):
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
