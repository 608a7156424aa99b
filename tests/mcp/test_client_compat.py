"""The client on either ``mcp`` SDK major, MCP roots, and the start-up timeout.

This module runs under mcp 2.x (``tests(package='toolscore-mcp')``) and 1.x (``mcp_sdk1``);
so does the rest of tests/mcp, which covers the transports and error paths on both.
"""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from mcp_support import server_cmd
from toolscore_mcp.client import sdk_compat
from toolscore_mcp.client.errors import MCPProtocolError, MCPTimeoutError
from toolscore_mcp.client.lite import LiteConnection
from toolscore_mcp.client.session import MCPConnection
from toolscore_mcp.client.target import ServerTarget
from toolscore_mcp.grading.harness import run_sync
from toolscore_mcp.model import MCPToolResult, ServerDetails

CLIENTS = {"sdk": MCPConnection, "lite": LiteConnection}


def _connect(client: str, target: ServerTarget, **options: Any) -> Any:
    connection: Any = CLIENTS[client](target, **options)
    return connection


async def _call(
    client: str, target: ServerTarget, tool: str, args: dict[str, Any], **options: Any
) -> tuple[ServerDetails, MCPToolResult]:
    async with _connect(client, target, **options) as connection:
        return connection.details, await connection.call_tool(tool, args)


def _roots_answer(client: str, roots: tuple[str, ...]) -> dict[str, Any]:
    target = ServerTarget(command=tuple(server_cmd("roots_server.py")), roots=roots)
    _, result = run_sync(lambda: _call(client, target, "roots", {}, timeout=20))
    assert not result.is_error, result.content
    answer: dict[str, Any] = json.loads(result.content[0]["text"])
    return answer


def test_the_major_is_told_by_features_and_agrees_with_the_version() -> None:
    sdk_compat.load()
    assert sdk_compat.uses_dispatcher() == version("mcp").startswith("2.")
    assert sdk_compat.http_library().__name__ == ("httpx2" if version("mcp")[0] == "2" else "httpx")


def test_error_codes_are_read_from_either_majors_errors() -> None:
    modern = Exception("2.x MCPError: the code on the exception")
    modern.code = -32602  # type: ignore[attr-defined]
    legacy = Exception("1.x McpError: the code on its ErrorData")
    legacy.error = SimpleNamespace(code=-32601)  # type: ignore[attr-defined]
    assert sdk_compat.error_code(modern) == -32602
    assert sdk_compat.error_code(legacy) == -32601
    assert sdk_compat.error_code(ValueError("x")) is None
    assert sdk_compat.error_code(sdk_compat.ConnectionLost()) == sdk_compat.CONNECTION_CLOSED


@pytest.mark.parametrize("client", ["sdk", "lite"])
def test_roots_are_announced_as_file_uris_named_after_the_directory(
    client: str, tmp_path: Path
) -> None:
    first, second = tmp_path / "project", tmp_path / "data dir"
    first.mkdir()
    second.mkdir()
    answer = _roots_answer(client, (str(first), str(second)))
    assert answer == {
        "declared": True,
        "roots": [
            {"uri": first.as_uri(), "name": "project"},
            {"uri": second.as_uri(), "name": "data dir"},
        ],
    }
    assert answer["roots"][1]["uri"].endswith("/data%20dir")


@pytest.mark.parametrize("client", ["sdk", "lite"])
def test_without_roots_both_clients_still_declare_the_capability_with_none(client: str) -> None:
    # Servers offer some tools only to clients that support roots: both clients must see
    # the same tool list.
    assert _roots_answer(client, ()) == {"declared": True, "roots": []}


def test_root_entries_take_a_relative_path_from_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    entries = ServerTarget(roots=("work",)).root_entries()
    assert entries == [{"uri": (tmp_path / "work").as_uri(), "name": "work"}]


@pytest.mark.parametrize("client", ["sdk", "lite"])
def test_a_slow_start_fits_the_start_up_timeout_while_calls_keep_theirs(client: str) -> None:
    target = ServerTarget(command=tuple(server_cmd("slow_start_server.py", "2")))
    details, result = run_sync(
        lambda: _call(client, target, "echo", {"text": "hi"}, timeout=1.0, startup_timeout=10.0)
    )
    assert details.name == "slow-start"
    assert (result.is_error, result.content) == (False, [{"type": "text", "text": "hi"}])


