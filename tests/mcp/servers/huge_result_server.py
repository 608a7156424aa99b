"""A stdio MCP server whose one tool answers with one very long text line.

``huge_result_server.py MEGABYTES`` answers every ``tools/call`` with a text result of that
many MiB (ASCII), written as one JSON-RPC line built from bytes, so the server spends
milliseconds on it and the time measured is the client's.
"""

from __future__ import annotations

import json
import sys

SIZE = int(float(sys.argv[1]) * 1024 * 1024) if len(sys.argv) > 1 else 32 * 1024 * 1024
TOOL = {
    "name": "long_text",
    "description": "Return a long text.",
    "inputSchema": {"type": "object", "properties": {}},
}


def send(message: dict[str, object]) -> None:
    sys.stdout.buffer.write(json.dumps(message).encode() + b"\n")
    sys.stdout.buffer.flush()


def main() -> None:
    payload = b"x" * SIZE
    for raw in sys.stdin.buffer:
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue
        if method == "initialize":
            result = {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "huge-result", "version": "0.1"},
            }
            send({"jsonrpc": "2.0", "id": request_id, "result": result})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": request_id, "result": {"tools": [TOOL]}})
        elif method == "tools/call":
            head = b'{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"' % (
                request_id
            )
            sys.stdout.buffer.write(head + payload + b'"}]}}\n')
            sys.stdout.buffer.flush()
        else:
            send({"jsonrpc": "2.0", "id": request_id, "result": {}})


if __name__ == "__main__":
    main()
