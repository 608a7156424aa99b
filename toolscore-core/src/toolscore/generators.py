"""Synthetic gold files from function schemas (``toolscore generate``).

Reads OpenAI-style function definitions and writes a gold file with, per function, normal
cases (60 %), boundary values (20 %) and edge cases (the rest), or only normal cases. Values
follow the schema: hints first (``examples``, ``default``, an ``e.g. 'X'`` in the
description, a well-formed value for a known ``format``), then enums, keyword-based strings,
ranges for numbers, arrays and nested objects.

Runs are reproducible: every function gets its own
random generator seeded from ``seed`` and the function's name, so adding a function does not
change the cases of the others; and the tools-array form
``{"type": "function", "function": {...}}`` is unwrapped.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from toolscore.errors import InputError
from toolscore.limits import MAX_GENERATED_DEPTH, GenerationBudget, capped_count
from toolscore.schema_values import (
    DEFAULT_SEED,
    boolean_value,
    described_string,
    enum_value,
    given_value,
    int_or,
    item_count,
    keyword_string,
    object_fields,
    primary_schema_type,
)

__all__ = [
    "DEFAULT_SEED",
    "VARIATIONS",
    "generate_cases",
    "generate_from_openai_schema",
    "generate_value_from_schema",
    "read_function_definitions",
    "save_gold_standard",
]

#: The seed used when none is given, so that two runs write the same file.

#: Value variations: normal values, boundary values (minimums) and edge values (maximums).
VARIATIONS = ("normal", "boundary", "edge")

#: Schema keys copied into a case's ``metadata.schema`` entry.
_SCHEMA_RULES = (
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "enum",
    "items",
    "properties",
)


def _hint(schema: Mapping[str, Any], rng: random.Random) -> tuple[bool, Any]:
    hinted, value = given_value(schema, rng)
    if hinted or primary_schema_type(schema) != "string":
        return hinted, value
    return described_string(schema)


def _num(value: Any, default: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return float(value)


def generate_value_from_schema(
    name: str,
    schema: Mapping[str, Any],
    variation: str = "normal",
    rng: random.Random | None = None,
) -> Any:
    """A value for parameter ``name`` that fits ``schema``.

    ``variation`` is ``"normal"`` (a typical value; hints honoured), ``"boundary"`` (the low
    end: minimum, shortest string, last enum value) or ``"edge"`` (the high end: maximum, long
    string, first enum value). Pass a seeded ``rng`` for reproducible values.

    The value is bounded whatever the schema asks (:mod:`toolscore.limits`): strings,
    arrays, nesting and the total number of values are capped, so ``minItems: 100000000``
    gives a short array (which breaks that schema) instead of exhausting memory.
    """
    rng = rng if rng is not None else random.Random(DEFAULT_SEED)
    return _value(name, schema, variation, rng, GenerationBudget(), 0)


def _value(
    name: str,
    schema: Any,
    variation: str,
    rng: random.Random,
    budget: GenerationBudget,
    depth: int,
) -> Any:
    if depth > MAX_GENERATED_DEPTH or not budget.take():
        return None
    if not isinstance(schema, Mapping):
        schema = {}
    kind = primary_schema_type(schema)
    enum = schema.get("enum")
    if variation == "normal" and enum is None:
        hinted, value = _hint(schema, rng)
        if hinted:
            return value
    if isinstance(enum, list):
        return enum_value(enum, variation, rng) if enum else None
    if kind == "string":
        return budget.text(keyword_string(name, schema, variation, rng))
    if kind == "integer":
        low = int_or(schema.get("minimum"), 1)
        high = int_or(schema.get("maximum"), 100)
        if variation == "boundary":
            return low
        if variation == "edge":
            return high
        return rng.randint(low, max(low, min(high, low + 20)))
    if kind == "number":
        low_f = _num(schema.get("minimum"), 0.0)
        high_f = _num(schema.get("maximum"), 100.0)
        if variation == "boundary":
            return low_f
        if variation == "edge":
            return high_f
        return round(rng.uniform(low_f, max(low_f, min(high_f, low_f + 50.0))), 2)
    if kind == "boolean":
        return boolean_value(variation, rng)
    if kind == "array":
        items = schema.get("items")
        item_schema = items if isinstance(items, Mapping) else {}
        values: list[Any] = []
        for _ in range(capped_count(item_count(schema, variation, rng))):
            if budget.left <= 0:
                break
            values.append(_value(f"{name}_item", item_schema, "normal", rng, budget, depth + 1))
        return values
    if kind == "object":
        return object_fields(
            schema, budget, lambda key, sub: _value(key, sub, variation, rng, budget, depth + 1)
        )
    return None


def _unwrap(item: Any, where: str, source: str) -> dict[str, Any]:
    """One function definition, unwrapped from the tools-array and Anthropic forms."""
    if not isinstance(item, Mapping):
        raise InputError(
            f"expected a function definition object, got {type(item).__name__}",
            source=source,
            path=where,
        )
    if isinstance(item.get("function"), Mapping):
        item, where = item["function"], f"{where}.function"
    name = item.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError("expected a non-empty 'name' string", source=source, path=f"{where}.name")
    parameters = item.get("parameters", item.get("input_schema", {}))
    if parameters is None:
        parameters = {}
    if not isinstance(parameters, Mapping):
        raise InputError(
            "expected 'parameters' to be a JSON schema object",
            source=source,
            path=f"{where}.parameters",
        )
    properties = parameters.get("properties", {})
    if properties is not None and not isinstance(properties, Mapping):
        raise InputError(
            "expected 'properties' to be an object",
            source=source,
            path=f"{where}.parameters.properties",
        )
    return {"name": name, "description": item.get("description"), "parameters": dict(parameters)}


def read_function_definitions(data: Any, *, source: str = "<schema>") -> list[dict[str, Any]]:
    """Normalise a schema file's content into ``[{"name", "description", "parameters"}]``.

    Accepts one definition, a list of them, or ``{"tools": [...]}`` / ``{"functions": [...]}``;
    each may be a bare function, the tools-array wrapper ``{"type": "function", "function":
    {...}}``, or an Anthropic tool with ``input_schema``.
    """
    items: Any = data
    prefix = "$"
    if isinstance(data, Mapping):
        for key in ("tools", "functions"):
            if isinstance(data.get(key), list):
                items, prefix = data[key], f"$.{key}"
                break
        else:
            items, prefix = [data], "$"
    if not isinstance(items, list):
        raise InputError(
            f"expected a list of function definitions, got {type(items).__name__}",
            source=source,
            path="$",
        )
    if prefix == "$" and isinstance(data, Mapping):
        return [_unwrap(items[0], "$", source)]
    return [_unwrap(item, f"{prefix}[{i}]", source) for i, item in enumerate(items)]


def _case(function: Mapping[str, Any], variation: str, rng: random.Random) -> dict[str, Any]:
    name = function["name"]
    parameters = function["parameters"]
    properties = parameters.get("properties") or {}
    raw_required = parameters.get("required") or []
    required = (
        {r for r in raw_required if isinstance(r, str)} if isinstance(raw_required, list) else set()
    )
    args: dict[str, Any] = {}
    for param, schema in properties.items():
        if variation == "normal" and param not in required and rng.random() > 0.5:
            continue
        args[param] = generate_value_from_schema(
            param, schema if isinstance(schema, Mapping) else {}, variation, rng
        )
    rules: dict[str, Any] = {}
    for param, schema in properties.items():
        schema = schema if isinstance(schema, Mapping) else {}
        entry: dict[str, Any] = {"type": schema.get("type", "string")}
        entry.update({key: schema[key] for key in _SCHEMA_RULES if key in schema})
        entry["required"] = param in required
        rules[param] = entry
    description = function.get("description")
    return {
        "tool": name,
        "args": args,
        "result": None,
        "timestamp": None,
        "duration": None,
        "cost": None,
        "metadata": {
            "description": description if description is not None else f"Call {name}",
            "schema": rules,
        },
    }


def generate_cases(
    functions: Sequence[Mapping[str, Any]],
    count: int = 10,
    *,
    include_edge_cases: bool = True,
    seed: int = DEFAULT_SEED,
) -> list[dict[str, Any]]:
    """``count`` gold cases per function, in function order.

    With edge cases: ``int(count·0.6)`` normal, ``int(count·0.2)`` boundary and the rest edge
    cases; without, ``count`` normal cases. The same ``seed`` always gives the same cases.
    """
    if count < 0:
        raise ValueError(f"count must be 0 or more, got {count}")
    cases: list[dict[str, Any]] = []
    for function in functions:
        rng = random.Random(f"toolscore-generate:{seed}:{function['name']}")
        if include_edge_cases:
            normal = int(count * 0.6)
            boundary = int(count * 0.2)
            plan = [("normal", normal), ("boundary", boundary), ("edge", count - normal - boundary)]
        else:
            plan = [("normal", count)]
        for variation, how_many in plan:
            cases.extend(_case(function, variation, rng) for _ in range(how_many))
    return cases


def generate_from_openai_schema(
    schema_file: str | Path,
    count: int = 10,
    include_edge_cases: bool = True,
    *,
    seed: int = DEFAULT_SEED,
) -> list[dict[str, Any]]:
    """Read a function-definitions file and return the generated gold cases.

    Raises ``FileNotFoundError`` for a missing file, ``json.JSONDecodeError`` for invalid JSON
    and :class:`~toolscore.errors.InputError` naming the JSON path of a bad definition.
    """
    import json

    path = Path(schema_file)
    if not path.exists():
        raise FileNotFoundError(f"Schema file not found: {schema_file}")
    data = json.loads(path.read_text(encoding="utf-8"))
    functions = read_function_definitions(data, source=str(schema_file))
    return generate_cases(functions, count, include_edge_cases=include_edge_cases, seed=seed)


def save_gold_standard(gold_calls: list[dict[str, Any]], output_file: str | Path) -> Path:
    """Write the cases as a gold file (indent 2, atomically, parent folders created)."""
    from toolscore.fileio import atomic_write_json

    return atomic_write_json(output_file, gold_calls)
