"""Repairs inside structured values, and the objects a renamer or a destroyer may touch.

Each rule on its own (JSON text, a qualified reference, a quoted nested value, a taken name,
a nested field said to be needed, nested objects that send only their required fields), then
two real stdio servers (``servers/step_planner_server.py``, ``servers/grid_server.py``) graded
end to end: a plan sent as JSON text is repaired field by field and its step ids reach the
tools that need them; the workbook's first sheet is never renamed or deleted, and a chart's
range is pointed at a sheet the server has.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp_support import server_cmd
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore_mcp.client.target import ServerTarget
from toolscore_mcp.grading.harness import TestOptions, grade_server, run_sync
from toolscore_mcp.grading.scorecard import MCPScorecard
from toolscore_mcp.model import MCPToolDef
from toolscore_mcp.values.builtin_providers import builtin_value_providers
from toolscore_mcp.values.exists_repair import repair_taken_name
from toolscore_mcp.values.json_text_repair import issues_in, repair_json_text
from toolscore_mcp.values.nested_fields import fits_field, kept_fields
from toolscore_mcp.values.nested_repair import repair_nested_missing, repair_quoted_value
from toolscore_mcp.values.providers import SynthesisContext
from toolscore_mcp.values.reference_repair import qualifiers, repair_reference, requalify
from toolscore_mcp.values.repair import repair_arguments
from toolscore_mcp.values.roles import is_renamer, makes_a_part, makes_new
from toolscore_mcp.values.synthesizer import ToolSynthesizer


def _synth(name: str, properties: dict[str, Any], required: list[str], **extra: Any) -> Any:
    schema = {"type": "object", "properties": properties, "required": required, **extra}
    tool = MCPToolDef(name=name, description="", input_schema=schema, raw={"name": name})
    return ToolSynthesizer(tool, builtin_value_providers(), SynthesisContext())


# -- JSON text ---------------------------------------------------------------------------------

_PLAN = json.dumps(
    [
        {"title": "a", "kind": "Step kind (BUILD: make it, CHECK: test it)", "detail": "x" * 20},
        {"title": "b", "kind": "BUILD", "detail": "short"},
    ]
)
_REPORT = "Error: planRaw is invalid: " + json.dumps(
    [
        {
            "received": "Step kind (BUILD: make it, CHECK: test it)",
            "code": "invalid_enum_value",
            "options": ["BUILD", "CHECK"],
            "path": [0, "kind"],
        },
        {"code": "too_small", "minimum": 10, "type": "string", "path": [1, "detail"]},
    ]
)


def test_a_field_inside_json_text_gets_an_allowed_option_and_its_length() -> None:
    synth = _synth("plan", {"planRaw": {"type": "string"}}, ["planRaw"])
    fixed = repair_json_text(synth, {"planRaw": _PLAN, "mode": "append"}, _REPORT, [])
    assert fixed is not None
    arguments, change = fixed
    steps = json.loads(arguments["planRaw"])
    assert [step["kind"] for step in steps] == ["BUILD", "BUILD"]
    assert len(steps[1]["detail"]) >= 10
    assert steps[1]["detail"].startswith("short")
    assert steps[0]["detail"] == "x" * 20  # the rest of the structure is as it was
    assert arguments["mode"] == "append"
    assert "0.kind" in change


def test_the_validator_s_words_name_the_field_when_it_sends_no_json() -> None:
    text = "Invalid enum value. Expected 'BUILD' | 'CHECK', received 'a kind of step'"
    [issue] = issues_in(text)
    assert (issue.received, issue.options) == ("a kind of step", ("BUILD", "CHECK"))
    synth = _synth("plan", {"planRaw": {"type": "string"}}, ["planRaw"])
    plan = json.dumps([{"kind": "a kind of step"}])
    fixed = repair_json_text(synth, {"planRaw": plan}, text, [])
    assert fixed is not None
    assert json.loads(fixed[0]["planRaw"]) == [{"kind": "BUILD"}]


def test_json_text_is_left_alone_when_the_message_names_nothing_in_it() -> None:
    synth = _synth("plan", {"planRaw": {"type": "string"}}, ["planRaw"])
    plan = json.dumps([{"kind": "BUILD"}])
    assert (
        repair_json_text(synth, {"planRaw": plan}, _REPORT.replace("Step kind", "Other"), [])
        is None
    )
    assert repair_json_text(synth, {"planRaw": "plain words"}, _REPORT, []) is None


# -- qualified references ----------------------------------------------------------------------


def test_a_reference_keeps_its_cells_under_another_qualifier() -> None:
    assert qualifiers("Data!B2:F9") == ["Data"]
    assert qualifiers("'Q1 Sales'!A1 and Data!C3") == ["Q1 Sales", "Data"]
    assert requalify("Data!B2:F9", "Data", "Sheet1") == "Sheet1!B2:F9"
    assert requalify("Data!B2", "Data", "My Sheet") == "'My Sheet'!B2"
    assert requalify("Other!B2", "Data", "Sheet1") == "Other!B2"


def test_a_missing_qualifier_becomes_the_listed_one_the_call_already_names() -> None:
    synth = _synth(
        "add_sparklines",
        {"sheet": {"type": "string"}, "source": {"type": "string"}},
        ["sheet", "source"],
    )
    text = "Sheet 'Data' not found. Available sheets: 'Summary', 'Sheet1'."
    arguments = {"sheet": "Sheet1", "source": "Data!B2:F9"}
    fixed = repair_arguments(synth, arguments, text)
    assert fixed is not None
    assert fixed[0] == {"sheet": "Sheet1", "source": "Sheet1!B2:F9"}  # not the sheet argument


def test_a_qualifier_the_message_does_not_quote_is_not_touched() -> None:
    synth = _synth("chart", {"source": {"type": "string"}}, ["source"])
    text = "Sheet 'Other' not found. Available sheets: 'Sheet1'."
    assert repair_reference(synth, {"source": "Data!B2:F9"}, text, []) is None


# -- quoted values, taken names, needed fields -------------------------------------------------


def test_a_quoted_value_inside_a_list_of_objects_takes_the_first_offered_one() -> None:
    synth = _synth(
        "sort_rows",
        {
            "sheet": {"type": "string"},
            "by": {
                "type": "array",
                "items": {"type": "object", "properties": {"column": {"type": "string"}}},
            },
        },
        ["sheet", "by"],
    )
    text = "Column 'sample_column' is not in A1:C4. Use a header ('id', 'name', 'price')."
    fixed = repair_quoted_value(
        synth, {"sheet": "Sheet1", "by": [{"column": "sample_column"}]}, text, []
    )
    assert fixed is not None
    assert fixed[0]["by"] == [{"column": "id"}]


def test_the_offers_stand_for_the_last_value_of_ours_quoted_before_them() -> None:
    synth = _synth(
        "delete_image", {"sheet": {"type": "string"}, "name": {"type": "string"}}, ["sheet", "name"]
    )
    text = "Sheet 'Sheet1' has no image named 'Logo'. Available: 'Picture 1'."
    fixed = repair_quoted_value(synth, {"sheet": "Sheet1", "name": "Logo"}, text, [])
    assert fixed is not None
    assert fixed[0] == {"sheet": "Sheet1", "name": "Picture 1"}
    assert (
        repair_quoted_value(synth, {"sheet": "Sheet1", "name": "Logo"}, "No image 'Logo'.", [])
        is None
    )


def test_a_taken_name_gets_a_fresh_one_and_a_path_never_does() -> None:
    synth = _synth(
        "create_chart", {"sheet": {"type": "string"}, "path": {"type": "string"}}, ["sheet"]
    )
    fixed = repair_taken_name(
        synth, {"sheet": "Sheet1"}, "A sheet named 'Sheet1' already exists.", []
    )
    assert fixed is not None
    assert fixed[0]["sheet"].startswith("toolscore-item-")
    taken = "File '/tmp/x.xlsx' already exists."
    assert repair_taken_name(synth, {"sheet": "S", "path": "/tmp/x.xlsx"}, taken, []) is None


def test_fields_a_nested_object_is_said_to_need_are_added_one_of_each_alternative() -> None:
    rule = {
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": ["top", "cells"]},
            "count": {"type": "integer"},
            "fill_color": {"type": "string"},
            "font_color": {"type": "string"},
        },
        "required": ["type"],
    }
    synth = _synth(
        "add_format", {"rule": {"$ref": "#/$defs/Rule"}}, ["rule"], **{"$defs": {"Rule": rule}}
    )
    fixed = repair_nested_missing(synth, {"rule": {"type": "top"}}, "top rules need a count", [])
    assert fixed is not None
    assert set(fixed[0]["rule"]) == {"type", "count"}
    text = "top rules need a fill_color or font_color."
    fixed = repair_nested_missing(synth, {"rule": {"type": "top"}}, text, [])
    assert fixed is not None
    assert set(fixed[0]["rule"]) == {"type", "fill_color"}


# -- nested objects ----------------------------------------------------------------------------


def test_a_nested_object_keeps_its_required_and_harvested_fields() -> None:
    schema = {"properties": {"kind": {}, "title": {}, "axis": {}}, "required": ["kind"]}
    value = {"kind": "pie", "title": "t", "axis": "x"}
    assert kept_fields(value, schema, ()) == {"kind": "pie"}
    assert kept_fields(value, schema, {"title"}) == {"kind": "pie", "title": "t"}
    assert kept_fields({"rows": {}, "bold": True}, {"properties": {}}, ()) == {"bold": True}
    assert fits_field("thin", {"type": "string", "enum": ["thin"]})
    assert not fits_field("A1", {"type": "string", "enum": ["thin"]})


def test_generated_nested_objects_send_required_fields_and_schema_options() -> None:
    style = {
        "type": "object",
        "properties": {
            "bold": {"type": "boolean"},
            "border_style": {"type": "string", "enum": ["none", "thin"]},
            "range": {"type": "string"},
        },
    }
    spec = {
        "type": "object",
        "properties": {
            "kind": {"type": "string", "enum": ["pie", "bar"]},
            "hole": {"type": "integer"},
        },
        "required": ["kind"],
    }
    synth = _synth(
        "format_cells",
        {"style": {"$ref": "#/$defs/Style"}, "spec": spec},
        ["style", "spec"],
        **{"$defs": {"Style": style}},
    )
    [first, *_] = synth.argument_sets(3)
    assert first.arguments["spec"] in ({"kind": "pie"}, {"kind": "bar"})
    assert len(first.arguments["style"]) == 1  # something to ask for, no more
    assert synth.validation_error(first.arguments) is None


# -- roles -------------------------------------------------------------------------------------


def _tool(name: str) -> MCPToolDef:
    return MCPToolDef(name=name, description="", input_schema={}, raw={"name": name})


def test_which_calls_made_a_new_thing() -> None:
    assert is_renamer(_tool("rename_sheet"))
    assert not is_renamer(_tool("read_sheet"))
    assert makes_new(_tool("create_sheet"), {"path": "a.xlsx"})
    assert makes_new(_tool("copy_sheet"), {"sheet": "Sheet1", "new_name": "b"})
    assert not makes_new(_tool("set_sheet_layout"), {"sheet": "Sheet1"})
    assert makes_a_part(_tool("create_chart"))
    assert makes_a_part(_tool("create_sheet"))
    assert not makes_a_part(_tool("create_workbook"))
    assert not makes_a_part(_tool("write_file"))


# -- end to end --------------------------------------------------------------------------------


@pytest.fixture
def pm() -> ToolscorePluginManager:
    from toolscore.plugins import get_plugin_manager

    return get_plugin_manager()


def _grade(server: str, pm: ToolscorePluginManager) -> MCPScorecard:
    target = ServerTarget(command=tuple(server_cmd(server)))
    return run_sync(lambda: grade_server(target, TestOptions(timeout=10.0), pm=pm))


def _passed(card: MCPScorecard, tool: str) -> list[Any]:
    return [
        r
        for r in card.results
        if r.scenario.tool == tool and r.scenario.kind == "happy" and r.verdict == "pass"
    ]


def _verified(card: MCPScorecard) -> set[str]:
    return {row.tool for row in card.coverage() if row.status == "works"}


def test_a_plan_sent_as_json_text_is_repaired_and_its_ids_flow(pm: ToolscorePluginManager) -> None:
    card = _grade("step_planner_server.py", pm)
    assert _verified(card) == {"plan_steps", "show_step", "revise_step"}
    [planned, *_] = _passed(card, "plan_steps")
    steps = json.loads(planned.scenario.arguments["planRaw"])
    assert {step["kind"] for step in steps} <= {"BUILD", "CHECK", "SHIP"}
    assert all(len(step["detail"]) >= 10 for step in steps)
    assert any("inside its JSON" in (attempt.repair or "") for attempt in planned.attempts)
    [shown, *_] = _passed(card, "show_step")
    assert shown.scenario.arguments["stepId"].startswith("step-")
    # Asked to change nothing, the server says the step does not exist: the set with
    # something to change is what passed.
    [revised, *_] = _passed(card, "revise_step")
    assert set(revised.scenario.arguments) > {"stepId"}


def test_the_first_sheet_is_never_renamed_or_deleted(pm: ToolscorePluginManager) -> None:
    card = _grade("grid_server.py", pm)
    assert _verified(card) >= {"rename_sheet", "delete_sheet", "add_chart", "sort_rows"}
    touched = [
        r.scenario.arguments.get("sheet")
        for r in card.results
        if r.scenario.tool in ("rename_sheet", "delete_sheet")
    ]
    assert touched
    assert "Sheet1" not in touched
    [renamed, *_] = _passed(card, "rename_sheet")
    [deleted, *_] = _passed(card, "delete_sheet")
    assert deleted.scenario.arguments["sheet"] == renamed.scenario.arguments["new_name"]
    [chart, *_] = _passed(card, "add_chart")
    assert chart.scenario.arguments["source"] == "Sheet1!B2:F9"
    assert chart.scenario.arguments["spec"] in ({"kind": "pie"}, {"kind": "bar"})
    [rows, *_] = _passed(card, "sort_rows")
    assert rows.scenario.arguments["by"] == [{"column": "id"}]


def test_of_an_either_or_pair_one_is_added_and_of_groups_all() -> None:
    synth = _synth(
        "chart",
        {"source": {"type": "string"}, "series": {"type": "string"}},
        [],
    )
    text = "Pass either source (a block) or series (ranges), not both and not neither."
    fixed = repair_arguments(synth, {}, text)
    assert fixed is not None
    assert list(fixed[0]) == ["source"]
    synth = _synth(
        "edit",
        {name: {"type": "string"} for name in ("old", "new", "range", "content")},
        [],
    )
    text = "Must provide either (old + new) or (range + content)"
    fixed = repair_arguments(synth, {}, text)
    assert fixed is not None
    assert set(fixed[0]) == {"old", "new", "range", "content"}


def test_made_up_optional_values_go_when_the_message_blames_nothing_of_ours() -> None:
    synth = _synth(
        "create_chart",
        {"sheet": {"type": "string"}, "replace": {"type": "string"}},
        ["sheet"],
    )
    guess = synth.candidates("replace")[0].value
    fixed = repair_arguments(synth, {"sheet": "Sheet1", "replace": guess}, "Sheet1 has no charts.")
    assert fixed is not None
    assert fixed[0] == {"sheet": "Sheet1"}
