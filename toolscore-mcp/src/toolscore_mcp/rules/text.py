"""The text a model reads from a server: tool descriptions, schema descriptions, instructions.

Shared by the tool-reference and poisoning rules. Findings in the instructions are reported under
the owner name ``<instructions>``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from toolscore_mcp.lint import ServerText

INSTRUCTIONS_OWNER = "<instructions>"


def schema_descriptions(schema: Any) -> Iterator[str]:
    """Every ``description`` string anywhere inside a JSON schema, depth first."""
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            if key == "description" and isinstance(value, str):
                yield value
            else:
                yield from schema_descriptions(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from schema_descriptions(item)


def model_texts(server: ServerText) -> Iterator[tuple[str, str]]:
    """``(owner, text)`` for each piece of text a model reads, tool by tool."""
    for tool in server.tools:
        if tool.description:
            yield tool.name, tool.description
        for text in schema_descriptions(tool.input_schema):
            yield tool.name, text
    if server.instructions:
        yield INSTRUCTIONS_OWNER, server.instructions


def schema_names(schema: Any) -> set[str]:
    """Property names and string ``enum``/``const`` values anywhere inside a JSON schema."""
    names: set[str] = set()
    if isinstance(schema, Mapping):
        properties = schema.get("properties")
        if isinstance(properties, Mapping):
            names.update(str(key) for key in properties)
        for key in ("enum", "const"):
            value = schema.get(key)
            if isinstance(value, list):
                names.update(v for v in value if isinstance(v, str))
            elif isinstance(value, str):
                names.add(value)
        for value in schema.values():
            names |= schema_names(value)
    elif isinstance(schema, list):
        for item in schema:
            names |= schema_names(item)
    return names
