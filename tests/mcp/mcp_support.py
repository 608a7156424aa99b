"""Helpers shared by the toolscore-mcp tests (a module, not a package: ``tests/mcp`` must not
shadow the ``mcp`` SDK)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
SERVERS = HERE / "servers"
FIXTURES = HERE / "fixtures"
CLI_SCRIPT = SERVERS / "run_cli.py"


def server_cmd(name: str, *args: str) -> list[str]:
    """argv that runs one of the test servers with this interpreter."""
    return [sys.executable, str(SERVERS / name), *args]


def run_cli(
    *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """Run ``toolscore ARGS`` in a subprocess, as a user would in a CI log: output piped and
    no ``COLUMNS`` (pytest sets one), so no line is folded however long its paths are."""
    base = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    return subprocess.run(
        [sys.executable, str(CLI_SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**base, **(env or {})},
        check=False,
    )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
