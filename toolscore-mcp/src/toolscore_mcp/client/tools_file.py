"""Saved ``tools/list`` answers: what ``mcp list --json`` writes and ``mcp lint``/``diff`` read."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from toolscore_mcp.model import MCPToolDef, ServerDetails

__all__ = ["load_tools_file", "tools_file_payload"]


def load_tools_file(path: str | Path) -> tuple[ServerDetails, list[MCPToolDef]]:
    """Read a saved ``tools/list`` answer for offline linting.

    Accepts a JSON-RPC response (``{"result": {"tools": [...]}}``), a result object
    (``{"tools": [...]}``, optionally with ``instructions`` and ``serverInfo``/``server``), or a
    bare list of tools. Raises :class:`toolscore.errors.InputError` naming the file and path.
    """
    from toolscore.errors import InputError

    source = str(path)
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("file not found", source=source) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read file: {exc}", source=source) from None
    except ValueError as exc:
        raise InputError(f"invalid JSON: {exc}", source=source) from None
    where = "$"
    if isinstance(raw, Mapping) and isinstance(raw.get("result"), Mapping):
        raw, where = raw["result"], "$.result"
    details = ServerDetails(target=source, transport="file")
    if isinstance(raw, Mapping):
        info = raw.get("serverInfo") or raw.get("server") or {}
        instructions = raw.get("instructions")
        if isinstance(info, Mapping):
            details = attrs.evolve(
                details, name=str(info.get("name") or ""), version=str(info.get("version") or "")
            )
        if isinstance(instructions, str):
            details = attrs.evolve(details, instructions=instructions)
        tools_raw = raw.get("tools")
        where += ".tools"
    else:
        tools_raw = raw
    if not isinstance(tools_raw, list):
        raise InputError(
            "expected a list of tools (a tools/list result)", source=source, path=where
        )
    tools: list[MCPToolDef] = []
    for index, entry in enumerate(tools_raw):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
            raise InputError(
                "expected a tool object with a string 'name'",
                source=source,
                path=f"{where}[{index}]",
            )
        tools.append(MCPToolDef.from_wire(entry))
    return details, tools


def tools_file_payload(details: ServerDetails, tools: Sequence[MCPToolDef]) -> dict[str, Any]:
    """What ``mcp list --json`` prints and ``load_tools_file`` reads back."""
    payload: dict[str, Any] = {
        "serverInfo": {"name": details.name, "version": details.version},
        "protocolVersion": details.protocol_version,
        "tools": [
            tool.raw
            or {
                "name": tool.name,
                "description": tool.description,
                "inputSchema": tool.input_schema,
            }
            for tool in tools
        ],
    }
    if details.instructions:
        payload["instructions"] = details.instructions
    return payload
