"""A server whose name, tool names, descriptions, answers and stderr try to break an HTML page.

Each carries a ``<script>`` element, an ``"onerror=`` attribute breakout, ANSI escapes, a bidi
override (U+202E) and a GitHub token: the HTML scorecard must show them as inert, redacted text.

* ``echo<script>…``   answers with the hostile text (works)
* ``img"onerror=…``   fails on every call with a hostile error (a defect)
* ``schedule``        refuses anything but ``HH:MM`` with a hint, so its calls are repaired
"""

from __future__ import annotations

import re
import sys

from _stdio import serve, text_result

TOKEN = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
HOSTILE = (
    f'<script>alert(1)</script> "onerror=alert(2) x=" \x1b[2J\x1b[31mRED\x1b[0m \u202eevil {TOKEN}'
)
ECHO = "echo<script>alert(1)</script>"
BREAKOUT = 'img"onerror=alert(2)'
OBJECT = {
    "type": "object",
    "properties": {"text": {"type": "string", "description": "The text to send back."}},
    "required": ["text"],
}
TOOLS = [
    {"name": ECHO, "description": f"Echo the text back. {HOSTILE}", "inputSchema": OBJECT},
    {"name": BREAKOUT, "description": f"Render an image. {HOSTILE}", "inputSchema": OBJECT},
    {
        "name": "schedule",
        "description": f"Schedule a reminder at a time of day. {HOSTILE}",
        "inputSchema": {
            "type": "object",
            "properties": {"at": {"type": "string", "description": "When to remind."}},
            "required": ["at"],
        },
    },
]


def call(name: str, arguments: dict[str, object]) -> dict[str, object] | None:
    if name == ECHO:
        return text_result(f"{arguments.get('text')} {HOSTILE}")
    if name == BREAKOUT:
        return text_result(f"Traceback: renderer crashed {HOSTILE}", error=True)
    if name == "schedule":
        at = arguments.get("at")
        if not isinstance(at, str) or not re.fullmatch(r"\d\d:\d\d", at):
            return text_result(f"Invalid at: Expected HH:MM {HOSTILE}", error=True)
        return text_result(f"Scheduled at {at}. {HOSTILE}")
    return None


if __name__ == "__main__":
    print(f"[hostile] no HOSTILE_API_KEY set {HOSTILE}", file=sys.stderr, flush=True)
    sys.exit(serve(f"hostile<script>alert(0)</script>\u202e{TOKEN}", TOOLS, call))
