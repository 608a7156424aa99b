"""Generate argument values from a JSON schema, reproducibly.

The base algorithm is :mod:`toolscore.schema_values`, draw for draw, so the same server gets
the same values: with ``random.Random(tool.name)`` a plain schema always yields the same
arguments. On top of it, values honour what the schema says about valid input, where the base
rules alone would send something the schema itself rules out:

* ``$ref`` (local ``#/...`` pointers), ``allOf`` merges, ``anyOf``/``oneOf`` (first non-null
  branch), ``const``, type lists;
* ``pattern``, ``minLength``/``maxLength``, ``minimum``/``maximum`` and their exclusive forms,
  ``multipleOf``, ``minItems``/``maxItems``/``uniqueItems``, tuple ``prefixItems``;
* hints: ``examples``, ``default``, ``e.g. 'X'`` in the description, ``format``, and values
  the server itself told us (a tool that lists allowed roots or valid values).

Whatever the schema asks, a value stays within :mod:`toolscore.limits` (string length, item
count, nesting, values in all): ``minItems: 100000000`` gives a short array that breaks the
schema, the schema check rejects it cheaply, and the tool is reported as one we could not call
with valid arguments. A server's ``pattern`` is matched with a time bound.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
from toolscore.bounded_regex import UnsafePatternError, bounded_pattern
from toolscore.lazy_pattern import lazy_pattern
from toolscore.limits import (
    MAX_GENERATED_DEPTH,
    MAX_GENERATED_ITEMS,
    SCHEMA_PATTERN_TIMEOUT_SECONDS,
    GenerationBudget,
    capped_count,
    capped_length,
)
from toolscore.schema_values import (
    FORMAT_VALUES,
    boolean_value,
    described_string,
    enum_value,
    given_value,
    int_or,
    item_count,
    keyword_string,
    object_fields,
    primary_schema_type,
    schema_types,
)

from toolscore_mcp.values.patterns import string_for_pattern

__all__ = [
    "SCHEMA_FORMAT_VALUES",
    "ValueContext",
    "effective_schema",
    "generate_nested",
    "generate_value_from_schema",
    "primary_schema_type",
    "schema_types",
]

#: A well-formed value for each JSON Schema ``format`` we know (the base ones and more).
SCHEMA_FORMAT_VALUES: dict[str, str] = {
    **FORMAT_VALUES,
    "uri-reference": "https://example.com",
    "iri": "https://example.com",
    "duration": "PT1H",
    "idn-email": "user@example.com",
    "ipv6": "2001:db8::1",
    "idn-hostname": "example.com",
}

# "e.g. 42" for numbers.
_NUMBER_EXAMPLE = lazy_pattern(r"e\.g\.,?\s*(-?\d+(?:\.\d+)?)\b")
_PATH_WORDS = ("path", "dir", "folder", "root")

_MAX_DEPTH = MAX_GENERATED_DEPTH


@attrs.frozen
class ValueContext:
    """What value generation may consult besides the property's own schema.

    ``root`` is the tool's whole input schema (for ``$ref``); ``known_values`` maps a
    parameter name to values the server told us are valid; ``roots`` are directories the
    server allows (from a ``list_allowed_directories``-style tool).
    """

    root: Mapping[str, Any] = attrs.field(factory=dict)
    known_values: Mapping[str, Sequence[Any]] = attrs.field(factory=dict)
    roots: tuple[str, ...] = ()


def _resolve_pointer(root: Mapping[str, Any], ref: str) -> Mapping[str, Any] | None:
    if not ref.startswith("#"):
        return None
    node: Any = root
    for raw in ref[1:].split("/"):
        if not raw:
            continue
        key = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return None
    return node if isinstance(node, Mapping) else None


def _is_null_branch(branch: Any) -> bool:
    return isinstance(branch, Mapping) and branch.get("type") == "null"


def effective_schema(
    schema: Mapping[str, Any], root: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The schema with ``$ref``, ``allOf`` and a type-less ``anyOf``/``oneOf`` folded in.

    Sibling keywords win over what they are merged with (``{"$ref": ..., "description": x}``
    keeps ``x``). The first non-null branch of a union stands for the union.
    """
    return _effective(schema, root or {}, 0)


