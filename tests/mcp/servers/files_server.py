"""A stdio MCP server with one tool that reads a text file, and one that needs no file.

Standard library only. ``--no-files`` leaves out the file tool, so the server takes no paths
or URLs at all (a run then has no reason to build its sandbox).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from _stdio import serve, text_result

READ = {
    "name": "read_text_file",
    "description": "Read a UTF-8 text file and return its contents.",
    "inputSchema": {
        "type": "object",
        "properties": {"path": {"type": "string", "description": "Path of the file to read."}},
        "required": ["path"],
    },
}
SHOUT = {
    "name": "shout",
    "description": "Return the text in capital letters.",
    "inputSchema": {
        "type": "object",
        "properties": {"text": {"type": "string", "description": "Any text."}},
        "required": ["text"],
    },
}


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    if name == "shout":
        text = arguments.get("text")
        if not isinstance(text, str):
            return text_result("text must be a string", error=True)
        return text_result(text.upper())
    if name == "read_text_file" and "--no-files" not in sys.argv:
        path = arguments.get("path")
        if not isinstance(path, str) or not path:
            return text_result("path must be a non-empty string", error=True)
        try:
            return text_result(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            return text_result(f"cannot read {path}: {exc.strerror}", error=True)
    return None


if __name__ == "__main__":
    tools = [SHOUT] if "--no-files" in sys.argv else [READ, SHOUT]
    raise SystemExit(serve("files", tools, call))
