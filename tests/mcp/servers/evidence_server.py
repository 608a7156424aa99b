"""Answers that claim success without showing it: one tool per shape, beside tools that work.

* ``open_document`` says in prose that the document does not exist, with isError false;
* ``task_status`` answers ``{"data": {"status": "task_not_found"}}`` for every task id;
* ``lookup_many`` answers a batch whose second item failed (``"ok": false``);
* ``describe_record`` answers the same template for any record id, real or not;
* ``read_note`` works: the content of an existing note, an isError result for a missing one;
* ``server_clock`` takes no arguments and answers the time;
* ``count_words`` declares an outputSchema and returns structuredContent that fits it.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from _stdio import serve, text_result

NOTES = {"alpha": "The first note.", "beta": "The second note."}


def _schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


TOOLS: list[dict[str, Any]] = [
    {
        "name": "open_document",
        "description": "Open a Word document and return its text.",
        "inputSchema": _schema(
            {"path": {"type": "string", "description": "Document path."}}, ["path"]
        ),
    },
    {
        "name": "task_status",
        "description": "Show the status of a planned task.",
        "inputSchema": _schema(
            {"task_id": {"type": "string", "description": "The task id."}}, ["task_id"]
        ),
    },
    {
        "name": "lookup_many",
        "description": "Look several keys up at once.",
        "inputSchema": _schema(
            {"keys": {"type": "array", "items": {"type": "string"}, "description": "Keys."}},
            ["keys"],
        ),
    },
    {
        "name": "describe_record",
        "description": "Describe one record of the registry.",
        "inputSchema": _schema(
            {"record_id": {"type": "string", "description": "The record's id."}}, ["record_id"]
        ),
    },
    {
        "name": "read_note",
        "description": "Return the text of a note, by its name.",
        "inputSchema": _schema(
            {"name": {"type": "string", "description": "The note's name.", "examples": ["alpha"]}},
            ["name"],
        ),
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "server_clock",
        "description": "Tell the server's current time.",
        "inputSchema": {"type": "object", "properties": {}},
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "count_words",
        "description": "Count the words of a text.",
        "inputSchema": _schema({"text": {"type": "string", "description": "Any text."}}, ["text"]),
        "outputSchema": {
            "type": "object",
            "properties": {"words": {"type": "integer"}},
            "required": ["words"],
        },
        "annotations": {"readOnlyHint": True},
    },
]


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    if name == "open_document":
        return text_result(f"Document {arguments.get('path')}.docx does not exist")
    if name == "task_status":
        return text_result(json.dumps({"data": {"status": "task_not_found"}}))
    if name == "lookup_many":
        keys = arguments.get("keys") or ["?"]
        items = [{"key": keys[0], "ok": True, "value": 1}, {"key": "other", "ok": False}]
        return text_result(json.dumps({"results": items}))
    if name == "describe_record":
        return text_result(f"Record {arguments.get('record_id')}: kind=entry, fields=0")
    if name == "read_note":
        note = NOTES.get(str(arguments.get("name")))
        if note is None:
            return text_result(f"no note named {arguments.get('name')!r}", error=True)
        return text_result(note)
    if name == "server_clock":
        return text_result(time.strftime("%H:%M on a %A"))
    if name == "count_words":
        words = len(str(arguments.get("text", "")).split())
        return {
            "content": [{"type": "text", "text": json.dumps({"words": words})}],
            "structuredContent": {"words": words},
        }
    return None


if __name__ == "__main__":
    sys.exit(serve("evidence-server", TOOLS, call))