def _effective(
    schema: Mapping[str, Any],
    root: Mapping[str, Any],
    depth: int,
    budget: GenerationBudget | None = None,
) -> dict[str, Any]:
    """The folding, bounded in depth and in work: ``allOf`` branches that each ``$ref`` an
    ``allOf`` of several more would otherwise multiply at every level."""
    if budget is None:
        budget = GenerationBudget()
    result = dict(schema)
    if depth > _MAX_DEPTH or not budget.take():
        return result
    ref = result.pop("$ref", None)
    if isinstance(ref, str):
        target = _resolve_pointer(root, ref)
        if target is not None:
            result = {**_effective(target, root, depth + 1, budget), **result}
    all_of = result.pop("allOf", None)
    if isinstance(all_of, list):
        merged: dict[str, Any] = {}
        for branch in all_of:
            if isinstance(branch, Mapping):
                merged.update(_effective(branch, root, depth + 1, budget))
        result = {**merged, **result}
    if "type" not in result and "enum" not in result and "const" not in result:
        for key in ("anyOf", "oneOf"):
            branches = result.get(key)
            if isinstance(branches, list):
                chosen = next(
                    (b for b in branches if isinstance(b, Mapping) and not _is_null_branch(b)), None
                )
                if chosen is not None:
                    folded = _effective(chosen, root, depth + 1, budget)
                    result = {**folded, **{k: v for k, v in result.items() if k != key}}
                    break
    return result


def generate_value_from_schema(
    name: str,
    schema: Mapping[str, Any],
    variation: str = "normal",
    rng: random.Random | None = None,
    context: ValueContext | None = None,
) -> Any:
    """A value for parameter ``name`` described by ``schema``.

    ``variation`` is ``normal`` (a realistic valid value), ``edge`` or ``boundary``.
    Pass ``random.Random(seed)`` for reproducible values.
    """
    ctx = context or ValueContext(root=schema)
    return generate_nested(name, schema, variation, rng or random.Random(), ctx, 0)


def generate_nested(
    name: str,
    raw_schema: Any,
    variation: str,
    rng: random.Random,
    ctx: ValueContext,
    depth: int,
    budget: GenerationBudget | None = None,
) -> Any:
    """One value at nesting ``depth``: for callers that already hold a context and a seeded
    ``rng`` (scenarios, the built-in providers). ``budget`` is shared by the levels of one
    value (a new one at the top)."""
    if budget is None:
        budget = GenerationBudget()
    if depth > _MAX_DEPTH or not budget.take():
        return None
    schema = _effective(raw_schema if isinstance(raw_schema, Mapping) else {}, ctx.root, 0)
    if "const" in schema:
        return schema["const"]
    kind = primary_schema_type(schema)

    if variation == "normal" and "enum" not in schema:
        hinted, value = _hinted_value(name, schema, kind, rng, ctx)
        if hinted:
            return value

    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return enum_value(enum, variation, rng)

    if kind == "string":
        return budget.text(_string(name, schema, variation, rng))
    if kind == "integer":
        return _integer(schema, variation, rng)
    if kind == "number":
        return _number(schema, variation, rng)
    if kind == "boolean":
        return boolean_value(variation, rng)
    if kind == "array":
        return _array(name, schema, variation, rng, ctx, depth, budget)
    if kind == "object":
        return object_fields(
            schema,
            budget,
            lambda key, sub: generate_nested(key, sub, variation, rng, ctx, depth + 1, budget),
        )
    return None


def _hinted_value(
    name: str, schema: Mapping[str, Any], kind: str, rng: random.Random, ctx: ValueContext
) -> tuple[bool, Any]:
    """A value the schema or the server suggests: examples, default, server-given values,
    an ``e.g.`` example in the description, a well-formed value for ``format``."""
    hinted, value = given_value(schema, rng)
    if hinted:
        return hinted, value
    known = ctx.known_values.get(name)
    if known:
        return True, known[0]
    description = schema.get("description")
    if kind == "string":
        hinted, value = described_string(schema, SCHEMA_FORMAT_VALUES)
        if hinted:
            return hinted, value
        if ctx.roots and any(word in name.lower() for word in _PATH_WORDS):
            return True, ctx.roots[0]
    elif kind in ("integer", "number") and isinstance(description, str):
        match = _NUMBER_EXAMPLE.search(description)
        if match:
            number = float(match.group(1))
            if kind == "integer" and number.is_integer():
                return True, int(number)
            if kind == "number":
                return True, number
    return False, None


def _string(name: str, schema: Mapping[str, Any], variation: str, rng: random.Random) -> str:
    value = keyword_string(name, schema, variation, rng)
    min_length = capped_length(int_or(schema.get("minLength"), 0))
    max_length = int_or(schema.get("maxLength"), None)
    return _fit_string(value, schema, min_length, max_length)


def _fit_string(
    value: str, schema: Mapping[str, Any], min_length: int, max_length: int | None
) -> str:
    """Make ``value`` satisfy the length bounds and the pattern, changing it only if needed."""
    if len(value) < min_length:
        value = value + "x" * (min_length - len(value))
    if max_length is not None and len(value) > max_length:
        value = value[: max(max_length, 0)]
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        try:
            timeout = SCHEMA_PATTERN_TIMEOUT_SECONDS
            matches = bounded_pattern(pattern, 0, timeout).search(value)
        except re.error:
            return value
        except UnsafePatternError:
            matches = False  # a pattern that backtracks this long: try to build a match
        if not matches:
            generated = string_for_pattern(pattern, min_length=min_length, max_length=max_length)
            if generated is not None:
                return generated
    return value


