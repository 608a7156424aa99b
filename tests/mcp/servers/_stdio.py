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


def ask_client(requests: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Send the client requests (id -> {method, params}); return its answers by id.

    For tools that probe the client while a ``tools/call`` is in progress."""
    for request_id, request in requests.items():
        _send({"jsonrpc": "2.0", "id": request_id, **request})
    answers: dict[str, Any] = {}
    while len(answers) < len(requests):
        line = sys.stdin.readline()
        if not line:
            break
        message = json.loads(line)
        if message.get("id") in requests and "method" not in message:
            answers[message["id"]] = message.get("result", message.get("error"))
    return answers


def serve(name: str, tools: list[dict[str, Any]], call: CallHandler, *, page_size: int = 0) -> int:
    """Serve until stdin closes; ``page_size`` > 0 splits ``tools/list`` into pages."""
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
            start = int((message.get("params") or {}).get("cursor") or 0)
            end = start + page_size if page_size else len(tools)
            result = {"tools": tools[start:end]}
            if end < len(tools):
                result["nextCursor"] = str(end)
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
