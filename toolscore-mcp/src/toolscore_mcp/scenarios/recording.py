"""A starter scenario file from a session recorded with ``toolscore mcp record``.

Each successful ``tools/call`` becomes a call to make; a call whose argument is an id an
earlier call returned gets that call as its setup (``mcp scenarios from-record``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Final

import attrs
from toolscore.errors import InputError
from toolscore.lazy_pattern import lazy_pattern
from toolscore.serialization import json_path

from toolscore_mcp.scenarios.file_reader import describe_value, parse_json_text, read_input_text
from toolscore_mcp.scenarios.starter import append_unique

__all__ = ["scenarios_from_recording"]

#: Keys under which a small int in structuredContent is an id (``id``, ``note_id``, ``noteId``).
_ID_KEY: Final = lazy_pattern(r"(?:^|_)id$|Id$|^id_")


@attrs.frozen
class _RecordedCall:
    """One successful ``tools/call`` of a recorded session."""

    tool: str
    arguments: dict[str, Any]
    text: str
    structured: Any


def _session_messages(path: Path, source: str) -> list[Any]:
    document = parse_json_text(read_input_text(path, source), source)
    if not isinstance(document, dict):
        raise InputError(
            f"expected a session object from `toolscore mcp record`, got {describe_value(document)}",
            source=source,
            path="$",
        )
    messages = document.get("messages")
    if not isinstance(messages, list):
        raise InputError(
            f"expected a list of recorded messages, got {describe_value(messages)}",
            source=source,
            path="$.messages",
        )
    return messages


def _request(message: Any, index: int, source: str) -> tuple[Any, str, dict[str, Any]] | None:
    """(id, tool, arguments) of a ``tools/call`` request; None for any other message."""
    if not isinstance(message, dict):
        raise InputError(
            f"expected a JSON-RPC message object, got {describe_value(message)}",
            source=source,
            path=json_path(["messages", index]),
        )
    if message.get("method") != "tools/call":
        return None
    params = message.get("params")
    name = params.get("name") if isinstance(params, dict) else None
    if not isinstance(name, str) or not name:
        raise InputError(
            "expected a tool name", source=source, path=json_path(["messages", index, "params"])
        )
    arguments = params.get("arguments") if isinstance(params, dict) else None
    if arguments is not None and not isinstance(arguments, dict):
        raise InputError(
            f"expected an object of arguments, got {describe_value(arguments)}",
            source=source,
            path=json_path(["messages", index, "params", "arguments"]),
        )
    return message.get("id"), name, dict(arguments or {})


def _successful_result(message: dict[str, Any]) -> dict[str, Any] | None:
    """The ``result`` of a response that succeeded; None for errors and ``isError: true``."""
    result = message.get("result")
    if "error" in message or not isinstance(result, dict) or result.get("isError") is True:
        return None
    return result


def _recorded_calls(messages: Sequence[Any], source: str) -> list[_RecordedCall]:
    """The successful calls of a session, in the order their responses arrived."""
    from toolscore_mcp.client.content import content_to_text

    pending: dict[Any, tuple[str, dict[str, Any]]] = {}
    calls: list[_RecordedCall] = []
    for index, message in enumerate(messages):
        request = _request(message, index, source)
        if request is not None:
            pending[json.dumps(request[0])] = request[1:]
            continue
        key = json.dumps(message.get("id"))
        if key not in pending:
            continue
        tool, arguments = pending.pop(key)
        result = _successful_result(message)
        if result is not None:
            text = content_to_text(result.get("content"))
            calls.append(_RecordedCall(tool, arguments, text, result.get("structuredContent")))
    return calls


def _id_like(value: Any) -> bool:
    """A value worth looking for in earlier outputs: not ``10`` or ``"a"``, which are everywhere."""
    if isinstance(value, bool):
        return False
    if isinstance(value, str):
        return len(value.strip()) >= 3
    return isinstance(value, int) and abs(value) >= 10


def _leaves(value: Any, key: str = "") -> Iterable[tuple[str, Any]]:
    """(key, value) of every scalar inside ``value``."""
    if isinstance(value, dict):
        for name, item in value.items():
            yield from _leaves(item, str(name))
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item, key)
    else:
        yield key, value


def _in_text(value: Any, text: str) -> bool:
    token = re.escape(str(value))
    return re.search(rf"(?<![\w.-]){token}(?![\w-]|\.\w)", text) is not None


def _produced(value: Any, call: _RecordedCall) -> bool:
    """Whether ``call``'s output holds ``value``: an id, a path, a name it gave back."""
    for key, item in _leaves(call.structured):
        same = item == value and type(item) is type(value)
        if same and (_id_like(value) or (isinstance(value, int) and _ID_KEY.search(key))):
            return True
    return _id_like(value) and _in_text(value, call.text)


def _producers(call: _RecordedCall, earlier: Sequence[_RecordedCall]) -> list[int]:
    """Indexes of the earlier calls (other tools) whose outputs hold one of ``call``'s values."""
    found: list[int] = []
    for _, value in _leaves(call.arguments):
        for index, previous in enumerate(earlier):
            if previous.tool != call.tool and _produced(value, previous):
                append_unique(found, index)
                break
    return sorted(found)


def _setup_chains(calls: Sequence[_RecordedCall]) -> list[list[int]]:
    """For each call, the earlier calls it depends on, their own setup first."""
    chains: list[list[int]] = []
    for position, call in enumerate(calls):
        chain: list[int] = []
        for index in _producers(call, calls[:position]):
            for step in [*chains[index], index]:
                append_unique(chain, step)
        chains.append(chain)
    return chains


def _recording_document(calls: Sequence[_RecordedCall]) -> dict[str, Any]:
    chains = _setup_chains(calls)
    entries: dict[str, dict[str, Any]] = {}
    for call, chain in zip(calls, chains):
        entry = entries.setdefault(call.tool, {"setup": [], "arguments": []})
        for index in chain:
            step = calls[index]
            append_unique(entry["setup"], {"tool": step.tool, "arguments": step.arguments})
        append_unique(entry["arguments"], call.arguments)
    tools = {
        name: entry if entry["setup"] else {"arguments": entry["arguments"]}
        for name, entry in entries.items()
    }
    return {"version": 1, "tools": tools}


def scenarios_from_recording(path: str | Path) -> dict[str, Any]:
    """A scenario document from a ``toolscore mcp record`` session, for ``scenarios from-record``.

    Every successful call becomes an argument set of its tool (distinct, in order); failed
    calls (JSON-RPC errors, ``isError: true``, no response) are left out. When a call's
    argument (an id, a path, a name of three characters or more, an int of 10 or more) shows
    up in an earlier successful call's output, that earlier call, after its own setup,
    becomes a setup step of the tool.

    :raises InputError: the session file cannot be read or is not a recorded session.
    """
    source = str(path)
    messages = _session_messages(Path(path), source)
    return _recording_document(_recorded_calls(messages, source))
