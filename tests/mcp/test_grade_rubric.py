"""Grades follow the evidence (docs/mcp.md#grades): a letter never claims more than the
verified tools show, whatever the weighted score says."""

from __future__ import annotations

from typing import Any

import pytest
from mcp_support import run_cli, server_cmd
from toolscore_mcp.grading.scorecard import MCPScorecard
from toolscore_mcp.model import (
    Evidence,
    MCPToolDef,
    MCPToolResult,
    Scenario,
    ScenarioResult,
    ServerDetails,
)


def _happy(tool: str, verdict: str = "pass", **extra: Any) -> ScenarioResult:
    answer = MCPToolResult(content=[{"type": "text", "text": "x"}], is_error=False, duration=0.01)
    if verdict == "pass":
        extra.setdefault("evidence", Evidence("contrast", "with a missing 'id' it answered: nope"))
    return ScenarioResult(
        Scenario(tool, {"id": "1"}, "happy", "typical"),
        ok=verdict == "pass",
        is_error=False,
        duration=0.01,
        detail="ok",
        verdict=verdict,  # type: ignore[arg-type]
        response=answer,
        **extra,
    )


def _edge(tool: str, **extra: Any) -> ScenarioResult:
    return ScenarioResult(
        Scenario(tool, {"id": 1}, "edge", "wrong type"),
        ok=extra.get("verdict", "pass") == "pass",
        is_error=True,
        duration=0.01,
        detail="error",
        **extra,
    )


def _card(results: list[ScenarioResult], tools: int, **extra: Any) -> MCPScorecard:
    return MCPScorecard(
        server=ServerDetails(name="s"),
        tools=tuple(
            MCPToolDef(f"t{i}", description="A tool that does a thing.") for i in range(tools)
        ),
        results=tuple(results),
        lint=(),
        **extra,
    )


def _needs(tool: str, needs: str) -> ScenarioResult:
    return _happy(tool, "inconclusive", category="environment", needs=needs, finding="inconclusive")


def test_every_tool_working_and_signalling_errors_is_an_a() -> None:
    card = _card([_happy(f"t{i}") for i in range(4)] + [_edge("t0")], 4)
    assert (card.grade, card.grade_caps()) == ("A", [])
    assert card.coverage_line() == "verified 4 of 4 tools"


def test_nothing_verified_is_never_better_than_d() -> None:
    card = _card([_needs(f"t{i}", "network") for i in range(3)], 3)
    assert card.score > 0.6  # the weighted score alone would say otherwise
    assert card.grade == "D"
    (cap,) = [c for c in card.grade_caps() if c.letter == "D"]
    assert cap.reason == "no tool can succeed here: verified 0 of 3 tools; 3 need network"
    unverified = _card(
        [
            _happy(f"t{i}", "inconclusive", needs="evidence", category="rejected-input")
            for i in range(3)
        ],
        3,
    )
    assert unverified.grade == "D"
    assert unverified.coverage_line() == "verified 0 of 3 tools; 3 unverified"


def test_fewer_than_half_verified_is_incomplete_and_at_best_c() -> None:
    card = _card([_happy("t0"), *(_needs(f"t{i}", "credentials") for i in range(1, 4))], 4)
    assert card.incomplete
    assert card.grade == "C"
    assert any(
        cap.reason.startswith("incomplete: verified 1 of 4 tools") for cap in card.grade_caps()
    )


def test_a_broken_tool_costs_the_a() -> None:
    card = _card(
        [
            *(_happy(f"t{i}") for i in range(9)),
            _happy("t9", "fail", category="defect", finding="failure"),
        ],
        10,
    )
    assert card.score >= 0.9
    assert card.grade == "B"


@pytest.mark.parametrize(("affected", "letter"), [(1, "B"), (3, "C")])
def test_errors_reported_as_success_across_the_server_cap_the_grade(
    affected: int, letter: str
) -> None:
    results = [_happy(f"t{i}") for i in range(4)]
    results += [_edge(f"t{i}", verdict="fail", finding="error-as-success") for i in range(affected)]
    card = _card(results, 4)
    assert card.grade == letter


def test_text_on_stdout_during_calls_caps_at_b_but_startup_junk_does_not() -> None:
    results = [_happy(f"t{i}") for i in range(3)]
    assert _card(results, 3, junk_lines=4, call_junk_lines=0).grade == "A"
    assert _card(results, 3, junk_lines=4, call_junk_lines=2).grade == "B"


def test_ci_fails_an_incomplete_run_unless_it_is_allowed() -> None:
    command = " ".join(server_cmd("keyless_server.py"))
    refused = run_cli("mcp", "test", command, "--ci", timeout=120)
    assert refused.returncode == 1
    assert "Incomplete run: verified 0 of 1 tools" in refused.stdout
    assert "--allow-incomplete" in refused.stdout
    accepted = run_cli("mcp", "test", command, "--ci", "--allow-incomplete", timeout=120)
    assert "Incomplete run" not in accepted.stdout
