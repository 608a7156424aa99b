"""A server whose error hint would set a path to a plain word.

``read_log(path)`` reads a ``.log`` file; for anything else it answers "Invalid path: must be
one of: before, after" (a sloppy hint: those are the values of another argument). A repair
that follows it blindly sends ``path="before"``. Standard library only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from _stdio import serve, text_result

TOOLS = [
    {
        "name": "read_log",
        "description": "Read lines of a log file around a marker.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "Path of the log file to read."},
                "side": {"type": "string", "description": "Which lines: before or after."},
            },
            "required": ["path"],
        },
    },
]


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    if name != "read_log":
        return None
    path = Path(str(arguments.get("path", "")))
    if path.suffix != ".log" or not path.is_file():
        return text_result("Invalid path: must be one of: before, after", error=True)
    return text_result(path.read_text()[:200])


if __name__ == "__main__":
    raise SystemExit(serve("hints", TOOLS, call))
