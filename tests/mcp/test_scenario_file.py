"""The author's scenario file: loading, one-line errors, expectations, plans, starter files,
conversion of recorded sessions, and the ``scenarios`` commands. Real files in tmp_path."""

from __future__ import annotations

import io
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from toolscore.errors import InputError
from toolscore_mcp.cli.scenario import scenarios_group
from toolscore_mcp.client.recorder import MCPRecorder
from toolscore_mcp.model import (
    MCPToolDef,
    MCPToolResult,
    Scenario,
    ScenarioResult,
    SetupCall,
)
from toolscore_mcp.scenarios.file_model import NOT_GIVEN, ResultExpectation, ScenarioFile, ToolPlan
from toolscore_mcp.scenarios.file_plans import plans_for
from toolscore_mcp.scenarios.file_reader import load_scenario_file
from toolscore_mcp.scenarios.file_writer import write_scenario_file
from toolscore_mcp.scenarios.recording import scenarios_from_recording
from toolscore_mcp.scenarios.starter import starter_from_run

EXAMPLE_YAML = """\
version: 1
tools:
  get_current_time:
    arguments:
      - {timezone: "Europe/Paris"}
      - {timezone: "UTC", day: 2024-01-01}
  read_entity:
    setup:
      - tool: create_entity
        arguments: {name: "toolscore-demo", dir: "{sandbox}/entities"}
    arguments: {name: "toolscore-demo"}
    expect:
      is_error: false
      text: {"$regex": "toolscore-demo"}
      structured: {count: {"$type": "integer"}}
  search_web:
    skip: "needs a paid API key"
  ping: {}
"""

EXAMPLE_DOCUMENT: dict[str, Any] = yaml.safe_load(
    EXAMPLE_YAML.replace("2024-01-01", "'2024-01-01'")
)

