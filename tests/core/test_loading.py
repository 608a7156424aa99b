"""Gold and trace files: what is read, and the one-line errors for everything else."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from toolscore.errors import InputError, MissingPluginError
from toolscore.loading import load_gold_standard, load_trace, read_json
from toolscore.matching.matchers import Regex
from toolscore.plugins.manager import ToolscorePluginManager

WriteJson = Callable[..., Path]


# -- read_json -------------------------------------------------------------------------------


def test_missing_file_is_a_file_not_found_error_and_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "nope.json"
    with pytest.raises(FileNotFoundError) as info:
        read_json(path, what="Trace file")
    assert str(info.value) == f"Trace file not found: {path}"
    assert isinstance(info.value, InputError)
    assert info.value.source == str(path)


def test_invalid_json_names_file_line_and_column(write_json: WriteJson) -> None:
    path = write_json('{"a": 1,\n  "b": }', raw=True)
    with pytest.raises(InputError) as info:
        read_json(path)
    assert str(info.value) == f"{path}:2:8: invalid JSON: Expecting value"
    assert "\n" not in str(info.value)
    assert info.value.source == str(path)


def test_empty_file_is_invalid_json(write_json: WriteJson) -> None:
    path = write_json("", raw=True)
    with pytest.raises(InputError, match=r":1:1: invalid JSON: Expecting value$"):
        read_json(path)


def test_directory_and_binary_files_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="expected a JSON file, got a directory"):
        read_json(tmp_path)
    binary = tmp_path / "bin.json"
    binary.write_bytes(b'["\xff\xfe"]')
    with pytest.raises(InputError, match="expected UTF-8 JSON text"):
        read_json(binary)


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes("\ufeff[1, 2]".encode())
    assert read_json(path) == [1, 2]


# -- gold files ------------------------------------------------------------------------------


def test_gold_array_keeps_args_semantics_and_documented_fields(write_json: WriteJson) -> None:
    path = write_json(
        [
            {"tool": "make_file", "args": {"filename": "poem.txt"}, "description": "Create"},
            {"tool": "search"},
            {"tool": "ping", "args": {}, "side_effects": {"http_ok": True}},
            {
                "tool": "book",
                "args": None,
                "metadata": {"schema": {"q": {"type": "string"}}, "owner": "qa"},
                "priority": 2,
            },
        ]
    )
    calls = load_gold_standard(path)
    assert [c.tool for c in calls] == ["make_file", "search", "ping", "book"]
    assert calls[0].args == {"filename": "poem.txt"}
    assert calls[0].metadata == {"side_effects": {}, "description": "Create"}
    assert calls[1].args is None  # absent: do not check arguments
    assert calls[2].args == {}  # {}: expect no arguments
    assert calls[2].metadata["side_effects"] == {"http_ok": True}
    assert calls[3].args is None
    # generate's metadata.schema and any other field survive (docs/compat.md#gold-files).
    assert calls[3].metadata["schema"] == {"q": {"type": "string"}}
    assert calls[3].metadata["owner"] == "qa"
    assert calls[3].metadata["priority"] == 2


def test_gold_top_level_schema_and_empty_description(write_json: WriteJson) -> None:
    path = write_json([{"tool": "t", "schema": {"x": {"type": "integer"}}, "description": ""}])
    (call,) = load_gold_standard(path)
    assert call.metadata == {"side_effects": {}, "schema": {"x": {"type": "integer"}}}


def test_snapshot_file_works_as_gold(write_json: WriteJson) -> None:
    path = write_json(
        {
            "schema_version": 1,
            "name": "n",
            "approved": True,
            "calls": [{"tool": "a", "args": {"x": 1}}],
        }
    )
    (call,) = load_gold_standard(path)
    assert (call.tool, call.args) == ("a", {"x": 1})


def test_gold_regex_form_becomes_a_full_match_matcher(write_json: WriteJson) -> None:
    path = write_json([{"tool": "book", "args": {"flight_id": {"$regex": "FL-\\d+"}, "n": 2}}])
    (call,) = load_gold_standard(path)
    assert call.args is not None
    matcher = call.args["flight_id"]
    assert isinstance(matcher, Regex)
    assert matcher == "FL-123"
    assert matcher != "XFL-123"  # fullmatch, not search
    assert call.args["n"] == 2


def test_gold_matcher_form_with_an_escaped_dollar(write_json: WriteJson) -> None:
    path = write_json('[{"tool": "a", "args": {"x": {"\\u0024regex": "\\\\d+"}}}]', raw=True)
    (call,) = load_gold_standard(path)
    assert call.args is not None
    assert isinstance(call.args["x"], Regex)
    assert call.args["x"] == "12"


def test_gold_without_matcher_forms_keeps_plain_values(write_json: WriteJson) -> None:
    path = write_json([{"tool": "a", "args": {"x": {"nested": ["$not-a-form"]}}}])
    (call,) = load_gold_standard(path)
    assert call.args == {"x": {"nested": ["$not-a-form"]}}


def test_gold_missing_file_keeps_reference_message(tmp_path: Path) -> None:
    path = tmp_path / "gold.json"
    with pytest.raises(FileNotFoundError, match=r"^Gold standard file not found: "):
        load_gold_standard(path)


@pytest.mark.parametrize("data", [{"tool": "a"}, 5, "calls", {"calls": {"tool": "a"}}])
def test_gold_wrong_document_shape_keeps_reference_text(
    write_json: WriteJson, data: object
) -> None:
    path = write_json(data)
    with pytest.raises(
        ValueError, match="Gold standard must be a JSON array of tool calls"
    ) as info:
        load_gold_standard(path)
    assert str(info.value).startswith(f"{path}: $")


@pytest.mark.parametrize(
    ("data", "where", "expected"),
    [
        ([{"tool": "a"}, {"args": {}}], "$[1].tool", "expected a non-empty tool name, got nothing"),
        ([{"tool": ""}], "$[0].tool", "expected a non-empty tool name, got an empty string"),
        ([{"tool": 3}], "$[0].tool", "expected a non-empty tool name, got integer"),
        ([{"tool": "a"}, "b"], "$[1]", "expected a call or step object, got a string"),
        (
            {"calls": [{"tool": "a"}, {"tool": "b", "args": [1]}]},
            "$.calls[1].args",
            "expected an object of arguments, or null, got array",
        ),
        (
            [{"tool": "a", "side_effects": 1}],
            "$[0].side_effects",
            "expected an object of side-effect checks",
        ),
    ],
)
def test_gold_bad_item_is_one_line_naming_file_path_and_expectation(
    write_json: WriteJson, data: object, where: str, expected: str
) -> None:
    path = write_json(data)
    with pytest.raises(InputError) as info:
        load_gold_standard(path)
    message = str(info.value)
    assert message.startswith(f"{path}: {where}: {expected}")
    assert "\n" not in message
    assert info.value.path == where


def test_gold_bad_matcher_names_the_argument(write_json: WriteJson) -> None:
    path = write_json([{"tool": "a", "args": {"q": {"$regex": 5}}}])
    with pytest.raises(InputError) as info:
        load_gold_standard(path)
    assert str(info.value).startswith(f"{path}: $[0].args.q: invalid matcher: ")


# -- trace files -----------------------------------------------------------------------------


def test_canonical_trace_keeps_every_call_field(
    write_json: WriteJson, builtin_pm: ToolscorePluginManager
) -> None:
    path = write_json(
        {
            "calls": [
                {
                    "tool": "search",
                    "args": {"q": "x"},
                    "result": "ok",
                    "duration": 0.2,
                    "cost": 0.001,
                    "error": "boom",
                    "id": "c1",
                    "metadata": {"model": "m"},
                }
            ]
        }
    )
    (call,) = load_trace(path, plugin_manager=builtin_pm)
    assert (call.tool, call.args, call.result) == ("search", {"q": "x"}, "ok")
    assert (call.duration, call.cost, call.id) == (0.2, 0.001, "c1")
    assert call.is_error
    assert call.error == "boom"
    assert call.metadata == {"model": "m", "id": "c1", "error": "boom"}


def test_canonical_trace_error_names_file_and_path(
    write_json: WriteJson, builtin_pm: ToolscorePluginManager
) -> None:
    path = write_json({"calls": [{"tool": "a"}, {"tool": "b", "duration": "slow"}]})
    with pytest.raises(InputError) as info:
        load_trace(path, plugin_manager=builtin_pm)
    assert str(info.value) == (
        f"{path}: $.calls[1].duration: expected a number of seconds, or null, got string"
    )


def test_custom_format_reads_the_reference_shapes(
    write_json: WriteJson, builtin_pm: ToolscorePluginManager
) -> None:
    path = write_json(
        [
            {
                "name": "search",
                "arguments": {"q": "x"},
                "output": "hits",
                "elapsed": 0.5,
                "model": "m",
            },
            {"function": "lookup", "input": "plain", "result": "", "time": 12.0},
            {"name": ""},
            "not a dict",
            {"tool": "fail", "args": {}, "error": {"code": 1}, "is_error": False, "cost": 0},
        ]
    )
    calls = load_trace(path, format="custom", plugin_manager=builtin_pm)
    assert [c.tool for c in calls] == ["search", "lookup", "fail"]
    first, second, third = calls
    assert first.args == {"q": "x"}
    assert (first.result, first.duration) == ("hits", 0.5)
    assert first.metadata == {"model": "m"}
    assert second.args == {"value": "plain"}
    assert second.result is None  # falsy result -> None
    assert second.timestamp == 12.0
    assert third.is_error  # a non-empty error wins over is_error: false
    assert third.error == "{'code': 1}"
    assert third.cost == 0


def test_custom_single_call_and_tool_calls_list(
    write_json: WriteJson, builtin_pm: ToolscorePluginManager
) -> None:
    single = write_json({"tool": "one", "args": {"a": 1}}, "single.json")
    assert [c.tool for c in load_trace(single, "custom", plugin_manager=builtin_pm)] == ["one"]
    listed = write_json({"tool_calls": [{"name": "x"}, {"name": "y"}]}, "listed.json")
    assert [c.tool for c in load_trace(listed, plugin_manager=builtin_pm)] == ["x", "y"]


def test_custom_wrong_calls_value_is_an_input_error(
    write_json: WriteJson, builtin_pm: ToolscorePluginManager
) -> None:
    path = write_json({"calls": "nope"})
    with pytest.raises(InputError, match="Expected list of calls in custom trace") as info:
        load_trace(path, format="custom", plugin_manager=builtin_pm)
    assert str(info.value).startswith(f"{path}: ")


def test_auto_detects_canonical_and_custom(
    write_json: WriteJson, builtin_pm: ToolscorePluginManager
) -> None:
    canonical = write_json([{"tool": "a", "args": {"x": 1}}], "c.json")
    assert load_trace(canonical, plugin_manager=builtin_pm)[0].args == {"x": 1}
    empty = write_json({"calls": []}, "e.json")
    assert load_trace(empty, plugin_manager=builtin_pm) == []
    custom = write_json({"calls": [{"name": "s", "arguments": {"q": 1}}]}, "u.json")
    assert load_trace(custom, plugin_manager=builtin_pm)[0].args == {"q": 1}


def test_unrecognised_file_lists_formats_and_says_what_to_install(
    write_json: WriteJson, builtin_pm: ToolscorePluginManager
) -> None:
    path = write_json({"choices": [{"message": {"role": "assistant", "content": "hi"}}]})
    with pytest.raises(InputError) as info:
        load_trace(path, plugin_manager=builtin_pm)
    message = str(info.value)
    assert message.startswith(f"{path}: $: could not detect the trace format")
    names = builtin_pm.get_extractors().names()
    assert {"canonical", "custom"} <= set(names)
    assert f"looked for: {', '.join(names)})" in message
    assert "pip install toolscore-providers" in message
    assert "\n" not in message


@pytest.mark.parametrize("name", ["xml", None])
def test_unsupported_format_keeps_reference_text_and_lists_names(
    write_json: WriteJson, builtin_pm: ToolscorePluginManager, name: object
) -> None:
    path = write_json([])
    with pytest.raises(ValueError) as info:
        load_trace(path, format=name, plugin_manager=builtin_pm)  # type: ignore[arg-type]
    names = ", ".join(builtin_pm.get_extractors().names())
    assert str(info.value) == f"Unsupported format: {name}. Available formats: auto, {names}"
    assert "canonical" in names
    assert "custom" in names


@pytest.mark.parametrize("name", ["openai", "anthropic", "gemini", "mcp", "langchain", "otel"])
def test_provider_format_without_providers_says_what_to_install(
    write_json: WriteJson, builtin_pm: ToolscorePluginManager, name: str
) -> None:
    path = write_json([])
    with pytest.raises(MissingPluginError) as info:
        load_trace(path, format=name, plugin_manager=builtin_pm)
    assert str(info.value) == (
        f"format {name!r} needs the toolscore-providers distribution: pip install toolscore-providers"
    )


@pytest.mark.parametrize(("alias", "tool"), [("snapshot", "a"), ("CUSTOM", "a"), ("generic", "a")])
def test_format_aliases_and_case(
    write_json: WriteJson, builtin_pm: ToolscorePluginManager, alias: str, tool: str
) -> None:
    path = write_json({"calls": [{"tool": "a"}]})
    assert [c.tool for c in load_trace(path, format=alias, plugin_manager=builtin_pm)] == [tool]


def test_missing_trace_file_keeps_reference_message(
    tmp_path: Path, builtin_pm: ToolscorePluginManager
) -> None:
    path = tmp_path / "t.json"
    with pytest.raises(FileNotFoundError) as info:
        load_trace(path, plugin_manager=builtin_pm)
    assert str(info.value) == f"Trace file not found: {path}"


def test_load_trace_uses_the_process_wide_manager_by_default(
    write_json: WriteJson, only_builtins: ToolscorePluginManager
) -> None:
    path = write_json(json.loads('[{"tool": "a", "args": {}}]'))
    assert [c.tool for c in load_trace(path)] == ["a"]
