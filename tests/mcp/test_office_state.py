"""Servers that keep documents in memory under ids (slide decks, documents), as office servers
do: what a run must get right to verify their tools, and to tell their broken tools apart.

One real stdio server (``servers/deck_server.py``) is graded end to end; the rules it relies
on are also checked one by one: a missing id read as missing state, creators that take
another creator's id run after it, positions start at 0 (a span's end at 1) and come from
the producer of the thing acted on, option lists in errors, ``Args:`` docstrings, listings
wrapped in an object, unfinished tools and programs missing from this platform.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp_support import server_cmd
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore_mcp.client.target import ServerTarget
from toolscore_mcp.grading.classify import classify_failure
from toolscore_mcp.grading.harness import TestOptions, grade_server, run_sync
from toolscore_mcp.grading.scorecard import MCPScorecard
from toolscore_mcp.grading.verdicts import reports_failure
from toolscore_mcp.model import MCPToolDef, MCPToolResult
from toolscore_mcp.values.docstring_args import documented_arguments
from toolscore_mcp.values.harvest import Harvest
from toolscore_mcp.values.positions import position_value
from toolscore_mcp.values.providers import Parameter
from toolscore_mcp.values.repair import repair_arguments
from toolscore_mcp.values.roles import run_order
from toolscore_mcp.values.synthesizer import ToolSynthesizer


@pytest.fixture(scope="module")
def card() -> MCPScorecard:
    from toolscore.plugins import get_plugin_manager

    pm: ToolscorePluginManager = get_plugin_manager()
    target = ServerTarget(command=tuple(server_cmd("deck_server.py")))
    return run_sync(lambda: grade_server(target, TestOptions(timeout=10.0), pm=pm))


def _status(card: MCPScorecard) -> dict[str, tuple[str, str]]:
    return {row.tool: (row.status, str(row.needs)) for row in card.coverage()}


def _first_pass(card: MCPScorecard, tool: str) -> dict[str, Any]:
    [passed] = [
        r
        for r in card.results
        if r.scenario.tool == tool and r.scenario.kind == "happy" and r.verdict == "pass"
    ][:1]
    return dict(passed.scenario.arguments)


def test_every_working_tool_of_an_in_memory_deck_server_is_verified(card: MCPScorecard) -> None:
    status = _status(card)
    working = ["create_deck", "add_page", "add_grid", "format_grid_cell", "style_text",
               "set_layout", "arrange", "add_picture"]  # fmt: skip
    assert {name: status[name] for name in working if status[name][0] != "works"} == {}
    assert not [
        r.detail for r in card.results if r.scenario.tool in working and r.verdict == "fail"
        and r.scenario.kind == "happy"
    ]  # fmt: skip


def test_a_creator_that_takes_a_deck_id_gets_the_one_the_deck_creator_returned(
    card: MCPScorecard,
) -> None:
    assert _first_pass(card, "add_page")["deck_id"] == "deck-1"
    grid = _first_pass(card, "format_grid_cell")
    # The grid's own shape (after the page title), in a cell that exists.
    assert grid["shape_index"] >= 1
    assert (grid["row"], grid["col"]) == (0, 0)
    assert (
        _first_pass(card, "style_text")["start_pos"],
        _first_pass(card, "style_text")["end_pos"],
    ) == (0, 1)


def test_an_unfinished_tool_is_a_defect_and_a_missing_program_is_not(card: MCPScorecard) -> None:
    status = _status(card)
    assert status["fade_page"][0] == "defect"
    assert status["snapshot"] == ("needs", "binary")


@pytest.mark.parametrize(
    "text",
    [
        '{ "error": "No presentation is currently loaded or the specified ID is invalid" }',
        "No document is open",
        '{ "error": "Shape at index 0 is not a table" }',
        '{ "error": "Shape is not a chart" }',
    ],
)
def test_an_answer_that_names_missing_state_asks_for_setup(text: str) -> None:
    verdict = classify_failure(text, {"id": "generated"})
    assert (verdict.category, verdict.needs) == ("rejected-input", "setup")


def test_a_runtime_error_named_like_a_kind_is_no_missing_state() -> None:
    assert classify_failure("x is not a function", {"a": "plain"}).needs != "setup"


@pytest.mark.parametrize(
    ("text", "category", "needs"),
    [
        (
            '{"message": "ok", "note": "this is a placeholder for future enhancement"}',
            "defect",
            None,
        ),
        ("Exporting charts is not implemented yet", "defect", None),
        ("Command 'osascript' not found", "environment", "binary"),
        ("Screen capture is not implemented for linux", "environment", "binary"),
    ],
)
def test_unfinished_tools_are_defects_and_platform_gaps_are_missing_programs(
    text: str, category: str, needs: str | None
) -> None:
    verdict = classify_failure(text, {"a": "plain"})
    assert (verdict.category, verdict.needs) == (category, needs)


def test_a_placeholder_answer_is_a_failure_reported_as_success() -> None:
    note = {"message": "Transition set", "note": "a placeholder for future enhancement"}
    result = MCPToolResult(
        content=[{"type": "text", "text": json.dumps(note)}], is_error=False, duration=0.0
    )
    assert reports_failure(result)


def _tool(name: str, properties: dict[str, Any], description: str = "") -> MCPToolDef:
    return MCPToolDef(
        name=name,
        description=description,
        input_schema={"type": "object", "properties": properties},
    )


def test_a_creator_taking_another_creators_id_runs_after_it() -> None:
    string = {"type": "string"}
    tools = [
        _tool("add_slide", {"presentation_id": string}),
        _tool("create_presentation", {"id": string}),
        _tool("create_presentation_from_template", {"template_path": string}),
    ]
    order = {tool.name: run_order(tool, tools) for tool in tools}
    assert order == {
        "add_slide": (0, 1),
        "create_presentation": (0, 0),
        "create_presentation_from_template": (0, 0),
    }


def test_a_read_only_opener_runs_with_the_creators() -> None:
    opener = MCPToolDef(
        name="open_presentation",
        input_schema={"type": "object", "properties": {"file_path": {"type": "string"}}},
        raw={"annotations": {"readOnlyHint": True}},
    )
    assert run_order(opener, [opener])[0] == 0


@pytest.mark.parametrize(
    ("name", "value"),
    [("slide_index", 0), ("placeholder_idx", 0), ("row", 0), ("col", 0), ("page_index", 0),
     ("start_pos", 0), ("end_pos", 1), ("end_col", 1), ("rows", None), ("page", None)],
)  # fmt: skip
def test_positions_start_at_zero_and_a_span_ends_at_one(name: str, value: int | None) -> None:
    siblings = ("start_pos", "end_pos", "start_col", "end_col")
    param = Parameter(MCPToolDef(name="t"), name, {"type": "integer"}, siblings=siblings)
    assert position_value(param) == value


@pytest.mark.parametrize(
    ("description", "value"),
    [("Row number (1-based)", 1), ("Index of the slide, starting at 1", 1),
     ("one-based column", 1), ("Row index (0-based)", 0), ("Row to read", 0)],
)  # fmt: skip
def test_a_position_counted_from_one_starts_at_one(description: str, value: int) -> None:
    schema = {"type": "integer", "description": description}
    assert position_value(Parameter(MCPToolDef(name="t"), "row", schema)) == value


def test_a_position_comes_from_the_producer_of_the_thing_the_tool_acts_on() -> None:
    harvest = Harvest()
    for tool, index in (("add_table", 2), ("add_chart", 3), ("add_shape", 4)):
        answer = json.dumps({"message": "added", "shape_index": index})
        harvest.add_call(
            tool,
            {"slide_index": 0},
            MCPToolResult(content=[{"type": "text", "text": answer}], is_error=False, duration=0),
        )
    from toolscore_mcp.values.builtin_providers import builtin_value_providers
    from toolscore_mcp.values.providers import SynthesisContext

    integer = {"type": "integer"}
    tool = _tool("format_table_cell", {"shape_index": integer, "row": integer})
    synthesizer = ToolSynthesizer(
        tool, builtin_value_providers(), SynthesisContext(harvested=harvest)
    )
    assert synthesizer.candidates("shape_index")[0].value == 2
    assert synthesizer.candidates("row")[0].value == 0


def test_the_args_section_of_a_docstring_describes_undocumented_parameters() -> None:
    description = (
        '\n    Manage masters.\n\n    Args:\n        operation: Operation type ("list",'
        ' "get_info")\n        master_index (int): Index of the master\n'
        "            (0-based)\n\n    Returns:\n        result: a dictionary\n"
    )
    assert documented_arguments(description) == {
        "operation": 'Operation type ("list", "get_info")',
        "master_index": "Index of the master (0-based)",
    }
    tool = _tool("manage_masters", {"operation": {"type": "string"}}, description)
    param = Parameter(tool, "operation", {"type": "string"})
    assert param.description.startswith("Operation type")


@pytest.mark.parametrize(
    ("text", "chosen"),
    [
        ("Unsupported shape type: 'x'. Available shape types: arrow, cloud, diamond", "arrow"),
        ("Invalid chart type: 'x'. Valid types are: column, bar, line", "column"),
        ("Unsupported operation: x. Use 'set', 'remove', or 'get'", "set"),
    ],
)
def test_a_repair_picks_an_option_the_error_lists(text: str, chosen: str) -> None:
    from toolscore_mcp.values.builtin_providers import builtin_value_providers
    from toolscore_mcp.values.providers import SynthesisContext

    tool = _tool("act", {"kind": {"type": "string"}})
    synthesizer = ToolSynthesizer(tool, builtin_value_providers(), SynthesisContext())
    fixed = repair_arguments(synthesizer, {"kind": "x"}, text)
    assert fixed is not None
    assert fixed[0] == {"kind": chosen}


def test_a_listing_wrapped_in_an_object_names_its_things() -> None:
    harvest = Harvest()
    answer = {"total": 2, "notes": ["draft"], "presentations": [{"id": "p1"}, {"id": "p2"}]}
    harvest.add_call(
        "list_presentations",
        {},
        MCPToolResult(
            content=[{"type": "text", "text": json.dumps(answer)}], is_error=False, duration=0
        ),
        include_arguments=False,
    )
    assert [value for value, _ in harvest.lookup("presentation_id", "x", ())] == ["p2", "p1"]


def test_a_value_the_error_calls_a_missing_file_is_made_a_file_of_that_kind(
    card: MCPScorecard,
) -> None:
    assert _first_pass(card, "add_picture")["picture_source"].endswith(".png")
