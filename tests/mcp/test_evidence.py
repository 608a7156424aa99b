"""A tool counts as working only on evidence; answers that read as failures never count.

A real stdio server (``servers/evidence_server.py``) has one tool per shape of a failure that
claims success, beside tools that work and show it three different ways.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from mcp_support import run_cli, server_cmd


@pytest.fixture(scope="module")
def card(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    report = tmp_path_factory.mktemp("evidence") / "card.json"
    done = run_cli(
        "mcp", "test", " ".join(server_cmd("evidence_server.py")), "--output", str(report),
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(report.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _status(card: dict[str, object]) -> dict[str, dict[str, object]]:
    return {row["tool"]: row for row in card["coverage"]["tools"]}  # type: ignore[index]


def _findings(card: dict[str, object], tool: str) -> set[object]:
    return {r["finding"] for r in card["results"] if r["tool"] == tool}  # type: ignore[attr-defined, index]


@pytest.mark.parametrize(
    ("tool", "kind"),
    [("read_note", "contrast"), ("server_clock", "answer"), ("count_words", "output-schema")],
)
def test_working_tools_carry_their_evidence(card: dict[str, object], tool: str, kind: str) -> None:
    row = _status(card)[tool]
    assert row["status"] == "works"
    assert row["evidence"]["kind"] == kind  # type: ignore[index]
    assert row["evidence"]["excerpt"]  # type: ignore[index]


@pytest.mark.parametrize("tool", ["open_document", "task_status", "lookup_many"])
def test_failures_that_claim_success_never_count_as_working(
    card: dict[str, object], tool: str
) -> None:
    assert _status(card)[tool]["status"] != "works"
    assert "error-as-success" in _findings(card, tool)


def test_the_same_template_for_a_missing_target_is_unverified_and_a_finding(
    card: dict[str, object],
) -> None:
    row = _status(card)["describe_record"]
    assert (row["status"], row["needs"]) == ("needs", "evidence")
    assert "error-as-success" in _findings(card, "describe_record")
    happy = [
        r
        for r in card["results"]  # type: ignore[attr-defined]
        if r["tool"] == "describe_record" and r["kind"] == "happy"
    ]
    assert all("does not exist" in r["detail"] for r in happy if r["verdict"] == "inconclusive")


def test_no_working_tool_lacks_evidence_and_the_grade_follows(card: dict[str, object]) -> None:
    for row in _status(card).values():
        if row["status"] == "works":
            assert row["evidence"] is not None, row
    assert card["grade"] != "A"
    reasons = [limit["reason"] for limit in card["coverage"]["grade_limits"]]  # type: ignore[index]
    assert any(reason.startswith("errors reported as success in") for reason in reasons)
    assert card["coverage"]["line"].startswith("verified ")  # type: ignore[index]


def test_verbose_console_says_why_each_tool_works() -> None:
    done = run_cli("mcp", "test", " ".join(server_cmd("evidence_server.py")), "-v", timeout=120)
    assert done.returncode == 0, done.stderr
    section = done.stdout.split("Why each working tool counts as working")[1]
    assert "read_note  contrast: with a missing 'name' it answered" in section
    assert "count_words  output-schema" in section


def test_a_scenario_files_expectation_is_the_evidence(tmp_path: Path) -> None:
    sample = Path(__file__).parents[2] / "toolscore-mcp/src/toolscore_mcp/sample_server.py"
    plan = tmp_path / "scenarios.yaml"
    plan.write_text(
        "version: 1\n"
        "tools:\n"
        "  create_note:\n"
        "    arguments: {title: groceries, body: milk}\n"
        '    expect: {text: {"$contains": "note-"}}\n',
        encoding="utf-8",
    )
    report = tmp_path / "card.json"
    done = run_cli(
        "mcp", "test", f"{sys.executable} {sample}", "--scenarios", str(plan),
        "--output", str(report), timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    row = _status(json.loads(report.read_text(encoding="utf-8")))["create_note"]
    assert row["status"] == "works"
    assert row["evidence"]["kind"] == "expectation"


def test_the_past_the_end_probe_is_past_every_sandbox_file_yet_small() -> None:
    """A position probe must name nothing in the sandbox's files, and a server that counts up
    to the number it is given (a numbering start) must not be made to allocate gigabytes."""
    from toolscore_mcp.grading.evidence import position_arguments
    from toolscore_mcp.model import MCPToolDef
    from toolscore_mcp.sandbox.sandbox import Sandbox

    tool = MCPToolDef(
        name="number_items",
        input_schema={"type": "object", "properties": {"start_number": {"type": "integer"}}},
    )
    probe = position_arguments(tool, {"start_number": 1})
    assert probe is not None
    value = probe[0]["start_number"]
    with Sandbox.create(http=False) as sandbox:
        largest = max(p.stat().st_size for p in sandbox.root.rglob("*") if p.is_file())
    assert largest < value <= 1_000_000
