"""The scorecard against real servers: the sample server, a misbehaving one, HTTP and SSE."""

from __future__ import annotations

import pytest
from mcp_support import server_cmd
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore_mcp.client.errors import MCPConnectionClosed, MCPError, MCPTimeoutError
from toolscore_mcp.client.target import ServerTarget
from toolscore_mcp.grading.harness import TestOptions, grade_server, query_server, run_sync
from toolscore_mcp.grading.scorecard import MCPScorecard


@pytest.fixture(scope="module")
def pm() -> ToolscorePluginManager:
    import toolscore_mcp.plugin

    manager = ToolscorePluginManager()
    manager.register(toolscore_mcp.plugin, name="toolscore_mcp")
    return manager


def grade(argv: list[str], pm: ToolscorePluginManager, **options: object) -> MCPScorecard:
    target = ServerTarget(command=tuple(argv))
    return run_sync(lambda: grade_server(target, TestOptions(**options), pm=pm))  # type: ignore[arg-type]


def by_tool(card: MCPScorecard) -> dict[str, list]:
    grouped: dict[str, list] = {}
    for result in card.results:
        grouped.setdefault(result.scenario.tool, []).append(result)
    return grouped


@pytest.mark.parametrize("client", ["sdk", "lite"])
def test_sample_server_grades_b_with_three_top_issues(
    sample_cmd: list[str], pm: ToolscorePluginManager, client: str
) -> None:
    card = grade(sample_cmd, pm, client=client)
    # Distinct argument sets only: a tool with one meaningful set is called once.
    assert (card.grade, round(card.score, 3)) == ("B", 0.853)
    assert (
        round(card.happy_pass_rate, 3),
        card.edge_resilience_rate,
        round(card.lint_score, 2),
    ) == (
        0.778,
        1.0,
        0.93,
    )
    # export_notes is broken: no A, whatever the score.
    assert [(cap.letter, cap.reason) for cap in card.grade_caps()] == [("B", "1 broken tool(s)")]
    assert [(s.name, s.passed, s.total) for s in card.tool_summaries()] == [
        ("create_note", 5, 5),
        ("list_notes", 5, 5),
        ("search_notes", 4, 4),
        ("delete_note", 2, 2),
        ("export_notes", 3, 5),
    ]
    export = [r for r in card.results if r.scenario.tool == "export_notes"]
    # "Output format: json or markdown." gives the values; the failure is the server's.
    assert [r.scenario.arguments["format"] for r in export if r.scenario.kind == "happy"] == [
        "json",
        "markdown",
    ]
    assert {r.category for r in export if r.scenario.kind == "happy"} == {"defect"}
    assert [(f.tool, f.problem) for f in card.fixes()] == [
        ("export_notes", "fails on valid input (export failed: storage backend not configured)"),
        ("delete_note", "property 'note_id' is missing a 'type'"),
        ("search_notes", "description is very short (< 10 chars)"),
    ]
    assert (card.server.name, card.server.version, card.server.capabilities) == (
        "notes-server",
        "1.0.0",
        {"tools": {}},
    )
    assert card.server.protocol_version in ("2025-06-18", "2025-11-25")
    assert card.total_tool_tokens == 303


@pytest.fixture(scope="module")
def misbehaving(pm: ToolscorePluginManager) -> MCPScorecard:
    return grade(server_cmd("misbehaving_server.py"), pm, timeout=1.0)


def test_slow_tool_passes_and_its_latency_shows(misbehaving: MCPScorecard) -> None:
    slow = by_tool(misbehaving)["slow"]
    assert all(r.verdict == "pass" for r in slow)
    row = next(s for s in misbehaving.tool_summaries() if s.name == "slow")
    assert row.avg_latency_ms >= 150


def test_failing_tool_fails_its_happy_paths_only(misbehaving: MCPScorecard) -> None:
    fail = by_tool(misbehaving)["fail"]
    assert [(r.verdict, r.category) for r in fail if r.scenario.kind == "happy"] == [
        ("fail", "defect")
    ]
    assert all(r.ok for r in fail if r.scenario.kind == "edge")
    assert fail[0].detail == "backend error: the index is corrupted"


def test_crashes_are_charged_to_the_crashing_tool_only(misbehaving: MCPScorecard) -> None:
    grouped = by_tool(misbehaving)
    assert {r.finding for r in grouped["crash"]} == {"crash"}
    assert (
        grouped["crash"][0].detail
        == "crash: the server exited while handling this call (stderr: fatal: crash tool called)"
    )
    for name in ("echo", "slow", "noisy"):
        assert all(r.verdict == "pass" for r in grouped[name]), name
    assert misbehaving.restarts >= 1
    assert misbehaving.crashes >= 4


def test_hanging_tool_times_out_without_stalling_the_run(misbehaving: MCPScorecard) -> None:
    hang = by_tool(misbehaving)["hang"]
    assert {r.finding for r in hang} == {"timeout"}
    assert hang[0].detail == "timeout: Timed out after 1.0s waiting for response to 'tools/call'."


def test_junk_on_stdout_is_noted_and_the_tool_still_works(misbehaving: MCPScorecard) -> None:
    assert all(r.verdict == "pass" for r in by_tool(misbehaving)["noisy"])
    assert misbehaving.junk_lines >= 2
    assert any(
        "non-JSON-RPC line(s) to stdout" in note and "DEBUG: noisy tool called" in note
        for note in misbehaving.notes
    )


