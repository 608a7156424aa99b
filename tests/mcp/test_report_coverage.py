"""The reports say what a run could conclude: coverage, provisional grades, tool status,
latency, the tries behind each failed or inconclusive happy path, and SARIF for scenarios.

Scorecards are built by hand so every status (works, defect, needs network, needs setup,
skipped) appears at once and the expected text can be pinned exactly.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from rich.console import Console
from toolscore_mcp.grading.scorecard import MCPScorecard
from toolscore_mcp.model import (
    Attempt,
    LintIssue,
    MCPToolDef,
    MCPToolResult,
    Scenario,
    ScenarioResult,
    ServerDetails,
    SetupCall,
)
from toolscore_mcp.reports.console import print_scorecard
from toolscore_mcp.reports.json_report import scorecard_to_json
from toolscore_mcp.reports.markdown import scorecard_to_markdown
from toolscore_mcp.reports.sarif import lint_to_sarif, scorecard_to_sarif

TOOL_NAMES = ("get_time", "convert_time", "fetch", "read_note", "admin", "broken")

#: Required keys of a SARIF 2.1.0 log, results and rules (a minimal slice of the schema).
SARIF_MINIMAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "runs": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["tool", "results"],
                "properties": {
                    "tool": {
                        "type": "object",
                        "required": ["driver"],
                        "properties": {
                            "driver": {
                                "type": "object",
                                "required": ["name"],
                                "properties": {
                                    "name": {"type": "string", "minLength": 1},
                                    "rules": {
                                        "type": "array",
                                        "items": {
                                            "type": "object",
                                            "required": ["id", "shortDescription"],
                                            "properties": {
                                                "shortDescription": {
                                                    "type": "object",
                                                    "required": ["text"],
                                                }
                                            },
                                        },
                                    },
                                },
                            }
                        },
                    },
                    "results": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["ruleId", "message", "level"],
                            "properties": {
                                "ruleId": {"type": "string"},
                                "ruleIndex": {"type": "integer", "minimum": 0},
                                "level": {"enum": ["none", "note", "warning", "error"]},
                                "message": {
                                    "type": "object",
                                    "required": ["text"],
                                    "properties": {"text": {"type": "string", "minLength": 1}},
                                },
                                "properties": {"type": "object"},
                            },
                        },
                    },
                },
            },
        },
    },
}


def _answer(ms: float, *, is_error: bool = False, text: str = "ok") -> MCPToolResult:
    return MCPToolResult(
        content=[{"type": "text", "text": text}], is_error=is_error, duration=ms / 1000
    )


def _result(
    tool: str,
    arguments: dict[str, Any],
    *,
    kind: str = "happy",
    verdict: str = "pass",
    ms: float = 10.0,
    detail: str = "ok",
    answered: bool = True,
    description: str = "typical call",
    **extra: Any,
) -> ScenarioResult:
    scenario_keys = ("setup", "evidence")
    scenario = Scenario(
        tool,
        arguments,
        kind,  # type: ignore[arg-type]
        description,
        **{k: extra.pop(k) for k in scenario_keys if k in extra},
    )
    return ScenarioResult(
        scenario,
        ok=verdict == "pass",
        is_error=verdict != "pass",
        duration=ms / 1000,
        detail=detail,
        verdict=verdict,  # type: ignore[arg-type]
        response=_answer(ms, is_error=verdict != "pass") if answered else None,
        **extra,
    )


def make_card(*, provisional: bool = False) -> MCPScorecard:
    """Six tools: works, needs setup (after two repaired tries), needs network, works
    (``read_note``), skipped, defect (crash) - three of six conclusive, just not provisional.

    With ``provisional`` the ``get_time`` happy path is inconclusive too (needs setup),
    leaving two conclusive tools of six.
    """
    time_args = {"time": "noon", "timezone": "UTC"}
    results = [
        _result(
            "get_time",
            {"timezone": "Europe/Paris"},
            ms=10,
            evidence={"timezone": "meaning"},
            **(
                {
                    "verdict": "inconclusive",
                    "category": "rejected-input",
                    "needs": "setup",
                    "detail": "unknown zone",
                }
                if provisional
                else {}
            ),
        ),
        _result("get_time", {"timezone": 7}, kind="edge", ms=20, detail="error: not a string"),
        _result(
            "convert_time",
            {"time": "14:30", "source_timezone": "UTC", "target_timezone": "Nowhere/Land"},
            verdict="inconclusive",
            ms=30,
            detail="Unknown timezone 'Nowhere/Land'",
            finding="inconclusive",
            category="rejected-input",
            needs="setup",
            argument="target_timezone",
            attempts=(
                Attempt(time_args, "Expected HH:MM", "time -> '14:30'"),
                Attempt(
                    {"time": "14:30", "timezone": "UTC"},
                    "missing source_timezone",
                    "added source_timezone, target_timezone",
                ),
            ),
            evidence={"time": "repair", "source_timezone": "schema"},
        ),
        _result(
            "fetch",
            {"url": "https://example.com"},
            verdict="inconclusive",
            ms=40,
            detail="Could not connect: network unreachable",
            category="environment",
            needs="network",
            evidence={"url": "harvested"},
            setup=(SetupCall("get_time", {"timezone": "UTC"}),),
        ),
        _result("read_note", {"id": "n1"}, ms=50, evidence={"id": "harvested"}),
        _result(
            "broken",
            {"q": "x"},
            verdict="fail",
            answered=False,
            ms=0,
            detail="crash: the server exited while handling this call",
            finding="crash",
            category="defect",
        ),
        _result(
            "broken",
            {"q": 1},
            kind="edge",
            verdict="fail",
            ms=60,
            detail="error reported as success: Error: bad q",
            finding="error-as-success",
            description="wrong type for q",
        ),
    ]
    return MCPScorecard(
        server=ServerDetails(name="clock", version="1.2"),
        tools=tuple(MCPToolDef(name, description=f"The {name} tool.") for name in TOOL_NAMES),
        results=tuple(results),
        lint=(
            LintIssue(
                "admin", "warning", "description too short", "Say more.", "short-description"
            ),
        ),
        skipped=(("admin", "scenario file: destructive"),),
    )


def render_console(card: MCPScorecard, *, verbose: bool) -> str:
    console = Console(record=True, width=200)
    print_scorecard(card, console, verbose=verbose)
    return console.export_text()


def test_the_hand_built_card_covers_every_status() -> None:
    card = make_card()
    assert [(row.tool, row.status, row.needs) for row in card.coverage()] == [
        ("get_time", "works", ""),
        ("convert_time", "needs", "setup"),
        ("fetch", "needs", "network"),
        ("read_note", "works", ""),
        ("admin", "skipped", "scenario file: destructive"),
        ("broken", "defect", ""),
    ]
    assert not card.provisional
    assert make_card(provisional=True).provisional


def test_console_shows_coverage_latency_and_status_column() -> None:
    text = render_console(make_card(), verbose=False)
    lines = text.splitlines()
    grade_at = next(i for i, line in enumerate(lines) if "Grade " in line)
    assert "provisional" not in lines[grade_at]
    assert "verified 3 of 6 tools; 1 need setup, 1 need network, 1 skipped" in lines[grade_at + 1]
    assert "happy" in lines[grade_at + 2]
    assert "latency p50 30.0 ms, p95 60.0 ms" in lines[grade_at + 3]
    assert "Status" in text
    rows = {line.split()[1]: line for line in lines if line.startswith("│ ")}
    assert rows["get_time"].rstrip(" │").endswith("works")
    assert rows["convert_time"].rstrip(" │").endswith("needs setup")
    assert rows["fetch"].rstrip(" │").endswith("needs network")
    assert rows["admin"].rstrip(" │").endswith("skipped: scenario file: destructive")
    assert rows["broken"].rstrip(" │").endswith("DEFECT")
    # The tries are detail for -v only.
    assert "try 1" not in text
    assert "Happy paths that failed or were inconclusive" not in text


def test_console_marks_a_provisional_grade() -> None:
    card = make_card(provisional=True)
    text = render_console(card, verbose=False)
    assert f"Grade {card.grade} (incomplete: verified 2 of 6 tools)   Score" in text
    assert "verified 2 of 6 tools; 2 need setup, 1 need network, 1 skipped" in text


def test_verbose_console_explains_each_try() -> None:
    text = render_console(make_card(), verbose=True)
    section = text[text.index("Happy paths that failed or were inconclusive") :]
    assert "convert_time  inconclusive (rejected-input; needs setup)  typical call" in section
    assert (
        'try 1: {"time": "noon", "timezone": "UTC"} -> rejected: Expected HH:MM; '
        "repaired: time -> '14:30'" in section
    )
    assert (
        'try 2: {"time": "14:30", "timezone": "UTC"} -> rejected: missing source_timezone; '
        "repaired: added source_timezone, target_timezone" in section
    )
    assert "try 3: " in section
    assert "-> inconclusive: Unknown timezone 'Nowhere/Land'" in section
    assert "fetch  inconclusive (environment; needs network)" in section
    assert "broken  fail (defect, crash)" in section
    assert 'try 1: {"q": "x"} -> fail: crash: the server exited' in section
    # Passing happy paths and edge cases are not explained.
    assert "  get_time  " not in section
    assert "wrong type for q" not in section


def test_markdown_reports_coverage_status_and_tries() -> None:
    card = make_card()
    md = scorecard_to_markdown(card)
    assert md.startswith(
        f"# MCP Scorecard: clock 1.2\n\n**Grade: {card.grade}** &middot; Score {card.score:.0%}\n\n"
        "Coverage: verified 3 of 6 tools; 1 need setup, 1 need network, 1 skipped\n\n"
        "- Happy-path pass rate:"
    )
    assert "- Call latency: p50 30.0 ms, p95 60.0 ms\n" in md
    assert (
        "| Tool | Scenarios | Avg latency | Def. tokens | Status | Evidence |\n"
        "| --- | --- | --- | --- | --- | --- |" in md
    )
    assert "| `convert_time` | 0/0 (+1 inconclusive) | 30.0 ms |" in md
    for tool, status in [
        ("get_time", "works"),
        ("convert_time", "needs setup"),
        ("fetch", "needs network"),
        ("read_note", "works"),
        ("admin", "skipped: scenario file: destructive"),
        ("broken", "DEFECT"),
    ]:
        row = next(line for line in md.splitlines() if line.startswith(f"| `{tool}` |"))
        assert row.endswith(f" | {status} |  |"), row  # no evidence recorded in this card
    # Always shown in Markdown, after the fixes.
    assert md.index("## Top issues to fix") < md.index(
        "## Happy paths that failed or were inconclusive"
    )
    assert (
        "- **`convert_time`** — inconclusive (rejected-input; needs setup): typical call\n"
        '  - `try 1: {"time": "noon", "timezone": "UTC"} -> rejected: Expected HH:MM; '
        "repaired: time -> '14:30'`\n"
        '  - `try 2: {"time": "14:30", "timezone": "UTC"} -> rejected: missing source_timezone; '
        "repaired: added source_timezone, target_timezone`\n"
        "  - `try 3: "
    ) in md
    assert "- **`fetch`** — inconclusive (environment; needs network): typical call\n" in md
    assert "- **`broken`** — fail (defect, crash): typical call\n" in md
    assert "wrong type for q" not in md
    assert md.endswith("\n")


def test_markdown_provisional_grade_and_fully_working_run() -> None:
    card = make_card(provisional=True)
    md = scorecard_to_markdown(card)
    assert f"**Grade: {card.grade} (incomplete: verified 2 of 6 tools)** &middot;" in md

    clean = MCPScorecard(
        server=ServerDetails(name="ok", version="1"),
        tools=(MCPToolDef("ping", description="Replies pong to show the server is alive."),),
        results=(_result("ping", {}, ms=5),),
        lint=(),
    )
    md = scorecard_to_markdown(clean)
    assert md.startswith(
        "# MCP Scorecard: ok 1\n\n**Grade: A** &middot; Score 100%\n\n"
        "Coverage: verified 1 of 1 tools\n\n"
    )
    assert "Happy paths that failed" not in md
    assert "| `ping` | 1/1 | 5.0 ms | " in md
    assert next(line for line in md.splitlines() if "`ping`" in line).endswith(" | works |  |")
    assert "- Call latency: p50 5.0 ms, p95 5.0 ms" in md


def test_markdown_and_console_say_when_no_call_was_answered() -> None:
    card = MCPScorecard(
        server=ServerDetails(name="dead"),
        tools=(MCPToolDef("t"),),
        results=(
            _result(
                "t", {}, verdict="fail", answered=False, detail="timeout: 5s", finding="timeout"
            ),
        ),
        lint=(),
    )
    assert "- Call latency: n/a (no answered calls)" in scorecard_to_markdown(card)
    assert "latency n/a (no answered calls)" in render_console(card, verbose=False)


def test_json_adds_coverage_latency_and_per_result_provenance() -> None:
    card = make_card()
    data = json.loads(json.dumps(scorecard_to_json(card)))
    assert data["coverage"] == {
        "line": "verified 3 of 6 tools; 1 need setup, 1 need network, 1 skipped",
        "verified": 3,
        "incomplete": False,
        "grade_limits": [
            {"letter": "B", "reason": "errors reported as success in 1 of 6 tools"},
            {"letter": "B", "reason": "crashes or timeouts on valid input in 1 of 6 tools"},
            {"letter": "B", "reason": "1 broken tool(s)"},
        ],
        "conclusive": 3,
        "total": 6,
        "provisional": False,
        "tools": [
            {"tool": "get_time", "status": "works", "needs": "", "evidence": None},
            {"tool": "convert_time", "status": "needs", "needs": "setup", "evidence": None},
            {"tool": "fetch", "status": "needs", "needs": "network", "evidence": None},
            {"tool": "read_note", "status": "works", "needs": "", "evidence": None},
            {
                "tool": "admin",
                "status": "skipped",
                "needs": "scenario file: destructive",
                "evidence": None,
            },
            {"tool": "broken", "status": "defect", "needs": "", "evidence": None},
        ],
    }
    assert data["latency"] == {"p50_ms": 30.0, "p95_ms": 60.0, "answered": 6}
    by_tool = {(r["tool"], r["kind"]): r for r in data["results"]}
    convert = by_tool["convert_time", "happy"]
    assert (convert["category"], convert["needs"], convert["verdict"]) == (
        "rejected-input",
        "setup",
        "inconclusive",
    )
    assert convert["evidence"] == {"time": "repair", "source_timezone": "schema"}
    assert convert["attempts"] == [
        {
            "arguments": {"time": "noon", "timezone": "UTC"},
            "detail": "Expected HH:MM",
            "repair": "time -> '14:30'",
        },
        {
            "arguments": {"time": "14:30", "timezone": "UTC"},
            "detail": "missing source_timezone",
            "repair": "added source_timezone, target_timezone",
        },
    ]
    fetch = by_tool["fetch", "happy"]
    assert fetch["setup"] == [{"tool": "get_time", "arguments": {"timezone": "UTC"}}]
    assert (fetch["category"], fetch["needs"], fetch["evidence"]) == (
        "environment",
        "network",
        {"url": "harvested"},
    )
    clean = by_tool["get_time", "happy"]
    assert (clean["category"], clean["needs"], clean["setup"], clean["attempts"]) == (
        None,
        None,
        [],
        [],
    )
    # The scorecard's established keys are still there (reports that parse them keep working).
    assert {"grade", "score", "scores", "tools", "results", "lint", "fixes", "run"} <= set(data)
    assert (
        json.loads(json.dumps(scorecard_to_json(make_card(provisional=True))))["coverage"][
            "provisional"
        ]
        is True
    )


def test_sarif_from_a_scorecard_lists_lint_and_scenarios() -> None:
    card = make_card()
    log = scorecard_to_sarif(card, version="9.9")
    jsonschema.validate(log, SARIF_MINIMAL_SCHEMA)
    run = log["runs"][0]
    results = run["results"]
    assert [(r["ruleId"], r["level"], r.get("properties", {}).get("tool")) for r in results] == [
        ("short-description", "warning", None),
        ("scenario/inconclusive", "note", "convert_time"),
        ("scenario/inconclusive", "note", "fetch"),
        ("scenario/crash", "error", "broken"),
        ("scenario/error-as-success", "warning", "broken"),
    ]
    rules = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == [
        "short-description",
        "scenario/inconclusive",
        "scenario/crash",
        "scenario/error-as-success",
    ]
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        tool = result["locations"][0]["logicalLocations"][0]["name"]
        assert result["message"]["text"].startswith(f"{tool}: ")
    assert all(rule["shortDescription"]["text"] for rule in rules)
    fetch = results[2]
    assert fetch["message"]["text"] == (
        "fetch: could not be judged [inconclusive (environment; needs network)] in "
        "'typical call': Could not connect: network unreachable"
    )
    assert (fetch["properties"]["category"], fetch["properties"]["needs"]) == (
        "environment",
        "network",
    )
    convert = results[1]
    assert "(rejected-input; needs setup)" in convert["message"]["text"]
    assert convert["message"]["text"].endswith("(after 3 tries, repairing the arguments each time)")
    assert convert["properties"]["attempts"] == 2
    crash = results[3]
    assert crash["message"]["text"].startswith(
        "broken: fails on valid input [fail (defect, crash)]"
    )
    assert run["properties"] == {
        "grade": card.grade,
        "score": card.score,
        "provisional": False,
        "incomplete": False,
        "verified": 3,
        "coverage": card.coverage_line(),
    }
    assert run["tool"]["driver"]["version"] == "9.9"
    location = results[3]["locations"][0]
    assert "physicalLocation" not in location  # no file: the server is a logical location
    assert location["logicalLocations"] == [
        {"name": "broken", "fullyQualifiedName": "clock/broken", "kind": "function"},
        {"name": "clock", "fullyQualifiedName": "clock", "kind": "module"},
    ]
    assert (
        scorecard_to_sarif(card, "mcp.json")["runs"][0]["results"][4]["locations"][0][
            "physicalLocation"
        ]["artifactLocation"]["uri"]
        == "mcp.json"
    )


@pytest.mark.parametrize(
    ("kind", "verdict", "finding", "rule", "level"),
    [
        ("happy", "fail", "failure", "scenario/defect", "error"),
        ("happy", "fail", "timeout", "scenario/timeout", "error"),
        ("happy", "fail", "output-schema", "scenario/output-schema", "error"),
        ("happy", "fail", "error-as-success", "scenario/error-as-success", "warning"),
        ("edge", "fail", "crash", "scenario/crash", "warning"),
        ("edge", "fail", None, "scenario/defect", "warning"),
        ("happy", "inconclusive", "inconclusive", "scenario/inconclusive", "note"),
        ("happy", "pass", "output-schema", "scenario/output-schema", "warning"),
    ],
)
def test_sarif_rule_and_level_per_finding(
    kind: str, verdict: str, finding: str | None, rule: str, level: str
) -> None:
    card = MCPScorecard(
        server=ServerDetails(name="s"),
        tools=(MCPToolDef("t"),),
        results=(
            _result("t", {}, verdict="pass", ms=1),
            _result("t", {"a": 1}, kind=kind, verdict=verdict, finding=finding, detail="boom"),
        ),
        lint=(),
    )
    log = scorecard_to_sarif(card)
    jsonschema.validate(log, SARIF_MINIMAL_SCHEMA)
    [result] = log["runs"][0]["results"]
    assert (result["ruleId"], result["level"]) == (rule, level)
    assert result["properties"]["tool"] == "t"
    assert "boom" in result["message"]["text"]


def test_a_clean_run_has_no_scenario_results_and_lint_sarif_is_unchanged() -> None:
    card = make_card()
    clean = MCPScorecard(
        server=card.server,
        tools=card.tools[:1],
        results=card.results[:2],
        lint=card.lint,
    )
    log = scorecard_to_sarif(clean)
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["short-description"]
    lint_only = lint_to_sarif(card.lint, server_name="clock")
    assert "properties" not in lint_only["runs"][0]
    assert lint_only["runs"][0]["results"] == log["runs"][0]["results"]
    assert (
        lint_only["runs"][0]["tool"]["driver"]["rules"] == log["runs"][0]["tool"]["driver"]["rules"]
    )
