"""Whose fault a failed happy path was: the server's, our input's, or the machine's."""

from __future__ import annotations

import pytest
from toolscore_mcp.grading.classify import classify_failure
from toolscore_mcp.grading.verdicts import judge_result
from toolscore_mcp.model import MCPToolDef, MCPToolResult, Scenario

GUESSED = {"path": "meaning"}
CERTAIN = {"format": "schema"}


@pytest.mark.parametrize(
    ("text", "evidence", "category", "needs"),
    [
        ("getaddrinfo ENOTFOUND example.com", GUESSED, "environment", "network"),
        ("Missing API key: set SEARCH_API_KEY", CERTAIN, "environment", "credentials"),
        ("429 Too Many Requests", CERTAIN, "environment", "rate-limit"),
        ("Entity with name x not found", GUESSED, "rejected-input", "setup"),
        ("A1 holds no formula to set to a value.", GUESSED, "rejected-input", "setup"),
        ("No changes staged for commit. Use git_add to stage changes first", CERTAIN,
         "rejected-input", "setup"),
        ("Traceback (most recent call last): KeyError: 'x'", GUESSED, "rejected-input", None),
        ("Traceback (most recent call last): KeyError: 'x'", CERTAIN, "defect", None),
        ("export failed: storage backend not configured", CERTAIN, "defect", None),
        ("Error", CERTAIN, "defect", None),
        ("", GUESSED, "defect", None),
        ("Invalid input", CERTAIN, "defect", None),
        ("Invalid input", GUESSED, "rejected-input", None),
    ],
)  # fmt: skip
def test_failures_are_blamed_on_the_right_party(
    text: str, evidence: dict[str, str], category: str, needs: str | None
) -> None:
    verdict = classify_failure(text, evidence)
    assert (verdict.category, verdict.needs) == (category, needs)


def test_a_refusal_naming_a_nested_key_blames_that_argument() -> None:
    tool = MCPToolDef(
        name="add_rule",
        input_schema={"type": "object", "properties": {"rule": {"type": "object"}}},
    )
    scenario = Scenario(
        "add_rule",
        {"rule": {"type": "list", "options": ["a"]}},
        "happy",
        "happy path #1",
        evidence={"rule": "generated"},  # an object whose keys the schema leaves open
    )
    result = MCPToolResult(
        content=[{"type": "text", "text": "options and source are only for list rules."}],
        is_error=True,
        duration=0.0,
    )
    judged = judge_result(tool, scenario, result)
    assert (judged.verdict, judged.category, judged.argument) == (
        "inconclusive",
        "rejected-input",
        "rule",
    )


def test_a_refusal_naming_an_argument_the_schema_vouches_for_is_a_defect() -> None:
    verdict = classify_failure("Invalid unit", {"unit": "schema"}, blamed="unit")
    assert verdict.category == "defect"
    guessed = classify_failure("Invalid unit", {"unit": "meaning"}, blamed="unit")
    assert guessed.category == "rejected-input"
    # A plain number fits the type, but the server may bound it where the schema is silent.
    bounded = classify_failure("start: must be at least 1", {"start": "plain"}, blamed="start")
    assert bounded.category == "rejected-input"


def test_naming_a_parameter_without_objecting_to_it_is_no_reason() -> None:
    evidence = {"station": "meaning"}
    failed = classify_failure(
        "Error executing tool lookup: station index is corrupted",
        evidence,
        blamed="station",
        blamed_by_name_only=True,
    )
    assert failed.category == "defect"
    objected = classify_failure(
        "station must be a 4-letter code", evidence, blamed="station", blamed_by_name_only=True
    )
    assert objected.category == "rejected-input"


@pytest.mark.parametrize(
    "text",
    [
        "Cannot specify both head and tail parameters simultaneously",
        "'offset' and 'cursor' are mutually exclusive",
        "Provide only one of: id, name",
    ],
)
def test_arguments_that_conflict_blame_our_input(text: str) -> None:
    evidence = {"head": "generated", "tail": "generated", "id": "harvested"}
    verdict = classify_failure(text, evidence, blamed="head", blamed_by_name_only=True)
    assert verdict.category == "rejected-input"


def test_a_message_quoting_our_value_blames_that_argument() -> None:
    tool = MCPToolDef(
        name="format_cells",
        input_schema={"type": "object", "properties": {"path": {"type": "string"}}},
    )
    scenario = Scenario(
        "format_cells",
        {"path": "/tmp/box/notes.txt"},
        "happy",
        "happy path #1",
        evidence={"path": "meaning"},
    )
    text = "Path '/tmp/box/notes.txt' must point to an Excel file (.xlsx)."
    result = MCPToolResult(content=[{"type": "text", "text": text}], is_error=True, duration=0.0)
    judged = judge_result(tool, scenario, result)
    assert (judged.verdict, judged.category, judged.argument) == (
        "inconclusive",
        "rejected-input",
        "path",
    )


def test_naming_a_parameter_we_left_out_asks_for_it() -> None:
    tool = MCPToolDef(
        name="make_table",
        input_schema={
            "type": "object",
            "properties": {"sheet": {"type": "string"}, "range": {"type": "string"}},
        },
    )
    scenario = Scenario(
        "make_table", {"sheet": "Sheet1"}, "happy", "happy path #1", evidence={"sheet": "meaning"}
    )
    result = MCPToolResult(
        content=[{"type": "text", "text": "Give `range` to create a table."}],
        is_error=True,
        duration=0.0,
    )
    judged = judge_result(tool, scenario, result)
    assert (judged.category, judged.argument) == ("rejected-input", "range")
