"""A stdio server that takes SECONDS (argv[1], default 2) to start, then serves ``echo``
(and answers unknown methods with the JSON-RPC error -32601).

Like a first ``npx`` run or a server that migrates its database first: nothing is read from
stdin until the wait is over. Plain JSON-RPC, so it runs the same under either SDK major.
"""

import json
import sys
import time

time.sleep(float(sys.argv[1]) if len(sys.argv) > 1 else 2.0)

ECHO = {
    "name": "echo",
    "description": "Repeat the given text back unchanged.",
    "inputSchema": {
        "type": "object",
        "properties": {"text": {"type": "string"}},
        "required": ["text"],
    },
}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def answer(method, params):
    if method == "initialize":
        return {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "slow-start", "version": "1.0"},
        }
    if method == "tools/list":
        return {"tools": [ECHO]}
    if method == "tools/call":
        text = str(params.get("arguments", {}).get("text", ""))
        return {"content": [{"type": "text", "text": text}]}
    if method == "ping":
        return {}
    return None


for line in sys.stdin:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    if message.get("id") is None:
        continue  # notifications
    result = answer(message.get("method"), message.get("params") or {})
    if result is None:
        error = {"code": -32601, "message": f"Method not found: {message.get('method')}"}
        send({"jsonrpc": "2.0", "id": message["id"], "error": error})
    else:
        send({"jsonrpc": "2.0", "id": message["id"], "result": result})
