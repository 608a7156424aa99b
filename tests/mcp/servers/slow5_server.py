"""Five tools that each take 200 ms (threaded, so concurrent calls overlap), for the benchmark."""

import json
import sys
import threading
import time

TOOLS = [
    {
        "name": f"slow_tool_{i}",
        "description": f"A tool that takes 200 milliseconds to answer (number {i}).",
        "inputSchema": {
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"],
        },
    }
    for i in range(5)
]
lock = threading.Lock()


def send(message):
    with lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def call(request_id):
    time.sleep(0.2)
    send(
        {
            "jsonrpc": "2.0",
            "id": request_id,
            "result": {"content": [{"type": "text", "text": "ok"}]},
        }
    )


for line in sys.stdin:
    try:
        message = json.loads(line)
    except ValueError:
        continue
    method, request_id = message.get("method"), message.get("id")
    if request_id is None:
        continue
    if method == "initialize":
        send(
            {
                "jsonrpc": "2.0",
                "id": request_id,
                "result": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "slow5", "version": "1"},
                },
            }
        )
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": request_id, "result": {"tools": TOOLS}})
    elif method == "tools/call":
        threading.Thread(target=call, args=(request_id,), daemon=True).start()
    else:
        send({"jsonrpc": "2.0", "id": request_id, "result": {}})
