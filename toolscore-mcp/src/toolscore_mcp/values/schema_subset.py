"""Exact answers for the plain subset of JSON Schema, without importing jsonschema.

Why: importing jsonschema costs about 50 ms (its metaschemas, ``referencing``, format checkers),
a sixth of ``toolscore demo``, while most tool schemas are plain: objects of typed properties,
``required``, ``enum``, bounds. For such a schema these functions give the answer jsonschema
would give; for anything else they answer ``None`` ("cannot tell"), and the caller asks
jsonschema. They never guess: every keyword they do not know, or know only in part, makes the
answer ``None``.

The subset: boolean schemas; ``type`` (a name or a list of names); ``properties``,
``required``, ``additionalProperties``; ``items`` as one schema; ``enum``, ``const``;
``minimum``, ``maximum``, ``exclusiveMinimum``, ``exclusiveMaximum`` (numbers); ``minLength``,
``maxLength``, ``minItems``, ``maxItems``; ``anyOf``, ``oneOf``, ``allOf``, ``not``;
``format`` (an annotation unless the caller asserts formats, when it is jsonschema's to
check); the annotations that never fail a value (``title``, ``description``, ``default``,
``examples``, ``$comment``, ``deprecated``, ``readOnly``, ``writeOnly``); and, in draft
2020-12 only, ``$defs`` with local ``$ref`` (``#/$defs/Name``), which is how pydantic and
FastMCP write ``Optional`` and nested models. The schema's ``$schema`` must be absent
(2020-12, the MCP default) or name draft 2020-12 or draft-07, whose rules agree on all of the
above (draft-07 ignores the siblings of ``$ref``, so there ``$ref`` is left to jsonschema).

Use :func:`schema_is_valid` before jsonschema's ``check_schema`` and :func:`instance_is_valid`
before ``iter_errors``; ask jsonschema whenever they return ``None`` or when an error message
is needed. ``tests/mcp/test_schema_subset.py`` checks both against jsonschema on generated
schemas and values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from numbers import Number
from typing import Any

import attrs

__all__ = ["instance_is_valid", "schema_is_valid"]

#: ``$schema`` values whose rules this module follows (the trailing ``#`` is optional).
KNOWN_DIALECTS = frozenset(
    {
        "https://json-schema.org/draft/2020-12/schema",
        "http://json-schema.org/draft-07/schema",
    }
)

TYPE_NAMES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})

#: Keywords that annotate and never fail a value, with the JSON type each must have
#: (``None``: any value).
ANNOTATIONS: dict[str, str | None] = {
    "title": "string",
    "description": "string",
    "$comment": "string",
    "default": None,
    "examples": "array",
    "deprecated": "boolean",
    "readOnly": "boolean",
    "writeOnly": "boolean",
}

NUMBER_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
COUNT_BOUNDS = ("minLength", "maxLength", "minItems", "maxItems")
COMBINATORS = ("anyOf", "oneOf", "allOf")
VALIDATING = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "const",
        *NUMBER_BOUNDS,
        *COUNT_BOUNDS,
        *COMBINATORS,
        "not",
        "$ref",
        "format",
    }
)
#: Where schemas are kept for ``$ref`` (``definitions`` is draft-07's name, deprecated in
#: 2020-12 but still checked by its metaschema).
DEFINITIONS = ("$defs", "definitions")
KNOWN = VALIDATING | set(ANNOTATIONS) | {"$schema", *DEFINITIONS}
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"

#: Deeper than this, the answer is ``None``: jsonschema decides (and bounds its own recursion).
#: ``$ref`` counts as a level, so a recursive schema ends here too.
MAX_DEPTH = 32


class _Unknown(Exception):
    """The schema leaves the subset: the answer is jsonschema's to give."""


class _Invalid(Exception):
    """The schema breaks its metaschema."""


@attrs.frozen
class _Root:
    """What every level needs: the whole schema (for ``$ref``), whether ``$ref`` and ``$defs``
    are understood (draft 2020-12), and whether ``format`` asserts."""

    schema: Any
    refs: bool
    formats: bool = False


def schema_is_valid(schema: Any) -> bool | None:
    """Whether ``schema`` passes its dialect's metaschema; ``None`` when it leaves the subset."""
    try:
        _check_schema(schema, _root(schema), 0)
    except _Unknown:
        return None
    except _Invalid:
        return False
    return True


