"""A raw JSON-RPC stdio "server" that breaks the protocol in one chosen way (argv[1]).

No SDK: each mode answers exactly what a hostile or broken server would send.

* ``no-tools``      ``tools/list`` answers ``{"tools": []}``
* ``null-tools``    ``tools/list`` answers ``{"tools": null}``
* ``rpc-error``     ``tools/call`` answers a JSON-RPC error -32000 (the server stays up)
* ``init-error``    ``initialize`` answers a JSON-RPC error with a message of its own
* ``bad-defs``      schemas jsonschema rejects, a duplicate name, empty/NUL/long/odd names
* ``binary``        a PNG's bytes on stdout instead of an ``initialize`` answer
* ``binary-then-ok`` a PNG's bytes on stdout, then a normal session with one tool
* ``stderr-flood``  floods stderr (argv[2] MiB, 128 by default) while serving one working tool
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
from typing import Any

MODE = sys.argv[1] if len(sys.argv) > 1 else "no-tools"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"

GOOD_TOOL = {
    "name": "lookup",
    "description": "Look up a record by its key and return the stored value.",
    "inputSchema": {
        "type": "object",
        "properties": {"key": {"type": "string", "description": "The record key."}},
        "required": ["key"],
    },
}


def _tool(name: str, schema: Any) -> dict[str, Any]:
    return {
        "name": name,
        "description": "Return the stored value for a key.",
        "inputSchema": schema,
    }


OBJECT = {"type": "object", "properties": {"key": {"type": "string"}}, "required": ["key"]}
BAD_DEFS = [
    _tool("strange_type", {"type": "strang"}),
    _tool("numeric_properties", {"type": "object", "properties": 5}),
    _tool("twice", OBJECT),
    _tool("twice", OBJECT),
    _tool("", OBJECT),
    _tool("nul\x00name", OBJECT),
    _tool("x" * 129, OBJECT),
    _tool("has space", OBJECT),
]


def send(message: dict[str, Any]) -> None:
    sys.stdout.buffer.write(json.dumps(message).encode() + b"\n")
    sys.stdout.buffer.flush()


def flood_stderr(mebibytes: int) -> None:
    chunk = (b"E" * 1023 + b"\n") * 64
    for _ in range(mebibytes * 16):
        try:
            os.write(2, chunk)
        except OSError:
            return


def tools_list() -> dict[str, Any]:
    if MODE == "no-tools":
        return {"tools": []}
    if MODE == "null-tools":
        return {"tools": None}
    if MODE == "bad-defs":
        return {"tools": BAD_DEFS}
    return {"tools": [GOOD_TOOL]}


def handle(message: dict[str, Any]) -> None:
    method, request_id = message.get("method"), message.get("id")
    if request_id is None:
        return
    if method == "initialize":
        if MODE == "init-error":
            send(
                {
                    "jsonrpc": "2.0",
                    "id": request_id,
                    "error": {"code": -32000, "message": "license key expired on 2024-01-01"},
                }
            )
            return
        if MODE.startswith("binary"):
            sys.stdout.buffer.write(PNG + b"\n")
            sys.stdout.buffer.flush()
            if MODE == "binary":
                return
        result = {
            "protocolVersion": message.get("params", {}).get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": f"hostile-{MODE}", "version": "0.1"},
        }
        send({"jsonrpc": "2.0", "id": request_id, "result": result})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": request_id, "result": tools_list()})
    elif method == "tools/call":
        if MODE == "rpc-error":
            error = {"code": -32000, "message": "backend unavailable: connection pool exhausted"}
            send({"jsonrpc": "2.0", "id": request_id, "error": error})
            return
        arguments = message.get("params", {}).get("arguments", {})
        digest = hashlib.sha256(json.dumps(arguments, sort_keys=True).encode()).hexdigest()
        text = f"checksum of {arguments}: {digest[:16]}"
        content = [{"type": "text", "text": text}]
        send({"jsonrpc": "2.0", "id": request_id, "result": {"content": content}})
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": request_id, "result": {}})
    else:
        send(
            {
                "jsonrpc": "2.0",
                "id": request_id,
                "error": {"code": -32601, "message": f"method not found: {method}"},
            }
        )


def main() -> None:
    if MODE == "stderr-flood":
        size = int(sys.argv[2]) if len(sys.argv) > 2 else 128
        threading.Thread(target=flood_stderr, args=(size,), daemon=True).start()
    for raw in sys.stdin.buffer:
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        if isinstance(message, dict):
            handle(message)


if __name__ == "__main__":
    main()
