"""A whole gold document read through the step parser: ``calls`` (with steps) or ``turns``.

Why: ``toolscore validate`` and ``toolscore eval``'s turn mode must agree with scoring on what
a valid gold file is. Both read the document here, and every call or step goes through
:func:`~toolscore.expectations.parse.parse_steps`, so there is one definition of a valid step
and every mistake is one line naming the file and the JSON path (``$.turns[1][0].max``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from toolscore.errors import GoldFileError
from toolscore.expectations.parse import is_structured, parse_steps
from toolscore.expectations.scoring import GoldSteps

if TYPE_CHECKING:
    from toolscore.plugins.manager import ToolscorePluginManager

__all__ = ["GoldDocument", "is_step_gold", "parse_gold_document"]


@attrs.frozen
class GoldDocument:
    """A parsed gold document: one :class:`GoldSteps` per turn (a single one without turns)."""

    parts: tuple[GoldSteps, ...]
    #: Whether the document is the ``{"turns": [...]}`` form.
    turns: bool


def is_step_gold(data: Any) -> bool:
    """Whether ``data`` is a gold document only the step parser reads: a ``{"turns": ...}``
    object, or a call list (bare or under ``calls``) holding an ``optional``, ``repeat``,
    ``any_order`` or ``one_of`` step. A flat call list is not (it also reads as a trace)."""
    if isinstance(data, Mapping):
        return "turns" in data or is_structured(data.get("calls"))
    return is_structured(data)


def parse_gold_document(
    data: Any, *, source: str | None = None, plugin_manager: ToolscorePluginManager | None = None
) -> GoldDocument:
    """Read a decoded gold document: a call array, ``{"calls": [...]}`` or
    ``{"turns": [[...], ...]}``, each list holding calls or steps.

    :raises toolscore.errors.GoldFileError: ``<source>: <json path>: <what was expected>``.
    """
    if isinstance(data, Mapping) and "turns" in data:
        if "calls" in data:
            raise GoldFileError(
                'expected either "calls" or "turns", not both', source=source, path="$.calls"
            )
        turns = data["turns"]
        if not isinstance(turns, list):
            raise GoldFileError("expected an array of turns", source=source, path="$.turns")
        parts = []
        for index, turn in enumerate(turns):
            path = f"$.turns[{index}]"
            if not isinstance(turn, list):
                raise GoldFileError("expected an array of calls", source=source, path=path)
            steps = parse_steps(turn, plugin_manager=plugin_manager, source=source, path=path)
            parts.append(GoldSteps(steps, path))
        return GoldDocument(tuple(parts), turns=True)
    if isinstance(data, Mapping):
        items, path = data.get("calls"), "$.calls"
        if items is None:
            raise GoldFileError(
                'expected a "calls" or "turns" array, got nothing', source=source, path=path
            )
    else:
        items, path = data, "$"
    steps = parse_steps(items, plugin_manager=plugin_manager, source=source, path=path)
    return GoldDocument((GoldSteps(steps, path),), turns=False)
