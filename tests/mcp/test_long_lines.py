"""The small stdio client reads a long line in time linear in its length, up to its cap.

The server is a real process (tests/mcp/servers/huge_result_server.py) that writes one
JSON-RPC line of many MiB; what is timed is the client reading and parsing it.
"""

from __future__ import annotations

import time

import pytest
from mcp_support import run_cli, server_cmd
from toolscore_mcp.client.errors import MCPOversizeError
from toolscore_mcp.client.lite import MAX_LINE_BYTES, LiteConnection
from toolscore_mcp.client.target import ServerTarget
from toolscore_mcp.grading.harness import run_sync

MIB = 1024 * 1024


def _target(megabytes: float) -> ServerTarget:
    return ServerTarget(command=tuple(server_cmd("huge_result_server.py", str(megabytes))))


def test_a_32_mib_result_is_read_in_under_3_seconds() -> None:
    async def call() -> tuple[int, float]:
        async with LiteConnection(_target(32), timeout=30.0, startup_timeout=20.0) as conn:
            started = time.monotonic()
            result = await conn.call_tool("long_text", {})
            elapsed = time.monotonic() - started
            return len(result.content[0]["text"]), elapsed

    length, elapsed = run_sync(call)
    assert length == 32 * MIB
    assert elapsed < 3.0


def test_a_line_past_the_cap_fails_that_call_at_once_and_the_session_goes_on() -> None:
    megabytes = MAX_LINE_BYTES / MIB + 1

    async def call() -> tuple[str, float, bool]:
        async with LiteConnection(_target(megabytes), timeout=60.0, startup_timeout=20.0) as conn:
            started = time.monotonic()
            with pytest.raises(MCPOversizeError) as caught:
                await conn.call_tool("long_text", {})
            elapsed = time.monotonic() - started
            return str(caught.value), elapsed, await conn.ping(5.0)

    message, elapsed, alive = run_sync(call)
    assert message == (
        "MCP server sent a message longer than 64 MiB while 'tools/call' was waiting; "
        "it was dropped."
    )
    assert elapsed < 20.0  # not the 60-second request timeout
    assert alive


def test_mcp_test_grades_a_server_with_a_32_mib_answer() -> None:
    started = time.monotonic()
    done = run_cli(
        "mcp", "test", "--no-sandbox", "--timeout", "30",
        *server_cmd("huge_result_server.py", "32"),
        timeout=120,
    )  # fmt: skip
    assert "long_text" in done.stdout, done.stderr
    assert "Traceback" not in done.stderr
    assert time.monotonic() - started < 60
