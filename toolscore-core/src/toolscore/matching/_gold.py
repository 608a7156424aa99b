"""The ``match`` object of a gold file: the same modes and policies as ``match=``.

A gold file that is an object may say how it is to be matched::

    {"match": {"mode": "superset", "args": "superset",
               "args_overrides": {"search": {"mode": "exact", "ignore": ["request_id"]}}},
     "calls": [...]}

A plain array has no ``match``: it is scored by the default metrics, with no mode applied.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolscore.matching.trajectory import MatchSpec

__all__ = ["load_match", "match_from_document"]


def match_from_document(data: Any, *, where: str = "gold") -> MatchSpec | None:
    """The spec in a parsed gold document, or ``None`` when it has none.

    :raises toolscore.errors.GoldFileError: a malformed ``match`` object, named as
        ``<where>: $.match: ...`` (a ``ValueError`` too).
    """
    if not isinstance(data, dict) or data.get("match") is None:
        return None
    try:
        return MatchSpec.coerce(data["match"])
    except (TypeError, ValueError) as exc:
        from toolscore.errors import GoldFileError

        raise GoldFileError(str(exc), source=where, path="$.match") from None


def load_match(path: str | Path) -> MatchSpec | None:
    """The spec of the gold file at ``path`` (``None`` for a plain array or no ``match``)."""
    from toolscore.loading import read_document

    data, _ = read_document(path, what="Gold standard file")
    return match_from_document(data, where=str(path))