@pytest.mark.parametrize("client", ["sdk", "lite"])
def test_a_start_slower_than_the_start_up_timeout_names_the_option(client: str) -> None:
    target = ServerTarget(command=tuple(server_cmd("slow_start_server.py", "2")))
    with pytest.raises(MCPTimeoutError) as caught:
        run_sync(lambda: _call(client, target, "echo", {}, timeout=30.0, startup_timeout=1.0))
    message = str(caught.value)
    assert message.startswith("Timed out after 1.0s waiting for response to 'initialize'.")
    assert "start-up timeout" in message
    assert "--startup-timeout" in message
    assert "\n" not in message


def test_the_per_call_timeout_is_the_calls_own_after_start_up() -> None:
    target = ServerTarget(command=tuple(server_cmd("misbehaving_server.py", "--only=hang")))

    async def hang() -> None:
        async with MCPConnection(target, timeout=0.5, startup_timeout=20.0) as connection:
            await connection.call_tool("hang", {})

    with pytest.raises(MCPTimeoutError) as caught:
        run_sync(hang)
    assert str(caught.value) == "Timed out after 0.5s waiting for response to 'tools/call'."


def test_json_rpc_errors_keep_their_code_and_results_stay_raw() -> None:
    target = ServerTarget(command=tuple(server_cmd("slow_start_server.py", "0")))

    async def probe() -> tuple[dict[str, Any], MCPProtocolError]:
        async with MCPConnection(target, timeout=10) as connection:
            listed = await connection.request("tools/list", None)
            try:
                await connection.request("no/such/method", {"x": None})
            except MCPProtocolError as exc:
                return listed, exc
            raise AssertionError("no error")

    listed, error = run_sync(probe)
    assert listed == {
        "tools": [
            {
                "name": "echo",
                "description": "Repeat the given text back unchanged.",
                "inputSchema": {
                    "type": "object",
                    "properties": {"text": {"type": "string"}},
                    "required": ["text"],
                },
            }
        ]
    }
    assert (error.code, error.rpc_message) == (-32601, "Method not found: no/such/method")
    assert str(error) == (
        "MCP error for 'no/such/method' (code=-32601): Method not found: no/such/method"
    )


@pytest.mark.parametrize("transport", ["http", "sse"])
def test_a_refused_handshake_over_http_reads_the_same_on_either_major(transport: str) -> None:
    # 1.x's streamable HTTP transport and both majors' SSE raise the HTTP error itself (2.x's
    # streamable HTTP answers with a JSON-RPC error instead): the message is alike.
    refused = Exception("Client error '401 Unauthorized'")
    refused.response = SimpleNamespace(status_code=401)  # type: ignore[attr-defined]
    connection = MCPConnection(ServerTarget(transport=transport, url="http://127.0.0.1:9/mcp"))
    assert str(connection._launch_error(refused)) == (
        "MCP error for 'initialize' (HTTP 401): http://127.0.0.1:9/mcp refused the handshake"
        " (check the URL, and any --header the server needs for authentication)"
    )


@pytest.mark.parametrize("client", ["sdk", "lite"])
def test_both_clients_follow_tool_pages_and_answer_the_servers_requests(client: str) -> None:
    target = ServerTarget(command=tuple(server_cmd("files_server.py", "--paged")))

    async def session() -> tuple[list[str], dict[str, Any]]:
        async with _connect(client, target) as connection:
            tools = await connection.list_tools()
            result = await connection.call_tool("probe_client", {}, 20)
            return [t.name for t in tools], json.loads(result.content[0]["text"])

    names, answers = run_sync(session)
    assert names == ["read_text_file", "shout", "probe_client"]  # one per page
    assert answers["s-ping"] == {}
    # Sampling is not a capability we declare: declined with an error, never left hanging.
    assert isinstance(answers["s-sample"].get("code"), int)
    assert "message" in answers["s-sample"]
