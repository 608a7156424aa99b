"""A fresh copy of the sandbox's file for each tool that acts on one, and what it shows.

The run's tools edit the sandbox's files in place, so most happy paths see a file earlier
calls changed. One more call per such tool gets its own untouched copy, with the text it is
to find set to a line that copy holds. A real stdio server (``servers/text_edit_server.py``)
has a tool that never finds its anchor and one that works only on files the run changed
first; both must be found broken, and its working tools (one of which needs state the copy
lacks) must still work.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp_support import server_cmd
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore_mcp.client.target import ServerTarget
from toolscore_mcp.grading.classify import classify_failure
from toolscore_mcp.grading.harness import TestOptions, grade_server, run_sync
from toolscore_mcp.grading.scorecard import MCPScorecard
from toolscore_mcp.model import FRESH_COPY, SANDBOX_TEXT, MCPToolDef, ScenarioResult
from toolscore_mcp.sandbox.known_text import known_lines
from toolscore_mcp.sandbox.sandbox import Sandbox
from toolscore_mcp.values.fresh_copy import text_place
from toolscore_mcp.values.providers import Parameter

NOTES = known_lines("notes.txt")


@pytest.fixture(scope="module")
def card() -> MCPScorecard:
    from toolscore.plugins import get_plugin_manager

    pm: ToolscorePluginManager = get_plugin_manager()
    target = ServerTarget(command=tuple(server_cmd("text_edit_server.py")))
    return run_sync(lambda: grade_server(target, TestOptions(timeout=10.0), pm=pm))


def _status(card: MCPScorecard) -> dict[str, tuple[str, str]]:
    return {row.tool: (row.status, str(row.needs)) for row in card.coverage()}


def _fresh(card: MCPScorecard, tool: str) -> ScenarioResult:
    [result] = [r for r in card.results if r.scenario.tool == tool and r.scenario.on_fresh_copy]
    return result


def test_a_tool_that_never_finds_its_anchor_is_broken(card: MCPScorecard) -> None:
    # Its other calls name text we made up, so "not found" there is missing state; on the
    # fresh copy the anchor is the copy's first line.
    assert _status(card)["replace_between_anchors"] == ("defect", "")
    fresh = _fresh(card, "replace_between_anchors")
    assert fresh.scenario.arguments["start_anchor"] == NOTES[0]
    assert fresh.scenario.evidence["start_anchor"] == SANDBOX_TEXT
    assert (fresh.verdict, fresh.argument) == ("fail", "start_anchor")


def test_a_tool_that_breaks_on_the_untouched_file_is_broken_though_edited_files_pass(
    card: MCPScorecard,
) -> None:
    passed = [
        r
        for r in card.results
        if r.scenario.tool == "strip_trailer" and r.scenario.kind == "happy" and r.verdict == "pass"
    ]
    assert passed  # on the file append_line had changed
    assert _status(card)["strip_trailer"] == ("defect", "")
    assert "has no attribute" in _fresh(card, "strip_trailer").detail


def test_tools_that_find_the_copys_text_or_lack_its_state_still_work(card: MCPScorecard) -> None:
    status = _status(card)
    working = ["append_line", "find_phrase", "insert_after_text", "undo_append"]
    assert {name: status[name] for name in working} == dict.fromkeys(working, ("works", ""))
    # The text to find is a line of the copy, sent as it is (never made a path).
    assert _fresh(card, "insert_after_text").scenario.arguments["target_text"] == NOTES[0]
    assert _fresh(card, "insert_after_text").verdict == "pass"
    # Nothing appended to the copy: the run's state is missing there, which is no defect.
    undo = _fresh(card, "undo_append")
    assert (undo.verdict, undo.needs) == ("inconclusive", "setup")


def test_each_fresh_copy_is_its_own_file_under_scratch(card: MCPScorecard) -> None:
    paths = [
        r.scenario.arguments["file_path"]
        for r in card.results
        if r.scenario.on_fresh_copy and r.scenario.evidence["file_path"] == FRESH_COPY
    ]
    assert len(paths) == len(set(paths)) >= 5
    assert all(Path(path).parent.name == "scratch" for path in paths)


def test_a_fresh_copy_holds_what_the_sandbox_wrote_not_what_tools_made_of_it() -> None:
    with Sandbox.create(http=False) as sandbox:
        (sandbox.root / "report.docx").write_bytes(b"changed by a tool")
        made = sandbox.fresh_copy(".docx")
        assert made is not None
        path, lines = made
        assert path.read_bytes().startswith(b"PK")
        assert (lines[0], lines[-1]) == ("Sandbox report", "Three items in all.")
        assert sandbox.fresh_copy(".png") is not None
        assert sandbox.fresh_copy(".nothing") is None


@pytest.mark.parametrize(
    ("relative", "first", "last"),
    [
        ("notes.txt", "These notes live in the toolscore sandbox.", NOTES[-1]),
        ("slides.pptx", "Sandbox slides", "id 3: cherry, 3.0"),
        ("report.pdf", "Sandbox report", "id 3: cherry, 3.0"),
    ],
)
def test_the_lines_of_a_sandbox_file_are_read_back_from_its_bytes(
    relative: str, first: str, last: str
) -> None:
    lines = known_lines(relative)
    assert (lines[0], lines[-1]) == (first, last)
    assert known_lines("report.xlsx") == ()


def _param(name: str, description: str = "", tool_description: str = "") -> Parameter:
    schema: dict[str, Any] = {"type": "string", "description": description}
    tool = MCPToolDef(
        name="edit",
        description=tool_description,
        input_schema={"type": "object", "properties": {name: schema}},
    )
    return Parameter(tool=tool, name=name, schema=schema)


@pytest.mark.parametrize(
    ("name", "description", "place"),
    [
        ("start_anchor_text", "", "first"),
        ("end_anchor_text", "", "last"),
        ("target_text", "", "first"),
        ("old_string", "", "first"),
        ("text_to_find", "", "first"),
        ("text", "The text to search for.", "first"),
        ("text", "Paragraph text content.", None),
        ("new_text", "", None),
        ("file_path", "", None),
        ("target", "The target file.", None),
    ],
)
def test_which_parameters_name_text_inside_the_file(
    name: str, description: str, place: str | None
) -> None:
    # The tool's description speaks of paths: the parameter's own name still decides.
    assert text_place(_param(name, description, "file_path: Path to the file.")) == place


def test_text_the_file_holds_reported_missing_is_a_defect_and_made_up_text_is_not() -> None:
    text = "Start anchor 'Sandbox report' not found."
    own = classify_failure(text, {"anchor": SANDBOX_TEXT}, blamed="anchor")
    ours = classify_failure(text, {"anchor": "plain"}, blamed="anchor")
    assert own.category == "defect"
    assert (ours.category, ours.needs) == ("rejected-input", "setup")


def test_code_using_what_its_module_lacks_is_a_defect_whatever_we_sent() -> None:
    text = "Error calling tool 'x': module 'crypto.errors' has no attribute 'FormatError'"
    assert classify_failure(text, {"password": "generated"}).category == "defect"
    # An object lacking an attribute is still read as missing state (nothing loaded yet).
    other = classify_failure("'NoneType' object has no attribute 'x'", {"a": "generated"})
    assert other.category == "rejected-input"
