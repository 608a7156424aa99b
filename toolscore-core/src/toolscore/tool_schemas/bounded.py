"""A jsonschema validator whose ``pattern`` checks cannot hang an evaluation.

Why: schemas come from users' tool definitions, and jsonschema matches ``pattern`` and
``patternProperties`` with ``re.search``, which can backtrack for hours on a pattern such as
``(a|aa)+$``. Those two keywords are matched here through :mod:`toolscore.bounded_regex`
(bounded by :data:`~toolscore.limits.SCHEMA_PATTERN_TIMEOUT_SECONDS`); a match that cannot
finish in time is reported as an error that says so, never as a pass.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from typing import Any

from toolscore.bounded_regex import UnsafePatternError, bounded_pattern
from toolscore.limits import SCHEMA_PATTERN_TIMEOUT_SECONDS

__all__ = ["validator_for_schema"]


def _found(pattern: str, text: str) -> bool | None:
    """``pattern`` occurs in ``text``; ``None`` when that cannot be decided within bounds."""
    try:
        return bounded_pattern(pattern, 0, SCHEMA_PATTERN_TIMEOUT_SECONDS).search(text)
    except UnsafePatternError:
        return None


def _pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "string") or not isinstance(pattern, str):
        return
    try:
        found = _found(pattern, instance)
    except re.error:
        yield ValidationError(f"the schema's pattern {pattern!r} is not a valid expression")
        return
    if found is None:
        yield ValidationError(f"{pattern!r} cannot be checked safely on this value")
    elif not found:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object") or not isinstance(patterns, Mapping):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            try:
                found = _found(str(pattern), str(key))
            except re.error:
                return
            if found:
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


@functools.lru_cache(maxsize=16)
def _bounded(cls: Any) -> Any:
    from jsonschema.validators import extend

    return extend(cls, {"pattern": _pattern, "patternProperties": _pattern_properties})  # type: ignore[no-untyped-call]


def validator_for_schema(schema: Mapping[str, Any]) -> Any:
    """A validator instance for ``schema`` (its declared draft, default 2020-12), bounded.

    :raises jsonschema.exceptions.SchemaError: the schema itself is invalid.
    """
    from jsonschema.validators import validator_for

    cls = _bounded(validator_for(schema))
    cls.check_schema(schema)
    return cls(schema)
