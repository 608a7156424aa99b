"""A reader with a position, whose calls are slow and logged: what the run sends, and when.

``read_chapter`` returns a slice of a known chapter from ``start_index``; past the end it
answers ``<error>No more content</error>`` without ``isError`` (an error reported as
success). Each call takes ``--delay`` seconds (default 0.2) and appends its arguments as one
JSON line to the file given with ``--log``. The server handles one request at a time.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from _stdio import serve, text_result

CHAPTERS = {
    "intro": "Once upon a time there was a small server that read chapters aloud. " * 4,
    "middle": "Then it met a client that asked for pages past the end of the book. " * 4,
}

TOOLS: list[dict[str, Any]] = [
    {
        "name": "read_chapter",
        "description": "Read a chapter of the book, from a start index.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "chapter": {"type": "string", "enum": sorted(CHAPTERS)},
                "start_index": {
                    "type": "integer",
                    "minimum": 0,
                    "default": 0,
                    "description": "Character to start reading at.",
                },
            },
            "required": ["chapter"],
        },
    },
]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--delay", type=float, default=0.2)
    options = parser.parse_args()

    def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
        if name != "read_chapter":
            return None
        with open(options.log, "a", encoding="utf-8") as log:
            log.write(json.dumps(arguments, sort_keys=True) + "\n")
        time.sleep(options.delay)
        text = CHAPTERS.get(str(arguments.get("chapter")))
        if text is None:
            return text_result(f"Unknown chapter: {arguments.get('chapter')!r}", error=True)
        start = arguments.get("start_index", 0)
        if not isinstance(start, int) or isinstance(start, bool) or start < 0:
            return text_result("start_index must be a non-negative integer", error=True)
        if start >= len(text):
            return text_result("<error>No more content available.</error>")
        return text_result(text[start : start + 80])

    return serve("paged-reader", TOOLS, call)


if __name__ == "__main__":
    raise SystemExit(main())
