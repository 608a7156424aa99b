"""A stdio MCP server for the run's safety rules: where it runs, what it may delete, and
refusals that are its environment's, not its defects.

Standard library only. ``write_named_file`` writes ``<name>.docx`` relative to its working
directory (an empty name writes ``.docx``); ``where_am_i`` tells its working directory and
HOME-like variables; ``delete_file`` (annotated destructive) deletes a path, whose schema
example is ``--victim PATH``; ``purge_record`` deletes by an id nothing returned;
``reset_store`` takes nothing; ``fetch_page`` is refused by policy; ``load_model`` fails to
download what it fetches on first use; ``list_processes`` lists process ids that were there
before the run, and ``kill_process`` would kill one (it only says so). ``--touch-at-start`` writes ``started.txt`` in its
working directory as it starts.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from _stdio import serve, text_result

VICTIM = sys.argv[sys.argv.index("--victim") + 1] if "--victim" in sys.argv else "/nonexistent"
_VARS = ("HOME", "TMPDIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME")


def _tool(name: str, description: str, properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": properties, "required": list(properties)},
        **extra,
    }


TOOLS = [
    _tool(
        "write_named_file",
        "Write an empty Word document called <name>.docx in the current folder.",
        {"name": {"type": "string", "description": "Document name, without extension."}},
    ),
    _tool("where_am_i", "Tell the working directory and home folders as JSON.", {}),
    _tool(
        "delete_file",
        "Delete one file from disk.",
        {"path": {"type": "string", "description": "Path of the file.", "examples": [VICTIM]}},
        annotations={"destructiveHint": True, "readOnlyHint": False},
    ),
    _tool(
        "purge_record",
        "Purge a stored record for good.",
        {"record_id": {"type": "string", "description": "The record's id."}},
    ),
    _tool("reset_store", "Reset the whole store to empty.", {}),
    _tool("list_processes", "List the running processes with their ids.", {}),
    _tool(
        "kill_process",
        "Terminate a running process by its id.",
        {"pid": {"type": "integer", "description": "Process id to terminate."}},
    ),
    _tool(
        "fetch_page",
        "Fetch a web page and return its text.",
        {"url": {"type": "string", "format": "uri", "description": "Page URL."}},
    ),
    _tool(
        "load_model",
        "Load the embedding model (downloaded on first use) and embed the text.",
        {"text": {"type": "string", "description": "Text to embed."}},
    ),
]


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    if name == "write_named_file":
        Path(f"{arguments.get('name', '')}.docx").write_bytes(b"")
        return text_result(f"wrote {arguments.get('name', '')}.docx")
    if name == "where_am_i":
        return text_result(
            json.dumps({"cwd": os.getcwd(), **{v: os.environ.get(v) for v in _VARS}})
        )
    if name == "delete_file":
        path = Path(str(arguments.get("path", "")))
        if not path.is_file():
            return text_result(f"no such file: {path}", error=True)
        path.unlink()
        return text_result(f"deleted {path}")
    if name == "purge_record":
        return text_result(f"purged record {arguments.get('record_id')}")
    if name == "reset_store":
        return text_result("store reset")
    if name == "list_processes":
        processes = [{"pid": 1, "name": "init"}, {"pid": os.getppid(), "name": "client"}]
        return text_result(json.dumps({"processes": processes}))
    if name == "kill_process":
        return text_result(f"would have killed process {arguments.get('pid')}")
    if name == "fetch_page":
        url = arguments.get("url", "")
        return text_result(
            f"Error: {url} is not a public address. Start the server with --allow-private-ips",
            error=True,
        )
    if name == "load_model":
        return text_result(
            "Error: Could not fetch model weights from the model hub on first use", error=True
        )
    return None


if __name__ == "__main__":
    if "--touch-at-start" in sys.argv:
        Path("started.txt").write_text("a server's start-up file\n")
    raise SystemExit(serve("safety-server", TOOLS, call))
