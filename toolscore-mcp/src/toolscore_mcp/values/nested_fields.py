"""Which fields a generated nested object sends, and which values a nested field takes.

A schema-generated object fills in every property it declares. For an object that stands
for one of several kinds (``{"type": "top", ...}`` with thirty options for the other kinds),
that is a call no server accepts: "A top rule does not use axis, colors, ...", "Set either
scale or fit_to_pages, not both". A person sends the fields the schema requires, plus the
ones that name something this run has (a harvested name, kept with its companions);
:func:`kept_fields` says which. An object that requires nothing keeps its first plain field,
so that it still asks for something.

A field with an ``enum`` or a ``const`` keeps the schema's value: :func:`fits_field` refuses
a value the schema does not allow there, whatever the field's name suggests.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from toolscore.schema_values import JSON_TYPE_CHECKS, primary_schema_type

__all__ = ["fits_field", "kept_fields", "pinned"]


def pinned(schema: Mapping[str, Any]) -> bool:
    """Does the schema fix the field's values (an ``enum`` or a ``const``)?"""
    return "const" in schema or isinstance(schema.get("enum"), list)


def fits_field(value: Any, schema: Mapping[str, Any]) -> bool:
    """Is ``value`` of the JSON type the field asks for, and one of its options if it has
    any (enough for a nested field; the whole set is validated before it is sent)?"""
    if "const" in schema and value != schema["const"]:
        return False
    options = schema.get("enum")
    if isinstance(options, list) and value not in options:
        return False
    check = JSON_TYPE_CHECKS.get(primary_schema_type(schema))
    return check is None or check(value)


def kept_fields(
    value: Mapping[str, Any], schema: Mapping[str, Any], harvested: Collection[str]
) -> dict[str, Any]:
    """``value`` with only its required fields and those in ``harvested`` (the fields that
    took a value this run returned); the first plain field when that leaves nothing."""
    required = schema.get("required")
    wanted = set(required) if isinstance(required, list) else set()
    kept = {key: field for key, field in value.items() if key in wanted or key in harvested}
    if kept or not value:
        return kept
    plain = [key for key, field in value.items() if not isinstance(field, (dict, list))]
    first = plain[0] if plain else next(iter(value))
    return {first: value[first]}
