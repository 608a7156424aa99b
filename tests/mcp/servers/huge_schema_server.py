"""A stdio MCP server whose tool schemas ask for absurd values, for the bounded-value tests.

``minItems: 100000000``, ``minLength: 1e9``, a pattern of a billion repeats, a ``$ref`` back to
the root with ``minItems: 1000`` at every level, a tool whose answer makes its own
``outputSchema`` pattern backtrack, and one ordinary tool. Every call is answered
with the size of the arguments it received, so a test can see what was sent.
"""

from __future__ import annotations

import json
from typing import Any

from _stdio import serve, text_result

TOOLS: list[dict[str, Any]] = [
    {
        "name": "bulk_insert",
        "description": "Insert many rows.",
        "inputSchema": {
            "type": "object",
            "properties": {"rows": {"type": "array", "minItems": 100000000, "items": {}}},
            "required": ["rows"],
        },
    },
    {
        "name": "pad_text",
        "description": "Store a long text.",
        "inputSchema": {
            "type": "object",
            "properties": {"body": {"type": "string", "minLength": 1e9}},
            "required": ["body"],
        },
    },
    {
        "name": "match_code",
        "description": "Look up a code.",
        "inputSchema": {
            "type": "object",
            "properties": {"code": {"type": "string", "pattern": "^a{1000000000}$"}},
            "required": ["code"],
        },
    },
    {
        "name": "tree",
        "description": "Store a tree.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "children": {"type": "array", "minItems": 1000, "items": {"$ref": "#"}},
                "label": {"type": "string", "minLength": 100000},
            },
            "required": ["children", "label"],
        },
    },
    {
        "name": "status",
        "description": "Report the state.",
        "inputSchema": {"type": "object", "properties": {}},
        "outputSchema": {
            "type": "object",
            "properties": {"state": {"type": "string", "pattern": "(a|aa)+$"}},
        },
    },
    {
        "name": "echo",
        "description": "Echo a message back.",
        "inputSchema": {
            "type": "object",
            "properties": {"message": {"type": "string"}},
            "required": ["message"],
        },
    },
]


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    if name not in {tool["name"] for tool in TOOLS}:
        return None
    if name == "status":  # backtracks for hours against its own outputSchema under plain re
        state = "a" * 60 + "!"
        return {**text_result(state), "structuredContent": {"state": state}}
    return text_result(f"received {len(json.dumps(arguments))} bytes of arguments")


if __name__ == "__main__":
    raise SystemExit(serve("huge-schema-server", TOOLS, call))
