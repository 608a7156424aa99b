"""Pydantic AI: run results, message histories and parts.

Reads:

* a run result (anything with a callable ``all_messages()``: ``AgentRunResult``,
  ``StreamedRunResult``) and message lists (``ModelRequest`` / ``ModelResponse`` objects, or
  their JSON from ``ModelMessagesTypeAdapter``: ``{"kind": "response", "parts": [...]}``),
  bare or as ``{"messages": [...]}``; bare part lists too;
* ``tool-call`` parts (``tool_name``, ``args`` as a dict or a JSON string, ``tool_call_id``)
  and ``builtin-tool-call`` parts (run by the model provider: ``provider_executed``);
* results from ``tool-return`` / ``builtin-tool-return`` parts by ``tool_call_id``: an
  ``outcome`` of ``failed`` or ``retried`` fails the call with the returned content; and from
  the older ``retry-prompt`` parts (a validation error or ``ModelRetry``), which fail it.
"""

from __future__ import annotations

import json
from typing import Any

from toolscore.model import ToolCall

from toolscore_providers._common import (
    Drafts,
    class_name,
    finish,
    get,
    is_list,
    is_object,
    items,
    messages_of,
    module_root,
    new_draft,
    plain,
    sample,
    text,
    unreadable,
)
from toolscore_providers._shapes import all_plain_chat

FORMAT = "pydantic_ai"

_EXPECTED = (
    "a run result (all_messages()), a list of model messages (kind/parts) or parts (part_kind)"
)
_CALL_KINDS = {"tool-call": False, "builtin-tool-call": True}
_RETURN_KINDS = frozenset({"tool-return", "builtin-tool-return"})
_ERROR_OUTCOMES = frozenset({"failed", "retried"})
_CALL_CLASSES = {
    "ToolCallPart": "tool-call",
    "BuiltinToolCallPart": "builtin-tool-call",
    "NativeToolCallPart": "builtin-tool-call",
}


def _all_messages(payload: Any) -> list[Any] | None:
    method = (
        getattr(payload, "all_messages", None) if not isinstance(payload, (dict, list)) else None
    )
    if callable(method):
        try:
            return items(list(method()))
        except Exception:
            return None
    return None


def _part_kind(part: Any) -> str | None:
    kind = text(part, "part_kind")
    if kind is None and not isinstance(part, dict):
        kind = _CALL_CLASSES.get(class_name(part))
    return kind


def _is_message(value: Any) -> bool:
    return get(value, "kind") in ("request", "response") and is_list(get(value, "parts"))


def _is_part(value: Any) -> bool:
    return isinstance(_part_kind(value), str)


#: The top-level keys :func:`confidence` reads in a plain dict: one with none of them rates
#: 0.0, and detection skips this format for it (``Extractor.detection_keys``).
DETECTION_KEYS = frozenset({"messages"})


def confidence(payload: Any) -> float:
    if type(payload) is dict:  # the common case, a saved conversation, read directly
        messages = payload.get("messages")
        values = items(messages) if is_list(messages) else None
        if not values or all_plain_chat(values):
            return 0.0
    if module_root(payload) == "pydantic_ai":
        return 1.0
    if not isinstance(payload, (dict, list, tuple)) and _all_messages(payload) is not None:
        return 0.8
    values = messages_of(payload)
    if not values or all_plain_chat(values):  # plain chat messages have no kind or part_kind
        return 0.0
    window = sample(values)
    if all(module_root(v) == "pydantic_ai" for v in window):
        return 1.0
    messages = sum(1 for v in window if _is_message(v))
    if messages and messages * 4 >= len(window) * 3:
        return 0.95
    parts = sum(1 for v in window if _is_part(v))
    if parts and parts * 4 >= len(window) * 3:
        return 0.8
    return 0.0


class _Reader(Drafts):
    def part(self, part: Any) -> None:
        kind = _part_kind(part)
        if kind in _CALL_KINDS:
            extra: dict[str, Any] = {}
            if _CALL_KINDS[kind]:
                extra["provider_executed"] = True
            provider = get(part, "provider_name")
            if isinstance(provider, str):
                extra["provider_name"] = provider
            raw = get(part, "args")
            if raw is None:
                raw = _args_as_dict(part)
            self.add(
                new_draft(
                    FORMAT,
                    get(part, "tool_name"),
                    raw,
                    id=get(part, "tool_call_id"),
                    kind=kind,
                    extra=extra,
                    where=part,
                    key="tool_name",
                    required=True,
                )
            )
            return
        if kind in _RETURN_KINDS:
            draft = self.index.find(get(part, "tool_call_id"))
            if draft is None:
                return
            content = plain(get(part, "content"))
            outcome = get(part, "outcome")
            if isinstance(outcome, str) and outcome in _ERROR_OUTCOMES:
                draft.fail(content if isinstance(content, str) else _text(content))
            else:
                draft.result = content
            if isinstance(outcome, str) and outcome != "success":
                draft.metadata["outcome"] = outcome
            return
        if kind == "retry-prompt":
            draft = self.index.find(get(part, "tool_call_id"))
            if draft is not None:
                content = plain(get(part, "content"))
                draft.fail(content if isinstance(content, str) else _text(content))

    def message(self, message: Any) -> None:
        if _is_part(message):
            self.part(message)
            return
        for part in items(get(message, "parts")):
            self.part(part)


def _args_as_dict(part: Any) -> Any:
    """A part's arguments from its ``args_as_dict()`` when ``args`` is not readable as a
    field (objects may keep the arguments private)."""
    method = getattr(part, "args_as_dict", None) if not isinstance(part, dict) else None
    if not callable(method):
        return None
    try:
        return method()
    except Exception:
        return None


def _text(value: Any) -> str:
    return json.dumps(value, default=str, ensure_ascii=False)


def extract(payload: Any) -> list[ToolCall]:
    reader = _Reader()
    messages = _all_messages(payload)
    if messages is None:
        messages = messages_of(payload)
    if messages is None:
        if is_object(payload) and (is_list(get(payload, "parts")) or _is_part(payload)):
            messages = [payload]
        else:
            raise unreadable(FORMAT, _EXPECTED, payload)
    for message in messages:
        reader.message(message)
    return finish(reader.drafts)
