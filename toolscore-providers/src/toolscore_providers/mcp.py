"""MCP (JSON-RPC 2.0) logs: raw message logs, batches and ``toolscore mcp record`` sessions.

Only ``tools/call`` requests become calls: ``initialize``, notifications,
``tools/list`` and the like are protocol traffic, not tool use. A response is attached to the
request with the same ``id``, ids compared by type and value (``1`` and ``"1"`` differ; bool and
null ids never pair), in either order. From the response:

* the result is ``structuredContent`` when present, else the ``content`` rendered as text (as
  an MCP client shows it), else the raw result object;
* a JSON-RPC ``error`` fails the call with its message (``error_code`` in metadata), and an
  ``isError`` result fails it with its text;
* ``duration`` (seconds, added by ``toolscore mcp record``) is kept.

A ``notifications/cancelled`` for a pending request fails its call as cancelled. Shapes: one
message, a list of messages (items may be batch arrays), ``{"messages": [...]}`` (the recorded
session layout ``{"format": "mcp", ...}``), and ``{"calls": [...]}`` / ``{"tools": [...]}``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolscore.model import ToolCall

from toolscore_providers._common import (
    CallDraft,
    MalformedItemError,
    finish,
    get,
    is_list,
    is_object,
    items,
    json_kind,
    module_root,
    new_draft,
    number,
    plain,
    sample,
    unreadable,
)
from toolscore_providers._shapes import all_plain_chat

FORMAT = "mcp"

_EXPECTED = 'JSON-RPC messages: a message, a list or batch of them, or {"messages": [...]}'


def _key(value: Any) -> tuple[str, Any] | None:
    """A request id usable for pairing: int and str ids only, typed."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, str):
        return ("str", value)
    return None


def _is_jsonrpc(value: Any) -> bool:
    return get(value, "jsonrpc") is not None


def _messages(payload: Any) -> list[Any] | None:
    if isinstance(payload, (list, tuple)):
        return items(payload)
    if not is_object(payload):
        return None
    if _is_jsonrpc(payload) or get(payload, "method") is not None:
        return [payload]
    for key in ("messages", "calls", "tools"):
        value = get(payload, key)
        if is_list(value):
            return items(value)
    return None


def _flatten(values: list[Any]) -> Iterator[Any]:
    for value in values:
        if isinstance(value, (list, tuple)):
            for inner in value:
                if not isinstance(inner, (list, tuple)):
                    yield inner
        else:
            yield value


#: The top-level keys :func:`confidence` reads in a plain dict: one with none of them rates
#: 0.0, and detection skips this format for it (``Extractor.detection_keys``).
DETECTION_KEYS = frozenset({"format", "jsonrpc", "method", "messages", "calls", "tools"})


def confidence(payload: Any) -> float:
    if (
        type(payload) is dict  # the common case, a saved conversation, read directly
        and payload.get("format") != "mcp"
        and payload.get("jsonrpc") is None
        and payload.get("method") is None
    ):
        messages = payload.get("messages")
        if is_list(messages):
            listed = items(messages)
            if not listed or all_plain_chat(listed):  # plain chat messages have no "jsonrpc"
                return 0.0
    root = module_root(payload)
    if root in ("mcp", "mcp_types"):
        return 0.9
    if not isinstance(payload, (list, tuple)) and not is_object(payload):
        return 0.0
    if is_object(payload):
        if get(payload, "format") == "mcp":
            return 1.0
        if _is_jsonrpc(payload):
            return 1.0
    values = _messages(payload)
    if not values or all_plain_chat(values):  # plain chat messages have no "jsonrpc"
        return 0.0
    window = list(_flatten(sample(values)))
    if not window:
        return 0.0
    rpc = sum(1 for v in window if _is_jsonrpc(v))
    if rpc and rpc * 2 >= len(window):
        return 1.0
    if rpc:
        return 0.6
    return 0.0


