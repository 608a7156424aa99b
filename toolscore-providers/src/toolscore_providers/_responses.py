"""OpenAI Responses API items: the calls in ``output`` lists, their outputs, and stream events.

Shared by the ``openai`` extractor (Responses objects, input lists, streamed events) and the
``openai_agents`` extractor, whose run items wrap the same Responses items.

Item types read as calls:

* ``function_call`` (``name``, JSON ``arguments``, ``call_id``) and ``custom_tool_call``
  (``name``, free-form ``input`` kept as ``{"input": text}``): executed by the client; their
  results come from ``function_call_output`` / ``custom_tool_call_output`` items.
* ``mcp_call`` (``server_label``, ``name``, ``arguments``, ``output``, ``error``) and the other
  hosted tools (``web_search_call``, ``file_search_call``, ``code_interpreter_call``,
  ``image_generation_call``): executed by OpenAI, marked ``provider_executed``.
* ``computer_call``, ``local_shell_call``, ``shell_call``, ``apply_patch_call``: client-side
  built-in tools, named after the item type; results from their ``*_output`` items.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolscore_providers._common import (
    CallDraft,
    Drafts,
    ResultIndex,
    decode_json,
    get,
    items,
    new_draft,
    plain,
    text,
    text_of,
)

#: Hosted tools: item type -> (tool name, fields that make up the arguments, result field).
_HOSTED: dict[str, tuple[str, tuple[str, ...], str | None]] = {
    "web_search_call": ("web_search", ("action",), None),
    "file_search_call": ("file_search", ("queries",), "results"),
    "code_interpreter_call": ("code_interpreter", ("code", "container_id"), "outputs"),
    "image_generation_call": ("image_generation", (), None),
    "tool_search_call": ("tool_search", ("arguments",), None),
}

#: Client-side built-in tools: item type -> (tool name, argument field).
_CLIENT_BUILTIN: dict[str, tuple[str, str]] = {
    "computer_call": ("computer", "action"),
    "local_shell_call": ("local_shell", "action"),
    "shell_call": ("shell", "action"),
    "apply_patch_call": ("apply_patch", "operation"),
}

#: Every item type that is a call.
CALL_TYPES = frozenset(
    {"function_call", "custom_tool_call", "mcp_call", *_HOSTED, *_CLIENT_BUILTIN}
)
#: Item types that carry a client-executed call's output.
OUTPUT_TYPES = frozenset(
    {
        "function_call_output",
        "custom_tool_call_output",
        "computer_call_output",
        "local_shell_call_output",
        "shell_call_output",
        "apply_patch_call_output",
    }
)
#: Other item types that appear in output and input lists.
OTHER_TYPES = frozenset(
    {
        "message",
        "reasoning",
        "mcp_list_tools",
        "mcp_approval_request",
        "mcp_approval_response",
        "item_reference",
        "compaction",
        "tool_search_output",
        "input_text",
    }
)
ITEM_TYPES = CALL_TYPES | OUTPUT_TYPES | OTHER_TYPES


def call_from_item(item: Any, fmt: str) -> CallDraft | None:
    """The call an output item describes, or ``None`` for items that are not calls."""
    kind = get(item, "type")
    if kind == "function_call":
        draft = new_draft(
            fmt,
            get(item, "name"),
            get(item, "arguments"),
            id=get(item, "call_id", "id"),
            kind="function_call",
            where=item,
            required=True,
        )
        if draft is not None:
            _item_id(draft, item)
        return draft
    if kind == "custom_tool_call":
        text = get(item, "input")
        draft = new_draft(
            fmt,
            get(item, "name"),
            {"input": text if isinstance(text, str) else plain(text)},
            id=get(item, "call_id", "id"),
            kind="custom_tool_call",
            where=item,
            required=True,
        )
        if draft is not None:
            _item_id(draft, item)
        return draft
    if kind == "mcp_call":
        server = get(item, "server_label")
        draft = new_draft(
            fmt,
            get(item, "name"),
            get(item, "arguments"),
            id=get(item, "id"),
            kind="mcp_call",
            extra={"provider_executed": True, "server_label": server}
            if isinstance(server, str)
            else {"provider_executed": True},
            where=item,
            required=True,
        )
        if draft is not None:
            output = get(item, "output")
            if output is not None:
                draft.result = decode_json(output)
            _mcp_error(draft, get(item, "error"))
            _status(draft, item)
        return draft
    if isinstance(kind, str) and kind in _HOSTED:
        name, arg_fields, result_field = _HOSTED[kind]
        args = {f: plain(v) for f in arg_fields if (v := get(item, f)) is not None}
        if len(arg_fields) == 1 and isinstance(args.get(arg_fields[0]), Mapping):
            args = dict(args[arg_fields[0]])
        draft = new_draft(
            fmt, name, args, id=get(item, "id"), kind=kind, extra={"provider_executed": True}
        )
        if draft is not None:
            if result_field is not None:
                draft.result = plain(get(item, result_field))
            _status(draft, item)
        return draft
    if isinstance(kind, str) and kind in _CLIENT_BUILTIN:
        name, field = _CLIENT_BUILTIN[kind]
        draft = new_draft(
            fmt, name, plain(get(item, field)), id=get(item, "call_id", "id"), kind=kind
        )
        if draft is not None:
            _item_id(draft, item)
        return draft
    return None


def _mcp_error(draft: CallDraft, error: Any) -> None:
    """An ``mcp_call`` error: a message string, or an object (protocol, HTTP or execution)."""
    if error is None or error == "":
        return
    if isinstance(error, str):
        draft.fail(error)
        return
    message = get(error, "message")
    if not isinstance(message, str) or not message:
        content = get(error, "content")
        message = text_of(content) if content is not None else get(error, "type")
    draft.fail(message if message else "MCP call failed")
    code = get(error, "code")
    if isinstance(code, int) and not isinstance(code, bool):
        draft.metadata["error_code"] = code


def _item_id(draft: CallDraft, item: Any) -> None:
    item_id = get(item, "id")
    if isinstance(item_id, str) and item_id and item_id != draft.id:
        draft.metadata["item_id"] = item_id


def _status(draft: CallDraft, item: Any) -> None:
    status = get(item, "status")
    if status in ("failed", "incomplete"):
        draft.fail(f"{draft.tool} {status}")
    if isinstance(status, str):
        draft.metadata["status"] = status


def apply_output(item: Any, index: ResultIndex) -> bool:
    """Attach a ``*_output`` item to its call; ``True`` when ``item`` was an output item."""
    if text(item, "type") not in OUTPUT_TYPES:
        return False
    draft = index.find(get(item, "call_id", "id"))
    if draft is not None:
        output = get(item, "output")
        draft.result = (
            decode_json(text_of(output))
            if isinstance(output, (list, tuple))
            else decode_json(plain(output))
        )
        status = get(item, "status")
        if status in ("failed", "incomplete"):
            draft.fail(f"{draft.tool} {status}")
    return True


def read_items(values: list[Any], fmt: str) -> list[CallDraft]:
    """The calls in a list of Responses items (output or input), outputs attached."""
    found = Drafts()
    for item in values:
        if found.add(call_from_item(item, fmt)) is None:
            apply_output(item, found.index)
    return found.drafts


def is_item(value: Any) -> bool:
    kind = get(value, "type")
    return isinstance(kind, str) and kind in ITEM_TYPES


def is_message_item(value: Any) -> bool:
    """A Responses input/output message: ``role`` and a ``type`` of ``message`` (or none)."""
    return get(value, "role") is not None and get(value, "type") in (None, "message")


# -- streamed events ---------------------------------------------------------------------------

#: Delta events that append to a field of the item at ``output_index``.
_DELTAS = {
    "response.function_call_arguments.delta": "arguments",
    "response.custom_tool_call_input.delta": "input",
    "response.mcp_call_arguments.delta": "arguments",
    "response.code_interpreter_call_code.delta": "code",
}
_DONES = {
    "response.function_call_arguments.done": "arguments",
    "response.custom_tool_call_input.done": "input",
    "response.mcp_call_arguments.done": "arguments",
    "response.code_interpreter_call_code.done": "code",
}
_FINAL = ("response.completed", "response.incomplete", "response.failed")


def is_stream_event(value: Any) -> bool:
    kind = get(value, "type")
    return isinstance(kind, str) and kind.startswith("response.")


def items_from_events(events: list[Any]) -> list[Any]:
    """Rebuild the output items of one or more streamed responses, in order.

    A final ``response.completed`` event carries the whole response and wins for its response;
    otherwise the items are rebuilt from ``output_item.added`` / ``.done`` and the argument
    deltas, joined per output index.
    """
    responses: list[dict[int, dict[str, Any]]] = [{}]
    by_item_id: dict[str, dict[str, Any]] = {}
    for event in events:
        kind = get(event, "type")
        if not isinstance(kind, str):
            continue
        current = responses[-1]
        if kind == "response.created":
            if current:
                responses.append({})
            continue
        if kind in _FINAL:
            output = items(get(get(event, "response"), "output"))
            if output:
                current.clear()
                for position, item in enumerate(output):
                    current[position] = _as_dict(item)
            responses.append({})
            continue
        if kind in ("response.output_item.added", "response.output_item.done"):
            item = _as_dict(get(event, "item"))
            position = _position(get(event, "output_index"), current)
            previous = current.get(position)
            if kind.endswith(".added") or previous is None:
                current[position] = item
            else:
                previous.update({k: v for k, v in item.items() if v not in (None, "")})
                item = previous
            item_id = item.get("id")
            if isinstance(item_id, str):
                by_item_id[item_id] = item
            continue
        field = _DELTAS.get(kind) or _DONES.get(kind)
        if field is None:
            continue
        target = _target(event, current, by_item_id)
        if target is None:
            continue
        if kind in _DELTAS:
            fragment = get(event, "delta")
            if isinstance(fragment, str):
                previous_text = target.get(field)
                target[field] = (previous_text if isinstance(previous_text, str) else "") + fragment
        else:
            value = get(event, field)
            if isinstance(value, str):
                target[field] = value
    out: list[Any] = []
    for response in responses:
        out.extend(response[k] for k in sorted(response))
    return out


def _as_dict(item: Any) -> dict[str, Any]:
    value = plain(item)
    return dict(value) if isinstance(value, Mapping) else {}


def _position(value: Any, current: dict[int, dict[str, Any]]) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return max(current, default=-1) + 1


def _target(
    event: Any, current: dict[int, dict[str, Any]], by_item_id: dict[str, dict[str, Any]]
) -> dict[str, Any] | None:
    item_id = get(event, "item_id")
    if isinstance(item_id, str) and item_id in by_item_id:
        return by_item_id[item_id]
    position = get(event, "output_index")
    if isinstance(position, int) and not isinstance(position, bool):
        return current.setdefault(position, {})
    return None
