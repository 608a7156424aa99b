"""Hostile servers: what toolscore reports, and what it keeps bounded, when a server breaks
the protocol on purpose.

Every server here is a real process (tests/mcp/servers/hostile_*.py) spoken to over stdio or
HTTP on 127.0.0.1; stdio cases run with both clients (the SDK one and the lite one), which
must report the same thing.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import threading
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp_support import free_port, run_cli, server_cmd
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore_mcp.client.errors import MCPError, MCPProtocolError, MCPTimeoutError
from toolscore_mcp.client.target import ServerTarget
from toolscore_mcp.grading.harness import TestOptions, grade_server, query_server, run_sync
from toolscore_mcp.grading.scorecard import MCPScorecard

CLIENTS = pytest.mark.parametrize("client", ["sdk", "lite"])


@pytest.fixture(scope="module")
def pm() -> ToolscorePluginManager:
    import toolscore_mcp.plugin

    manager = ToolscorePluginManager()
    manager.register(toolscore_mcp.plugin, name="toolscore_mcp")
    return manager


def hostile(mode: str, *args: str) -> list[str]:
    return server_cmd("hostile_stdio_server.py", mode, *args)


def grade(
    mode: str, pm: ToolscorePluginManager, client: str, *args: str, **options: object
) -> MCPScorecard:
    target = ServerTarget(command=tuple(hostile(mode, *args)))
    settings = TestOptions(
        client=client, sandbox=False, timeout=5.0, startup_timeout=10.0, **options
    )  # type: ignore[arg-type]
    return run_sync(lambda: grade_server(target, settings, pm=pm))


def start(mode: str, client: str, startup_timeout: float = 10.0) -> MCPError:
    """The error ``mcp test`` stops with for a server that cannot start."""
    target = ServerTarget(command=tuple(hostile(mode)))
    options = TestOptions(client=client, sandbox=False, startup_timeout=startup_timeout)
    with pytest.raises(MCPError) as caught:
        run_sync(lambda: grade_server(target, options))
    return caught.value


# -- the tools list -------------------------------------------------------------------------


@CLIENTS
@pytest.mark.parametrize(
    ("mode", "rules"),
    [("no-tools", ["no-tools"]), ("null-tools", ["tools-list", "no-tools"])],
)
def test_a_server_without_usable_tools_fails(
    pm: ToolscorePluginManager, client: str, mode: str, rules: list[str]
) -> None:
    card = grade(mode, pm, client)
    assert (card.grade, card.score) == ("F", 0.0)
    assert [issue.rule for issue in card.lint] == rules
    assert all(issue.severity == "error" for issue in card.lint)
    assert card.blocking
    messages = [issue.message for issue in card.lint]
    assert "the server advertises no tools" in messages
    if mode == "null-tools":
        assert "tools/list answered without a tools list ('tools' is null)" in messages


def test_ci_fails_on_a_null_tools_list() -> None:
    done = run_cli("mcp", "test", "--ci", "--no-sandbox", *hostile("null-tools"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Grade F" in done.stdout
    assert "tools/list answered without a tools list ('tools' is null)" in done.stdout
    assert "Blocking issues found" in done.stdout


# -- JSON-RPC errors --------------------------------------------------------------------------


@CLIENTS
def test_a_json_rpc_error_answer_is_a_protocol_error_not_a_crash(
    pm: ToolscorePluginManager, client: str
) -> None:
    card = grade("rpc-error", pm, client)
    assert (card.crashes, card.restarts) == (0, 0)
    assert not any("restarted" in note for note in card.notes)
    happy = [r for r in card.results if r.scenario.kind == "happy"]
    assert happy
    for result in happy:
        assert (result.verdict, result.finding) == ("fail", "protocol-error")
        assert result.detail == (
            "JSON-RPC error -32000: backend unavailable: connection pool exhausted"
        )
        assert result.response is not None
        assert result.response.rpc_error_code == -32000
    assert {r.finding for r in card.results} <= {"protocol-error", None}


@CLIENTS
def test_an_initialize_error_shows_the_servers_message(client: str) -> None:
    error = start("init-error", client)
    assert isinstance(error, MCPProtocolError)
    assert str(error) == (
        "MCP error for 'initialize' (code=-32000): license key expired on 2024-01-01"
    )


def test_an_initialize_error_is_one_line_with_exit_code_1() -> None:
    done = run_cli("mcp", "test", "--no-sandbox", *hostile("init-error"))
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "ERROR Failed to test MCP server: MCP error for 'initialize' (code=-32000): "
        "license key expired on 2024-01-01"
    )


# -- tool definitions -----------------------------------------------------------------------

BAD_DEFINITIONS = [
    (
        "invalid-schema",
        "strange_type",
        "error",
        "inputSchema is not valid JSON Schema at type: 'strang' is not valid under any of the "
        "given schemas",
    ),
    (
        "invalid-schema",
        "numeric_properties",
        "error",
        "inputSchema is not valid JSON Schema at properties: 5 is not of type 'object'",
    ),
    ("invalid-name", "", "error", "tool name is empty"),
    (
        "invalid-name",
        "nul\x00name",
        "error",
        "tool name 'nul\\x00name' contains control characters",
    ),
    (
        "invalid-name",
        "x" * 129,
        "warning",
        f"tool name '{'x' * 40}...' is 129 characters long (the MCP limit is 128)",
    ),
    (
        "invalid-name",
        "has space",
        "warning",
        "tool name 'has space' has characters outside A-Z a-z 0-9 _ - . (' ')",
    ),
    ("duplicate-name", "twice", "error", "tool name 'twice' is advertised 2 times"),
]


@CLIENTS
def test_unusable_definitions_are_lint_findings(pm: ToolscorePluginManager, client: str) -> None:
    card = grade("bad-defs", pm, client, cases=1, edge_cases=False)
    found = [
        (i.rule, i.tool, i.severity, i.message)
        for i in card.lint
        if i.rule in ("invalid-schema", "invalid-name", "duplicate-name")
    ]
    assert found == BAD_DEFINITIONS
    # The `naming` rule keeps its own message alongside.
    assert ("naming", "tool name 'has space' is not snake_case") in [
        (i.rule, i.message) for i in card.lint
    ]
    assert card.grade != "A"
    assert card.blocking


def test_mcp_lint_reports_the_new_rules_and_exits_1() -> None:
    done = run_cli("mcp", "lint", "--json", *hostile("bad-defs"))
    assert done.returncode == 1, done.stderr
    issues = json.loads(done.stdout)["issues"]
    assert {(i["rule"], i["tool"]) for i in issues} >= {
        (rule, tool) for rule, tool, _, _ in BAD_DEFINITIONS
    }


# -- junk on stdout -----------------------------------------------------------------------


@CLIENTS
def test_binary_instead_of_an_answer_is_reported_as_junk(client: str) -> None:
    error = start("binary", client, startup_timeout=2.0)
    assert not isinstance(error, MCPTimeoutError)
    assert str(error).startswith("MCP server wrote non-JSON-RPC bytes on stdout: b'\\x89PNG\\r' (")
    assert "no answer to 'initialize' within 2.0s" in str(error)
    assert "\n" not in str(error)


@CLIENTS
def test_binary_before_a_good_session_is_a_note(pm: ToolscorePluginManager, client: str) -> None:
    card = grade("binary-then-ok", pm, client)
    assert card.grade == "A"
    assert any(
        note.startswith("the server wrote non-JSON-RPC bytes on stdout: b'\\x89PNG\\r'")
        for note in card.notes
    )


# -- stderr flood ---------------------------------------------------------------------------


class _Watch:
    """Samples this process while a run goes on: the largest regular file it holds open,
    and the open file descriptors that are files at all."""

    def __init__(self) -> None:
        self.largest_file = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> _Watch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            for entry in Path("/proc/self/fd").iterdir():
                try:
                    info = os.stat(entry)
                except OSError:
                    continue
                if stat.S_ISREG(info.st_mode):
                    self.largest_file = max(self.largest_file, info.st_size)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs Linux /proc")
@CLIENTS
def test_a_stderr_flood_stays_bounded(pm: ToolscorePluginManager, client: str) -> None:
    tracemalloc.start()
    try:
        started = time.monotonic()
        with _Watch() as watch:
            card = grade("stderr-flood", pm, client, "64", cases=1)
        elapsed = time.monotonic() - started
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # 64 MiB of stderr per server process: none of it on disk, and memory grows by far less.
    assert watch.largest_file < 1024 * 1024
    assert peak < 32 * 1024 * 1024
    assert elapsed < 60
    assert card.grade == "A"
    assert all(r.verdict == "pass" for r in card.results)


# -- HTTP servers that never speak ----------------------------------------------------------


@pytest.fixture(scope="module")
def silent_http() -> Iterator[str]:
    """http://127.0.0.1:PORT of a server that accepts SSE and POST streams, then says nothing."""
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
        yield f"http://127.0.0.1:{port}"
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize(("transport", "path"), [("sse", "/sse"), ("http", "/mcp")])
def test_a_silent_http_server_is_bounded_by_the_startup_timeout(
    silent_http: str, transport: str, path: str
) -> None:
    from toolscore_mcp.client import sdk_compat

    sdk_compat.load()  # the SDK's import time is ours, not the server's
    url = silent_http + path
    target = ServerTarget(transport=transport, url=url)  # type: ignore[arg-type]
    started = time.monotonic()

    async def bounded() -> object:
        import anyio

        with anyio.fail_after(30):  # a client that ignores the bound fails here, not hangs
            return await query_server(target, 1.0, 2.0)

    with pytest.raises(MCPTimeoutError) as caught:
        run_sync(bounded)
    elapsed = time.monotonic() - started
    assert elapsed < 2.0 + 2.0
    message = str(caught.value)
    assert "Timed out after 2.0s" in message
    assert "--startup-timeout" in message
    if transport == "sse":
        assert message == (
            f"Timed out after 2.0s connecting to MCP server at {url} (the SSE stream sent no "
            "'endpoint' event); raise the bound with --startup-timeout."
        )


def test_mcp_test_ends_when_the_sse_endpoint_never_comes(silent_http: str) -> None:
    started = time.monotonic()
    done = run_cli(
        "mcp", "test", "--no-sandbox", "--timeout", "1", "--startup-timeout", "2",
        "--url", silent_http + "/sse",
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.strip().startswith(
        f"ERROR Failed to test MCP server: Timed out after 2.0s connecting to MCP server at "
        f"{silent_http}/sse"
    )
    # Interpreter start and imports, plus the 2-second bound.
    assert time.monotonic() - started < 2.0 + 15.0
