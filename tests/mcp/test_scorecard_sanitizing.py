"""A hostile server cannot drive the terminal or leak a key through the MCP scorecard.

The scorecard is built by hand with a tool whose name, description, answers and lint message
hold a clear-screen sequence, an OSC-8 link, NUL, a bidi override, rich markup and an OpenAI
project key. Every report a person reads must show the escapes as text and hide the key.
"""

from __future__ import annotations

import json

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
)
from toolscore_mcp.reports.console import print_scorecard
from toolscore_mcp.reports.coverage import format_arguments
from toolscore_mcp.reports.markdown import scorecard_to_markdown
from toolscore_mcp.reports.sarif import scorecard_to_sarif

KEY = "sk-proj-" + "AbCdEfGhIjKlMnOpQrStUvWxYz_-AbCdEfGhIjKl"
CLEAR = "\x1b[2J\x1b[H"
LINK = "\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07"
TOOL = f"get{CLEAR}[bold]PASS[/bold]\u202e{KEY}"
DESCRIPTION = f"Reads a file.{LINK} nul\x00 key {KEY}"
ANSWER = f"Error:{CLEAR} token={KEY} \x9b31m"
FORBIDDEN = ("\x1b", "\x00", "\x07", "\x9b", "\u202e")


def hostile_card() -> MCPScorecard:
    scenario = Scenario(TOOL, {"path": f"/tmp/{KEY}"}, "happy", DESCRIPTION)
    result = ScenarioResult(
        scenario,
        ok=False,
        is_error=True,
        duration=0.01,
        detail=ANSWER,
        verdict="fail",
        response=MCPToolResult(
            content=[{"type": "text", "text": ANSWER}], is_error=True, duration=0.01
        ),
        attempts=(Attempt({"path": KEY}, ANSWER, f"path -> {KEY}"),),
        finding="crash",
        category="defect",
    )
    return MCPScorecard(
        server=ServerDetails(name=f"srv{CLEAR}", version=f"1.0{LINK}"),
        tools=(MCPToolDef(TOOL, description=DESCRIPTION),),
        results=(result,),
        lint=(LintIssue(TOOL, "warning", f"says {DESCRIPTION}", "Say less.", "rule"),),
        notes=(f"server wrote {CLEAR} on stdout",),
    )


def assert_safe(text: str) -> None:
    for char in FORBIDDEN:
        assert char not in text, f"{char!r} got through"
    assert KEY not in text


@pytest.mark.parametrize("verbose", [False, True], ids=["compact", "verbose"])
def test_console_scorecard_shows_escapes_as_text_and_hides_the_key(verbose: bool) -> None:
    console = Console(record=True, width=400, color_system=None)
    print_scorecard(hostile_card(), console, verbose=verbose)
    text = console.export_text()
    assert_safe(text)
    assert "get\\x1b[2J\\x1b[H[bold]PASS[/bold]\\u202e[REDACTED openai_api_key" in text
    assert "MCP Scorecard: srv\\x1b[2J\\x1b[H 1.0\\x1b]8;;https://evil.example/" in text
    if verbose:
        assert "token=[REDACTED openai_api_key: sk-p…Kl] \\x9b31m" in text
        assert "nul\\x00 key [REDACTED openai_api_key" in text


def test_markdown_scorecard_is_redacted_and_escape_free() -> None:
    text = scorecard_to_markdown(hostile_card())
    assert_safe(text)
    assert "\\x1b[2J" in text


def test_sarif_log_is_redacted_and_still_json() -> None:
    log = scorecard_to_sarif(hostile_card())
    text = json.dumps(log, ensure_ascii=False)
    assert KEY not in text
    assert log["version"] == "2.1.0"
    assert log["runs"][0]["results"]


def test_arguments_are_redacted_before_they_are_cut() -> None:
    # The key starts before the cut and ends after it: cut first, its head would leak.
    shown = format_arguments({"padding": "x" * 95, "key": KEY})  # 169 characters, cut at 160
    assert "AbCdEfGhIj" not in shown
    assert "[REDACTED openai_api_key" in shown
