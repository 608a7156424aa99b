#!/usr/bin/env python
"""The sample MCP server behind ``toolscore demo``: a small notes service with known flaws.

Standard library only, newline-delimited JSON-RPC 2.0 on stdio, so it starts in a few
milliseconds and needs no setup. Its flaws are deliberate, so the demo has something to say:

* ``search_notes`` has a one-word description (lint warning);
* ``delete_note``'s ``note_id`` has no type (lint error);
* ``export_notes`` fails on every call, valid input included (a failing happy path).

``create_note`` answers with the new note's id; the other tools answer ``ok``. Graded: B (84%), top issues export_notes, delete_note,
search_notes.
"""

from __future__ import annotations

import json
import sys
from typing import Any

SERVER_INFO = {"name": "notes-server", "version": "1.0.0"}
PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
DEFAULT_PROTOCOL = "2025-06-18"

TOOLS: list[dict[str, Any]] = [
    {
        "name": "create_note",
        "description": "Store a new note made of a title and a body; gives its id.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "title": {"type": "string", "description": "A few words naming the note."},
                "body": {"type": "string", "description": "The note's full text."},
            },
            "required": ["title"],
        },
    },
    {
        "name": "list_notes",
        "description": "Show the newest notes first, stopping at a limit.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "limit": {"type": "integer", "description": "How many notes at most."},
            },
            "required": ["limit"],
        },
    },
    {
        "name": "search_notes",
        "description": "Search.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "Words to look for."},
            },
            "required": ["query"],
        },
    },
    {
        "name": "delete_note",
        "description": "Remove a single note, chosen by its id.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "note_id": {"description": "Which note to remove."},
            },
            "required": ["note_id"],
        },
    },
    {
        "name": "export_notes",
        "description": "Write all notes in the chosen format (json or markdown).",
        "inputSchema": {
            "type": "object",
            "properties": {
                "format": {"type": "string", "description": "Output format: json or markdown."},
            },
            "required": ["format"],
        },
    },
]

_WORKING = frozenset({"create_note", "list_notes", "search_notes", "delete_note"})


def _reply(request_id: Any, *, result: Any = None, error: dict[str, Any] | None = None) -> None:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id}
    if error is not None:
        message["error"] = error
    else:
        message["result"] = result
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def _call(request_id: Any, params: dict[str, Any]) -> None:
    name = params.get("name")
    if name == "export_notes":
        text = "export failed: storage backend not configured"
        _reply(request_id, result={"content": [{"type": "text", "text": text}], "isError": True})
    elif name == "create_note":
        text = json.dumps({"id": "note-1"})  # the id delete_note takes (this run's own note)
        _reply(request_id, result={"content": [{"type": "text", "text": text}]})
    elif name in _WORKING:
        _reply(request_id, result={"content": [{"type": "text", "text": "ok"}]})
    else:
        _reply(request_id, error={"code": -32602, "message": f"Unknown tool: {name!r}"})


def handle(message: dict[str, Any]) -> None:
    """Answer one JSON-RPC message (notifications get no answer)."""
    method = message.get("method")
    request_id = message.get("id")
    params = message.get("params") or {}
    if request_id is None:
        return
    if method == "initialize":
        asked = params.get("protocolVersion") if isinstance(params, dict) else None
        version = asked if asked in PROTOCOL_VERSIONS else DEFAULT_PROTOCOL
        _reply(
            request_id,
            result={
                "protocolVersion": version,
                "capabilities": {"tools": {}},
                "serverInfo": SERVER_INFO,
            },
        )
    elif method == "ping":
        _reply(request_id, result={})
    elif method == "tools/list":
        _reply(request_id, result={"tools": TOOLS})
    elif method == "tools/call":
        _call(request_id, params if isinstance(params, dict) else {})
    else:
        _reply(request_id, error={"code": -32601, "message": f"Method not found: {method!r}"})


def main() -> int:
    """Serve until stdin closes."""
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict):
            handle(message)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
