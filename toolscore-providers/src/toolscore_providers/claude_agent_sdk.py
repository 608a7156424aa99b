"""Claude Agent SDK: the messages a ``query()`` or ``ClaudeSDKClient`` session yields.

Reads:

* lists of SDK message objects (``AssistantMessage``, ``UserMessage``, ``SystemMessage``,
  ``ResultMessage``), their ``dataclasses.asdict`` dumps, and the CLI's stream-json lines
  (``{"type": "assistant", "message": {...}}``), bare or as ``{"messages": [...]}``;
* ``ToolUseBlock``s (``id``, ``name``, ``input``; names such as ``mcp__server__tool`` kept as
  sent) and ``ServerToolUseBlock``s (run by Anthropic: ``provider_executed``);
* results from ``ToolResultBlock``s (``tool_use_id``, ``content``, ``is_error``) and
  ``ServerToolResultBlock``s; a call made by a subagent keeps its ``parent_tool_use_id``.
"""

from __future__ import annotations

from typing import Any

from toolscore.model import ToolCall

from toolscore_providers._common import (
    Drafts,
    class_name,
    decode_json,
    finish,
    get,
    has,
    is_list,
    is_object,
    items,
    messages_of,
    module_root,
    new_draft,
    plain,
    sample,
    text_of,
    unreadable,
)
from toolscore_providers._shapes import message_tally, mostly_messages

FORMAT = "claude_agent_sdk"

_EXPECTED = "a list of Claude Agent SDK messages (objects, their dicts, or stream-json lines)"

_USE_CLASSES = {"ToolUseBlock": "tool_use", "ServerToolUseBlock": "server_tool_use"}
_RESULT_CLASSES = frozenset({"ToolResultBlock", "ServerToolResultBlock"})


def _block_kind(block: Any) -> str | None:
    """``tool_use``, ``server_tool_use``, ``tool_result`` or ``None`` for other blocks."""
    cls = class_name(block)
    if cls in _USE_CLASSES:
        return _USE_CLASSES[cls]
    if cls in _RESULT_CLASSES:
        return "tool_result"
    kind = get(block, "type")
    if isinstance(kind, str):
        if kind in ("tool_use", "server_tool_use", "mcp_tool_use"):
            return kind
        if kind.endswith("tool_result"):
            return "tool_result"
        return None
    # dataclasses.asdict() dumps carry no type: recognise the fields.
    if get(block, "tool_use_id") is not None:
        return "tool_result"
    if get(block, "name") is not None and has(block, "input") and get(block, "id") is not None:
        return "server_tool_use" if str(get(block, "id")).startswith("srvtoolu_") else "tool_use"
    return None


def _content(message: Any) -> Any:
    inner = get(message, "message")
    if inner is not None and get(message, "type") in ("assistant", "user"):
        return get(inner, "content")
    return get(message, "content")


#: The top-level keys :func:`confidence` reads in a plain dict: one with none of them rates
#: 0.0, and detection skips this format for it (``Extractor.detection_keys``).
DETECTION_KEYS = frozenset({"messages"})


def confidence(payload: Any) -> float:
    if type(payload) is dict:  # the common case, a saved conversation, read directly
        messages = payload.get("messages")
        values = items(messages) if is_list(messages) else None
        if not values:
            return 0.0
        window = sample(values)
        if type(window[0]) is dict:  # so not all of them are SDK messages
            return _rated(window)
    if module_root(payload) == "claude_agent_sdk":
        return 1.0
    values = messages_of(payload)
    if not values:
        return 0.0
    window = sample(values)
    if all(module_root(v) == "claude_agent_sdk" for v in window):
        return 1.0
    return _rated(window)


def _rated(window: list[Any]) -> float:
    """The confidence from the tally of ``window``, messages that are not all SDK objects."""
    counts = message_tally(window)
    if counts.get("claude_sdk") and mostly_messages(counts):
        return 0.95
    if counts.get("anthropic") and mostly_messages(counts):
        # Plain Anthropic messages: readable, but the anthropic format explains them better.
        return 0.5
    return 0.0


def extract(payload: Any) -> list[ToolCall]:
    values = messages_of(payload)
    if values is None:
        if not (is_object(payload) and _content(payload) is not None):
            raise unreadable(FORMAT, _EXPECTED, payload)
        values = [payload]
    found = Drafts()
    for message in values:
        content = _content(message)
        if not is_list(content):
            continue
        parent = get(message, "parent_tool_use_id")
        for block in content:
            kind = _block_kind(block)
            if kind in ("tool_use", "server_tool_use", "mcp_tool_use"):
                extra: dict[str, Any] = {}
                if kind != "tool_use":
                    extra["provider_executed"] = True
                if isinstance(parent, str):
                    extra["parent_tool_use_id"] = parent
                found.add(
                    new_draft(
                        FORMAT,
                        get(block, "name"),
                        plain(get(block, "input")),
                        id=get(block, "id"),
                        kind=kind,
                        extra=extra,
                        where=block,
                        required=True,
                    )
                )
            elif kind == "tool_result":
                draft = found.index.find(get(block, "tool_use_id"))
                if draft is None:
                    continue
                value = decode_json(text_of(get(block, "content")))
                if get(block, "is_error") is True:
                    draft.fail(value if isinstance(value, str) else text_of(get(block, "content")))
                else:
                    draft.result = value
    return finish(found.drafts)
