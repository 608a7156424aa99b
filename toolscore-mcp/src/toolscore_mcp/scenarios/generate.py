"""Plan the calls made against each tool: happy paths and edge cases.

Seeded per tool (``random.Random(tool.name)``), so the same server gets the same calls on
every run, and a plain schema always gets the same arguments. Plugins can
add scenarios through the ``toolscore_mcp_extra_scenarios`` hook.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from toolscore_mcp.model import MCPToolDef, Scenario
from toolscore_mcp.values.generate import (
    ValueContext,
    effective_schema,
    generate_nested,
    primary_schema_type,
    schema_types,
)

__all__ = ["edge_case_arguments", "generate_scenarios", "happy_arguments", "schema_is_usable"]

_WRONG_TYPE_PROBES: tuple[tuple[Any, str], ...] = (
    (12345, "integer"),
    ("not_a_valid_value", "string"),
    (["not_a_valid_value"], "array"),
    ({"not_a_valid": "value"}, "object"),
    (True, "boolean"),
)
_EMPTY_VALUES: dict[str, Any] = {
    "string": "",
    "number": 0,
    "integer": 0,
    "boolean": False,
    "array": [],
    "object": {},
}


def schema_is_usable(schema: Mapping[str, Any]) -> bool:
    """True for a non-empty object schema with a ``properties`` mapping."""
    return (
        bool(schema)
        and schema.get("type") == "object"
        and isinstance(schema.get("properties"), Mapping)
    )


def happy_arguments(
    schema: Mapping[str, Any], rng: random.Random, context: ValueContext | None = None
) -> dict[str, Any]:
    """One value for every property (optional ones included), drawn from ``rng``."""
    ctx = context or ValueContext(root=schema)
    properties: Mapping[str, Any] = schema.get("properties") or {}
    return {
        name: generate_nested(
            name, prop if isinstance(prop, Mapping) else {}, "normal", rng, ctx, 0
        )
        for name, prop in properties.items()
    }


def _wrong_type_value(prop: Mapping[str, Any]) -> Any:
    types = schema_types(prop)
    if len(types) > 1:
        allowed = set(types) | ({"integer"} if "number" in types else set())
        for value, json_type in _WRONG_TYPE_PROBES:
            if json_type not in allowed:
                return value
    kind = types[0]
    if kind in ("number", "integer"):
        return "not_a_number"
    if kind == "boolean":
        return "not_a_bool"
    if kind in ("array", "object"):
        return "not_a_collection"
    return 12345


def _edge_cases(
    schema: Mapping[str, Any], rng: random.Random, ctx: ValueContext
) -> list[tuple[dict[str, Any], str]]:
    return edge_case_arguments(schema, happy_arguments(schema, rng, ctx))


def edge_case_arguments(
    schema: Mapping[str, Any], base: Mapping[str, Any]
) -> list[tuple[dict[str, Any], str]]:
    """Bad input built on ``base`` (valid arguments): a required argument left out, a
    wrong-typed first argument, and every argument empty. A schema without properties gets
    none."""
    properties: Mapping[str, Any] = schema.get("properties") or {}
    if not isinstance(properties, Mapping):
        return []
    raw_required = schema.get("required")
    required = (
        [r for r in raw_required if isinstance(r, str)] if isinstance(raw_required, list) else []
    )
    base = dict(base)
    cases: list[tuple[dict[str, Any], str]] = []
    if required:
        missing = dict(base)
        missing.pop(required[0], None)
        cases.append((missing, f"missing required argument {required[0]!r}"))
    if properties:
        first = next(iter(properties))
        first_schema = properties[first] if isinstance(properties[first], Mapping) else {}
        wrong = dict(base)
        wrong[first] = _wrong_type_value(effective_schema(first_schema, schema))
        cases.append((wrong, f"wrong-type value for {first!r}"))
        empties = {
            name: _EMPTY_VALUES.get(
                primary_schema_type(
                    effective_schema(prop if isinstance(prop, Mapping) else {}, schema)
                ),
                "",
            )
            for name, prop in properties.items()
        }
        cases.append((empties, "empty strings / zero numbers"))
    return cases


def generate_scenarios(
    tools: Iterable[MCPToolDef],
    cases_per_tool: int = 3,
    include_edge_cases: bool = True,
    *,
    context: ValueContext | None = None,
) -> list[Scenario]:
    """Happy-path and edge-case scenarios for every tool, in advertised order.

    A tool without a usable object schema gets one no-argument call. ``context`` carries
    values the server told us (allowed roots, valid values); each tool's own schema is used
    as the root for ``$ref``.
    """
    scenarios: list[Scenario] = []
    for tool in tools:
        schema = tool.input_schema
        if not schema_is_usable(schema):
            scenarios.append(
                Scenario(tool.name, {}, "happy", "no-args call (empty or invalid input schema)")
            )
            continue
        ctx = ValueContext(
            root=schema,
            known_values=context.known_values if context else {},
            roots=context.roots if context else (),
        )
        rng = random.Random(tool.name)
        for index in range(max(cases_per_tool, 0)):
            scenarios.append(
                Scenario(
                    tool.name,
                    happy_arguments(schema, rng, ctx),
                    "happy",
                    f"happy path #{index + 1}",
                )
            )
        if include_edge_cases:
            for arguments, description in _edge_cases(schema, rng, ctx):
                scenarios.append(
                    Scenario(tool.name, arguments, "edge", f"edge case: {description}")
                )
    return scenarios
