"""The JSON-RPC loop the small standard-library test servers share.

``serve(name, tools, call)`` answers ``initialize``, ``ping``, ``tools/list`` and
``tools/call`` on stdin/stdout, one request at a time; ``call(name, arguments)`` returns the
``tools/call`` result, or None for an unknown tool (answered with JSON-RPC error -32602).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

CallHandler = Callable[[str, dict[str, Any]], "dict[str, Any] | None"]


def _send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def text_result(text: str, *, error: bool = False) -> dict[str, Any]:
    """A ``tools/call`` result holding one text block."""
    result: dict[str, Any] = {"content": [{"type": "text", "text": text}]}
    if error:
        result["isError"] = True
    return result


def serve(name: str, tools: list[dict[str, Any]], call: CallHandler) -> int:
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue
        error: dict[str, Any] | None = None
        result: dict[str, Any] | None = None
        if method == "initialize":
            result = {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": name, "version": "0.1"},
            }
        elif method == "ping":
            result = {}
        elif method == "tools/list":
            result = {"tools": tools}
        elif method == "tools/call":
            params = message.get("params") or {}
            tool = params.get("name")
            result = call(tool, params.get("arguments") or {})
            if result is None:
                error = {"code": -32602, "message": f"Unknown tool: {tool}"}
        else:
            error = {"code": -32601, "message": f"Method not found: {method}"}
        if error is not None:
            _send({"jsonrpc": "2.0", "id": request_id, "error": error})
        else:
            _send({"jsonrpc": "2.0", "id": request_id, "result": result})
    return 0
