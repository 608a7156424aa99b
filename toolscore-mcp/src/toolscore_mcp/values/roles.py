"""What a tool does to state: produce it, read it, or destroy it.

The scorecard runs producers first (create, add, write, insert, open), then readers and
modifiers, and destroyers (delete, remove, drop, reset, close) last, so that readers find
what producers made and destroyers only ever act on what this run created in the sandbox.
The role comes from the tool's annotations when they say so, else from the verb its name
starts with (or, failing that, any verb in its name).
"""

from __future__ import annotations

from collections.abc import Mapping

from toolscore_mcp.model import MCPToolDef
from toolscore_mcp.values.providers import name_tokens

__all__ = ["is_destructive", "tool_phase", "tool_role"]

_DESTROY = frozenset(
    {"delete", "remove", "drop", "reset", "close", "clear", "destroy", "purge", "kill", "stop",
     "terminate", "unregister", "truncate", "unlink", "rm", "del", "erase", "revoke", "cancel",
     "wipe", "uninstall", "detach", "disconnect", "unsubscribe", "evict", "prune", "rmdir"}
)  # fmt: skip
#: Verbs that bring a thing into being: these run first of all.
_CREATE = frozenset(
    {"create", "add", "write", "insert", "new", "put", "save", "upload", "store", "register",
     "init", "initialize", "make", "post", "mkdir", "touch", "generate", "import", "remember",
     "allocate"}
)  # fmt: skip
#: Verbs that change or open what exists: these run after the creators, before readers.
_PRODUCE = _CREATE | frozenset(
    {"open", "start", "launch", "append", "clone", "commit", "push", "set", "begin", "connect",
     "subscribe", "spawn", "copy", "stage"}
)  # fmt: skip


def _annotations(tool: MCPToolDef) -> Mapping[str, object]:
    value = tool.raw.get("annotations")
    return value if isinstance(value, Mapping) else {}


def tool_role(tool: MCPToolDef) -> str:
    """``producer``, ``reader`` or ``destroyer``."""
    annotations = _annotations(tool)
    tokens = name_tokens(tool.name)
    if annotations.get("readOnlyHint") is True:
        return "reader"
    for token in tokens[:2]:
        if token in _DESTROY:
            return "destroyer"
        if token in _PRODUCE:
            return "producer"
    if any(token in _DESTROY for token in tokens):
        return "destroyer"
    if any(token in _PRODUCE for token in tokens):
        return "producer"
    return "reader"


def tool_phase(tool: MCPToolDef) -> int:
    """0 for creators, 1 for other producers, 2 for readers, 3 for destroyers."""
    role = tool_role(tool)
    if role == "destroyer":
        return 3
    if role == "reader":
        return 2
    return 0 if any(token in _CREATE for token in name_tokens(tool.name)[:2]) else 1


def is_destructive(tool: MCPToolDef) -> bool:
    """Annotated destructive (and not read-only), or named like a destroyer."""
    annotations = _annotations(tool)
    if annotations.get("readOnlyHint") is True:
        return False
    return annotations.get("destructiveHint") is True or tool_role(tool) == "destroyer"
