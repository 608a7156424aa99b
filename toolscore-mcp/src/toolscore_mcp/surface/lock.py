"""The reviewed tool surface: ``mcp.lock.json``.

``toolscore mcp lock`` writes, per tool, the normalized definition a client would show the
model (name, title, description, input and output schema, annotations) and a SHA-256 hash of
it, so a reviewer commits exactly what was reviewed. ``mcp diff`` and ``mcp test --lock``
compare a later surface against it (:mod:`toolscore_mcp.surface.diff`): a tool whose
description quietly changes after review (a "rug pull") shows up as a change to approve.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from toolscore_mcp.model import MCPToolDef, ServerDetails

__all__ = ["LOCK_VERSION", "build_lock", "definition_hash", "normalized", "read_lock", "write_lock"]

LOCK_VERSION = 1
_KEYS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations")


def normalized(tool: MCPToolDef) -> dict[str, Any]:
    """The parts of a definition a model or a client acts on, absent keys left out."""
    raw = tool.raw or {
        "name": tool.name,
        "description": tool.description,
        "inputSchema": tool.input_schema,
    }
    return {key: raw[key] for key in _KEYS if raw.get(key) is not None}


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def definition_hash(definition: Mapping[str, Any]) -> str:
    """``sha256:<hex>`` of the canonical JSON (sorted keys, no spaces, UTF-8; a lone
    surrogate is hashed as its code point, not refused)."""
    data = _canonical(definition).encode("utf-8", "surrogatepass")
    return "sha256:" + hashlib.sha256(data).hexdigest()


def build_lock(details: ServerDetails, tools: Sequence[MCPToolDef]) -> dict[str, Any]:
    """The lock document, tools sorted by name."""
    entries = {}
    for tool in sorted(tools, key=lambda t: t.name):
        definition = normalized(tool)
        entries[tool.name] = {"hash": definition_hash(definition), "definition": definition}
    return {
        "version": LOCK_VERSION,
        "server": {"name": details.name, "version": details.version},
        "protocolVersion": details.protocol_version,
        "tools": entries,
    }


def write_lock(path: str | Path, lock: Mapping[str, Any]) -> None:
    """Write atomically (a reader never sees half a lock file)."""
    from toolscore.fileio import atomic_write_text

    atomic_write_text(path, json.dumps(lock, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def read_lock(path: str | Path) -> dict[str, dict[str, Any]]:
    """Tool name -> normalized definition; raises :class:`toolscore.errors.InputError`
    naming the file (and the entry) when it is not a lock file."""
    from toolscore.errors import InputError

    source = str(path)
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("file not found", source=source) from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"cannot read lock file: {exc}", source=source) from None
    tools = document.get("tools") if isinstance(document, Mapping) else None
    if not isinstance(tools, Mapping):
        raise InputError("expected a lock file with a 'tools' object", source=source, path="$")
    out: dict[str, dict[str, Any]] = {}
    for name, entry in tools.items():
        definition = entry.get("definition") if isinstance(entry, Mapping) else None
        if not isinstance(definition, Mapping):
            raise InputError(
                "expected an entry with a 'definition' object",
                source=source,
                path=f"$.tools.{name}",
            )
        out[str(name)] = dict(definition)
    return out
