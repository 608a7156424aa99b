"""A stdio MCP server whose tools misbehave on purpose, for the harness tests.

Standard library only. Each tools/call runs in its own thread (so one slow or hanging tool
does not hold up the others) unless ``--sequential`` is given. Tools:

echo (works), slow (0.3 s then works), fail (always isError), crash (the process exits),
hang (never answers), noisy (junk on stdout, then works), lies (failure text with isError
false), picky (rejects any code that is not 3 capital letters, which its schema does not
say), structured (breaks its own outputSchema).
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import time
from typing import Any

_lock = threading.Lock()


def _schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


_TEXT = {"text": {"type": "string", "description": "Some text."}}
TOOLS: list[dict[str, Any]] = [
    {
        "name": "echo",
        "description": "Return the given text unchanged.",
        "inputSchema": _schema(_TEXT, ["text"]),
    },
    {
        "name": "slow",
        "description": "Return the text after a short pause.",
        "inputSchema": _schema(_TEXT, ["text"]),
    },
    {
        "name": "fail",
        "description": "A tool whose backend is always down.",
        "inputSchema": _schema(_TEXT, ["text"]),
    },
    {
        "name": "crash",
        "description": "A tool that takes the whole server down.",
        "inputSchema": _schema(_TEXT, ["text"]),
    },
    {
        "name": "hang",
        "description": "A tool that never answers at all.",
        "inputSchema": _schema(_TEXT, ["text"]),
    },
    {
        "name": "noisy",
        "description": "Prints debug output to stdout, then works.",
        "inputSchema": _schema(_TEXT, ["text"]),
    },
    {
        "name": "lies",
        "description": "Reports its failures as normal results.",
        "inputSchema": _schema(_TEXT, ["text"]),
    },
    {
        "name": "picky",
        "description": "Look up an airport by its code.",
        "inputSchema": _schema(
            {"code": {"type": "string", "description": "Airport code."}}, ["code"]
        ),
    },
    {
        "name": "structured",
        "description": "Count things; declares an output schema it does not follow.",
        "inputSchema": _schema(_TEXT, ["text"]),
        "outputSchema": {
            "type": "object",
            "properties": {"count": {"type": "integer"}},
            "required": ["count"],
        },
    },
]


def _send(message: dict[str, Any]) -> None:
    with _lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def _text(request_id: Any, text: str, *, error: bool = False, **extra: Any) -> None:
    result: dict[str, Any] = {"content": [{"type": "text", "text": text}], **extra}
    if error:
        result["isError"] = True
    _send({"jsonrpc": "2.0", "id": request_id, "result": result})


def _call(request_id: Any, name: str, args: dict[str, Any]) -> None:
    text = args.get("text")
    if name in ("echo", "slow", "noisy", "lies", "structured") and not isinstance(text, str):
        _text(request_id, "text must be a string", error=True)
        return
    if name == "echo":
        _text(request_id, text)
    elif name == "slow":
        time.sleep(0.3)
        _text(request_id, text)
    elif name == "fail":
        _text(request_id, "backend error: the index is corrupted", error=True)
    elif name == "crash":
        sys.stderr.write("fatal: crash tool called\n")
        sys.stderr.flush()
        os._exit(3)
    elif name == "hang":
        time.sleep(3600)
    elif name == "noisy":
        with _lock:
            sys.stdout.write("DEBUG: noisy tool called\n")
            sys.stdout.flush()
        _text(request_id, text)
    elif name == "lies":
        _text(request_id, "Error: database unavailable")
    elif name == "picky":
        code = args.get("code")
        if isinstance(code, str) and re.fullmatch(r"[A-Z]{3}", code):
            _text(request_id, f"{code}: found")
        else:
            _text(request_id, f"Invalid code {code!r}: must be 3 capital letters", error=True)
    elif name == "structured":
        _text(request_id, "counted", structuredContent={"count": "many"})
    else:
        _send(
            {
                "jsonrpc": "2.0",
                "id": request_id,
                "error": {"code": -32602, "message": f"Unknown tool: {name}"},
            }
        )


def main() -> int:
    sequential = "--sequential" in sys.argv
    only = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--only=")), None)
    tools = [t for t in TOOLS if only is None or t["name"] in only.split(",")]
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue
        if method == "initialize":
            _send(
                {
                    "jsonrpc": "2.0",
                    "id": request_id,
                    "result": {
                        "protocolVersion": "2025-06-18",
                        "capabilities": {"tools": {}},
                        "serverInfo": {"name": "misbehaving", "version": "0.1"},
                        "instructions": "Test server. Use the 'echo' tool to repeat text.",
                    },
                }
            )
        elif method == "ping":
            _send({"jsonrpc": "2.0", "id": request_id, "result": {}})
        elif method == "tools/list":
            _send({"jsonrpc": "2.0", "id": request_id, "result": {"tools": tools}})
        elif method == "tools/call":
            params = message.get("params") or {}
            args = (params.get("name"), params.get("arguments") or {})
            if sequential:
                _call(request_id, *args)
            else:
                threading.Thread(target=_call, args=(request_id, *args), daemon=True).start()
        else:
            _send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": "no"}})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
