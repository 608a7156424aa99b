"""Tools that wait as long as they are told: how ``mcp test`` picks waits, seen from outside.

``pause`` sleeps ``duration`` seconds (default 20) and ``throttle`` sleeps ``delay_ms``
milliseconds (at least 50). ``fetch_later`` takes a ``timeout``, a bound rather than a wait,
which it only echoes. Every call answers with the arguments it got.
"""

from __future__ import annotations

import json
import time
from typing import Any

from _stdio import serve, text_result

TOOLS: list[dict[str, Any]] = [
    {
        "name": "pause",
        "description": "Wait for a while, then say how long it waited.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "duration": {
                    "type": "number",
                    "default": 20,
                    "description": "How many seconds to wait.",
                },
                "label": {"type": "string", "description": "A name for the pause."},
            },
        },
    },
    {
        "name": "throttle",
        "description": "Slow a job down by sleeping between its steps.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "job": {"type": "string", "description": "The job's name."},
                "delay_ms": {
                    "type": "integer",
                    "minimum": 50,
                    "default": 5000,
                    "description": "Milliseconds to sleep between steps.",
                },
            },
            "required": ["job"],
        },
    },
    {
        "name": "fetch_later",
        "description": "Queue a fetch of a page and say when it will be done.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "page": {"type": "string", "description": "A page name."},
                "timeout": {"type": "integer", "description": "Give up after this many seconds."},
            },
            "required": ["page"],
        },
    },
]


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    if name == "pause":
        seconds = arguments.get("duration", 20)
    elif name == "throttle":
        seconds = arguments.get("delay_ms", 5000) / 1000
    elif name == "fetch_later":
        seconds = 0
    else:
        return None
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds < 0:
        return text_result("duration must be a non-negative number", error=True)
    time.sleep(min(seconds, 60))
    return text_result(json.dumps(arguments))


if __name__ == "__main__":
    raise SystemExit(serve("sleepy", TOOLS, call))
