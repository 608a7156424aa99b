"""JSON-schema validators whose ``pattern`` checks cannot hang a run.

Why: schemas come from others (a user's tool definitions, an MCP server's input schemas), and
jsonschema matches ``pattern`` and ``patternProperties`` with ``re.search``, which backtracks
without limit: ``"pattern": "(a|aa)+$"`` would stop an evaluation or ``mcp test`` for hours on
a string that almost matches. Here those two keywords match through
:mod:`toolscore.bounded_regex`, bounded by :data:`~toolscore.limits.SCHEMA_PATTERN_TIMEOUT_SECONDS`;
a match that runs out of time is an error that says so, never a pass. Every other keyword is
jsonschema's own (``minItems: 100000000`` against a short array is one comparison).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from typing import Any

from toolscore.bounded_regex import UnsafePatternError, bounded_pattern
from toolscore.limits import SCHEMA_PATTERN_TIMEOUT_SECONDS

__all__ = ["bounded_validator_class", "validator_for_schema"]


def _search(pattern: str, text: str) -> bool | None:
    """Whether ``pattern`` occurs in ``text``; None when it cannot be matched within bounds."""
    try:
        return bounded_pattern(pattern, 0, SCHEMA_PATTERN_TIMEOUT_SECONDS).search(text)
    except UnsafePatternError:
        return None


def _pattern_keyword(report_invalid: bool) -> Any:
    def pattern_keyword(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[Any]:
        from jsonschema.exceptions import ValidationError

        if not validator.is_type(instance, "string") or not isinstance(pattern, str):
            return
        try:
            found = _search(pattern, instance)
        except re.error:
            if report_invalid:
                yield ValidationError(f"the schema's pattern {pattern!r} is not a valid expression")
            return
        if found is None:
            yield ValidationError(
                f"{pattern!r} cannot be checked safely: it repeats too much, or matching it took "
                f"more than {SCHEMA_PATTERN_TIMEOUT_SECONDS:g} s on a "
                f"{len(instance)}-character string"
            )
        elif not found:
            yield ValidationError(f"{instance!r} does not match {pattern!r}")

    return pattern_keyword


def _pattern_properties(
    validator: Any, pattern_properties: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object") or not isinstance(pattern_properties, Mapping):
        return
    for pattern, subschema in pattern_properties.items():
        for key, value in instance.items():
            try:
                found = _search(str(pattern), str(key))
            except re.error:
                return
            if found:  # a key whose match ran out of time is not held to this subschema
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


@functools.lru_cache(maxsize=32)
def bounded_validator_class(cls: Any, *, report_invalid_patterns: bool = True) -> Any:
    """``cls`` (a jsonschema validator class) with time-bounded ``pattern`` checks.

    ``report_invalid_patterns=False`` lets a value pass a ``pattern`` that is not a valid
    expression (for callers that report such a schema on their own, once).
    """
    from jsonschema.validators import extend

    keywords = {
        "pattern": _pattern_keyword(report_invalid_patterns),
        "patternProperties": _pattern_properties,
    }
    return extend(cls, keywords)  # type: ignore[no-untyped-call]


def validator_for_schema(schema: Mapping[str, Any]) -> Any:
    """A bounded validator instance for ``schema`` (its declared draft, default 2020-12).

    :raises jsonschema.exceptions.SchemaError: the schema itself is invalid.
    """
    from jsonschema.validators import validator_for

    cls = bounded_validator_class(validator_for(schema))
    cls.check_schema(schema)
    return cls(schema)
