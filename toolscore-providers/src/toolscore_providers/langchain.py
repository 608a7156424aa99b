"""LangChain and LangGraph: messages, graph states and streams, agent actions.

Reads:

* LangGraph states (``{"messages": [...]}``, or an object with ``messages``) and message lists,
  whatever their first message is; messages as objects (``AIMessage``, ``ToolMessage``, ...),
  as ``model_dump()`` dicts (``type: "ai"``), as ``messages_to_dict`` dicts
  (``{"type": "ai", "data": {...}}``) or in ``dumpd`` form
  (``{"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs": {...}}``);
* an ``AIMessage``'s ``tool_calls`` (``name``, ``args``, ``id``), its ``invalid_tool_calls``
  (arguments kept raw with the parse error), streamed ``tool_call_chunks`` joined by index,
  and OpenAI-style ``{"function": {"name", "arguments"}}`` entries;
* results from ``ToolMessage``s (``tool_call_id``, ``content``, ``status: "error"``);
* LangGraph streams: ``stream_mode="updates"`` lists (``[{node: {"messages": [...]}}]``) and
  ``"values"`` lists of states (the last state holds every message);
* the legacy agent forms: ``{"tool", "tool_input", "log"}``,
  ``{"action", "action_input"}`` and ``{"name", "args", "id"}``, and AgentExecutor's
  ``intermediate_steps`` (``[[action, observation], ...]``), observations as results.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from toolscore.model import ToolCall

from toolscore_providers._common import (
    CallDraft,
    Drafts,
    action_input,
    class_name,
    decode_json,
    finish,
    get,
    is_list,
    is_object,
    items,
    module_root,
    new_draft,
    plain,
    present,
    sample,
    text_of,
    unreadable,
)
from toolscore_providers._shapes import LANGCHAIN_TYPES, message_tally, mostly_messages

FORMAT = "langchain"

_EXPECTED = (
    'a LangGraph state ({"messages": [...]}), LangChain messages, or agent actions '
    "(tool/tool_input, action/action_input, name/args)"
)

_AI_CLASSES = frozenset({"AIMessage", "AIMessageChunk"})
_TOOL_CLASSES = frozenset({"ToolMessage", "ToolMessageChunk"})


def _unwrap(message: Any) -> tuple[Any, Any]:
    """The message's fields and its type: dumpd and messages_to_dict forms are opened up."""
    if get(message, "lc") is not None and is_list(get(message, "id")):
        ident = items(get(message, "id"))
        name = ident[-1] if ident else None
        kwargs = get(message, "kwargs")
        kind = {"AIMessage": "ai", "AIMessageChunk": "ai", "ToolMessage": "tool"}.get(
            name if isinstance(name, str) else "", name
        )
        return kwargs, kind
    data = get(message, "data")
    kind = get(message, "type")
    if isinstance(data, Mapping) and isinstance(kind, str) and kind in LANGCHAIN_TYPES:
        return data, kind
    if not isinstance(message, Mapping):
        cls = class_name(message)
        if cls in _AI_CLASSES:
            return message, "ai"
        if cls in _TOOL_CLASSES:
            return message, "tool"
    if kind == "AIMessageChunk":
        kind = "ai"
    role = get(message, "role")
    if kind is None and role in ("assistant", "ai", "tool"):
        kind = "tool" if role == "tool" else "ai"
    return message, kind


def _is_legacy(value: Any) -> bool:
    if get(value, "lc") is not None and is_object(get(value, "kwargs")):
        value = get(value, "kwargs")
    return (get(value, "tool") is not None and present(value, "tool_input")) or (
        get(value, "action") is not None and present(value, "action_input")
    )


def _is_modern_call(value: Any) -> bool:
    return (
        isinstance(get(value, "name"), str)
        and get(value, "args") is not None
        and get(value, "role") is None
        and get(value, "type") in (None, "tool_call")
    )


def _is_step(value: Any) -> bool:
    return is_list(value) and len(value) == 2 and _is_legacy(value[0])


