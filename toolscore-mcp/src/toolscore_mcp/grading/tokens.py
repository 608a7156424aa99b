"""Token estimates for what a server costs in a model's context, tokenizer-free.

Every tool definition (and the server instructions) is sent to the model on every request,
so their size is a recurring cost. Four characters per token is the rule used, rounded the
way Python rounds (halves to even), so a definition always costs the same count.
"""

from __future__ import annotations

import json

from toolscore_mcp.model import MCPToolDef

__all__ = ["context_tokens", "tool_definition_tokens"]

_CHARS_PER_TOKEN = 4


def context_tokens(text: str) -> int:
    """Tokens ``text`` costs in a model's context: 0 for empty text, else
    ``max(1, round(len(text) / 4))`` (core's ``estimate_tokens`` rounds down instead)."""
    if not text:
        return 0
    return max(1, round(len(text) / _CHARS_PER_TOKEN))


def tool_definition_tokens(tool: MCPToolDef) -> int:
    """Tokens of the name, description and input schema as a client would serialize them."""
    payload = json.dumps(
        {
            "name": tool.name,
            "description": tool.description or "",
            "inputSchema": tool.input_schema,
        },
        ensure_ascii=False,
        sort_keys=True,
    )
    return context_tokens(payload)
