"""The plain-subset schema answers agree with jsonschema wherever they give one.

``toolscore_mcp.values.schema_subset`` lets ``mcp test`` skip importing jsonschema for plain tool
schemas; a wrong answer there would pass arguments jsonschema rejects (or fail good ones).
So every answer it gives is compared with jsonschema's, on generated schemas that mix the
subset's keywords, malformed keyword values and keywords outside the subset.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema.validators import Draft202012Validator, validator_for
from toolscore_mcp.values.schema_subset import instance_is_valid, schema_is_valid

TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.sampled_from([0.0, 1.0, 1.5, -2.5, 3.0, float("nan")]),
    st.sampled_from(["", "a", "ab", "abc", "x" * 5, "1"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), inner, max_size=4),
    ),
    max_leaves=12,
)
type_keyword = st.one_of(
    st.sampled_from(TYPES),
    st.lists(st.sampled_from(TYPES), min_size=0, max_size=3),
    st.sampled_from(["strin", 3, None]),
)
bound = st.one_of(st.integers(-3, 6), st.sampled_from([0.5, 2.0, -1.0, True, "3"]))
count = st.one_of(st.integers(-1, 4), st.sampled_from([1.0, 2.5, False, "2"]))


#: Local references that resolve, that do not, and ones outside the subset.
REFS = ["#/$defs/A", "#/$defs/B", "#/definitions/A", "#/definitions/C", "#/$defs/Z", "#"]
REFS += ["other.json#/x", "#/$defs/A B", 5]


def keywords(schema: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {},
        optional={
            "type": type_keyword,
            "properties": st.one_of(
                st.dictionaries(st.sampled_from(["a", "b", "c"]), schema, max_size=3),
                st.just([]),
            ),
            "required": st.one_of(
                st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=3), st.just("a")
            ),
            "additionalProperties": schema,
            "items": st.one_of(schema, st.lists(schema, max_size=2)),
            "enum": st.one_of(st.lists(json_values, max_size=4), st.just("a")),
            "const": json_values,
            "minimum": bound,
            "maximum": bound,
            "exclusiveMinimum": bound,
            "exclusiveMaximum": bound,
            "minLength": count,
            "maxLength": count,
            "minItems": count,
            "maxItems": count,
            "description": st.one_of(st.text(max_size=5), st.just(3)),
            "default": json_values,
            "deprecated": st.one_of(st.booleans(), st.just("yes")),
            "anyOf": st.one_of(st.lists(schema, min_size=0, max_size=3), st.just({})),
            "oneOf": st.lists(schema, min_size=1, max_size=3),
            "allOf": st.lists(schema, min_size=1, max_size=2),
            "not": schema,
            "format": st.one_of(st.sampled_from(["email", "date", "uri", "ipv4"]), st.just(3)),
            "$defs": st.one_of(
                st.dictionaries(st.sampled_from(["A", "B"]), schema, max_size=2), st.just([])
            ),
            "definitions": st.dictionaries(st.sampled_from(["A", "C"]), schema, max_size=1),
            "$ref": st.sampled_from(REFS),
            # outside the subset: the answer must be None
            "pattern": st.just("^a"),
            "$id": st.just("https://example.com/s"),
        },
    )


schemas = st.recursive(st.booleans() | st.just({}), keywords, max_leaves=8)
roots = st.one_of(
    schemas,
    st.tuples(
        schemas,
        st.sampled_from(
            [
                "https://json-schema.org/draft/2020-12/schema",
                "http://json-schema.org/draft-07/schema#",
                "http://json-schema.org/draft-04/schema#",
            ]
        ),
    ).map(lambda pair: {**pair[0], "$schema": pair[1]} if isinstance(pair[0], dict) else pair[0]),
)


def jsonschema_accepts_schema(schema: Any) -> bool:
    try:
        validator_for(schema, default=Draft202012Validator).check_schema(schema)
    except Exception:
        return False
    return True


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(roots)
def test_schema_verdicts_match_the_metaschema(schema: Any) -> None:
    answer = schema_is_valid(schema)
    if answer is not None:
        assert answer == jsonschema_accepts_schema(schema)


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(roots, json_values)
def test_instance_verdicts_match_jsonschema(schema: Any, instance: Any) -> None:
    if not jsonschema_accepts_schema(schema):
        return
    answer = instance_is_valid(schema, instance)
    if answer is not None:
        cls = validator_for(schema, default=Draft202012Validator)
        try:
            expected = cls(schema).is_valid(instance)
        except RecursionError:  # {"$ref": "#"} all the way down: jsonschema has no answer
            return
        assert answer == expected


TOOL_SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "title": {"type": "string", "minLength": 1, "description": "A few words."},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
        "mode": {"enum": ["fast", "full"]},
    },
    "required": ["title"],
    "additionalProperties": False,
}


@pytest.mark.parametrize(
    ("arguments", "valid"),
    [
        ({"title": "x"}, True),
        ({"title": "x", "limit": 5.0, "tags": ["a"], "mode": "fast"}, True),
        ({}, False),
        ({"title": ""}, False),
        ({"title": "x", "limit": True}, False),
        ({"title": "x", "limit": 51}, False),
        ({"title": "x", "tags": ["a", 1]}, False),
        ({"title": "x", "mode": "slow"}, False),
        ({"title": "x", "extra": 1}, False),
    ],
)
def test_a_typical_tool_schema_is_answered_without_jsonschema(
    arguments: dict[str, Any], valid: bool
) -> None:
    assert schema_is_valid(TOOL_SCHEMA) is True
    assert instance_is_valid(TOOL_SCHEMA, arguments) is valid
    # checked once by the caller, then answered without checking it again
    assert instance_is_valid(TOOL_SCHEMA, arguments, root=TOOL_SCHEMA) is valid


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"a": {"$ref": "other.json#/x"}}},
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}, "$defs": {}},
        {  # draft-07 ignores the siblings of $ref: jsonschema's to say
            "$schema": "http://json-schema.org/draft-07/schema#",
            "properties": {"a": {"$ref": "#/definitions/x", "type": "string"}},
            "definitions": {"x": {}},
        },
        {"type": "string", "pattern": "^a"},
        {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"},
        {"items": [{"type": "string"}]},
        {"$id": "https://example.com/s", "type": "object"},
    ],
)
def test_schemas_outside_the_subset_are_left_to_jsonschema(schema: dict[str, Any]) -> None:
    assert schema_is_valid(schema) is None
    assert instance_is_valid(schema, {"a": 1}) is None


#: What pydantic (and so FastMCP) writes for ``Optional[int] = None`` and a nested model.
PYDANTIC_SCHEMA = {
    "type": "object",
    "properties": {
        "limit": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "default": None},
        "cell": {"$ref": "#/$defs/Cell"},
        "when": {"type": "string", "format": "date"},
    },
    "required": ["cell"],
    "$defs": {
        "Cell": {
            "type": "object",
            "properties": {"sheet": {"type": "string"}, "row": {"type": "integer"}},
            "required": ["sheet"],
        }
    },
}


@pytest.mark.parametrize(
    ("arguments", "valid"),
    [
        ({"cell": {"sheet": "A"}}, True),
        ({"cell": {"sheet": "A", "row": 2}, "limit": None, "when": "not a date"}, True),
        ({"cell": {"sheet": "A"}, "limit": 0}, False),
        ({"cell": {"row": 2}}, False),
        ({"limit": 3}, False),
    ],
)
def test_optional_and_nested_models_are_answered_without_jsonschema(
    arguments: dict[str, Any], valid: bool
) -> None:
    assert schema_is_valid(PYDANTIC_SCHEMA) is True
    assert instance_is_valid(PYDANTIC_SCHEMA, arguments) is valid
    # a property on its own, with the tool's schema to resolve $ref against
    cell = PYDANTIC_SCHEMA["properties"]["cell"]
    assert instance_is_valid(cell, arguments.get("cell"), root=PYDANTIC_SCHEMA) is (
        "cell" in arguments and "sheet" in arguments["cell"]
    )


def test_format_is_left_to_jsonschema_where_the_caller_asserts_it() -> None:
    schema = {"type": "string", "format": "date"}
    assert instance_is_valid(schema, "not a date") is True  # an annotation, as in jsonschema
    assert instance_is_valid(schema, "not a date", formats=True) is None
