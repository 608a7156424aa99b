"""A stdio MCP server with one tool that reads a text file, and one that needs no file.

Standard library only. ``--no-files`` leaves out the file tool, so the server takes no paths
or URLs at all (a run then has no reason to build its sandbox). ``--paged`` lists one tool per
``tools/list`` page and adds ``probe_client``, which sends the client a ``ping`` and a
``sampling/createMessage`` request and returns the client's answers as JSON.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from _stdio import ask_client, serve, text_result

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


PROBE = {
    "name": "probe_client",
    "description": "Ask the client for a ping and a sampling, and return its answers.",
    "inputSchema": {"type": "object", "properties": {}},
}


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    if name == "probe_client":
        sampling = {"messages": [], "maxTokens": 1}
        answers = ask_client(
            {
                "s-ping": {"method": "ping"},
                "s-sample": {"method": "sampling/createMessage", "params": sampling},
            }
        )
        return text_result(json.dumps(answers, sort_keys=True))
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
    paged = "--paged" in sys.argv
    raise SystemExit(serve("files", [*tools, PROBE] if paged else tools, call, page_size=paged))