def instance_is_valid(
    schema: Any, instance: Any, *, formats: bool = False, root: Any = None
) -> bool | None:
    """Whether ``instance`` is valid against ``schema``; ``None`` when the schema leaves the
    subset or is itself invalid (what jsonschema does with an invalid schema is its own).

    ``formats``: the caller's validator asserts ``format`` (jsonschema with a format
    checker), so a schema that uses it is jsonschema's to answer; by default ``format`` is an
    annotation, as jsonschema treats it without a checker. ``root``: the document ``schema``
    is part of (a property's schema within a tool's), which gives the dialect and what
    ``$ref`` points to; it may be ``schema`` itself. The caller has had
    ``schema_is_valid(root)`` answer ``True`` once: a schema is checked against many values,
    and checking the whole document again for each would cost more than the answer.
    """
    if root is None:
        if schema_is_valid(schema) is not True:
            return None
    elif schema is not root and not _is_part(schema):
        return None
    document = schema if root is None else root
    try:
        return _valid(schema, instance, attrs.evolve(_root(document), formats=formats), 0)
    except (_Unknown, _Invalid):  # _Invalid: a malformed keyword, which jsonschema reports
        return None


def _is_part(schema: Any) -> bool:
    """A subschema handed in with its ``root``: a schema whose own ``$schema`` would switch
    dialects is jsonschema's."""
    return isinstance(schema, bool) or (isinstance(schema, dict) and "$schema" not in schema)


def _root(schema: Any) -> _Root:
    dialect = DRAFT_2020_12
    if isinstance(schema, Mapping) and "$schema" in schema:
        dialect = schema["$schema"]
        if not isinstance(dialect, str) or dialect.rstrip("#") not in KNOWN_DIALECTS:
            raise _Unknown
    return _Root(schema, refs=dialect.rstrip("#") == DRAFT_2020_12)


# -- the metaschema, for the subset ---------------------------------------------------------


def _check_schema(schema: Any, root: _Root, depth: int) -> None:
    if isinstance(schema, bool):
        return
    if not isinstance(schema, dict):
        raise _Invalid
    if depth > MAX_DEPTH or not schema.keys() <= KNOWN:
        raise _Unknown
    for key, value in schema.items():
        if key == "$schema":
            if depth:  # a nested $schema changes dialect mid-schema
                raise _Unknown
        elif key in ANNOTATIONS:
            wanted = ANNOTATIONS[key]
            if wanted is not None and not _is_type(value, wanted):
                raise _Unknown  # not every dialect defines every annotation ("deprecated")
        elif key == "type":
            _check_type_keyword(value)
        elif key in ("properties", *DEFINITIONS):
            if key == "$defs" and not root.refs:
                raise _Unknown  # not a draft-07 keyword: its metaschema ignores it
            if not isinstance(value, dict):
                raise _Invalid
            for subschema in value.values():
                _check_schema(subschema, root, depth + 1)
        elif key in ("additionalProperties", "items", "not"):
            if isinstance(value, list):
                raise _Unknown  # draft-07's tuple form of items
            _check_schema(value, root, depth + 1)
        elif key in COMBINATORS:
            if not isinstance(value, list) or not value:
                raise _Invalid
            for subschema in value:
                _check_schema(subschema, root, depth + 1)
        elif key == "$ref":
            if not root.refs:
                raise _Unknown
            if not isinstance(value, str):
                raise _Invalid
            # another document, or not a plain name (the metaschema checks it as a URI
            # reference), or nothing there (jsonschema raises on use): jsonschema's call
            _resolve(value, root)
        elif key == "format":
            if not isinstance(value, str):
                raise _Invalid
        elif key == "required":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise _Invalid
            if len(set(value)) != len(value):
                raise _Invalid
        elif key == "enum":
            if not isinstance(value, list):
                raise _Invalid
        elif key in NUMBER_BOUNDS:
            if not _is_type(value, "number"):
                raise _Invalid
        elif key in COUNT_BOUNDS and (not _is_type(value, "integer") or value < 0):
            raise _Invalid


def _check_type_keyword(value: Any) -> None:
    if isinstance(value, str):
        if value not in TYPE_NAMES:
            raise _Invalid
        return
    if not isinstance(value, list) or not value:
        raise _Invalid
    if not all(isinstance(v, str) and v in TYPE_NAMES for v in value):
        raise _Invalid
    if len(set(value)) != len(value):
        raise _Invalid


# -- values ---------------------------------------------------------------------------------


def _valid(schema: Any, instance: Any, root: _Root, depth: int) -> bool:
    if isinstance(schema, bool):
        return schema
    if not isinstance(schema, dict) or depth > MAX_DEPTH or not schema.keys() <= KNOWN:
        raise _Unknown
    if depth and "$schema" in schema:
        raise _Unknown
    for key in schema.keys() & VALIDATING:
        if not _keyword_holds(key, schema[key], schema, instance, root, depth):
            return False
    return True


