"""Repair a value, at any depth, that the message quotes next to the values it would take.

    Column 'sample_column' is not in A1:C4. Use a header ('id', 'name', 'price') ...
    Invalid range 'sample_at'. Use A1 notation such as 'B2' or 'A1:C10'.

The message quotes the value we sent and, after it, values that would do. The value may sit
inside a list of objects (``sort_by[0].column``), where the word-level repairs do not look.
:func:`repair_quoted_value` puts the first offered value that keeps the arguments valid
against the input schema in place of the one quoted.

    top and bottom need a count

A nested object sends only its required fields (:mod:`toolscore_mcp.values.nested_fields`);
when the message says one of its other fields is needed, :func:`repair_nested_missing`
adds it with the value its schema gives.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from toolscore.lazy_pattern import lazy_pattern

__all__ = ["repair_nested_missing", "repair_quoted_value", "string_leaves"]

_QUOTED = lazy_pattern(r"[\"'`‘“]([^\"'`’”\n]{1,80})[\"'`’”]")
_MAX_DEPTH = 6

Path = tuple[Any, ...]


def string_leaves(value: Any, path: Path = (), depth: int = 0) -> list[tuple[Path, str]]:
    """Every string in ``value`` with the keys and indexes that lead to it."""
    if isinstance(value, str):
        return [(path, value)]
    if depth >= _MAX_DEPTH:
        return []
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in string_leaves(v, (*path, k), depth + 1)]
    if isinstance(value, list):
        return [
            leaf for i, v in enumerate(value) for leaf in string_leaves(v, (*path, i), depth + 1)
        ]
    return []


def _set(document: Any, path: Path, value: Any) -> None:
    for step in path[:-1]:
        document = document[step]
    document[path[-1]] = value


def repair_quoted_value(
    synthesizer: Any, args: dict[str, Any], text: str, named: list[str]
) -> tuple[dict[str, Any], str] | None:
    """The arguments with the quoted value replaced by one the message offers after it."""
    quotes = [(m.start(), m.group(1).strip()) for m in _QUOTED.finditer(text[:4000])]
    leaves = [(path, value) for path, value in string_leaves(args) if len(value.strip()) > 1]
    ours = {value.strip() for _, value in leaves}
    # The value of ours quoted last before the offers is the one they stand for ("Sheet
    # 'Sheet1' has no image named 'x'. Available: 'Picture 1'" offers a name, not a sheet).
    for position, said in reversed(quotes):
        culprits = [path for path, value in leaves if value.strip() == said]
        offered = [q for p, q in quotes if p > position and q not in ours and q != said]
        if not culprits or not offered:
            continue
        for path in culprits:
            for option in dict.fromkeys(offered):
                changed = copy.deepcopy(args)
                _set(changed, path, option)
                if synthesizer.validation_error(changed) is None:
                    where = ".".join(str(step) for step in path)
                    return changed, f"{where} -> {option!r} (a value the message offers)"
        return None
    return None


_NEEDS = lazy_pattern(
    r"\bneeds?\b|\brequires?\b|\brequired\b|\bmissing\b|\bmust (?:have|include|set|give)\b",
    re.I,
)


def _objects(
    value: Any, schema: Mapping[str, Any], root: Mapping[str, Any], path: Path = (), depth: int = 0
) -> list[tuple[Path, dict[str, Any], Mapping[str, Any]]]:
    """Every object inside ``value`` (not ``value`` itself) with its path and its schema."""
    from toolscore_mcp.values.generate import effective_schema

    found: list[tuple[Path, dict[str, Any], Mapping[str, Any]]] = []
    if depth >= _MAX_DEPTH:
        return found
    schema = effective_schema(schema, root)
    if isinstance(value, dict):
        if depth > 0:
            found.append((path, value, schema))
        properties = schema.get("properties")
        for key, item in value.items():
            sub = properties.get(key) if isinstance(properties, Mapping) else None
            if isinstance(sub, Mapping):
                found += _objects(item, sub, root, (*path, key), depth + 1)
    elif isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        for index, item in enumerate(value):
            found += _objects(item, schema["items"], root, (*path, index), depth + 1)
    return found


def repair_nested_missing(
    synthesizer: Any, args: dict[str, Any], text: str, named: list[str]
) -> tuple[dict[str, Any], str] | None:
    """The arguments with the fields a message says a nested object needs ("top and bottom
    need a count", "time validation needs an operator and minimum") added, each with the
    value the schema gives it."""
    import random

    from toolscore_mcp.values.generate import ValueContext, generate_nested

    if not _NEEDS.search(text):
        return None
    root = synthesizer.tool.input_schema or {}
    changed = copy.deepcopy(args)
    added: list[str] = []
    for path, value, schema in _objects(changed, root, root):
        properties = schema.get("properties")
        for key, sub in properties.items() if isinstance(properties, Mapping) else ():
            if key in value or not re.search(rf"(?<!\w){re.escape(str(key))}(?!\w)", text, re.I):
                continue
            if any(_alternatives(text, str(other), str(key)) for other in value):
                continue  # "a fill_color or font_color": one of them
            rng = random.Random(f"{synthesizer.tool.name}.{key}")
            value[key] = generate_nested(str(key), sub, "normal", rng, ValueContext(root), 0)
            added.append(".".join(str(step) for step in (*path, key)))
    if not added or synthesizer.validation_error(changed) is not None:
        return None
    return changed, f"added {', '.join(added)} (the message says it is needed)"


def _alternatives(text: str, first: str, second: str) -> bool:
    """Does the message offer ``first`` or ``second``, either one?"""
    pattern = rf"(?<!\w){re.escape(first)}\W+or\W+{re.escape(second)}(?!\w)"
    return re.search(pattern, text, re.I) is not None
