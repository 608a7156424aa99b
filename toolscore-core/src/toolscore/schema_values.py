"""The base rules for making up a parameter value from its JSON schema.

Two generators build on these rules: :mod:`toolscore.generators` (``toolscore generate``
gold files) uses them as they are, and toolscore-mcp's scenario values extend them (``$ref``,
exclusive bounds, patterns, values the server told us). Keeping the rules here means the
keyword lists, format hints and per-variation string, enum and boolean values are the same
for both, draw for draw: each helper takes the caller's ``random.Random`` and draws from it
in a fixed order, so a seed always gives the same values (reordering the draws changes them).

``variation`` is ``"normal"`` (a typical value), ``"boundary"`` (the low end) or ``"edge"``
(the high end).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from toolscore.limits import capped_length

if (
    TYPE_CHECKING
):  # the caller's generator is only annotated here; ``toolscore --help`` skips random
    import random

    from toolscore.limits import GenerationBudget

_D = TypeVar("_D")

__all__ = [
    "DESCRIPTION_EXAMPLE",
    "FORMAT_VALUES",
    "JSON_TYPE_CHECKS",
    "KEYWORD_VALUES",
    "boolean_value",
    "described_string",
    "enum_value",
    "given_value",
    "int_or",
    "item_count",
    "keyword_string",
    "object_fields",
    "primary_schema_type",
    "schema_types",
]

#: A quoted example in a description: ``e.g. 'America/New_York'``, ``e.g., `json```.
DESCRIPTION_EXAMPLE = re.compile(r"e\.g\.,?\s*['\"`]([^'\"`]+)['\"`]")

#: A well-formed string for each known ``format``.
FORMAT_VALUES: Mapping[str, str] = {
    "uri": "https://example.com",
    "url": "https://example.com",
    "date-time": "2026-01-15T10:30:00Z",
    "date": "2026-01-15",
    "time": "10:30:00",
    "email": "user@example.com",
    "uuid": "123e4567-e89b-12d3-a456-426614174000",
    "ipv4": "192.0.2.1",
    "hostname": "example.com",
}

#: Realistic strings for parameters whose name contains the keyword (first match wins).
KEYWORD_VALUES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("query", ("wireless headphones", "laptop", "coffee maker")),
    ("search", ("best restaurants", "weather today", "news")),
    ("text", ("Hello world", "Test message", "Sample text")),
    ("message", ("Important update", "Hello!", "Test notification")),
    ("email", ("user@example.com", "test@test.com", "admin@domain.org")),
    ("url", ("https://example.com", "https://api.test.com/data", "https://docs.site.io")),
    ("path", ("/home/user/file.txt", "/tmp/data.json", "/var/log/app.log")),
    ("filename", ("output.txt", "data.json", "report.pdf")),
    ("name", ("John Doe", "Alice Smith", "Bob Johnson")),
    ("city", ("San Francisco", "New York", "London")),
    ("country", ("US", "UK", "CA")),
)


def schema_types(schema: Mapping[str, Any]) -> list[str]:
    """The JSON types a schema allows, in declared order; missing or invalid means string."""
    declared = schema.get("type", "string")
    if isinstance(declared, list):
        names = [t for t in declared if isinstance(t, str)]
        return names or ["string"]
    return [declared] if isinstance(declared, str) else ["string"]


def primary_schema_type(schema: Mapping[str, Any]) -> str:
    """The type values are generated for: the first non-null allowed type."""
    types = schema_types(schema)
    non_null = [t for t in types if t != "null"]
    return non_null[0] if non_null else types[0]


def int_or(value: Any, default: _D) -> int | _D:
    """A schema number as ``int`` (a float is truncated); ``default`` for anything else,
    infinities and NaN included (JSON's ``1e400`` reads as infinity)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    if isinstance(value, float) and not math.isfinite(value):
        return default
    return int(value)


def given_value(schema: Mapping[str, Any], rng: random.Random) -> tuple[bool, Any]:
    """``(True, value)`` when the schema gives values: one of its ``examples``, else its ``default``."""
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        return True, rng.choice(examples)
    if schema.get("default") is not None:
        return True, schema["default"]
    return False, None


def described_string(
    schema: Mapping[str, Any], formats: Mapping[str, str] = FORMAT_VALUES
) -> tuple[bool, Any]:
    """``(True, text)`` for a string schema that suggests one: an ``e.g.`` example in its
    description, else a well-formed value for its ``format`` (looked up in ``formats``)."""
    description = schema.get("description")
    if isinstance(description, str) and (match := DESCRIPTION_EXAMPLE.search(description)):
        return True, match.group(1)
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt in formats:
        return True, formats[fmt]
    return False, None


def enum_value(enum: list[Any], variation: str, rng: random.Random) -> Any:
    """A member of a non-empty ``enum``: the first at the edge, the last at the boundary."""
    if variation == "edge":
        return enum[0]
    if variation == "boundary":
        return enum[-1]
    return rng.choice(enum)


def boolean_value(variation: str, rng: random.Random) -> bool:
    """``True`` at the edge, else a draw."""
    return True if variation == "edge" else rng.choice([True, False])


def keyword_string(name: str, schema: Mapping[str, Any], variation: str, rng: random.Random) -> str:
    """A string for parameter ``name``: a realistic one when its name holds a keyword of
    :data:`KEYWORD_VALUES`, else ``sample_<name>``; short at the boundary (``minLength``),
    long at the edge (up to ten characters within ``maxLength``). A ``minLength`` above
    :data:`~toolscore.limits.MAX_GENERATED_STRING` is not honoured (the string stops there)."""
    lowered = name.lower()
    for keyword, values in KEYWORD_VALUES:
        if keyword in lowered:
            if variation == "edge":
                return values[0]
            if variation == "boundary":
                min_len = capped_length(int_or(schema.get("minLength"), 1))
                return "a" * min_len if min_len else "x"
            return rng.choice(values)
    if variation == "boundary":
        return "x" * capped_length(int_or(schema.get("minLength"), 1))
    if variation == "edge":
        return "a" * min(int_or(schema.get("maxLength"), 100), 10)
    return f"sample_{name}"


#: Seed of ``toolscore generate`` and of generated values when none is given (reproducible).
DEFAULT_SEED = 0


def item_count(schema: Mapping[str, Any], variation: str, rng: random.Random) -> int:
    """How many items to make for an array schema: ``minItems`` (default 1) for boundary
    values, up to 3 for edge values, else a draw between them (``maxItems`` default 5)."""
    low = max(int_or(schema.get("minItems"), 1), 0)
    high = int_or(schema.get("maxItems"), 5)
    if variation == "boundary":
        return low
    if variation == "edge":
        return min(high, 3)
    return rng.randint(low, max(low, min(high, 3)))


def object_fields(
    schema: Mapping[str, Any], budget: GenerationBudget, make: Callable[[str, Any], Any]
) -> dict[str, Any]:
    """``{property: make(property, its schema)}`` for an object schema, while ``budget`` lasts."""
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return {}
    fields: dict[str, Any] = {}
    for key, sub in properties.items():
        if budget.left <= 0:
            break
        fields[str(key)] = make(str(key), sub)
    return fields


#: Whether a Python value is of a JSON Schema type, by type name (booleans are no numbers).
JSON_TYPE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}
