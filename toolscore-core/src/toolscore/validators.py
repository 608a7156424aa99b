"""Checks of what a call did, for ``evaluate_trace``: side effects and argument schemas.

Side-effect validators are named by the checks of a gold call's ``side_effects``
(``{"http_ok": true, "file_exists": "out.txt", "sql_rows": {"min": 1}}``): each takes the
actual call paired with the gold call and the expected value, and returns a bool.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolscore.schema_values import JSON_TYPE_CHECKS

if TYPE_CHECKING:
    from toolscore.model import ToolCall

__all__ = [
    "FileSystemValidator",
    "HTTPValidator",
    "SQLValidator",
    "calculate_schema_validation_metrics",
    "default_side_effect_validators",
    "validate_argument_schema",
]

Validator = Callable[["ToolCall", Any], bool]


class HTTPValidator:
    """``http_ok``: the call's HTTP status is a success (200-206) or the expected code.

    The status comes from ``result["status"]`` / ``result["status_code"]``, an int result, or
    ``metadata["http_status"]``; failing those, a call with a ``url``/``endpoint`` argument
    and a truthy result passes.
    """

    def __init__(self) -> None:
        self.success_codes = frozenset(range(200, 207))

    def _status_ok(self, status: Any, expected: Any) -> bool:
        if expected is True:
            return int(status) in self.success_codes
        return int(status) == int(expected)

    def validate(self, call: ToolCall, expected: Any) -> bool:
        result = call.result
        if result is not None:
            if isinstance(result, dict):
                status = result.get("status") or result.get("status_code")
                if status:
                    return self._status_ok(status, expected)
            if isinstance(result, int):
                if expected is True:
                    return result in self.success_codes
                return result == int(expected)
        if "http_status" in call.metadata:
            return self._status_ok(call.metadata["http_status"], expected)
        args = call.args
        return bool(
            args
            and ("url" in args or "endpoint" in args)
            and result
            and not isinstance(result, Exception)
        )


class FileSystemValidator:
    """``file_exists``: the file the call wrote exists (relative paths from ``base_path``).

    The path is the expected value if it is a string, else the first of the arguments
    ``path, file, filename, filepath, file_path, output``, else a string result, else
    ``result["path"]``. Optional constraints: ``contains`` (text the file must hold),
    ``min_size`` and ``max_size`` in bytes.
    """

    _PATH_ARGS = ("path", "file", "filename", "filepath", "file_path", "output")

    def __init__(
        self,
        base_path: str | None = None,
        contains: str | list[str] | None = None,
        min_size: int | None = None,
        max_size: int | None = None,
    ) -> None:
        self.base_path = Path(base_path) if base_path else Path.cwd()
        self.contains = [contains] if isinstance(contains, str) else contains
        self.min_size = min_size
        self.max_size = max_size

    def _file_path(self, call: ToolCall, expected: Any) -> str | None:
        if isinstance(expected, str):
            return expected
        if call.args:
            for key in self._PATH_ARGS:
                if key in call.args:
                    return str(call.args[key])
        if isinstance(call.result, str):
            return call.result
        if isinstance(call.result, dict) and "path" in call.result:
            return str(call.result["path"])
        return None

    def validate(self, call: ToolCall, expected: Any) -> bool:
        name = self._file_path(call, expected)
        if not name:
            return False
        path = Path(name) if Path(name).is_absolute() else self.base_path / name
        if not path.exists():
            return False
        constrained = bool(self.contains or self.min_size or self.max_size)
        if path.is_dir():
            return not constrained
        size = path.stat().st_size
        if self.min_size is not None and size < self.min_size:
            return False
        if self.max_size is not None and size > self.max_size:
            return False
        if self.contains:
            try:
                content = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                return False
            return all(text in content for text in self.contains)
        return True


class SQLValidator:
    """``sql_rows``: the row count of a query is > 0 (``true``), equal to an int, or within
    ``{"min": .., "max": ..}``.

    The count comes from an int result, a list result's length, the result keys
    ``rows_affected``/``rowcount``/``row_count``/``count``, ``rows`` (list or int), or the
    same first three keys in ``metadata``. Optional ``where`` (every row must match) and
    ``contains_row`` (some row must match) constraints.
    """

    _COUNT_KEYS = ("rows_affected", "rowcount", "row_count", "count")

    def __init__(
        self,
        where: Mapping[str, Any] | None = None,
        contains_row: Mapping[str, Any] | None = None,
    ) -> None:
        self.where = where
        self.contains_row = contains_row

    def _row_count(self, call: ToolCall) -> int | None:
        result = call.result
        if result is not None:
            if isinstance(result, int):
                return result
            if isinstance(result, list):
                return len(result)
            if isinstance(result, dict):
                for key in self._COUNT_KEYS:
                    if key in result:
                        return int(result[key])
                rows = result.get("rows")
                if isinstance(rows, list):
                    return len(rows)
                if isinstance(rows, int):
                    return int(rows)
        for key in self._COUNT_KEYS[:3]:
            if key in call.metadata:
                return int(call.metadata[key])
        return None

    @staticmethod
    def _rows(call: ToolCall) -> list[dict[str, Any]]:
        result = call.result
        rows = result.get("rows") if isinstance(result, dict) else result
        if isinstance(rows, list):
            return [row for row in rows if isinstance(row, dict)]
        return []

    @staticmethod
    def _row_has(row: Mapping[str, Any], wanted: Mapping[str, Any]) -> bool:
        return all(key in row and row[key] == value for key, value in wanted.items())

    def validate(self, call: ToolCall, expected: Any) -> bool:
        count = self._row_count(call)
        if count is None:
            return False
        if self.where:
            rows = self._rows(call)
            if not rows or not all(self._row_has(row, self.where) for row in rows):
                return False
        if self.contains_row:
            wanted = self.contains_row
            if not any(self._row_has(row, wanted) for row in self._rows(call)):
                return False
        if expected is True:
            return count > 0
        if isinstance(expected, int):
            return count == expected
        if isinstance(expected, dict):
            if "min" in expected and count < expected["min"]:
                return False
            return not ("max" in expected and count > expected["max"])
        return False


def default_side_effect_validators() -> dict[str, Validator]:
    """The built-in checks: ``http_ok``, ``file_exists`` (from the current folder), ``sql_rows``."""
    return {
        "http_ok": HTTPValidator().validate,
        "file_exists": FileSystemValidator().validate,
        "sql_rows": SQLValidator().validate,
    }


# -- argument schemas --------------------------------------------------------------------------


def _matches_start(pattern: Any, value: str) -> bool:
    """``re.match(pattern, value)``, time-bounded: the pattern comes from the gold file."""
    from toolscore.bounded_regex import bounded_pattern

    if not isinstance(pattern, str):
        return re.match(pattern, value) is not None  # what re does with it (an error)
    return bounded_pattern(pattern).match(value)


def _value_errors(value: Any, rules: Mapping[str, Any], name: str) -> list[str]:
    errors: list[str] = []
    kind = rules.get("type")
    check = JSON_TYPE_CHECKS.get(kind) if isinstance(kind, str) else None
    if kind and check is not None and not check(value):
        return [f"Argument '{name}' has wrong type: expected {kind}, got {type(value).__name__}"]
    if "enum" in rules and value not in rules["enum"]:
        errors.append(f"Argument '{name}' has invalid value: {value!r} not in {rules['enum']}")
    if kind in ("integer", "number"):
        if "minimum" in rules and value < rules["minimum"]:
            errors.append(f"Argument '{name}' is below minimum: {value} < {rules['minimum']}")
        if "maximum" in rules and value > rules["maximum"]:
            errors.append(f"Argument '{name}' exceeds maximum: {value} > {rules['maximum']}")
    if kind == "string":
        if "minLength" in rules and len(value) < rules["minLength"]:
            errors.append(f"Argument '{name}' is too short: {len(value)} < {rules['minLength']}")
        if "maxLength" in rules and len(value) > rules["maxLength"]:
            errors.append(f"Argument '{name}' is too long: {len(value)} > {rules['maxLength']}")
        if "pattern" in rules and not _matches_start(rules["pattern"], value):
            errors.append(f"Argument '{name}' doesn't match pattern: {rules['pattern']}")
    if kind == "array":
        if "minItems" in rules and len(value) < rules["minItems"]:
            errors.append(
                f"Argument '{name}' has too few items: {len(value)} < {rules['minItems']}"
            )
        if "maxItems" in rules and len(value) > rules["maxItems"]:
            errors.append(
                f"Argument '{name}' has too many items: {len(value)} > {rules['maxItems']}"
            )
    return errors


def validate_argument_schema(call: ToolCall, schema: Mapping[str, Any]) -> tuple[bool, list[str]]:
    """Check a call's arguments against ``{arg: {type, required, minimum, ...}}``.

    ``required`` defaults to true; a wrong type skips that argument's other constraints;
    unknown type names pass.
    """
    errors: list[str] = []
    args = call.args or {}
    for name, rules in schema.items():
        if name not in args:
            if rules.get("required", True):
                errors.append(f"Missing required argument: {name}")
            continue
        errors.extend(_value_errors(args[name], rules, name))
    return not errors, errors


def calculate_schema_validation_metrics(
    gold_calls: Sequence[ToolCall], trace_calls: Sequence[ToolCall]
) -> dict[str, Any]:
    """Validate each actual call whose tool has a schema in a gold call's ``metadata["schema"]``."""
    schemas: dict[str, Mapping[str, Any]] = {}
    for gold in gold_calls:
        schema = gold.metadata.get("schema")
        if schema:
            schemas[gold.tool] = schema
    validated = 0
    total_errors = 0
    failed: list[dict[str, Any]] = []
    details: list[str] = []
    for call in trace_calls:
        schema = schemas.get(call.tool)
        if not schema:
            continue
        validated += 1
        ok, errors = validate_argument_schema(call, schema)
        if not ok:
            total_errors += len(errors)
            failed.append({"tool": call.tool, "args": call.args, "errors": errors})
            details.extend(f"{call.tool}: {error}" for error in errors)
    return {
        "schema_compliance_rate": (validated - len(failed)) / validated if validated else 1.0,
        "total_validated": validated,
        "total_errors": total_errors,
        "failed_count": len(failed),
        "failed_calls": failed,
        "error_details": details,
    }
