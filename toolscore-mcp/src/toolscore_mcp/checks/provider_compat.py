"""Provider compatibility: would each model provider's function-calling API accept a tool?

A client hands MCP tool definitions to a model API, which applies its own rules to the
function name and the parameter schema. The rules below are the providers' documented ones
(checked 2025-2026; the docs pages are cited in docs/mcp.md):

* ``openai-strict`` — OpenAI function calling with ``strict: true`` (Structured Outputs):
  name ``^[A-Za-z0-9_-]{1,64}$``; the root is an object; every object lists all of its
  properties in ``required`` and sets ``additionalProperties: false``; only the supported
  keywords (no ``allOf``, ``oneOf``, ``not``, ``if``/``then``/``else``,
  ``patternProperties``, ``dependent*``, ``minLength``/``maxLength``, ...); at most 10
  levels of nesting.
* ``gemini`` — Gemini function declarations (``parameters``, an OpenAPI 3.0 schema subset):
  name starts with a letter or ``_``, then letters, digits, ``_ . : -``, at most 64; only
  ``type`` (a single one; ``nullable`` instead of a type list), ``format``, ``title``,
  ``description``, ``nullable``, ``enum``, ``properties``, ``required``, ``items``,
  ``minItems``/``maxItems``, ``minProperties``/``maxProperties``, ``minLength``/``maxLength``,
  ``pattern``, ``minimum``/``maximum``, ``anyOf``, ``propertyOrdering``, ``default``,
  ``example``; no ``$ref``.
* ``anthropic`` — Anthropic tool use: name ``^[A-Za-z0-9_-]{1,64}$``; ``input_schema`` is an
  object schema without ``oneOf``/``allOf``/``anyOf`` at its top level; JSON Schema otherwise.

Not part of the score: a tool that one provider refuses still works with the others.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import attrs
from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.model import MCPToolDef

__all__ = ["PROVIDERS", "ToolCompat", "compatibility", "incompatible_count"]

_OPENAI_NAME = lazy_pattern(r"^[A-Za-z0-9_-]{1,64}$")
_GEMINI_NAME = lazy_pattern(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$")
_GEMINI_PARAM = lazy_pattern(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")

_ANNOTATION_KEYS = frozenset({"description", "title", "$comment", "examples", "default"})
_OPENAI_KEYWORDS = _ANNOTATION_KEYS | frozenset(
    {"type", "properties", "required", "additionalProperties", "items", "enum", "const",
     "anyOf", "$ref", "$defs", "definitions", "$schema", "$id", "pattern", "format",
     "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
     "minItems", "maxItems"}
)  # fmt: skip
_GEMINI_KEYWORDS = frozenset(
    {"type", "format", "title", "description", "nullable", "enum", "properties", "required",
     "items", "minItems", "maxItems", "minProperties", "maxProperties", "minLength",
     "maxLength", "pattern", "minimum", "maximum", "anyOf", "propertyOrdering", "default",
     "example", "$schema"}
)  # fmt: skip
_OPENAI_MAX_DEPTH = 10
#: Keywords whose value maps names to subschemas, and those holding one or a list of them.
_SCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")
_SCHEMA_ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")


def _subschemas(node: Mapping[str, Any], where: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for key in _SCHEMA_MAPS:
        value = node.get(key)
        if isinstance(value, Mapping):
            for name, sub in value.items():
                if isinstance(sub, Mapping):
                    yield f"{where}.{key}.{name}", sub
    for key in _SCHEMA_ONE:
        value = node.get(key)
        if isinstance(value, Mapping):
            yield f"{where}.{key}", value
    for key in _SCHEMA_LISTS:
        value = node.get(key)
        if isinstance(value, list):
            for index, sub in enumerate(value):
                if isinstance(sub, Mapping):
                    yield f"{where}.{key}[{index}]", sub


def _nodes(schema: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any], int]]:
    """Every subschema with a readable path and its object-nesting depth."""
    stack: list[tuple[str, Mapping[str, Any], int]] = [("$", schema, 1)]
    while stack:
        where, node, depth = stack.pop()
        yield where, node, depth
        nested = depth + (1 if node.get("type") == "object" or "properties" in node else 0)
        stack.extend((p, sub, nested) for p, sub in _subschemas(node, where))


def _is_object(node: Mapping[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in node


def _root_problem(name: str, schema: Mapping[str, Any], pattern: re.Pattern[str]) -> list[str]:
    problems = []
    if not pattern.match(name):
        problems.append(f"name {name!r} does not match {pattern.pattern}")
    if schema.get("type") != "object":
        problems.append("the input schema's root is not type: object")
    return problems


def _openai(tool: MCPToolDef) -> list[str]:
    schema = tool.input_schema
    problems = _root_problem(tool.name, schema, _OPENAI_NAME)
    for where, node, depth in _nodes(schema):
        unsupported = sorted(set(node) - _OPENAI_KEYWORDS)
        if unsupported:
            problems.append(f"{where} uses unsupported {', '.join(unsupported)}")
        if depth > _OPENAI_MAX_DEPTH:
            problems.append(f"{where} nests deeper than {_OPENAI_MAX_DEPTH} levels")
        if _is_object(node):
            properties = node.get("properties")
            names = list(properties) if isinstance(properties, Mapping) else []
            required = node.get("required")
            missing = [n for n in names if not isinstance(required, list) or n not in required]
            if missing:
                problems.append(f"{where} does not require {', '.join(missing)}")
            if node.get("additionalProperties") is not False:
                problems.append(f"{where} lacks additionalProperties: false")
    return problems


def _gemini(tool: MCPToolDef) -> list[str]:
    schema = tool.input_schema
    problems = _root_problem(tool.name, schema, _GEMINI_NAME)
    for where, node, _ in _nodes(schema):
        unsupported = sorted(set(node) - _GEMINI_KEYWORDS)
        if unsupported:
            problems.append(f"{where} uses unsupported {', '.join(unsupported)}")
        if isinstance(node.get("type"), list):
            problems.append(f"{where} has a list of types (Gemini takes one, plus nullable)")
        properties = node.get("properties")
        if isinstance(properties, Mapping):
            odd = [str(n) for n in properties if not _GEMINI_PARAM.match(str(n))]
            if odd:
                problems.append(f"{where} has parameter names Gemini refuses: {', '.join(odd)}")
    return problems


def _anthropic(tool: MCPToolDef) -> list[str]:
    schema = tool.input_schema
    problems = _root_problem(tool.name, schema, _OPENAI_NAME)
    top = [key for key in ("oneOf", "allOf", "anyOf") if key in schema]
    if top:
        problems.append(f"the input schema uses {', '.join(top)} at its top level")
    return problems


#: Provider name -> its check, in report order.
PROVIDERS: dict[str, Callable[[MCPToolDef], list[str]]] = {
    "openai-strict": _openai,
    "gemini": _gemini,
    "anthropic": _anthropic,
}


@attrs.frozen
class ToolCompat:
    """One tool's row of the matrix: the problems each provider would refuse it for."""

    tool: str
    problems: dict[str, tuple[str, ...]]

    def accepted(self, provider: str) -> bool:
        return not self.problems.get(provider)


def compatibility(tools: Sequence[MCPToolDef]) -> list[ToolCompat]:
    """The matrix, tool by tool in advertised order."""
    return [
        ToolCompat(tool.name, {name: tuple(check(tool)) for name, check in PROVIDERS.items()})
        for tool in tools
    ]


def incompatible_count(rows: Sequence[ToolCompat]) -> dict[str, int]:
    """Per provider, how many tools it would refuse."""
    return {name: sum(1 for row in rows if not row.accepted(name)) for name in PROVIDERS}