TOOLS = [
    MCPToolDef(name=name)
    for name in ("get_current_time", "create_entity", "read_entity", "search_web", "ping")
]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _load_error(tmp_path: Path, text: str, name: str = "scenarios.yaml") -> str:
    path = _write(tmp_path, name, text)
    with pytest.raises(InputError) as caught:
        load_scenario_file(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    assert caught.value.source == str(path)
    return message[len(f"{path}: ") :]


def _result(text: str = "ok", *, is_error: bool = False, structured: Any = None) -> MCPToolResult:
    raw: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": is_error}
    if structured is not None:
        raw["structuredContent"] = structured
    return MCPToolResult(
        content=raw["content"], is_error=is_error, duration=0.01, structured=structured, raw=raw
    )


# -- loading ------------------------------------------------------------------------------


def test_yaml_file_loads_into_plans_in_file_order(tmp_path: Path) -> None:
    loaded = load_scenario_file(_write(tmp_path, "scenarios.yaml", EXAMPLE_YAML))

    assert isinstance(loaded, ScenarioFile)
    assert loaded.source == str(tmp_path / "scenarios.yaml")
    assert list(loaded.tools) == ["get_current_time", "read_entity", "search_web", "ping"]
    assert loaded.tools["get_current_time"].arguments == (
        {"timezone": "Europe/Paris"},
        {"timezone": "UTC", "day": "2024-01-01"},  # a YAML date stays the string written
    )
    entity = loaded.tools["read_entity"]
    assert entity.arguments == ({"name": "toolscore-demo"},)
    assert entity.setup == (
        SetupCall("create_entity", {"name": "toolscore-demo", "dir": "{sandbox}/entities"}),
    )
    assert entity.expect is not None
    assert entity.expect.is_error is False
    assert entity.expect.text_form == {"$regex": "toolscore-demo"}
    assert loaded.tools["search_web"] == ToolPlan(arguments=({},), skip="needs a paid API key")
    assert loaded.tools["ping"] == ToolPlan(arguments=({},))
    assert loaded.skipped == {"search_web": "needs a paid API key"}


def test_json_file_and_unknown_extensions_load_the_same_plans(tmp_path: Path) -> None:
    from_yaml = load_scenario_file(_write(tmp_path, "s.yml", EXAMPLE_YAML))
    as_json = json.dumps(EXAMPLE_DOCUMENT)

    assert load_scenario_file(_write(tmp_path, "s.json", as_json)).tools == from_yaml.tools
    assert load_scenario_file(_write(tmp_path, "s.scenarios", as_json)).tools == from_yaml.tools
    yaml_without_suffix = _write(tmp_path, "scenarios", EXAMPLE_YAML)
    assert load_scenario_file(yaml_without_suffix).tools == from_yaml.tools


def test_expect_without_text_or_structured_leaves_them_not_given(tmp_path: Path) -> None:
    text = "tools:\n  x:\n    expect: {is_error: true}\n"
    expect = load_scenario_file(_write(tmp_path, "s.yaml", text)).tools["x"].expect

    assert expect == ResultExpectation(is_error=True)
    assert expect.text is NOT_GIVEN
    assert expect.structured is NOT_GIVEN


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "version: 1\ntools:\n  read_entity:\n    argumets: {name: x}\n",
            "$.tools.read_entity.argumets: unknown key 'argumets' "
            "(expected one of: arguments, setup, expect, skip)",
        ),
        (
            "version: 1\ntools: {}\nextra: 1\n",
            "$.extra: unknown key 'extra' (expected one of: version, tools)",
        ),
        (
            "version: 1\ntools:\n  x:\n    expect: {is_eror: true}\n",
            "$.tools.x.expect.is_eror: unknown key 'is_eror' "
            "(expected one of: is_error, text, structured)",
        ),
        (
            "version: 1\ntools:\n  read_entity:\n    setup:\n      - tool: 5\n",
            "$.tools.read_entity.setup[0].tool: expected a tool name, got integer",
        ),
        (
            "version: 1\ntools:\n  read_entity:\n    setup:\n      - arguments: {}\n",
            "$.tools.read_entity.setup[0].tool: missing required key 'tool'",
        ),
        (
            "version: 1\ntools:\n  x:\n    arguments: 5\n",
            "$.tools.x.arguments: expected a mapping of argument values or a non-empty list "
            "of them, got integer",
        ),
        (
            "version: 1\ntools:\n  x:\n    arguments: [{a: 1}, 5]\n",
            "$.tools.x.arguments[1]: expected a mapping of argument name to value, got integer",
        ),
        (
            "version: 1\ntools:\n  x:\n    arguments: []\n",
            "$.tools.x.arguments: expected a non-empty list of argument mappings, "
            "got an empty list",
        ),
        (
            "version: 1\ntools:\n  x:\n    skip: ''\n",
            "$.tools.x.skip: expected a non-empty reason string, got an empty string",
        ),
        (
            "version: 1\ntools:\n  x:\n    expect: {is_error: 'no'}\n",
            "$.tools.x.expect.is_error: expected true or false, got string",
        ),
        ("version: 2\ntools: {}\n", "$.version: expected 1, got 2"),
        ("version: 1\n", "$.tools: missing required key 'tools'"),
        (
            "version: 1\ntools:\n  x: [1]\n",
            "$.tools.x: expected a mapping with arguments, setup, expect or skip, got array",
        ),
        (
            "version: 1\ntools:\n  x:\n    arguments: {1: a}\n",
            "$.tools.x.arguments: expected string keys, got integer key 1 (quote it)",
        ),
        (
            "version: 1\ntools:\n  x:\n    argumets: {}\n    skip: 7\n",
            "$.tools.x.argumets: unknown key 'argumets' (expected one of: arguments, setup, "
            "expect, skip) (and 1 more problem(s))",
        ),
    ],
)
def test_schema_problems_are_one_line_with_file_and_json_path(
    tmp_path: Path, text: str, message: str
) -> None:
    assert _load_error(tmp_path, text) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "tools:\n  x:\n    expect: {text: {$regx: a}}\n",
            "$.tools.x.expect.text[\"$regx\"]: unknown matcher '$regx' (known: $any, $approx, "
            "$contains, $literal, $one_of, $regex, $type; wrap a literal value in $literal)",
        ),
        (
            "tools:\n  x:\n    expect: {text: {$contains: {$nope: 1}}}\n",
            '$.tools.x.expect.text["$contains"]["$nope"]: unknown matcher \'$nope\'',
        ),
        (
            "tools:\n  x:\n    expect: {structured: {a: [1, {$regex: 5}]}}\n",
            '$.tools.x.expect.structured.a[1]["$regex"]: bad matcher: '
            "$regex needs a pattern string, got 5",
        ),
        (
            "tools:\n  x:\n    expect: {structured: {n: {$type: integr}}}\n",
            '$.tools.x.expect.structured.n["$type"]: bad matcher: $type needs a type name',
        ),
        (
            "tools:\n  x:\n    expect: {text: {$regex: '('}}\n",
            '$.tools.x.expect.text["$regex"]: bad matcher: missing ), unterminated subpattern',
        ),
    ],
)
def test_bad_matchers_are_input_errors_at_their_path(
    tmp_path: Path, text: str, message: str
) -> None:
    assert _load_error(tmp_path, text).startswith(message)


