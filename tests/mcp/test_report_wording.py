"""What the MCP reports say about bad input accepted silently, provider refusals, and where a
server without a file is in SARIF."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from toolscore_mcp.grading.scorecard import MCPScorecard
from toolscore_mcp.model import MCPToolDef, MCPToolResult, Scenario, ScenarioResult, ServerDetails
from toolscore_mcp.reports.console import print_scorecard
from toolscore_mcp.reports.html_report import scorecard_to_html
from toolscore_mcp.reports.markdown import scorecard_to_markdown
from toolscore_mcp.reports.sarif import lint_to_sarif, scorecard_to_sarif
from toolscore_mcp.reports.surface import compatibility_fixes, edge_text

#: Accepted by every provider: all properties required, no extra properties.
STRICT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"q": {"type": "string"}},
    "required": ["q"],
    "additionalProperties": False,
}
#: OpenAI strict mode refuses it (an optional property, additionalProperties not false).
LOOSE_SCHEMA: dict[str, Any] = {"type": "object", "properties": {"q": {"type": "string"}}}


def _call(tool: str, kind: str, *, is_error: bool) -> ScenarioResult:
    scenario = Scenario(tool, {"q": 1 if kind == "edge" else "x"}, kind, "call")  # type: ignore[arg-type]
    answer = MCPToolResult(
        content=[{"type": "text", "text": "ok"}], is_error=is_error, duration=0.01
    )
    return ScenarioResult(
        scenario, ok=True, is_error=is_error, duration=0.01, detail="ok", response=answer
    )


def card(*, schema: dict[str, Any], accepted: int, rejected: int) -> MCPScorecard:
    tools = tuple(
        MCPToolDef(
            name, description=f"Search the {name} index by a query string.", input_schema=schema
        )
        for name in ("alpha", "beta")
    )
    results = [_call("alpha", "happy", is_error=False), _call("beta", "happy", is_error=False)]
    results += [_call("alpha", "edge", is_error=False) for _ in range(accepted)]
    results += [_call("beta", "edge", is_error=True) for _ in range(rejected)]
    return MCPScorecard(
        server=ServerDetails(name="memory-server", version="1"),
        tools=tools,
        results=tuple(results),
        lint=(),
    )


def console_text(scorecard: MCPScorecard) -> str:
    console = Console(record=True, width=200)
    print_scorecard(scorecard, console)
    return console.export_text()


def test_edge_rate_says_how_many_bad_inputs_were_accepted_silently() -> None:
    silent = card(schema=STRICT_SCHEMA, accepted=12, rejected=8)
    assert silent.edge_resilience_rate == 1.0  # the score formula is unchanged
    assert edge_text(silent) == "edge 100% (12 of 20 bad inputs accepted silently)"
    text = console_text(silent)
    assert "edge 100% (12 of 20 bad inputs accepted silently)" in text
    assert "Edge-case resilience: 100% (12 of 20 bad inputs accepted silently)" in (
        scorecard_to_markdown(silent)
    )
    assert "12 of 20 bad inputs accepted silently" in scorecard_to_html(silent)


def test_edge_rate_alone_when_every_bad_input_was_refused() -> None:
    clean = card(schema=STRICT_SCHEMA, accepted=0, rejected=4)
    assert edge_text(clean) == "edge 100%"
    assert "accepted silently" not in console_text(clean)


def test_no_issues_only_when_no_provider_refuses_a_tool() -> None:
    # openai-strict wants additionalProperties: false, gemini refuses the keyword: a tool with
    # arguments always meets one refusal, so only a server without tools lists no issue here.
    empty = MCPScorecard(server=ServerDetails(name="empty"), tools=(), results=(), lint=())
    assert compatibility_fixes(empty) == []
    assert "No issues found" in console_text(empty)
    gemini_only = card(schema=STRICT_SCHEMA, accepted=0, rejected=4)
    assert [(f.tool, f.problem) for f in compatibility_fixes(gemini_only)] == [
        (
            "every tool",
            "refused by gemini function calling (alpha: $ uses unsupported additionalProperties)",
        )
    ]


def test_a_provider_refusing_every_tool_is_an_issue() -> None:
    refused = card(schema=LOOSE_SCHEMA, accepted=0, rejected=4)
    assert refused.fixes() == []  # nothing in the score's own fix list
    fixes = compatibility_fixes(refused)
    assert [(f.tool, f.problem.split(" (")[0]) for f in fixes] == [
        ("every tool", "refused by openai-strict function calling")
    ]
    text = console_text(refused)
    assert "No issues found" not in text
    assert "Top issues to fix" in text
    assert "every tool  refused by openai-strict function calling" in text
    markdown = scorecard_to_markdown(refused)
    assert "No issues found" not in markdown
    assert "refused by openai-strict function calling" in markdown
    assert "No issues found" not in scorecard_to_html(refused)


def test_sarif_names_a_server_without_a_file_as_a_logical_location() -> None:
    scorecard = card(schema=STRICT_SCHEMA, accepted=1, rejected=0)
    from toolscore_mcp.model import LintIssue

    issue = LintIssue("alpha", "warning", "too vague", "Say more.", "short-description")
    scorecard = MCPScorecard(
        server=scorecard.server, tools=scorecard.tools, results=scorecard.results, lint=(issue,)
    )
    for log in (scorecard_to_sarif(scorecard), lint_to_sarif([issue], server_name="memory-server")):
        for result in log["runs"][0]["results"]:
            (location,) = result["locations"]
            assert "physicalLocation" not in location
            assert {
                "name": "memory-server",
                "fullyQualifiedName": "memory-server",
                "kind": "module",
            } in (location["logicalLocations"])
            assert location["logicalLocations"][0]["kind"] == "function"
        assert "mcp-server/" not in str(log)


def test_sarif_keeps_a_real_file_as_the_physical_location() -> None:
    scorecard = card(schema=STRICT_SCHEMA, accepted=0, rejected=0)
    from toolscore_mcp.model import LintIssue

    issue = LintIssue("alpha", "warning", "too vague", "Say more.", "short-description")
    log = lint_to_sarif([issue], server_name="memory-server", artifact="mcp.json")
    (location,) = log["runs"][0]["results"][0]["locations"]
    assert location["physicalLocation"] == {"artifactLocation": {"uri": "mcp.json"}}
    assert [loc["kind"] for loc in location["logicalLocations"]] == ["function"]
    assert scorecard.server.name == "memory-server"
