"""The ``schema_validity`` metric value: each actual call validated against its tool's schema.

A call is *valid* when jsonschema finds no error in its arguments. Errors are classed so that
a reader sees at once what kind of fix is needed:

* ``type`` — a value of the wrong JSON type (``"2"`` for an integer);
* ``missing_required`` — a required argument is absent;
* ``unknown_key`` — a key the schema forbids (``additionalProperties: false``);
* ``constraint`` — anything else (``enum``, ``pattern``, ``minimum``, ...).

Calls of tools without a known schema are not counted (``unchecked``); a schema that is not
itself valid is reported under ``invalid_schemas`` and its calls are not counted either.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolscore.diff import FixSuggestion
    from toolscore.model import ToolCall

__all__ = ["check_calls", "schema_fixes"]

_KINDS = {
    "type": "type",
    "required": "missing_required",
    "additionalProperties": "unknown_key",
    "unevaluatedProperties": "unknown_key",
}
_FIX = {
    "type": "Say the argument's type in the tool description, or fix the value's type.",
    "missing_required": "Make the required argument clear in the tool description or prompt.",
    "unknown_key": "Only send arguments the tool declares; check the argument names.",
    "constraint": "Describe the allowed values (enum, format, range) in the tool description.",
}


def _errors(validator: Any, args: Mapping[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for error in sorted(validator.iter_errors(dict(args)), key=lambda e: list(e.absolute_path)):
        path = "$" + "".join(
            f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path
        )
        kind = _KINDS.get(str(error.validator), "constraint")
        out.append({"path": path, "kind": kind, "message": str(error.message)})
    return out


def check_calls(
    calls: Sequence[ToolCall], schemas: Mapping[str, Mapping[str, Any]]
) -> dict[str, Any]:
    """The metric value for ``calls`` against ``{tool: input schema}``.

    ``schema_validity`` is ``valid / checked`` (``None`` when no call could be checked).
    """
    from jsonschema.exceptions import SchemaError

    from toolscore.bounded_schema import validator_for_schema

    validators: dict[str, Any] = {}
    invalid_schemas: dict[str, str] = {}
    rows: list[dict[str, Any]] = []
    findings: list[dict[str, Any]] = []
    unchecked: list[str] = []
    for index, call in enumerate(calls):
        schema = schemas.get(call.tool)
        if schema is None:
            if call.tool not in unchecked:
                unchecked.append(call.tool)
            continue
        if call.tool not in validators and call.tool not in invalid_schemas:
            try:
                validators[call.tool] = validator_for_schema(schema)
            except SchemaError as exc:
                invalid_schemas[call.tool] = str(exc.message)
        if call.tool in invalid_schemas:
            continue
        errors = _errors(validators[call.tool], call.actual_args)
        rows.append({"index": index, "tool": call.tool, "valid": not errors, "errors": errors})
        for error in errors:
            findings.append(
                {
                    "code": "schema_violation",
                    "message": f"call {index + 1} {call.tool}: {error['path']}: {error['message']}",
                    "tool": call.tool,
                    "index": index,
                    "kind": error["kind"],
                }
            )
    valid = sum(1 for row in rows if row["valid"])
    return {
        "schema_validity": valid / len(rows) if rows else None,
        "checked": len(rows),
        "valid": valid,
        "calls": rows,
        "unchecked_tools": unchecked,
        "invalid_schemas": invalid_schemas,
        "findings": findings,
    }


def schema_fixes(value: Any) -> list[FixSuggestion]:
    """One "Top issues to fix" item per invalid call (priority 2, beside argument mismatches)."""
    from toolscore.diff import FixSuggestion

    if not isinstance(value, Mapping):
        return []
    out: list[FixSuggestion] = []
    for row in value.get("calls", []):
        if row.get("valid", True):
            continue
        errors = row.get("errors", [])
        detail = "; ".join(f"{e['path']}: {e['message']}" for e in errors)
        kind = errors[0]["kind"] if errors else "constraint"
        out.append(
            FixSuggestion(
                row["tool"],
                f"`{row['tool']}` (call {row['index'] + 1}) sent arguments that break its "
                f"input schema ({detail})",
                _FIX.get(kind, _FIX["constraint"]),
                2,
            )
        )
    return out