def test_error_reported_as_success_is_a_finding(misbehaving: MCPScorecard) -> None:
    lies = by_tool(misbehaving)["lies"]
    assert [(r.finding, r.verdict) for r in lies] == [
        ("error-as-success", "fail"),  # happy path: nothing of ours was blamed
        (None, "pass"),
        (None, "pass"),
        ("error-as-success", "fail"),  # edge case: a lie fails edge resilience
    ]
    fixes = [f for f in misbehaving.fixes() if f.tool == "lies"]
    assert any(
        f.problem == "error reported as success (isError is false: Error: database unavailable)"
        for f in fixes
    )


def test_rejected_generated_input_is_inconclusive_with_a_schema_hint(
    misbehaving: MCPScorecard,
) -> None:
    picky = [r for r in by_tool(misbehaving)["picky"] if r.scenario.kind == "happy"]
    assert {(r.verdict, r.argument) for r in picky} == {("inconclusive", "code")}
    [fix] = [f for f in misbehaving.fixes() if f.tool == "picky"]
    assert fix.problem.startswith(
        "could not construct valid input for 'code' (Invalid code 'sample_code'"
    )
    assert "Add 'examples' (or an 'enum', 'pattern' or 'format') to 'code'" in fix.fix
    row = next(s for s in misbehaving.tool_summaries() if s.name == "picky")
    assert (row.passed, row.total, row.inconclusive) == (3, 3, 1)


def test_structured_content_is_checked_against_the_output_schema(misbehaving: MCPScorecard) -> None:
    structured = [r for r in by_tool(misbehaving)["structured"] if r.scenario.kind == "happy"]
    assert {r.finding for r in structured} == {"output-schema"}
    assert (
        structured[0].detail
        == "structuredContent does not match outputSchema at count: 'many' is not of type 'integer'"
    )


def test_a_hang_that_wedges_a_sequential_server_is_restarted(pm: ToolscorePluginManager) -> None:
    card = grade(
        server_cmd("misbehaving_server.py", "--sequential", "--only=echo,hang"), pm, timeout=0.5
    )
    grouped = by_tool(card)
    assert all(r.verdict == "pass" for r in grouped["echo"])
    assert {r.finding for r in grouped["hang"]} == {"timeout"}
    assert card.restarts >= 1


@pytest.mark.parametrize(
    ("argv", "error", "text"),
    [
        (
            server_cmd("junk_server.py", "junk"),
            MCPTimeoutError,
            "non-JSON-RPC line(s) to stdout (first: 'this is not json-rpc')",
        ),
        (
            server_cmd("junk_server.py", "exit"),
            MCPConnectionClosed,
            "exited before responding to 'initialize'. stderr: config error: MISSING_TOKEN is not set",
        ),
        (
            server_cmd("junk_server.py", "hang"),
            MCPTimeoutError,
            "Timed out after 0.5s waiting for response to 'initialize'.",
        ),
        (
            ["/nonexistent/server-binary"],
            MCPError,
            "Failed to launch MCP server ['/nonexistent/server-binary']",
        ),
    ],
    ids=["junk", "exit", "hang", "missing"],
)
def test_servers_that_cannot_start_give_one_line_errors(
    argv: list[str], error: type, text: str
) -> None:
    with pytest.raises(error) as caught:
        run_sync(lambda: query_server(ServerTarget(command=tuple(argv)), 0.5, 0.5))
    assert text in str(caught.value)
    assert "\n" not in str(caught.value)


def test_streamable_http_with_an_auth_header(http_url: str, pm: ToolscorePluginManager) -> None:
    target = ServerTarget(
        transport="http", url=http_url, headers={"Authorization": "Bearer s3cret"}
    )
    card = run_sync(lambda: grade_server(target, TestOptions(timeout=10), pm=pm))
    grouped = by_tool(card)
    assert (card.server.name, card.server.version, card.server.transport) == (
        "weather-http",
        "2.0.0",
        "http",
    )
    assert card.instructions == "Weather lookups. Call get_forecast with a city."
    assert all(
        r.verdict == "pass" for r in grouped["get_forecast"] + grouped["convert_temperature"]
    )
    assert {r.verdict for r in grouped["broken_lookup"] if r.scenario.kind == "happy"} == {"fail"}
    assert grouped["broken_lookup"][0].detail.startswith("Error executing tool broken_lookup")
    assert card.instructions_tokens > 0


def test_streamable_http_without_the_header_is_a_one_line_error(http_url: str) -> None:
    with pytest.raises(MCPError) as caught:
        run_sync(lambda: query_server(ServerTarget(transport="http", url=http_url), 5))
    assert "\n" not in str(caught.value)
    assert str(caught.value).startswith("MCP error for 'initialize'")
    assert "--header the server needs for authentication" in str(caught.value)


def test_sse_transport_lists_tools(sse_url: str) -> None:
    details, tools = run_sync(lambda: query_server(ServerTarget(transport="sse", url=sse_url), 10))
    assert details.name == "weather-http"
    assert [t.name for t in tools] == ["get_forecast", "convert_temperature", "broken_lookup"]


def test_unreachable_url_is_a_one_line_error() -> None:
    with pytest.raises(MCPError) as caught:
        run_sync(
            lambda: query_server(ServerTarget(transport="http", url="http://127.0.0.1:9/mcp"), 3)
        )
    assert "\n" not in str(caught.value)
