"""Numbers that point at a place among things that exist: an index, a row, a column, the
two ends of a span.

A made-up position (slide 8, row 12) names nothing in a document of two slides and one
small table; the first place, 0, exists wherever anything does. The end of a span whose
start the tool also takes (``end_pos`` beside ``start_pos``) gets 1: the smallest span that
is not empty, inside whatever holds at least two things.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from toolscore_mcp.model import MCPToolDef
from toolscore_mcp.values.providers import Parameter, name_tokens

__all__ = ["is_span_end", "made_for", "position_value"]

#: Name words of a number that counts from the start (``offset``, ``slide_index``,
#: ``placeholder_idx``, ``row``, ``col``).
_POSITION_WORDS = frozenset(
    {"offset", "skip", "start", "index", "from", "idx", "pos", "position", "row", "col",
     "column", "slot"}
)  # fmt: skip
_SPAN_START = frozenset({"start", "begin", "from", "first"})
_SPAN_END = frozenset({"end", "stop", "last"})
#: A description that counts from 1 (``1-based row``, ``starting at 1``): its first place is 1.
_FROM_ONE = re.compile(
    r"\b(?:1|one)[- ]based\b|\b(?:start(?:s|ing)?|count(?:s|ing|ed)?) (?:at|from) 1\b"
    r"|\bfirst \w+ is 1\b",
    re.IGNORECASE,
)


def is_span_end(param: Parameter) -> bool:
    """Is ``param`` the end of a span whose start the tool also takes (``end_col`` beside
    ``start_col``, ``end_pos`` beside ``start_pos``)?"""
    tokens = set(param.tokens)
    ends = tokens & _SPAN_END
    if not ends:
        return False
    rest = tokens - ends
    for sibling in param.siblings:
        words = set(name_tokens(sibling))
        if words & _SPAN_START and words - _SPAN_START == rest:
            return True
    return False


def position_value(param: Parameter) -> int | None:
    """1 for a span's end, 0 for any other position (1 where the description counts from 1);
    None for a number of another meaning."""
    if is_span_end(param):
        return 1
    if set(param.tokens) & _POSITION_WORDS:
        return 1 if _FROM_ONE.search(param.description) else 0
    return None


def made_for(tool: MCPToolDef, setup: tuple[tuple[str, Mapping[str, Any]], ...]) -> bool:
    """Did the call that gave a position make a thing this tool acts on (``add_table``'s
    ``shape_index`` for ``format_table_cell``)? A position another producer returned points
    at something else (a chart's shape is not a table)."""
    from toolscore_mcp.values.roles import tool_nouns

    mine = tool_nouns(tool)
    return any(tool_nouns(MCPToolDef(name=name)) & mine for name, _ in setup)
