"""Anthropic Messages: responses, message lists and streamed events.

Reads:

* a ``Message`` (``content`` blocks) or a list of them, message lists (the ``messages`` of a
  request, bare or as ``{"messages": [...]}``, whatever their first message is);
* ``tool_use`` blocks (run by the client), ``server_tool_use`` (web search, code execution, ...)
  and ``mcp_tool_use`` (MCP connector) blocks, both run by Anthropic and marked
  ``provider_executed``; ``input`` is the arguments; the blocks of one message (parallel
  calls) share ``metadata["message"]``, the message's position among those read;
* results from ``tool_result`` blocks (``tool_use_id``, ``content``, ``is_error``) and the
  hosted ``*_tool_result`` / ``mcp_tool_result`` blocks; a ``*_error`` result content fails the
  call with its ``error_code``;
* streamed events (``message_start``, ``content_block_start``, ``content_block_delta`` with
  ``input_json_delta`` fragments, ...), the fragments of each block joined before decoding.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolscore.model import ToolCall

from toolscore_providers._common import (
    Drafts,
    decode_json,
    fields_of,
    finish,
    get,
    is_list,
    is_object,
    items,
    module_root,
    new_draft,
    plain,
    sample,
    text,
    text_of,
    unreadable,
)
from toolscore_providers._shapes import chat_score, message_tally

FORMAT = "anthropic"

_EXPECTED = 'a message (content blocks), a list of messages, {"messages": [...]} or stream events'

_CALL_BLOCKS = {"tool_use": False, "server_tool_use": True, "mcp_tool_use": True}
_EVENTS = frozenset(
    {
        "message_start",
        "message_delta",
        "message_stop",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "ping",
    }
)
_TEXT_BLOCKS = frozenset({"text", "image"})


def _is_event(value: Any) -> bool:
    return text(value, "type") in _EVENTS


def _block_kinds(content: Any) -> set[str]:
    return {k for b in sample(items(content)) if isinstance(k := get(b, "type"), str)}


def _looks_anthropic_content(content: Any) -> float:
    kinds = _block_kinds(content)
    if not kinds:
        return 0.0
    if kinds & set(_CALL_BLOCKS) or any(k.endswith("tool_result") for k in kinds):
        return 0.9
    if kinds & {"thinking", "redacted_thinking"}:
        return 0.9
    if kinds <= _TEXT_BLOCKS:
        return 0.6
    return 0.0


_FOREIGN = ("openai", "langchain", "gemini", "claude_sdk", "pydantic_ai", "langchain_calls")


def _messages_confidence(values: list[Any]) -> float:
    return chat_score(message_tally(values), "anthropic", _FOREIGN, unmarked=0.45)


#: The top-level keys :func:`confidence` reads in a plain dict: one with none of them rates
#: 0.0, and detection skips this format for it (``Extractor.detection_keys``).
DETECTION_KEYS = frozenset({"content", "type", "messages"})


def _list_confidence(values: list[Any]) -> float:
    window = sample(values)
    if not window:
        return 0.0
    if all(module_root(v) == "anthropic" for v in window):
        return 1.0
    events = sum(1 for v in window if _is_event(v))
    if events and events * 2 >= len(window):
        return 1.0
    return _messages_confidence(values)


def confidence(payload: Any) -> float:
    if type(payload) is not dict:  # a plain dict has no SDK class and is no list
        if module_root(payload) == "anthropic":
            return 1.0
        if isinstance(payload, (list, tuple)):
            return _list_confidence(list(payload))
        if not is_object(payload):
            return 0.0
    field = fields_of(payload)
    content = field("content")
    if field("type") == "message" and is_list(content):
        score = _looks_anthropic_content(content)
        return 1.0 if score or not content else 0.0
    messages = field("messages")
    if is_list(messages):
        score = _messages_confidence(items(messages))
        if score and (field("max_tokens") is not None or isinstance(field("system"), (str, list))):
            return max(score, 0.6)
        return score
    if is_list(content) and field("role") in (None, "assistant", "user"):
        return _looks_anthropic_content(content)
    if _is_event(payload):
        return 0.9
    return 0.0


# -- extraction ----------------------------------------------------------------------------------


class _Reader(Drafts):
    def __init__(self) -> None:
        super().__init__()
        #: Messages read so far: the ``tool_use`` blocks of one message share
        #: ``metadata["message"]`` (a batch of parallel calls).
        self.messages = 0

    def message(self, message: Any, stop_reason: Any = None) -> None:
        content = get(message, "content")
        if not is_list(content):
            return
        role = get(message, "role")
        stop = stop_reason if stop_reason is not None else get(message, "stop_reason")
        self.messages += 1
        for block in content:
            self.block(block, role, stop)

    def block(
        self, block: Any, role: Any, stop_reason: Any, fragments: list[str] | None = None
    ) -> None:
        kind = get(block, "type")
        if not isinstance(kind, str):
            return
        if kind in _CALL_BLOCKS:
            if role == "user":
                return
            raw = get(block, "input")
            if fragments:
                raw = "".join(fragments)
            extra: dict[str, Any] = {}
            if _CALL_BLOCKS[kind]:
                extra["provider_executed"] = True
            server = get(block, "server_name")
            if isinstance(server, str):
                extra["server_name"] = server
            if isinstance(stop_reason, str):
                extra["stop_reason"] = stop_reason
            extra["message"] = self.messages - 1
            self.add(
                new_draft(
                    FORMAT,
                    get(block, "name"),
                    raw,
                    id=get(block, "id"),
                    kind=kind,
                    extra=extra,
                    where=block,
                    required=True,
                )
            )
            return
        if kind.endswith("tool_result"):
            draft = self.index.find(get(block, "tool_use_id"))
            if draft is None:
                return
            content = get(block, "content")
            error_code = get(content, "error_code")
            if isinstance(get(content, "type"), str) and get(content, "type").endswith("_error"):
                draft.fail(error_code if error_code is not None else get(content, "type"))
                return
            value = (
                decode_json(text_of(content))
                if kind in ("tool_result", "mcp_tool_result")
                else plain(content)
            )
            if get(block, "is_error") is True:
                draft.fail(value if isinstance(value, str) else text_of(content))
            else:
                draft.result = value

    def events(self, events: list[Any]) -> None:
        blocks: dict[Any, Any] = {}
        fragments: dict[Any, list[str]] = {}
        order: list[Any] = []
        stop_reason: Any = None

        def flush() -> None:
            if order:
                self.messages += 1
            for key in order:
                self.block(blocks[key], "assistant", stop_reason, fragments.get(key))
            blocks.clear()
            fragments.clear()
            order.clear()

        for event in events:
            kind = get(event, "type")
            if kind == "message_start":
                flush()
                stop_reason = None
                message = get(event, "message")
                for position, block in enumerate(items(get(message, "content"))):
                    blocks[position] = block
                    order.append(position)
            elif kind == "content_block_start":
                key = get(event, "index", default=len(order))
                if isinstance(key, (list, dict)):
                    continue
                if key not in blocks:
                    order.append(key)
                blocks[key] = get(event, "content_block")
                fragments.pop(key, None)
            elif kind == "content_block_delta":
                delta = get(event, "delta")
                partial = get(delta, "partial_json")
                key = get(event, "index")
                if isinstance(partial, str) and not isinstance(key, (list, dict)) and key in blocks:
                    fragments.setdefault(key, []).append(partial)
            elif kind == "message_delta":
                reason = get(get(event, "delta"), "stop_reason")
                if reason is not None:
                    stop_reason = reason
        flush()


def _messages_of(payload: Any) -> list[Any] | None:
    if isinstance(payload, (list, tuple)):
        return list(payload)
    messages = get(payload, "messages")
    if is_list(messages):
        return list(messages)
    if is_list(get(payload, "content")):
        return [payload]
    return None


def extract(payload: Any) -> list[ToolCall]:
    reader = _Reader()
    if isinstance(payload, (list, tuple)) and any(_is_event(v) for v in sample(list(payload))):
        reader.events(list(payload))
        return finish(reader.drafts)
    if is_object(payload) and _is_event(payload):
        reader.events([payload])
        return finish(reader.drafts)
    messages = (
        _messages_of(payload) if isinstance(payload, (list, tuple)) or is_object(payload) else None
    )
    if messages is None:
        raise unreadable(FORMAT, _EXPECTED, payload)
    for message in messages:
        if isinstance(message, Mapping) or is_object(message):
            reader.message(message)
    return finish(reader.drafts)
