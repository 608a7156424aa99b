"""Values a server tells about itself, asked before any value is made up.

A tool named like ``list_allowed_directories`` or ``get_available_timezones`` that needs no
arguments says which values the server accepts: it is called once, before the campaign.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.client.errors import MCPError
from toolscore_mcp.client.session import MCPConnection
from toolscore_mcp.model import MCPToolDef
from toolscore_mcp.values.generate import ValueContext

__all__ = ["discover_values"]

#: Tools that tell which values are valid: called first (with no arguments) when they need none.
_LISTER = lazy_pattern(r"^(?:list|get)_(?:allowed|available|valid|supported)_(?P<noun>[a-z0-9_]+)$")
_ROOT_NOUNS = ("directories", "dirs", "roots", "folders", "paths")
_PATH_LINE = lazy_pattern(r"^(?:[A-Za-z]:\\|/)[^\s]*")


def _required(tool: MCPToolDef) -> list[Any]:
    required = tool.input_schema.get("required") if tool.input_schema else None
    return list(required) if isinstance(required, list) else []


def _values_from_text(text: str) -> list[str]:
    stripped = text.strip()
    if stripped.startswith(("[", "{")):
        try:
            data = json.loads(stripped)
        except ValueError:
            data = None
        if isinstance(data, Mapping):
            data = next((v for v in data.values() if isinstance(v, list)), None)
        if isinstance(data, list):
            return [str(item) for item in data if isinstance(item, (str, int, float))]
    values: list[str] = []
    for line in stripped.splitlines():
        item = line.strip().lstrip("-*• ").strip()
        if item and not item.endswith(":") and len(item) <= 200:
            values.append(item)
    return values


async def discover_values(
    connection: MCPConnection, tools: Sequence[MCPToolDef], timeout: float
) -> tuple[ValueContext, list[str]]:
    """Ask the server which values are valid, through its own listing tools.

    A tool named like ``list_allowed_directories`` or ``get_available_timezones`` that needs
    no arguments is called once. Paths in its answer become roots for path-like parameters;
    other values become known values for parameters named after its noun.
    """
    roots: list[str] = []
    known: dict[str, list[str]] = {}
    notes: list[str] = []
    for tool in tools:
        match = _LISTER.match(tool.name)
        if not match or _required(tool):
            continue
        try:
            result = await connection.call_tool(tool.name, {}, timeout)
        except MCPError:
            continue
        if result.is_error:
            continue
        values = _values_from_text(result.text)
        noun = match.group("noun")
        if noun in _ROOT_NOUNS or noun.endswith(_ROOT_NOUNS):
            found = [m.group(0) for v in values if (m := _PATH_LINE.match(v))]
            if found:
                roots.extend(found)
                notes.append(f"{tool.name} lists allowed roots; path arguments use {found[0]}.")
            continue
        singular = noun[:-1] if noun.endswith("s") else noun
        for other in tools:
            properties = other.input_schema.get("properties") if other.input_schema else None
            for name in properties or {}:
                if values and singular and singular in name.lower():
                    known.setdefault(name, values[:5])
        if values:
            notes.append(f"{tool.name} lists valid {noun}; {singular} arguments use {values[0]!r}.")
    return ValueContext(known_values=known, roots=tuple(roots)), notes
