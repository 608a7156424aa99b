"""Scenario values: the reference's draws for plain schemas, valid values for rich ones."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from toolscore_mcp.model import MCPToolDef
from toolscore_mcp.sample_server import TOOLS as SAMPLE_TOOLS
from toolscore_mcp.scenarios.generate import generate_scenarios
from toolscore_mcp.values.generate import generate_value_from_schema

FIXTURES = Path(__file__).parent / "fixtures"
REFERENCE_PYTHON = Path("/opt/refvenv/bin/python")


def _tools(raw: list[dict]) -> list[MCPToolDef]:
    return [MCPToolDef.from_wire(t) for t in raw]


def test_sample_server_scenarios_match_the_reference_values() -> None:
    scenarios = generate_scenarios(_tools(SAMPLE_TOOLS))
    by_tool: dict[str, list] = {}
    for s in scenarios:
        by_tool.setdefault(s.tool, []).append(s)
    happy = {
        tool: [s.arguments for s in items if s.kind == "happy"] for tool, items in by_tool.items()
    }
    assert happy["create_note"] == [{"title": "sample_title", "body": "sample_body"}] * 3
    assert [a["limit"] for a in happy["list_notes"]] == [15, 3, 19]
    assert [a["query"] for a in happy["search_notes"]] == ["coffee maker", "laptop", "coffee maker"]
    edges = [s.description for s in by_tool["create_note"] if s.kind == "edge"]
    assert edges == [
        "edge case: missing required argument 'title'",
        "edge case: wrong-type value for 'title'",
        "edge case: empty strings / zero numbers",
    ]
    assert len(scenarios) == 30


def test_scenarios_are_reproducible_across_processes() -> None:
    code = (
        "import json;from toolscore_mcp.sample_server import TOOLS;"
        "from toolscore_mcp.model import MCPToolDef;from toolscore_mcp.scenarios.generate import generate_scenarios;"
        "print(json.dumps([s.arguments for s in generate_scenarios([MCPToolDef.from_wire(t) for t in TOOLS])]))"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
        for _ in range(2)
    }
    assert len(runs) == 1


def _random_plain_tools(count: int) -> list[dict]:
    rng = random.Random(11)
    names = [
        "query",
        "search_text",
        "message",
        "email",
        "url",
        "path",
        "filename",
        "name",
        "city",
        "country",
        "title",
        "limit",
        "count",
        "flag",
        "tags",
        "x",
        "body",
        "user_name",
    ]

    def prop(depth: int = 0) -> dict:
        kind = rng.choice(
            [
                "string",
                "integer",
                "number",
                "boolean",
                "array",
                "object",
                "enum",
                "examples",
                "default",
                "eg",
                "format",
                "union",
            ]
        )
        if kind == "enum":
            return {"type": "string", "enum": ["a", "b", "c"]}
        if kind == "examples":
            return {"type": "string", "examples": ["e1", "e2", "e3"]}
        if kind == "default":
            return {"type": "integer", "default": 7}
        if kind == "eg":
            return {"type": "string", "description": "zone, e.g. 'Europe/Paris'"}
        if kind == "format":
            return {"type": "string", "format": rng.choice(["uri", "date", "email", "uuid"])}
        if kind == "union":
            return {"type": [rng.choice(["string", "integer", "number"]), "null"]}
        if kind in ("integer", "number"):
            schema: dict = {"type": kind}
            if rng.random() < 0.5:
                schema["minimum"] = rng.randint(0, 10)
            if rng.random() < 0.5:
                schema["maximum"] = rng.randint(20, 200)
            return schema
        if kind == "array":
            return {"type": "array", "items": prop(depth + 1) if depth < 2 else {"type": "string"}}
        if kind == "object" and depth < 2:
            return {
                "type": "object",
                "properties": {n: prop(depth + 1) for n in rng.sample(names, 2)},
            }
        return {"type": "string" if kind == "object" else kind}

    tools = []
    for index in range(count):
        properties = {n: prop() for n in rng.sample(names, rng.randint(1, 4))}
        required = list(properties)[: rng.randint(0, len(properties))]
        tools.append(
            {
                "name": f"tool_{index}_{rng.choice(names)}",
                "inputSchema": {"type": "object", "properties": properties, "required": required},
            }
        )
    return tools


@pytest.mark.skipif(not REFERENCE_PYTHON.exists(), reason="reference tool-scorer not installed")
def test_plain_schemas_give_exactly_the_reference_scenarios(tmp_path: Path) -> None:
    tools = _random_plain_tools(150)
    source = tmp_path / "tools.json"
    source.write_text(json.dumps(tools))
    script = (
        "import json,sys;from toolscore.mcp.harness import generate_scenarios;"
        "from toolscore.mcp.client import MCPToolDef;"
        "tools=[MCPToolDef(name=t['name'],description='',input_schema=t['inputSchema']) for t in json.load(open(sys.argv[1]))];"
        "print(json.dumps([[s.tool,s.kind,s.description,s.arguments] for s in generate_scenarios(tools)],sort_keys=True))"
    )
    reference = subprocess.run(
        [str(REFERENCE_PYTHON), "-c", script, str(source)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout
    ours = [[s.tool, s.kind, s.description, s.arguments] for s in generate_scenarios(_tools(tools))]
    assert json.loads(reference) == json.loads(json.dumps(ours, sort_keys=True))


RICH_SCHEMAS: list[dict] = [
    {"type": "string", "const": "fixed"},
    {"type": "string", "pattern": "^[A-Z]{3}$"},
    {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
    {"type": "string", "maxLength": 4},
    {"type": "string", "minLength": 20},
    {"type": "integer", "minimum": 500, "maximum": 510},
    {"type": "integer", "maximum": -5},
    {"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 3},
    {"type": "integer", "minimum": 0, "maximum": 100, "multipleOf": 25},
    {"type": "number", "exclusiveMinimum": 0, "maximum": 0.5},
    {"type": "array", "items": {"type": "integer"}, "minItems": 4, "maxItems": 6},
    {"type": "array", "items": {"enum": ["a", "b", "c"]}, "uniqueItems": True},
    {"anyOf": [{"type": "integer", "minimum": 10}, {"type": "null"}]},
    {"oneOf": [{"type": "object", "properties": {"x": {"type": "boolean"}}, "required": ["x"]}]},
    {"allOf": [{"type": "string"}, {"maxLength": 3}]},
    {"type": ["null", "number"], "minimum": 1, "maximum": 2},
    {
        "type": "object",
        "properties": {"inner": {"type": "array", "items": {"type": "string", "format": "email"}}},
    },
]


@pytest.mark.parametrize("schema", RICH_SCHEMAS, ids=lambda s: json.dumps(s)[:40])
def test_generated_values_satisfy_their_schema(schema: dict) -> None:
    validator = Draft202012Validator(schema)
    for seed in range(5):
        value = generate_value_from_schema("value", schema, "normal", random.Random(seed))
        assert not list(validator.iter_errors(value)), value


def test_refs_hints_and_server_values() -> None:
    schema = {
        "type": "object",
        "$defs": {"Unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
        "properties": {
            "unit": {"$ref": "#/$defs/Unit"},
            "tz": {"type": "string", "description": "IANA name, e.g. 'Europe/Paris'"},
            "when": {"type": "string", "format": "date"},
            "n": {"type": "integer", "description": "How many, e.g. 42"},
            "mode": {"type": "string", "examples": ["fast"]},
            "level": {"type": "integer", "default": 2},
        },
    }
    [scenario] = generate_scenarios([MCPToolDef(name="t", input_schema=schema)], 1, False)
    args = scenario.arguments
    assert args["unit"] in ("celsius", "fahrenheit")
    assert args["tz"] == "Europe/Paris"
    assert args["when"] == "2026-01-15"
    assert args["n"] == 42
    assert args["mode"] == "fast"
    assert args["level"] == 2
    assert not list(Draft202012Validator(schema).iter_errors(args))


def test_values_validate_for_every_tool_of_the_real_servers() -> None:
    for fixture in sorted(FIXTURES.glob("*.tools.json")):
        tools = _tools(json.loads(fixture.read_text())["tools"])
        for scenario in generate_scenarios(tools):
            if scenario.kind != "happy":
                continue
            tool = next(t for t in tools if t.name == scenario.tool)
            errors = list(Draft202012Validator(tool.input_schema).iter_errors(scenario.arguments))
            assert not errors, (fixture.name, scenario.tool, scenario.arguments, errors[0].message)
