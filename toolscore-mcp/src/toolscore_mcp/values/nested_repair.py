"""Repair a value, at any depth, that the message quotes next to the values it would take.

    Column 'sample_column' is not in A1:C4. Use a header ('id', 'name', 'price') ...
    Invalid range 'sample_at'. Use A1 notation such as 'B2' or 'A1:C10'.

The message quotes the value we sent and, after it, values that would do. The value may sit
inside a list of objects (``sort_by[0].column``), where the word-level repairs do not look.
:func:`repair_quoted_value` puts the first offered value that keeps the arguments valid
against the input schema in place of the one quoted.
"""

from __future__ import annotations

import copy
from typing import Any

from toolscore.lazy_pattern import lazy_pattern

__all__ = ["repair_quoted_value", "string_leaves"]

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
    for position, said in quotes:
        culprits = [path for path, value in leaves if value.strip() == said]
        if not culprits:
            continue
        offered = [q for p, q in quotes if p > position and q not in ours and q != said]
        for path in culprits:
            for option in dict.fromkeys(offered):
                changed = copy.deepcopy(args)
                _set(changed, path, option)
                if synthesizer.validation_error(changed) is None:
                    where = ".".join(str(step) for step in path)
                    return changed, f"{where} -> {option!r} (a value the message offers)"
        return None
    return None
