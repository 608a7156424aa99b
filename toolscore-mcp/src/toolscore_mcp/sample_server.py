#!/usr/bin/env python
"""The sample MCP server behind ``toolscore demo``: a small notes service with known flaws.

Standard library only, newline-delimited JSON-RPC 2.0 on stdio, so it starts in a few
milliseconds and needs no setup. Its flaws are deliberate, so the demo has something to say:

* ``search_notes`` has a one-word description (lint warning);
* ``delete_note``'s ``note_id`` has no type (lint error);
* ``export_notes`` fails on every call, valid input included (a failing happy path).

The other tools work on an in-memory store: ``create_note`` answers the new note's id,
``delete_note`` of an unknown id is an ``isError`` result.
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

#: The notes, by id, for this process's life.
NOTES: dict[str, dict[str, str]] = {}


def _text(value: Any, *, error: bool = False) -> dict[str, Any]:
    text = value if isinstance(value, str) else json.dumps(value)
    return {"content": [{"type": "text", "text": text}], "isError": error}


def _create_note(arguments: dict[str, Any]) -> dict[str, Any]:
    note_id = f"note-{len(NOTES) + 1}"
    NOTES[note_id] = {
        "id": note_id,
        "title": str(arguments.get("title", "")),
        "body": str(arguments.get("body", "")),
    }
    return _text({"id": note_id, "title": NOTES[note_id]["title"]})


def _list_notes(arguments: dict[str, Any]) -> dict[str, Any]:
    limit = arguments.get("limit")
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
        return _text("limit must be a whole number of notes, 0 or more", error=True)
    return _text(list(reversed(NOTES.values()))[:limit])


def _search_notes(arguments: dict[str, Any]) -> dict[str, Any]:
    words = str(arguments.get("query", "")).lower().split()
    found = [
        note
        for note in NOTES.values()
        if words and all(w in f"{note['title']} {note['body']}".lower() for w in words)
    ]
    return _text({"matches": found})


def _delete_note(arguments: dict[str, Any]) -> dict[str, Any]:
    note_id = str(arguments.get("note_id", ""))
    if NOTES.pop(note_id, None) is None:
        return _text(f"no note with id {note_id!r}", error=True)
    return _text({"deleted": note_id})


_HANDLERS = {
    "create_note": _create_note,
    "list_notes": _list_notes,
    "search_notes": _search_notes,
    "delete_note": _delete_note,
}


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
    arguments = params.get("arguments")
    arguments = arguments if isinstance(arguments, dict) else {}
    if name == "export_notes":
        text = "export failed: storage backend not configured"
        _reply(request_id, result=_text(text, error=True))
    elif isinstance(name, str) and name in _HANDLERS:
        _reply(request_id, result=_HANDLERS[name](arguments))
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
