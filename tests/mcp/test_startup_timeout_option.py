"""``--startup-timeout`` on every command that talks to a server (list, lint, lock, diff,
record), not only ``mcp test``.

The SSE server is a real local HTTP server on 127.0.0.1 (tests/mcp/servers/hostile_http_server.py)
that accepts the SSE connection and never sends its ``endpoint`` event; the record case uses a
real stdio server that takes longer to start than allowed.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp_support import CLI_SCRIPT, free_port, run_cli, server_cmd


@pytest.fixture(scope="module")
def silent_sse() -> Iterator[str]:
    """The /sse URL of a server that accepts the SSE stream, then never sends a byte."""
    port = free_port()
    process = subprocess.Popen(
        server_cmd("hostile_http_server.py", str(port)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/sse"
    finally:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def lock_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lock") / "mcp.lock.json"
    done = run_cli("mcp", "lock", "-o", str(path), *server_cmd("slow_start_server.py", "0"))
    assert done.returncode == 0, done.stderr
    return path


@pytest.mark.parametrize(
    ("command", "verb"),
    [(["list"], "query"), (["lint"], "query"), (["lock", "-o", "{tmp}/x.json"], "query")],
)
def test_the_sse_endpoint_wait_honours_startup_timeout(
    silent_sse: str, tmp_path: Path, command: list[str], verb: str
) -> None:
    args = [part.replace("{tmp}", str(tmp_path)) for part in command]
    started = time.monotonic()
    done = run_cli(
        "mcp", *args, "--timeout", "5", "--startup-timeout", "2", "--url", silent_sse,
        timeout=60,
    )  # fmt: skip
    elapsed = time.monotonic() - started
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"ERROR Failed to {verb} MCP server: Timed out after 2.0s connecting to MCP server at "
        f"{silent_sse} (the SSE stream sent no 'endpoint' event); raise the bound with "
        "--startup-timeout."
    )
    # Interpreter start and imports, plus the 2-second bound; far from the 60-second default.
    assert elapsed < 2.0 + 15.0


def test_diff_against_a_live_server_honours_startup_timeout(
    silent_sse: str, lock_file: Path
) -> None:
    started = time.monotonic()
    done = run_cli(
        "mcp", "diff", str(lock_file), "--timeout", "5", "--startup-timeout", "2",
        "--url", silent_sse,
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 1
    assert "Timed out after 2.0s connecting to MCP server" in done.stderr
    assert time.monotonic() - started < 2.0 + 15.0


@pytest.mark.parametrize("command", ["list", "lint", "lock", "diff", "record"])
def test_every_server_command_offers_startup_timeout(command: str) -> None:
    done = run_cli("mcp", command, "--help")
    assert "--startup-timeout" in done.stdout


def test_record_answers_initialize_with_an_error_past_startup_timeout(tmp_path: Path) -> None:
    output = tmp_path / "session.json"
    process = subprocess.Popen(
        [
            sys.executable, str(CLI_SCRIPT), "mcp", "record", "-o", str(output),
            "--startup-timeout", "1", *server_cmd("slow_start_server.py", "30"),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    assert process.stdin is not None
    assert process.stdout is not None
    started = time.monotonic()
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
    process.stdin.write(json.dumps(initialize).encode() + b"\n")
    process.stdin.flush()
    try:
        answer = json.loads(process.stdout.readline())
        elapsed = time.monotonic() - started
    finally:
        process.stdin.close()
        process.wait(timeout=30)
    assert process.stderr is not None
    stderr = process.stderr.read()
    assert answer["id"] == 1
    assert answer["error"]["message"] == (
        "toolscore mcp record: Timed out after 1.0s waiting for the MCP server to answer "
        "'initialize'."
    )
    assert elapsed < 1.0 + 15.0
    assert b"Timed out after 1.0s" in stderr