def _keyword_holds(
    key: str, value: Any, schema: dict[str, Any], instance: Any, root: _Root, depth: int
) -> bool:
    if key == "type":
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, list) or not all(n in TYPE_NAMES for n in names):
            raise _Invalid
        return any(_is_type(instance, name) for name in names)
    if key == "enum":
        if not isinstance(value, list):
            raise _Invalid
        return any(_equal(each, instance) for each in value)
    if key == "const":
        return _equal(value, instance)
    if key in NUMBER_BOUNDS:
        if not _is_type(value, "number"):
            raise _Invalid
        return not _is_type(instance, "number") or _within(key, value, instance)
    if key in COUNT_BOUNDS:
        if not _is_type(value, "integer"):
            raise _Invalid
        sized = "string" if key.endswith("Length") else "array"
        if not _is_type(instance, sized):
            return True
        return bool(len(instance) >= value if key.startswith("min") else len(instance) <= value)
    if key in COMBINATORS or key == "not":
        return _combined(key, value, instance, root, depth)
    if key == "$ref":
        return _valid(_resolve(value, root), instance, root, depth + 1)
    if key == "format":
        if root.formats:
            raise _Unknown  # asserted: jsonschema's format checker decides
        return True
    if not isinstance(instance, dict) and key in ("properties", "required", "additionalProperties"):
        return True
    if key == "properties":
        if not isinstance(value, dict):
            raise _Invalid
        return all(
            _valid(subschema, instance[name], root, depth + 1)
            for name, subschema in value.items()
            if name in instance
        )
    if key == "required":
        if not isinstance(value, list):
            raise _Invalid
        return all(name in instance for name in value)
    if key == "additionalProperties":
        declared = schema.get("properties", {})
        if not isinstance(declared, dict):
            raise _Invalid
        return all(
            _valid(value, item, root, depth + 1)
            for name, item in instance.items()
            if name not in declared
        )
    if key == "items":
        if isinstance(value, list):
            raise _Unknown
        return not isinstance(instance, list) or all(
            _valid(value, item, root, depth + 1) for item in instance
        )
    raise _Unknown  # pragma: no cover - VALIDATING lists only the keywords above


def _combined(key: str, value: Any, instance: Any, root: _Root, depth: int) -> bool:
    """``anyOf``, ``oneOf``, ``allOf`` or ``not``: exact when the subschemas that decide are.

    A subschema outside the subset makes the answer unknown only where it could change it:
    ``anyOf`` with another branch valid is valid whatever that branch says.
    """
    if key == "not":
        return not _valid(value, instance, root, depth + 1)
    answers: list[bool | None] = []
    for subschema in value:
        try:
            answers.append(_valid(subschema, instance, root, depth + 1))
        except _Unknown:
            answers.append(None)
    if key == "anyOf" and True in answers:
        return True
    if key == "allOf" and False in answers:
        return False
    if None in answers:
        raise _Unknown
    if key == "oneOf":
        return answers.count(True) == 1
    return key == "allOf"  # anyOf: none valid; allOf: all valid


def _is_local_ref(reference: str) -> bool:
    """``#``, or ``#/$defs/Name`` / ``#/definitions/Name`` with a plain name."""
    if reference == "#":
        return True
    prefix, _, name = reference.rpartition("/")
    return (
        prefix in ("#/$defs", "#/definitions")
        and bool(name)
        and all(c.isascii() and (c.isalnum() or c in "_.-") for c in name)
    )


def _resolve(reference: str, root: _Root) -> Any:
    """The schema a local ``$ref`` names: ``#`` or ``#/$defs/Name`` (``#/definitions/Name``)."""
    if reference == "#":
        return root.schema
    if not _is_local_ref(reference):
        raise _Unknown  # another document, a deeper pointer, or escapes: jsonschema resolves
    prefix, _, name = reference.rpartition("/")
    definitions = root.schema.get(prefix[2:]) if isinstance(root.schema, dict) else None
    if not isinstance(definitions, dict) or name not in definitions:
        raise _Unknown  # unresolvable: jsonschema raises its own error
    return definitions[name]


def _within(key: str, bound: Any, number: Any) -> bool:
    """The comparison jsonschema makes, negated as it negates it (so NaN behaves the same)."""
    if key == "minimum":
        return not number < bound
    if key == "maximum":
        return not number > bound
    if key == "exclusiveMinimum":
        return not number <= bound
    return not number >= bound


def _is_type(value: Any, name: str) -> bool:
    """jsonschema's type checks for drafts 6 and later: a bool is no number; 1.0 is an
    integer."""
    if name == "string":
        return isinstance(value, str)
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if isinstance(value, bool):
        return False
    if name == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if name == "number":
        return isinstance(value, Number)
    raise _Invalid


_TRUE, _FALSE = object(), object()


def _unbool(value: Any) -> Any:
    """A bool as a token no number equals, so ``enum: [1]`` rejects ``true`` as jsonschema does."""
    if value is True:
        return _TRUE
    if value is False:
        return _FALSE
    return value


def _equal(one: Any, two: Any) -> bool:
    """jsonschema's equality: bools are not numbers, ``1 == 1.0``, containers compare deeply."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(_equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return one.keys() == two.keys() and all(_equal(one[k], two[k]) for k in one)
    return bool(_unbool(one) == _unbool(two))