def test_literal_escapes_a_value_that_looks_like_a_matcher(tmp_path: Path) -> None:
    text = "tools:\n  x:\n    expect: {structured: {q: {$literal: {$nope: 1}}}}\n"
    expect = load_scenario_file(_write(tmp_path, "s.yaml", text)).tools["x"].expect

    assert expect is not None
    assert expect.check(_result(structured={"q": {"$nope": 1}})) is None


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        (
            "s.yaml",
            "version: 1\ntools:\n  x:\n    arguments: {a: 1\n",
            "invalid YAML at line 5, column 1: expected ',' or '}', but got '<stream end>'",
        ),
        (
            "s.yaml",
            "version: 1\ntools:\n  x: {}\n  y: : 1\n",
            "invalid YAML at line 4, column 6: mapping values are not allowed here",
        ),
        ("s.yaml", "", "$: expected a mapping with 'version' and 'tools', got an empty document"),
        ("s.yaml", "- a\n- b\n", "$: expected a mapping with 'version' and 'tools', got array"),
        ("s.yaml", "just text\n", "$: expected a mapping with 'version' and 'tools', got string"),
        (
            "s.json",
            '{"version": 1,\n "tools": {"x": {}}',
            "invalid JSON at line 2, column 20: Expecting ',' delimiter",
        ),
        (
            "s.cfg",
            "tools: [\n",
            "invalid YAML at line 2, column 1: expected the node content, but found '<stream end>'",
        ),
    ],
)
def test_unparseable_and_non_mapping_documents(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    assert _load_error(tmp_path, text, name).startswith(message)


def test_unreadable_files_are_input_errors(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    with pytest.raises(InputError, match=r"missing\.yaml: file not found$"):
        load_scenario_file(missing)
    with pytest.raises(InputError, match="is a directory"):
        load_scenario_file(tmp_path)
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(InputError, match=r"binary\.yaml: not UTF-8 text"):
        load_scenario_file(binary)


# -- expectations -------------------------------------------------------------------------


def _expectation(tmp_path: Path, expect: dict[str, Any]) -> ResultExpectation:
    document = {"version": 1, "tools": {"t": {"expect": expect}}}
    loaded = load_scenario_file(_write(tmp_path, "e.json", json.dumps(document)))
    found = loaded.tools["t"].expect
    assert found is not None
    return found


def test_expectation_with_matchers_passes_on_real_results(tmp_path: Path) -> None:
    expect = _expectation(
        tmp_path,
        {
            "text": {"$regex": "toolscore-demo"},
            "structured": {"count": {"$type": "integer"}, "name": {"$regex": "t.*o"}},
        },
    )
    good = _result(
        "Created toolscore-demo (id 7)", structured={"count": 3, "name": "toolscore-demo"}
    )

    assert expect.check(good) is None


def test_expectation_reports_the_first_unmet_part(tmp_path: Path) -> None:
    expect = _expectation(
        tmp_path,
        {"text": {"$regex": "toolscore-demo"}, "structured": {"count": {"$type": "integer"}}},
    )

    assert (
        expect.check(_result("boom", is_error=True)) == "expected isError false, got true: 'boom'"
    )
    assert (
        expect.check(_result("created " + "x" * 300, structured={"count": 1}))
        == "text does not match {'$regex': 'toolscore-demo'}: got 'created " + "x" * 111 + "…'"
    )
    assert expect.check(_result("toolscore-demo", structured={"count": "3"})) == (
        "structuredContent does not match {'count': {'$type': 'integer'}}: got {'count': '3'}"
    )
    assert expect.check(_result("toolscore-demo")) == (
        "structuredContent does not match {'count': {'$type': 'integer'}}: the result has none"
    )


def test_structured_regex_is_a_full_match_and_text_regex_a_search(tmp_path: Path) -> None:
    expect = _expectation(
        tmp_path, {"text": {"$regex": "id \\d+"}, "structured": {"id": {"$regex": "\\d+"}}}
    )

    assert expect.check(_result("made it: id 42.", structured={"id": "42"})) is None
    assert expect.check(_result("made it: id 42.", structured={"id": "a42"})) is not None


def test_plain_text_means_equality_and_is_error_can_be_expected(tmp_path: Path) -> None:
    plain = _expectation(tmp_path, {"text": "ok"})
    assert plain.check(_result(" ok\n")) is None
    assert plain.check(_result("ok!")) == "text does not match 'ok': got 'ok!'"

    erroring = _expectation(tmp_path, {"is_error": True, "text": {"$contains": "not found"}})
    assert erroring.check(_result("entity not found", is_error=True)) is None
    assert erroring.check(_result("entity found")) == (
        "expected isError true, got false: 'entity found'"
    )
    rpc_error = MCPToolResult(
        content={"code": -32602, "message": "entity not found"},
        is_error=True,
        duration=0.0,
        rpc_error_code=-32602,
    )
    assert erroring.check(rpc_error) is None


# -- plans --------------------------------------------------------------------------------


def test_plans_for_builds_happy_scenarios_and_notes_unknown_tools(tmp_path: Path) -> None:
    text = EXAMPLE_YAML + "  gone_tool:\n    arguments: {a: 1}\n"
    loaded = load_scenario_file(_write(tmp_path, "s.yaml", text))
    listed = [tool for tool in TOOLS if tool.name != "create_entity"]

    scenarios, notes = plans_for(loaded, listed)

    assert [(s.tool, s.description, s.arguments) for s in scenarios] == [
        ("get_current_time", "scenario file #1", {"timezone": "Europe/Paris"}),
        ("get_current_time", "scenario file #2", {"timezone": "UTC", "day": "2024-01-01"}),
        ("read_entity", "scenario file #1", {"name": "toolscore-demo"}),
        ("ping", "scenario file #1", {}),
    ]
    assert all(s.kind == "happy" for s in scenarios)
    assert scenarios[1].evidence == {"timezone": "scenario-file", "day": "scenario-file"}
    entity = scenarios[2]
    assert entity.setup == loaded.tools["read_entity"].setup
    assert entity.expect is loaded.tools["read_entity"].expect
    assert scenarios[0].expect is None
    assert scenarios[0].setup == ()
    assert notes == [
        "scenario file's setup for 'read_entity' calls 'create_entity', "
        "which the server does not list",
        "scenario file names tool 'gone_tool', which the server does not list",
    ]


def test_plans_for_copies_arguments_so_the_harness_cannot_change_the_file(tmp_path: Path) -> None:
    loaded = load_scenario_file(
        _write(tmp_path, "s.yaml", "tools:\n  t:\n    arguments: {a: [1]}\n")
    )
    scenarios, _ = plans_for(loaded, [MCPToolDef(name="t")])
    scenarios[0].arguments["a"].append(2)

    assert plans_for(loaded, [MCPToolDef(name="t")])[0][0].arguments == {"a": [1]}


# -- starter files from a run -------------------------------------------------------------


def _run_result(
    tool: str,
    arguments: dict[str, Any],
    verdict: str = "pass",
    *,
    kind: str = "happy",
    detail: str = "ok",
    setup: tuple[SetupCall, ...] = (),
    category: str | None = None,
    needs: str | None = None,
) -> ScenarioResult:
    scenario = Scenario(tool, arguments, kind, "generated", setup=setup)  # type: ignore[arg-type]
    return ScenarioResult(
        scenario=scenario,
        ok=verdict == "pass",
        is_error=verdict != "pass",
        duration=0.01,
        detail=detail,
        verdict=verdict,  # type: ignore[arg-type]
        category=category,
        needs=needs,
    )


def test_starter_from_run_keeps_passing_calls_and_skips_the_rest() -> None:
    tools = [MCPToolDef(name=n) for n in ("read_file", "fetch", "delete", "broken", "unused")]
    make = SetupCall("write_file", {"path": "/tmp/sb-123/a.txt", "text": "hi"})
    results = [
        _run_result(
            "fetch",
            {"url": "https://example.com"},
            "fail",
            detail="connection refused",
            category="environment",
            needs="network",
        ),
        _run_result("read_file", {"path": "/tmp/sb-123/a.txt"}, setup=(make,)),
        _run_result("read_file", {"path": "/tmp/sb-123/a.txt"}, setup=(make,)),
        _run_result("read_file", {"path": 5}, "fail", kind="edge"),
        _run_result("read_file", {"path": "/tmp/sb-123/b.txt"}),
        _run_result("read_file", {"path": "/tmp/sb-123/c.txt"}),
        _run_result("read_file", {"path": "/tmp/sb-123/d.txt"}),
        _run_result(
            "delete", {"id": "x"}, "inconclusive", detail="bad id", category="rejected-input"
        ),
        _run_result(
            "delete", {"id": "y"}, "fail", detail="  Note\n  not found  ", category="defect"
        ),
        _run_result("broken", {}, "fail", detail="server crashed"),
    ]

    starter = starter_from_run(tools, results, placeholders={"{sandbox}": "/tmp/sb-123"})

    assert starter == {
        "version": 1,
        "tools": {
            "read_file": {
                "setup": [
                    {"tool": "write_file", "arguments": {"path": "{sandbox}/a.txt", "text": "hi"}}
                ],
                "arguments": [
                    {"path": "{sandbox}/a.txt"},
                    {"path": "{sandbox}/b.txt"},
                    {"path": "{sandbox}/c.txt"},
                ],
            },
            "fetch": {"skip": "needs network: connection refused"},
            "delete": {"skip": "defect: Note not found"},
            "broken": {"skip": "server crashed"},
            "unused": {"skip": "no happy-path call passed in this run"},
        },
    }


def test_starter_round_trips_through_yaml_and_json(tmp_path: Path) -> None:
    tools = [MCPToolDef(name="greet"), MCPToolDef(name="fetch")]
    results = [
        _run_result("greet", {"name": "Zoë", "when": "2024-01-01", "flag": "no"}),
        _run_result("fetch", {"url": "u"}, "fail", detail="HTTP 401: bad key", needs="credentials"),
    ]
    starter = starter_from_run(tools, results)

    for name in ("out/starter.yaml", "starter.json"):
        written = write_scenario_file(starter, tmp_path / name)
        loaded = load_scenario_file(written)
        assert loaded.tools == {
            "greet": ToolPlan(arguments=({"name": "Zoë", "when": "2024-01-01", "flag": "no"},)),
            "fetch": ToolPlan(arguments=({},), skip="needs credentials: HTTP 401: bad key"),
        }
    text = (tmp_path / "out/starter.yaml").read_text(encoding="utf-8")
    assert "Zoë" in text  # allow_unicode
    assert text.index("version: 1") < text.index("tools:") < text.index("greet:")
    assert "{" not in text.split("tools:")[1]  # block style
    assert json.loads((tmp_path / "starter.json").read_text())["version"] == 1


# -- recorded sessions --------------------------------------------------------------------

ENTITY_SERVER = """
import json, sys

entities, files = {}, {}

def reply(rid, result=None, error=None):
    msg = {"jsonrpc": "2.0", "id": rid}
    msg.update({"error": error} if error else {"result": result})
    sys.stdout.write(json.dumps(msg) + "\\n"); sys.stdout.flush()

def text(t, structured=None, is_error=False):
    out = {"content": [{"type": "text", "text": t}], "isError": is_error}
    if structured is not None:
        out["structuredContent"] = structured
    return out

def call(name, args):
    if name == "create_entity":
        eid = f"ent-{1001 + len(entities)}"
        entities[eid] = args["name"]
        return text(f"Created entity {args['name']!r} with id {eid}.", {"id": eid})
    if name == "read_entity":
        if args["id"] not in entities:
            return text(f"No entity {args['id']}", is_error=True)
        return text(f"{args['id']}: {entities[args['id']]}")
    if name == "list_entities":
        return text(", ".join(f"{k} {v}" for k, v in entities.items()))
    if name == "attach_file":
        if args["entity_id"] not in entities:
            return text("unknown entity", is_error=True)
        fid = 42 + len(files)
        files[fid] = args["path"]
        return text("attached", {"file_id": fid})
    if name == "read_file":
        return text(files.get(args["file_id"], "?"))
    return None

for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg["method"] == "initialize":
        reply(msg["id"], {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                          "serverInfo": {"name": "entities", "version": "1"}})
    elif msg["method"] == "tools/call":
        result = call(msg["params"]["name"], msg["params"].get("arguments") or {})
        if result is None:
            reply(msg["id"], error={"code": -32602, "message": "Unknown tool"})
        else:
            reply(msg["id"], result)
"""


def _record(tmp_path: Path, command: list[str], calls: list[tuple[str, dict[str, Any]]]) -> Path:
    """Drive the real recorder in-process with a scripted client; the session file's path."""
    messages: list[dict[str, Any]] = [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "test", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    messages += [
        {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": t, "arguments": a}}
        for n, (t, a) in enumerate(calls, start=1)
    ]
    client_in = io.BytesIO("".join(json.dumps(m) + "\n" for m in messages).encode())
    client_out = io.BytesIO()
    session = tmp_path / "session.json"
    recorder = MCPRecorder(command, session, stdin=client_in, stdout=client_out)

    assert recorder.run() == 0
    assert recorder.calls_recorded == len(calls)
    return session


def test_recording_of_the_sample_server_keeps_successful_calls(
    tmp_path: Path, sample_cmd: list[str]
) -> None:
    session = _record(
        tmp_path,
        sample_cmd,
        [
            ("create_note", {"title": "groceries", "body": "milk"}),
            ("export_notes", {"format": "json"}),  # isError: true on the sample server
            ("create_note", {"title": "groceries", "body": "milk"}),
            ("list_notes", {"limit": 5}),
            ("no_such_tool", {}),  # a JSON-RPC error
            ("create_note", {"title": "todo"}),
        ],
    )

    assert scenarios_from_recording(session) == {
        "version": 1,
        "tools": {
            "create_note": {
                "arguments": [{"title": "groceries", "body": "milk"}, {"title": "todo"}]
            },
            "list_notes": {"arguments": [{"limit": 5}]},
        },
    }


def test_recording_turns_earlier_producers_into_setup_steps(tmp_path: Path) -> None:
    server = _write(tmp_path, "entity_server.py", ENTITY_SERVER)
    session = _record(
        tmp_path,
        [sys.executable, str(server)],
        [
            ("create_entity", {"name": "alpha"}),
            ("read_entity", {"id": "ent-1001"}),
            ("read_entity", {"id": "missing"}),
            ("list_entities", {"limit": 5}),
            ("attach_file", {"entity_id": "ent-1001", "path": "notes.txt"}),
            ("read_file", {"file_id": 42}),
            ("read_entity", {"id": "ent-1001"}),
        ],
    )
    create = {"tool": "create_entity", "arguments": {"name": "alpha"}}
    attach = {"tool": "attach_file", "arguments": {"entity_id": "ent-1001", "path": "notes.txt"}}

    document = scenarios_from_recording(session)

    assert document == {
        "version": 1,
        "tools": {
            "create_entity": {"arguments": [{"name": "alpha"}]},
            "read_entity": {"setup": [create], "arguments": [{"id": "ent-1001"}]},
            "list_entities": {"arguments": [{"limit": 5}]},
            "attach_file": {"setup": [create], "arguments": [attach["arguments"]]},
            "read_file": {"setup": [create, attach], "arguments": [{"file_id": 42}]},
        },
    }
    written = write_scenario_file(document, tmp_path / "from-record.yaml")
    plans = load_scenario_file(written).tools
    assert plans["read_file"].setup == (
        SetupCall("create_entity", {"name": "alpha"}),
        SetupCall("attach_file", {"entity_id": "ent-1001", "path": "notes.txt"}),
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[1, 2]", "$: expected a session object from `toolscore mcp record`, got array"),
        ('{"format": "mcp"}', "$.messages: expected a list of recorded messages, got null"),
        ('{"messages": [5]}', "$.messages[0]: expected a JSON-RPC message object, got integer"),
        (
            '{"messages": [{"id": 1, "method": "tools/call", "params": {}}]}',
            "$.messages[0].params: expected a tool name",
        ),
        (
            '{"messages": [{"id": 1, "method": "tools/call", '
            '"params": {"name": "t", "arguments": [1]}}]}',
            "$.messages[0].params.arguments: expected an object of arguments, got array",
        ),
        ('{"messages": [', "invalid JSON at line 1, column 15: Expecting value"),
    ],
)
def test_bad_session_files_are_input_errors(tmp_path: Path, text: str, message: str) -> None:
    session = _write(tmp_path, "session.json", text)
    with pytest.raises(InputError) as caught:
        scenarios_from_recording(session)

    assert str(caught.value) == f"{session}: {message}"


# -- the commands -------------------------------------------------------------------------


def test_check_command_reports_ok_and_one_line_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    good = _write(tmp_path, "good.yaml", EXAMPLE_YAML)
    bad = _write(tmp_path, "bad.yaml", "tools:\n  x:\n    argumets: {}\n")

    ok = runner.invoke(scenarios_group, ["check", str(good)])
    assert (ok.exit_code, ok.stdout) == (0, f"{good}: OK, 4 tools\n")

    failed = runner.invoke(scenarios_group, ["check", str(bad)])
    assert failed.exit_code == 2
    assert failed.stderr.strip() == (
        f"ERROR {bad}: $.tools.x.argumets: unknown key 'argumets' "
        "(expected one of: arguments, setup, expect, skip)"
    )
    assert failed.exception is None or isinstance(failed.exception, SystemExit)

    missing = runner.invoke(scenarios_group, ["check", str(tmp_path / "nope.yaml")])
    assert missing.exit_code == 2
    assert missing.stderr.strip() == f"ERROR {tmp_path / 'nope.yaml'}: file not found"


def test_from_record_command_writes_and_refuses_to_overwrite(
    tmp_path: Path, sample_cmd: list[str]
) -> None:
    session = _record(
        tmp_path, sample_cmd, [("create_note", {"title": "a"}), ("list_notes", {"limit": 2})]
    )
    output = tmp_path / "scenarios.yaml"
    runner = CliRunner()

    done = runner.invoke(scenarios_group, ["from-record", str(session), "-o", str(output)])
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith(f"Wrote 2 calls for 2 tools to {output}")
    assert list(load_scenario_file(output).tools) == ["create_note", "list_notes"]

    again = runner.invoke(scenarios_group, ["from-record", str(session), "-o", str(output)])
    assert again.exit_code == 2
    assert again.stderr.strip() == f"ERROR {output} exists; pass --force to overwrite it."

    output.write_text("stale")
    forced = runner.invoke(
        scenarios_group, ["from-record", str(session), "-o", str(output), "--force"]
    )
    assert forced.exit_code == 0, forced.output
    assert load_scenario_file(output).tools["list_notes"].arguments == ({"limit": 2},)

    bad = runner.invoke(
        scenarios_group,
        ["from-record", str(tmp_path / "nope.json"), "-o", str(tmp_path / "x.yaml")],
    )
    assert bad.exit_code == 2
    assert bad.stderr.strip() == f"ERROR {tmp_path / 'nope.json'}: file not found"
    assert not (tmp_path / "x.yaml").exists()


def test_schema_ships_inside_the_package() -> None:
    from importlib import resources

    schema = json.loads(
        resources.files("toolscore_mcp").joinpath("schemas/scenarios.schema.json").read_text()
    )
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$defs"]["tool"]["additionalProperties"] is False
    assert textwrap.dedent(schema["description"]).startswith("What `toolscore mcp test")