def _is_update(value: Any) -> bool:
    """A ``stream_mode="updates"`` chunk: ``{node_name: {"messages": [...]}}``."""
    if not isinstance(value, Mapping) or not value or "messages" in value:
        return False
    return all(is_list(get(v, "messages")) for v in value.values())


def _messages_confidence(values: list[Any]) -> float:
    counts = message_tally(values)
    if not mostly_messages(counts):
        return 0.0
    count = counts.get
    if count("langchain"):
        return 0.95
    if count("langchain_calls") and not (count("anthropic") or count("gemini")):
        return 0.7
    if count("openai"):
        return 0.3
    return 0.2 if count("role") else 0.0


#: The top-level keys :func:`confidence` reads in a plain dict: one with none of them rates
#: 0.0, and detection skips this format for it (``Extractor.detection_keys``).
DETECTION_KEYS = frozenset({"messages", "intermediate_steps", "lc", "tool", "action", "type"})


def confidence(payload: Any) -> float:
    if type(payload) is dict:  # the common case, a saved conversation, read directly
        messages = payload.get("messages")
        if is_list(messages):
            return _messages_confidence(items(messages))
    root = module_root(payload)
    if root in ("langchain_core", "langchain", "langgraph"):
        return 1.0
    if isinstance(payload, (list, tuple)):
        values = list(payload)
        window = sample(values)
        if not window:
            return 0.0
        if all(module_root(v) in ("langchain_core", "langchain") for v in window):
            return 1.0
        if all(_is_legacy(v) or _is_step(v) for v in window):
            return 0.85
        if all(_is_modern_call(v) for v in window):
            return 0.8 if any(get(v, "type") == "tool_call" for v in window) else 0.5
        if all(_is_update(v) for v in window):
            return 0.9
        if all(isinstance(v, Mapping) and is_list(v.get("messages")) for v in window):
            return _messages_confidence(items(window[-1].get("messages")))
        return _messages_confidence(values)
    if not is_object(payload):
        return 0.0
    messages = get(payload, "messages")
    if is_list(messages):
        return _messages_confidence(items(messages))
    steps = get(payload, "intermediate_steps")
    if is_list(steps):
        return 0.9
    if get(payload, "lc") is not None and is_list(get(payload, "id")):
        return 0.9
    if _is_legacy(payload):
        return 0.6
    if class_name(payload) in _AI_CLASSES:
        return 0.9
    if get(payload, "type") in ("ai", "AIMessageChunk") and is_list(get(payload, "tool_calls")):
        return 0.8
    return 0.0


# -- extraction ----------------------------------------------------------------------------------


