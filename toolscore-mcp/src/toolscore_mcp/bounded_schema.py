"""JSON-schema validators whose ``pattern`` checks cannot hang the run.

Why: a server's input schema is checked against every argument set we build, and jsonschema
matches ``pattern`` and ``patternProperties`` with ``re.search``, which backtracks without
limit: a schema with ``"pattern": "(a|aa)+$"`` would stop ``mcp test`` for hours on a string
that almost matches. Here those two keywords match with the bound of
:data:`~toolscore.limits.SCHEMA_PATTERN_TIMEOUT_SECONDS`; a match that runs out of time counts
as a mismatch (the value is rejected, and the tool is reported as one we could not call with
valid arguments). Every other keyword is jsonschema's own: ``minItems: 100000000`` against a
short array is one length comparison.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from typing import Any

from toolscore.bounded_regex import UnsafePatternError, bounded_pattern
from toolscore.limits import SCHEMA_PATTERN_TIMEOUT_SECONDS

__all__ = ["bounded_validator_class"]


def _search(pattern: str, text: str) -> bool | None:
    """Whether ``pattern`` occurs in ``text``; None when it cannot be matched within bounds."""
    try:
        return bounded_pattern(pattern, 0, SCHEMA_PATTERN_TIMEOUT_SECONDS).search(text)
    except UnsafePatternError:
        return None


def _pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "string") or not isinstance(pattern, str):
        return
    try:
        found = _search(pattern, instance)
    except re.error:
        return  # jsonschema would raise; the schema check already reports such a schema
    if found is None:
        yield ValidationError(
            f"{pattern!r} cannot be checked safely: it repeats too much, or matching it took "
            f"more than {SCHEMA_PATTERN_TIMEOUT_SECONDS:g} s on a {len(instance)}-character string"
        )
    elif not found:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, pattern_properties: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object") or not isinstance(pattern_properties, Mapping):
        return
    for pattern, subschema in pattern_properties.items():
        for key, value in instance.items():
            try:
                found = _search(str(pattern), key)
            except re.error:
                return
            if found:  # a key whose match ran out of time is not held to this subschema
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


@functools.lru_cache(maxsize=16)
def bounded_validator_class(cls: Any) -> Any:
    """``cls`` (a jsonschema validator class) with time-bounded ``pattern`` checks."""
    from jsonschema.validators import extend

    keywords = {"pattern": _pattern, "patternProperties": _pattern_properties}
    return extend(cls, keywords)  # type: ignore[no-untyped-call]
