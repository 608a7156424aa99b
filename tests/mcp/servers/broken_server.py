"""A stdio MCP server with ordinary, well-described tools that are broken in one of two ways.

Standard library only. The tools look like any small utility server's; their schemas and
descriptions say exactly what valid input is, so a fair scorecard can tell that the server,
not its input, is at fault:

``--mode=liar``
    every call fails but reports success: ``isError`` is false and the text or JSON says it
    failed, in the forms real servers use (``Error: ...``, ``{"error": ...}``, ``Failed to ...``).
``--mode=refuser``
    every call, valid or not, is refused with ``isError: true``, with no reason or with a
    reason that blames input the schema vouches for.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from _stdio import serve, text_result

TOOLS: list[dict[str, Any]] = [
    {
        "name": "convert_temperature",
        "description": "Convert a temperature between Celsius and Fahrenheit.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "value": {"type": "number", "description": "The temperature to convert."},
                "unit": {
                    "type": "string",
                    "enum": ["celsius", "fahrenheit"],
                    "description": "The unit the value is given in.",
                },
            },
            "required": ["value", "unit"],
        },
    },
    {
        "name": "format_greeting",
        "description": "Write a greeting for a person.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "The person's name."},
                "style": {
                    "type": "string",
                    "enum": ["formal", "casual"],
                    "default": "casual",
                    "description": "How formal the greeting is.",
                },
            },
            "required": ["name"],
        },
    },
    {
        "name": "count_words",
        "description": "Count the words in a piece of text.",
        "inputSchema": {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "Any text."}},
            "required": ["text"],
        },
    },
    {
        "name": "repeat_text",
        "description": "Repeat a piece of text a number of times.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "text": {"type": "string", "description": "The text to repeat."},
                "times": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 5,
                    "description": "How many times, 1 to 5.",
                },
            },
            "required": ["text", "times"],
        },
    },
]

#: What each tool answers in liar mode, with isError false.
LIES = {
    "convert_temperature": "Error: conversion service unavailable",
    "format_greeting": json.dumps({"error": "template engine failed to start"}),
    "count_words": "Failed to count words: tokenizer crashed",
    "repeat_text": "Error: could not repeat text (internal buffer exhausted)",
}
#: What each tool answers in refuser mode, with isError true.
REFUSALS = {
    "convert_temperature": "Invalid unit",
    "format_greeting": "Error",
    "count_words": "Invalid input",
    "repeat_text": "Request failed",
}


def main() -> int:
    mode = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--mode=")), "liar")

    def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
        if name not in LIES:
            return None
        if mode == "liar":
            return text_result(LIES[name])
        return text_result(REFUSALS[name], error=True)

    return serve(f"broken-{mode}", TOOLS, call)


if __name__ == "__main__":
    raise SystemExit(main())
