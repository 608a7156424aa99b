"""Arguments checked against tool input schemas: ``schema_validity`` and ``schema_violation``."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import toolscore
from toolscore.findings import findings_for
from toolscore.reporters._common import fix_list
from toolscore.tool_schemas import check_calls, tool_schemas, tools_in_document
from toolscore.tool_schemas.definitions import read_tools_file

SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "pattern": "^[A-Z]"},
        "days": {"type": "integer", "minimum": 1},
    },
    "required": ["city"],
    "additionalProperties": False,
}
OPENAI_TOOLS = [{"type": "function", "function": {"name": "weather", "parameters": SCHEMA}}]
GOLD = [{"tool": "weather", "args": {"city": "Paris", "days": 2}}]


@pytest.mark.parametrize(
    "tools",
    [
        OPENAI_TOOLS,
        [{"type": "function", "name": "weather", "parameters": SCHEMA}],
        [{"name": "weather", "input_schema": SCHEMA}],
        {
            "jsonrpc": "2.0",
            "id": 1,
            "result": {"tools": [{"name": "weather", "inputSchema": SCHEMA}]},
        },
        [{"functionDeclarations": [{"name": "weather", "parameters": SCHEMA}]}],
        {"model": "gpt-4o", "messages": [], "tools": OPENAI_TOOLS},
        {"weather": SCHEMA},
    ],
    ids=["openai", "responses", "anthropic", "mcp", "gemini", "request", "mapping"],
)
def test_every_tool_definition_shape_reads_to_the_same_schema(tools: object) -> None:
    assert tool_schemas(tools) == {"weather": SCHEMA}


def test_each_kind_of_malformed_arguments_is_classed() -> None:
    actual = [
        {"tool": "weather", "args": {"city": "Paris", "days": "2"}},  # type
        {"tool": "weather", "args": {"days": 2}},  # missing required
        {"tool": "weather", "args": {"city": "Paris", "unit": "C"}},  # unknown key
        {"tool": "weather", "args": {"city": "paris"}},  # pattern
        {"tool": "weather", "args": {"city": "Rome"}},  # valid
        {"tool": "clock", "args": {}},  # no schema: not counted
    ]
    value = toolscore.evaluate(GOLD, actual, tools=OPENAI_TOOLS).metrics["schema_validity"]
    assert (value["checked"], value["valid"], value["schema_validity"]) == (5, 1, 0.2)
    kinds = [[e["kind"] for e in row["errors"]] for row in value["calls"]]
    assert kinds == [["type"], ["missing_required"], ["unknown_key"], ["constraint"], []]
    assert value["calls"][0]["errors"][0]["path"] == "$.days"
    assert value["unchecked_tools"] == ["clock"]


def test_default_evaluation_is_unchanged_and_the_score_ignores_the_metric() -> None:
    actual = [{"tool": "weather", "args": {"city": "Paris", "days": "2"}}]
    plain = toolscore.evaluate(GOLD, actual)
    checked = toolscore.evaluate(GOLD, actual, tools=OPENAI_TOOLS)
    assert "schema_validity" not in plain.metrics
    assert checked.score == plain.score
    assert {k: v for k, v in checked.metrics.items() if k != "schema_validity"} == plain.metrics
    assert "schema_violation" not in [f.code for f in findings_for(plain)]


def test_violations_are_findings_and_fixes_apart_from_wrong_values() -> None:
    actual = [{"tool": "weather", "args": {"city": "Paris", "days": "2"}}]
    result = toolscore.evaluate(GOLD, actual, tools=OPENAI_TOOLS)
    codes = [f.code for f in findings_for(result)]
    assert "schema_violation" in codes
    problems = [fix.problem for fix in fix_list(result)]
    assert any("break its input schema" in p and "$.days" in p for p in problems)


def test_a_backtracking_pattern_is_reported_not_hung_on() -> None:
    schema = {"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a|aa)+$"}}}
    started = time.monotonic()
    value = check_calls(
        toolscore.model.calls_from_dicts([{"tool": "t", "args": {"s": "a" * 40 + "b"}}]),
        {"t": schema},
    )
    assert time.monotonic() - started < 5
    assert value["valid"] == 0
    assert value["calls"][0]["errors"][0]["kind"] == "constraint"


def test_an_invalid_schema_is_named_and_its_calls_not_counted() -> None:
    value = check_calls(
        toolscore.model.calls_from_dicts([{"tool": "t", "args": {}}]), {"t": {"type": 12}}
    )
    assert value["checked"] == 0
    assert value["schema_validity"] is None
    assert "t" in value["invalid_schemas"]


def test_evaluate_trace_reads_tools_from_gold_then_request_then_option(tmp_path: Path) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps(GOLD))
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps([{"tool": "weather", "args": {"city": "Paris", "days": "2"}}]))
    assert "schema_validity" not in toolscore.evaluate_trace(gold, trace).metrics

    tools = tmp_path / "tools.json"
    tools.write_text(
        json.dumps({"result": {"tools": [{"name": "weather", "inputSchema": SCHEMA}]}})
    )
    by_option = toolscore.evaluate_trace(gold, trace, tools=tools)
    assert by_option.metrics["schema_validity"]["valid"] == 0

    gold_with_tools = tmp_path / "gold_tools.json"
    gold_with_tools.write_text(json.dumps({"tools": OPENAI_TOOLS, "calls": GOLD}))
    assert (
        toolscore.evaluate_trace(gold_with_tools, trace).metrics["schema_validity"]["checked"] == 1
    )


def test_tools_in_a_request_payload_are_found() -> None:
    payload = {"request": {"tools": OPENAI_TOOLS, "messages": []}, "response": {}}
    assert tools_in_document(payload) == OPENAI_TOOLS


def test_a_bad_tools_file_is_one_line_naming_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "tools.json"
    bad.write_text(json.dumps({"tools": [3]}))
    with pytest.raises(ValueError, match=r"tools\.json.*\$.*expected a tool definition object"):
        read_tools_file(bad)


def test_cli_eval_tools_option_reports_the_metric_and_the_fix(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from toolscore.cli import cli
    from toolscore.plugins import create_plugin_manager

    (tmp_path / "gold.json").write_text(json.dumps(GOLD))
    (tmp_path / "trace.json").write_text(
        json.dumps([{"tool": "weather", "args": {"city": "Paris", "days": "2"}}])
    )
    (tmp_path / "tools.json").write_text(json.dumps(OPENAI_TOOLS))
    out = tmp_path / "report.json"
    args = ["eval", str(tmp_path / "gold.json"), str(tmp_path / "trace.json")]
    pm = create_plugin_manager(load_entrypoints=False)
    result = CliRunner().invoke(
        cli,
        [*args, "--tools", str(tmp_path / "tools.json"), "-o", str(out)],
        obj={"plugin_manager": pm},
    )
    assert result.exit_code == 0, result.output
    assert "break its input schema" in result.output
    report = json.loads(out.read_text())
    assert report["metrics"]["schema_validity"]["schema_validity"] == 0.0
    assert "schema_violation" in [f["code"] for f in report["findings"]]