def render_content(content: Any) -> str:
    """MCP content as a client shows it: text, resources, links, media markers."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, (list, tuple)):
        message = get(content, "message")
        return message if isinstance(message, str) else ""
    lines: list[str] = []
    for item in content:
        kind = get(item, "type")
        if kind == "text":
            text = get(item, "text")
            if isinstance(text, str):
                lines.append(text)
        elif kind == "resource":
            resource = get(item, "resource")
            uri = get(resource, "uri", default="")
            text = get(resource, "text")
            if isinstance(text, str):
                lines.append(f"[resource {uri}]\n{text}")
            else:
                mime = get(resource, "mimeType")
                lines.append(
                    f"[binary resource {uri} ({mime})]" if mime else f"[binary resource {uri}]"
                )
        elif kind == "resource_link":
            uri = get(item, "uri", default="")
            name = get(item, "name", default="")
            lines.append(f"[resource link {uri} {name}]".replace(" ]", "]"))
        elif kind == "image":
            mime = get(item, "mimeType")
            lines.append(f"[image ({mime})]" if mime else "[image]")
        elif kind == "audio":
            lines.append("[audio]")
    return "\n".join(lines)


def _apply_response(draft: CallDraft, response: Any) -> None:
    raw = get(response, "result")
    result = raw if is_object(raw) else {}
    error = get(response, "error")
    if isinstance(error, str) and error:
        error = {"message": error}
    error = error if is_object(error) else None
    duration = number(get(response, "duration"))
    if duration is not None and duration >= 0:
        draft.duration = duration
    if error is not None:
        message = get(error, "message")
        draft.fail(message if message is not None else "JSON-RPC error")
        code = get(error, "code")
        if code is not None:
            draft.metadata["error_code"] = plain(code)
        data = get(error, "data")
        if data is not None:
            draft.metadata["error_data"] = plain(data)
        return
    content = get(result, "content")
    if get(result, "isError") is True:
        draft.fail(render_content(content) or "tool reported an error")
        return
    structured = get(result, "structuredContent")
    if structured:
        draft.result = plain(structured)
    elif is_list(content) and content:
        draft.result = render_content(content)
    else:
        draft.result = plain(raw) if is_object(raw) else raw


def extract(payload: Any) -> list[ToolCall]:
    values = _messages(payload)
    if values is None:
        raise unreadable(FORMAT, _EXPECTED, payload)
    drafts: list[CallDraft] = []
    pending: dict[tuple[str, Any], CallDraft] = {}
    # Requests that are not tool calls, so that their responses are recognised and dropped.
    other: set[tuple[str, Any]] = set()
    early: dict[tuple[str, Any], Any] = {}
    for message in _flatten(values):
        if not is_object(message):
            continue
        method = get(message, "method")
        key = _key(get(message, "id"))
        if method is None:
            if key is None or (get(message, "result") is None and get(message, "error") is None):
                continue
            draft = pending.pop(key, None)
            if draft is not None:
                _apply_response(draft, message)
            elif key in other:
                other.discard(key)
            else:
                early.setdefault(key, message)
            continue
        if method == "notifications/cancelled":
            params = get(message, "params")
            cancelled = pending.pop(_key(get(params, "requestId")) or ("", None), None)
            if cancelled is not None:
                reason = get(params, "reason")
                cancelled.fail(
                    f"cancelled: {reason}" if isinstance(reason, str) and reason else "cancelled"
                )
            continue
        if method != "tools/call":
            if key is not None:
                other.add(key)
            continue
        params = get(message, "params")
        if not is_object(params):
            raise MalformedItemError(
                f"expected an object naming the tool, got {json_kind(params)}", message, "params"
            )
        raw_id = get(message, "id")
        extra: dict[str, Any] = {"method": method}
        if raw_id is not None:
            extra["jsonrpc_id"] = plain(raw_id)
        draft = new_draft(
            FORMAT,
            get(params, "name"),
            plain(get(params, "arguments")),
            id=raw_id if key is not None else None,
            kind="tools/call",
            extra=extra,
            where=params,
            required=True,
        )
        if draft is None:
            continue
        drafts.append(draft)
        if key is not None:
            response = early.pop(key, None)
            if response is not None:
                _apply_response(draft, response)
            else:
                pending[key] = draft
    return finish(drafts)