class _Reader(Drafts):
    def message(self, message: Any) -> None:
        fields, kind = _unwrap(message)
        if _is_legacy(message):
            self.legacy(message)
            return
        if _is_modern_call(message):
            self.add(_modern(message))
            return
        if kind == "tool":
            self.tool_message(fields)
            return
        calls = items(get(fields, "tool_calls"))
        if calls:
            for entry in calls:
                self.add(_modern(entry))
        else:
            chunks = items(get(fields, "tool_call_chunks"))
            if chunks:
                self.chunks(chunks)
            else:
                wire = items(get(get(fields, "additional_kwargs"), "tool_calls"))
                for entry in wire:
                    self.add(_modern(entry))
        for entry in items(get(fields, "invalid_tool_calls")):
            draft = self.add(_modern(entry, kind="invalid_tool_call"))
            error = get(entry, "error")
            if (
                draft is not None
                and isinstance(error, str)
                and "args_parse_error" not in draft.metadata
            ):
                draft.metadata["args_parse_error"] = error

    def tool_message(self, fields: Any) -> None:
        draft = self.index.find(get(fields, "tool_call_id"))
        if draft is None:
            return
        content = decode_json(text_of(get(fields, "content")))
        if get(fields, "status") == "error":
            draft.fail(content if isinstance(content, str) else json.dumps(content, default=str))
        else:
            draft.result = content
        artifact = get(fields, "artifact")
        if artifact is not None:
            draft.metadata["artifact"] = plain(artifact)

    def chunks(self, chunks: list[Any]) -> None:
        slots: dict[Any, dict[str, Any]] = {}
        for order, chunk in enumerate(chunks):
            key = get(chunk, "index", default=order)
            if isinstance(key, (list, dict)):
                key = order
            slot = slots.setdefault(key, {"name": "", "args": "", "id": None})
            name = get(chunk, "name")
            if isinstance(name, str) and name and not slot["name"]:
                slot["name"] = name
            fragment = get(chunk, "args")
            if isinstance(fragment, str):
                slot["args"] += fragment
            call_id = get(chunk, "id")
            if isinstance(call_id, str) and call_id and slot["id"] is None:
                slot["id"] = call_id
        for slot in slots.values():
            self.add(
                new_draft(
                    FORMAT, slot["name"], slot["args"], id=slot["id"], kind="tool_call_chunks"
                )
            )

    def legacy(self, action: Any, observation: Any = None, has_observation: bool = False) -> None:
        fields, _ = _unwrap(action)
        if get(fields, "tool") is not None:
            name, raw, kind = get(fields, "tool"), get(fields, "tool_input"), "langchain_legacy"
        else:
            name, raw, kind = get(fields, "action"), get(fields, "action_input"), "langchain_action"
        raw = action_input(raw)
        extra: dict[str, Any] = {}
        log = get(fields, "log")
        if isinstance(log, str):
            extra["log"] = log
        draft = self.add(
            new_draft(
                FORMAT,
                name,
                plain(raw),
                id=get(fields, "tool_call_id"),
                kind=kind,
                extra=extra,
                where=fields,
                key="tool" if kind == "langchain_legacy" else "action",
            )
        )
        if draft is not None and has_observation:
            draft.result = plain(observation)

    def values(self, values: list[Any]) -> None:
        if values and all(_is_update(v) for v in sample(values)):
            for update in values:
                if isinstance(update, Mapping):
                    for node in update.values():
                        for message in items(get(node, "messages")):
                            self.message(message)
            return
        if values and all(isinstance(v, Mapping) and is_list(v.get("messages")) for v in values):
            # stream_mode="values": every state repeats the messages before it; the last and
            # longest holds them all. Unrelated states are read one after the other.
            lengths = [len(v["messages"]) for v in values]
            chosen = [values[-1]] if lengths[-1] == max(lengths) else values
            for state in chosen:
                for message in state["messages"]:
                    self.message(message)
            return
        for value in values:
            if _is_step(value):
                self.legacy(value[0], value[1], True)
            else:
                self.message(value)


def _modern(entry: Any, kind: str = "tool_call") -> CallDraft | None:
    name = get(entry, "name")
    raw = get(entry, "args")
    function = get(entry, "function")
    where = entry
    if not name and function is not None:
        name = get(function, "name")
        where = function
        if raw is None:
            raw = get(function, "arguments")
    # invalid_tool_calls may lack a name (the model's output could not be parsed at all).
    return new_draft(
        FORMAT,
        name,
        raw,
        id=get(entry, "id"),
        kind=kind,
        where=where,
        required=kind == "tool_call" and is_object(entry),
    )


def extract(payload: Any) -> list[ToolCall]:
    reader = _Reader()
    if isinstance(payload, (list, tuple)):
        reader.values(list(payload))
        return finish(reader.drafts)
    if not is_object(payload):
        raise unreadable(FORMAT, _EXPECTED, payload)
    messages = get(payload, "messages")
    steps = get(payload, "intermediate_steps")
    if is_list(messages):
        reader.values(list(messages))
    elif is_list(steps):
        reader.values(list(steps))
    elif (
        _is_legacy(payload)
        or get(payload, "lc") is not None
        or get(payload, "tool_calls") is not None
        or get(payload, "tool_call_chunks") is not None
        or _is_modern_call(payload)
    ):
        reader.message(payload)
    else:
        raise unreadable(FORMAT, _EXPECTED, payload)
    return finish(reader.drafts)
