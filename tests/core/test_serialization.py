"""The converter for our file formats, the shipped schemas and one-line error rendering."""

from __future__ import annotations

import attrs
import cattrs
import pytest
from jsonschema import Draft202012Validator
from toolscore.errors import InputError
from toolscore.model import ToolCall
from toolscore.serialization import (
    format_errors,
    json_path,
    load_schema,
    make_converter,
    validate_document,
)

CALL = ToolCall(
    tool="search",
    args={"q": "x"},
    result={"hits": 2},
    error="boom",
    is_error=True,
    duration=0.5,
    cost=0.01,
    id="c1",
    metadata={"model": "m"},
)


def test_toolcall_round_trips_through_json() -> None:
    converter = make_converter()
    text = converter.dumps([CALL, ToolCall(tool="ping")])
    loaded = converter.loads(text, list[ToolCall])
    # the call's id and error message are also kept in its metadata, never written twice
    assert loaded == [
        attrs.evolve(CALL, metadata={**CALL.metadata, "id": CALL.id, "error": CALL.error}),
        ToolCall(tool="ping"),
    ]
    assert converter.dumps(loaded) == text
    assert converter.unstructure(ToolCall(tool="ping", args={})) == {"tool": "ping", "args": {}}


def test_each_converter_is_fresh_and_the_global_one_is_untouched() -> None:
    first, second = make_converter(), make_converter()
    assert first is not second
    first.register_unstructure_hook(ToolCall, lambda call: "changed")
    assert second.unstructure(CALL)["tool"] == "search"
    assert cattrs.unstructure(ToolCall(tool="a"))["metadata"] == {}  # global: plain attrs


def test_structuring_errors_render_one_line_per_problem() -> None:
    converter = make_converter()
    with pytest.raises(cattrs.errors.BaseValidationError) as info:
        converter.structure([{"tool": "a"}, {"args": {}}, 5], list[ToolCall])
    assert format_errors(info.value, "calls.json") == [
        "calls.json: $[1]: expected a non-empty tool name in 'tool', got nothing",
        "calls.json: $[2]: expected a tool call object, got integer",
    ]


def test_json_path_rendering() -> None:
    assert json_path([]) == "$"
    assert json_path(["calls", 3, "args"]) == "$.calls[3].args"
    assert json_path(["args", "a b", "$regex"]) == '$.args["a b"]["$regex"]'


@pytest.mark.parametrize("name", ["gold", "trace"])
def test_shipped_schemas_are_valid_json_schemas(name: str) -> None:
    Draft202012Validator.check_schema(load_schema(name))


def test_unknown_schema_name() -> None:
    with pytest.raises(ValueError, match="Unknown schema 'nope'"):
        load_schema("nope")


def test_validate_document_names_the_first_problem_in_document_order() -> None:
    data = {"calls": [{"tool": "a"}, {"tool": "b", "args": 1}, {"args": {}}]}
    with pytest.raises(InputError) as info:
        validate_document(data, "trace", source="t.json")
    assert (
        str(info.value)
        == "t.json: $.calls[1].args: expected an object of arguments, or null, got integer"
    )
    assert (info.value.source, info.value.path) == ("t.json", "$.calls[1].args")


def test_format_errors_lists_every_schema_problem() -> None:
    validator = Draft202012Validator(load_schema("gold"))
    errors = list(validator.iter_errors([{"tool": ""}, {"tool": "b", "description": 3}]))
    assert format_errors(errors, "g.json") == [
        "g.json: $[0].tool: expected a non-empty tool name, got an empty string",
        "g.json: $[1].description: expected a string, got integer",
    ]


def test_format_errors_of_an_input_error() -> None:
    error = InputError("expected object", path="$.calls[0]")
    assert format_errors(error, "x.json") == ["x.json: $.calls[0]: expected object"]
    sourced = InputError("expected object", source="y.json", path="$")
    assert format_errors(sourced, "x.json") == ["y.json: $: expected object"]