def _num_or(value: Any, default: float | None) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    if isinstance(value, float) and not math.isfinite(value):
        return default  # JSON's 1e400 reads as infinity: no usable bound
    return value


def _bounds(schema: Mapping[str, Any]) -> tuple[float | None, float | None]:
    """Inclusive (low, high) from minimum/maximum and both forms of the exclusive bounds."""
    low = _num_or(schema.get("minimum"), None)
    high = _num_or(schema.get("maximum"), None)
    exclusive_min = schema.get("exclusiveMinimum")
    exclusive_max = schema.get("exclusiveMaximum")
    if exclusive_min is True and low is not None:  # draft 4 boolean form
        low = ("excl", low)  # type: ignore[assignment]
    elif (value := _num_or(exclusive_min, None)) is not None:
        low = ("excl", value)  # type: ignore[assignment]
    if exclusive_max is True and high is not None:
        high = ("excl", high)  # type: ignore[assignment]
    elif (value := _num_or(exclusive_max, None)) is not None:
        high = ("excl", value)  # type: ignore[assignment]
    return low, high


def _integer(schema: Mapping[str, Any], variation: str, rng: random.Random) -> int:
    low_raw, high_raw = _bounds(schema)
    low = _int_bound(low_raw, up=True)
    high = _int_bound(high_raw, up=False)
    minimum = low if low is not None else (1 if high is None or high >= 1 else high)
    maximum = high if high is not None else max(100, minimum)
    if maximum < minimum:
        maximum = minimum
    if variation == "boundary":
        value = minimum
    elif variation == "edge":
        value = maximum
    else:
        value = rng.randint(minimum, min(maximum, minimum + 20))
    step = _num_or(schema.get("multipleOf"), None)
    if step and step > 0 and float(step).is_integer():
        step_int = int(step)
        rounded = math.ceil(value / step_int) * step_int
        if rounded > maximum:
            rounded = math.floor(value / step_int) * step_int
        value = rounded
    return value


def _int_bound(bound: Any, *, up: bool) -> int | None:
    if bound is None:
        return None
    if isinstance(bound, tuple):
        value = bound[1]
        return int(math.floor(value) + 1 if up else math.ceil(value) - 1)
    return int(math.ceil(bound) if up else math.floor(bound))


def _number(schema: Mapping[str, Any], variation: str, rng: random.Random) -> float:
    low_raw, high_raw = _bounds(schema)
    low_exclusive = isinstance(low_raw, tuple)
    high_exclusive = isinstance(high_raw, tuple)
    low = low_raw[1] if isinstance(low_raw, tuple) else low_raw
    high = high_raw[1] if isinstance(high_raw, tuple) else high_raw
    minimum = low if low is not None else (0.0 if high is None or high >= 0 else high - 50.0)
    maximum = high if high is not None else max(100.0, minimum)
    if variation == "boundary":
        return minimum
    if variation == "edge":
        return maximum
    value = round(rng.uniform(minimum, min(maximum, minimum + 50.0)), 2)
    if (low_exclusive and value <= minimum) or (high_exclusive and value >= maximum):
        value = (minimum + maximum) / 2 if maximum > minimum else minimum
    step = _num_or(schema.get("multipleOf"), None)
    if step and step > 0:
        value = round(math.ceil(value / step) * step, 10)
    return value


def _array(
    name: str,
    schema: Mapping[str, Any],
    variation: str,
    rng: random.Random,
    ctx: ValueContext,
    depth: int,
    budget: GenerationBudget,
) -> list[Any]:
    prefix = schema.get("prefixItems")
    items = schema.get("items", {})
    if isinstance(items, list):  # draft 4-7 tuple form
        prefix, items = items, schema.get("additionalItems", {})
    count = item_count(schema, variation, rng)
    values: list[Any] = []
    if isinstance(prefix, list):
        for item in prefix[:MAX_GENERATED_ITEMS]:
            if budget.left <= 0:
                break
            values.append(
                generate_nested(f"{name}_item", item, "normal", rng, ctx, depth + 1, budget)
            )
        count = max(count - len(values), 0) if items is not False else 0
    item_schema = items if isinstance(items, Mapping) else {}
    for _ in range(capped_count(count)):
        if budget.left <= 0:
            break
        values.append(
            generate_nested(f"{name}_item", item_schema, "normal", rng, ctx, depth + 1, budget)
        )
    if schema.get("uniqueItems") is True:
        values = _unique(values)
    return values


def _unique(values: list[Any]) -> list[Any]:
    seen: list[Any] = []
    for value in values:
        if value not in seen:
            seen.append(value)
    return seen
