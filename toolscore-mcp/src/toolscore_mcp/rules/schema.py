"""Lint rules about input schemas: can a client tell how to call the tool?

When the schema is missing or empty only ``empty-schema`` fires; the other schema rules
skip such a tool.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from toolscore import hookimpl

from toolscore_mcp.lint import LintRuleSpec, ServerText
from toolscore_mcp.model import LintIssue, MCPToolDef

FIX_INPUT_SCHEMA = (
    "Define an object inputSchema with typed properties so clients know how to call the tool."
)
FIX_SCHEMA_TYPE = 'Add \'"type": "object"\' to the inputSchema.'
FIX_PROP_TYPE = (
    "Give the property a JSON-schema type (and an enum where the values are fixed) so the "
    "model does not have to guess."
)
FIX_REQUIRED_MISSING = "List only properties that actually exist in the 'required' array."
FIX_NO_REQUIRED = "Declare a 'required' list so callers know which parameters are mandatory."


def is_typed(prop: Any) -> bool:
    """Does the property schema tell the model what shape to send?

    ``type``, ``enum``, ``const`` and ``$ref`` do; ``anyOf``/``oneOf`` when every branch does
    (pydantic writes optional fields that way); ``allOf`` when any branch does.
    """
    if not isinstance(prop, Mapping):
        return False
    if any(key in prop for key in ("type", "enum", "const", "$ref")):
        return True
    for key in ("anyOf", "oneOf"):
        branches = prop.get(key)
        if isinstance(branches, list) and branches:
            return all(is_typed(branch) for branch in branches)
    branches = prop.get("allOf")
    if isinstance(branches, list):
        return any(is_typed(branch) for branch in branches)
    return False


def _empty(tool: MCPToolDef, server: ServerText) -> Iterator[LintIssue]:
    if not tool.input_schema:
        yield LintIssue(tool.name, "error", "missing or empty inputSchema", FIX_INPUT_SCHEMA)


def _schema_type(tool: MCPToolDef, server: ServerText) -> Iterator[LintIssue]:
    if tool.input_schema and "type" not in tool.input_schema:
        yield LintIssue(tool.name, "error", "inputSchema is missing 'type'", FIX_SCHEMA_TYPE)


def _properties(tool: MCPToolDef) -> Mapping[str, Any] | None:
    properties = tool.input_schema.get("properties") if tool.input_schema else None
    return properties if isinstance(properties, Mapping) else None


def _prop_type(tool: MCPToolDef, server: ServerText) -> Iterator[LintIssue]:
    for name, prop in (_properties(tool) or {}).items():
        if not is_typed(prop):
            yield LintIssue(
                tool.name, "error", f"property {name!r} is missing a 'type'", FIX_PROP_TYPE
            )


def _required_unknown(tool: MCPToolDef, server: ServerText) -> Iterator[LintIssue]:
    properties = _properties(tool)
    required = tool.input_schema.get("required") if tool.input_schema else None
    if properties is None or not isinstance(required, list):
        return
    for name in required:
        if not isinstance(name, str) or name not in properties:
            yield LintIssue(
                tool.name,
                "error",
                f"required property {name!r} is not in 'properties'",
                FIX_REQUIRED_MISSING,
            )


def _no_required(tool: MCPToolDef, server: ServerText) -> Iterator[LintIssue]:
    properties = _properties(tool)
    if properties and not isinstance(tool.input_schema.get("required"), list):
        yield LintIssue(
            tool.name,
            "warning",
            "properties defined but no 'required' list declared",
            FIX_NO_REQUIRED,
        )


@hookimpl
def toolscore_mcp_register_lint_rules() -> Iterable[LintRuleSpec]:
    yield LintRuleSpec("empty-schema", _empty, order=50, summary="no inputSchema")
    yield LintRuleSpec("schema-type", _schema_type, order=60, summary="inputSchema has no type")
    yield LintRuleSpec("prop-type", _prop_type, order=70, summary="property without a type")
    yield LintRuleSpec(
        "required-unknown", _required_unknown, order=80, summary="required name not in properties"
    )
    yield LintRuleSpec(
        "no-required", _no_required, order=90, summary="properties without a required list"
    )
