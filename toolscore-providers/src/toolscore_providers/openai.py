"""OpenAI: Chat Completions, the Responses API, and both of their streams.

Reads:

* a chat completion (``choices[*].message``) or a list of them; ``tool_calls`` entries of type
  ``function`` (JSON ``arguments``) and ``custom`` (free-form ``input``, kept as
  ``{"input": text}``), and the legacy ``function_call`` of a message without ``tool_calls``;
* chat message lists, bare or as ``{"messages": [...]}`` (a request body or a saved
  conversation): ``role: "tool"`` messages give the result of the call with their
  ``tool_call_id``, ``role: "function"`` messages that of the legacy call with their name;
  the calls of one message (parallel calls) share ``metadata["message"]``, the message's
  position among the messages read (a completion's choices likewise), so that matching can
  tell a batch of parallel calls from calls in sequence;
* streamed chat chunks (``choices[*].delta``), fragments merged per choice and ``index``;
* a Responses API response (``output`` items, see :mod:`toolscore_providers._responses`), a list
  of Responses items (an input list with ``function_call_output`` items), and streamed
  Responses events (``response.output_item.added``, ``...arguments.delta``, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolscore.model import ToolCall

from toolscore_providers import _responses
from toolscore_providers._common import (
    CallDraft,
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
    note_unreadable_args,
    parse_args,
    sample,
    scan_once,
    text,
    text_of,
    unreadable,
)
from toolscore_providers._shapes import chat_score, message_tally, plain_roles

FORMAT = "openai"

_EXPECTED = (
    "a chat completion (choices), chat messages (messages), stream chunks, "
    "a Responses API response (output) or Responses items/events"
)


# -- confidence ----------------------------------------------------------------------------------


def _is_chunk(value: Any) -> bool:
    if get(value, "object") == "chat.completion.chunk":
        return True
    choices = items(get(value, "choices"))
    return bool(choices) and get(choices[0], "delta") is not None


def _is_completion(value: Any) -> bool:
    if get(value, "object") == "chat.completion":
        return True
    choices = items(get(value, "choices"))
    return bool(choices) and get(choices[0], "message") is not None


def _list_confidence(values: list[Any]) -> float:
    if not values:
        return 0.0
    window = sample(values)
    n = len(window)
    chunks = sum(1 for v in window if _is_chunk(v))
    if chunks and chunks * 2 >= n:
        return 0.95
    completions = sum(1 for v in window if _is_completion(v))
    if completions and completions * 2 >= n:
        return 0.9
    events = sum(1 for v in window if _responses.is_stream_event(v))
    if events and events * 2 >= n:
        return 0.95
    if any(_responses.is_item(v) for v in window) and all(
        _responses.is_item(v) or _responses.is_message_item(v) for v in window
    ):
        return 0.85
    return _messages_confidence(values)


_FOREIGN = ("anthropic", "langchain", "gemini", "claude_sdk", "pydantic_ai")


def _messages_confidence(values: list[Any]) -> float:
    counts = message_tally(values)
    # Plain role/content messages without tool markers: OpenAI's is the generic chat layout,
    # unless they carry LangChain-style calls.
    unmarked = 0.3 if counts.get("langchain_calls") else 0.5
    return chat_score(counts, "openai", _FOREIGN, unmarked=unmarked)


#: The top-level keys :func:`confidence` reads in a plain dict: one with none of them rates
#: 0.0, and detection skips this format for it (``Extractor.detection_keys``).
DETECTION_KEYS = frozenset({"object", "choices", "output", "messages", "type", "role"})


def confidence(payload: Any) -> float:
    if type(payload) is not dict:  # a plain dict has no SDK class and is no list
        if module_root(payload) == "openai":
            return 1.0
        if isinstance(payload, (list, tuple)):
            return _list_confidence(list(payload))
        if not is_object(payload):
            return 0.0
    field = fields_of(payload)
    kind = field("object")
    if kind in ("chat.completion", "chat.completion.chunk", "response"):
        return 1.0
    choices = field("choices")  # a completion or a chunk (their "object" was not given)
    if (
        is_list(choices)
        and choices
        and (get(choices[0], "message") is not None or get(choices[0], "delta") is not None)
    ):
        return 0.95
    output = field("output")
    if (
        is_list(output)
        and output
        and all(
            _responses.is_item(v) or _responses.is_message_item(v) for v in sample(list(output))
        )
    ):
        return 0.9
    messages = field("messages")
    if is_list(messages):
        score = _messages_confidence(items(messages))
        return max(score, 0.3) if messages == [] and field("model") is not None else score
    if _responses.is_stream_event(payload):
        return 0.9
    if field("role") == "assistant" and (
        field("tool_calls") is not None or field("function_call") is not None
    ):
        return 0.8 if message_tally([payload]).get("openai") else 0.0
    if text(payload, "type") in _responses.CALL_TYPES:
        return 0.7
    return 0.0


# -- extraction ----------------------------------------------------------------------------------


class _Reader(Drafts):
    """Calls found so far, with the indexes that let later results find their call."""

    def __init__(self) -> None:
        super().__init__()
        #: Legacy function calls still waiting for a ``role: "function"`` result, by name.
        self.legacy: dict[str, list[CallDraft]] = {}
        #: Messages read so far: the calls of one message share ``metadata["message"]``.
        self.messages = 0

    # chat messages

    def message(self, message: Any) -> None:
        role = get(message, "role")
        if role == "tool":
            draft = self.index.find(get(message, "tool_call_id"))
            if draft is not None:
                draft.result = decode_json(text_of(get(message, "content")))
            return
        if role == "function":
            name = get(message, "name")
            waiting = self.legacy.get(name) if isinstance(name, str) else None
            if waiting:
                waiting.pop(0).result = decode_json(text_of(get(message, "content")))
            return
        number = self.messages
        self.messages += 1
        tool_calls = get(message, "tool_calls")
        if is_list(tool_calls) and tool_calls:
            for entry in tool_calls:
                draft = self.add(_tool_call(entry))
                if draft is not None:
                    draft.metadata["message"] = number
            return
        legacy = get(message, "function_call")
        if legacy is not None:
            draft = new_draft(
                FORMAT,
                get(legacy, "name"),
                get(legacy, "arguments"),
                kind="function_call",
                where=legacy,
                required=is_object(legacy),
            )
            if draft is not None:
                self.add(draft)
                self.legacy.setdefault(draft.tool, []).append(draft)

    def completion(self, completion: Any) -> None:
        for choice in items(get(completion, "choices")):
            message = get(choice, "message")
            if message is not None:
                self.message(message)

    # Responses items

    def item(self, item: Any) -> None:
        draft = _responses.call_from_item(item, FORMAT)
        if draft is not None:
            self.add(draft)
        elif not _responses.apply_output(item, self.index) and get(item, "role") is not None:
            self.message(item)

    # any list

    def values(self, values: list[Any]) -> None:
        if any(_is_chunk(v) for v in sample(values)):
            for draft in _merge_chunks([v for v in values if _is_chunk(v)]):
                self.add(draft)
            return
        if any(_responses.is_stream_event(v) for v in sample(values)):
            for item in _responses.items_from_events(values):
                self.item(item)
            return
        for value in values:
            if get(value, "choices") is not None:
                self.completion(value)
            elif get(value, "type") is not None and get(value, "role") is None:
                self.item(value)
            elif is_list(get(value, "output")):
                for item in items(get(value, "output")):
                    self.item(item)
            else:
                self.message(value)


def _tool_call(entry: Any) -> CallDraft | None:
    """One ``tool_calls`` entry of a chat message (fast path for plain dicts)."""
    if type(entry) is dict:
        function = entry.get("function")
        if type(function) is dict:
            name = function.get("name")
            if name and type(name) is str:
                raw_arguments = function.get("arguments")
                args, problem = parse_args(raw_arguments)
                metadata: dict[str, Any] = {"format": FORMAT, "kind": "tool_calls"}
                if problem is not None:
                    note_unreadable_args(metadata, problem, raw_arguments)
                return CallDraft(name, args, id=entry.get("id"), metadata=metadata)
    kind = get(entry, "type")
    function = get(entry, "function")
    if function is not None and kind in (None, "function"):
        return new_draft(
            FORMAT,
            get(function, "name"),
            get(function, "arguments"),
            id=get(entry, "id"),
            kind="tool_calls",
            where=function,
            required=True,
        )
    custom = get(entry, "custom")
    if custom is not None and kind in (None, "custom"):
        text = get(custom, "input")
        return new_draft(
            FORMAT,
            get(custom, "name"),
            {"input": text if isinstance(text, str) else ""},
            id=get(entry, "id"),
            kind="custom",
            where=custom,
            required=True,
        )
    return None


def _slot_key(value: Any) -> Any:
    """A stream index as a dict key: a malformed (list, dict) index still names one slot."""
    return value if value is None or isinstance(value, (str, int, float)) else repr(value)


def _merge_chunks(chunks: list[Any]) -> list[CallDraft]:
    """Join streamed ``delta.tool_calls`` fragments by (completion, choice, index)."""
    slots: dict[tuple[Any, ...], dict[str, Any]] = {}
    for chunk in chunks:
        stream = get(chunk, "id")
        stream = stream if isinstance(stream, str) else ""
        for position, choice in enumerate(items(get(chunk, "choices"))):
            choice_index = _slot_key(get(choice, "index", default=position))
            delta = get(choice, "delta")
            for order, entry in enumerate(items(get(delta, "tool_calls"))):
                slot_index = _slot_key(get(entry, "index", default=order))
                slot = slots.setdefault((stream, choice_index, slot_index), {"kind": "tool_calls"})
                _absorb(slot, entry)
            legacy = get(delta, "function_call")
            if legacy is not None:
                slot = slots.setdefault(
                    (stream, choice_index, "function_call"), {"kind": "function_call"}
                )
                _absorb_function(slot, legacy)
    drafts: list[CallDraft] = []
    for slot in slots.values():
        if slot.get("custom"):
            draft = new_draft(
                FORMAT,
                slot.get("name"),
                {"input": slot.get("input", "")},
                id=slot.get("id"),
                kind="custom",
            )
        else:
            draft = new_draft(
                FORMAT,
                slot.get("name"),
                slot.get("arguments", ""),
                id=slot.get("id"),
                kind=slot["kind"],
            )
        if draft is not None:
            draft.metadata["streamed"] = True
            drafts.append(draft)
    return drafts


def _absorb(slot: dict[str, Any], entry: Any) -> None:
    call_id = get(entry, "id")
    if isinstance(call_id, str) and call_id and not slot.get("id"):
        slot["id"] = call_id
    custom = get(entry, "custom")
    if custom is not None or get(entry, "type") == "custom":
        slot["custom"] = True
        name = get(custom, "name")
        if isinstance(name, str) and name and not slot.get("name"):
            slot["name"] = name
        fragment = get(custom, "input")
        if isinstance(fragment, str):
            slot["input"] = slot.get("input", "") + fragment
        return
    function = get(entry, "function")
    if function is not None:
        _absorb_function(slot, function)


def _absorb_function(slot: dict[str, Any], function: Any) -> None:
    name = get(function, "name")
    if isinstance(name, str) and name and not slot.get("name"):
        slot["name"] = name
    fragment = get(function, "arguments")
    if isinstance(fragment, str):
        slot["arguments"] = slot.get("arguments", "") + fragment
    elif isinstance(fragment, Mapping):
        slot["arguments"] = fragment


def _completion_fast(payload: dict[str, Any]) -> list[ToolCall] | None:
    """A chat completion of plain dicts whose calls are all ``function`` calls, read directly.

    This is the common case (and the one whose cost matters for large responses): no result
    can follow in a completion, so calls are built without drafts. Anything unusual returns
    ``None`` and takes the general path.
    """
    choices = payload.get("choices")
    if type(choices) is not list:
        return None
    out: list[ToolCall] = []
    append = out.append
    scan = scan_once
    build = ToolCall.from_fields
    for number, choice in enumerate(choices):
        message = choice.get("message") if type(choice) is dict else None
        if type(message) is not dict:
            return None
        tool_calls = message.get("tool_calls")
        if not tool_calls:
            if message.get("function_call") is not None:
                return None
            continue
        if type(tool_calls) is not list:
            return None
        for entry in tool_calls:
            if type(entry) is not dict:
                return None
            function = entry.get("function")
            if type(function) is not dict:
                return None
            name = function.get("name")
            if type(name) is not str or not name or entry.get("type", "function") != "function":
                return None
            raw = function.get("arguments")
            problem = None
            if type(raw) is str:
                try:
                    args, end = scan(raw, 0)
                    if end != len(raw) or type(args) is not dict:
                        raise ValueError
                except (StopIteration, ValueError, RecursionError):
                    args, problem = parse_args(raw)
            else:
                args, problem = parse_args(raw)
            call_id = entry.get("id")
            metadata = {"format": FORMAT, "kind": "tool_calls", "message": number}
            if problem is not None:
                note_unreadable_args(metadata, problem, raw)
            # Positional: keyword arguments would make this call half again as slow.
            append(
                build(
                    name,  # tool
                    args,
                    None,  # result
                    None,  # error
                    False,  # is_error
                    None,  # duration
                    None,  # cost
                    None,  # timestamp
                    call_id if type(call_id) is str and call_id else _id(call_id),
                    metadata,
                )
            )
    return out


#: What :func:`_messages_fast` reads: plain chat messages with these keys and roles only.
_PLAIN_MESSAGE_KEYS = frozenset({"role", "content", "tool_calls", "tool_call_id", "name"})
_PLAIN_ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})


def _messages_fast(messages: list[Any]) -> list[ToolCall] | None:
    """Chat messages of plain dicts read in one loop; ``None`` for anything else.

    Why: a saved conversation (``{"messages": [...]}``) is what trajectory matching reads
    on both sides, and the general reader asks of every message whether it is a stream chunk,
    a Responses item or event, a completion or an output list before reading it as one. When
    every message is a plain dict with only the keys and roles of a chat message, none of
    those can apply; the calls, their ``metadata["message"]`` numbers, ids and results are
    those :class:`_Reader` finds (same :func:`_tool_call`, same first-id-wins results).
    Each call is kept as ``(tool, args, id, metadata)`` and built once, with its result, at
    the end: no draft per call. Read right after the detection tallied these very messages
    (:func:`~toolscore_providers._shapes.plain_roles`), the keys, roles and call lists it
    checked of each are not checked again.
    """
    roles = plain_roles(messages)
    checked = roles is not None and _PLAIN_ROLES.issuperset(roles)
    plain_keys = _PLAIN_MESSAGE_KEYS.issuperset
    found: list[tuple[str, Mapping[str, Any], str | None, dict[str, Any]]] = []
    results: dict[int, Any] = {}
    by_id: dict[str, int] = {}
    number = 0
    for message in messages:
        if checked:
            role = message.get("role")
        else:
            if type(message) is not dict or not plain_keys(message):
                return None
            role = message.get("role")
            if type(role) is not str or role not in _PLAIN_ROLES:
                return None
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id is None:
                continue
            if type(call_id) is not str:
                return None
            position = by_id.get(call_id)
            if position is not None:
                content = message.get("content")
                results[position] = decode_json(
                    content if type(content) is str else text_of(content)
                )
            continue
        tool_calls = message.get("tool_calls")
        if not checked and tool_calls is not None and type(tool_calls) is not list:
            return None
        if tool_calls:
            for entry in tool_calls:
                call = _plain_tool_call(entry, number)
                if call is not None:
                    call_id = call[2]
                    if call_id is not None and call_id not in by_id:
                        by_id[call_id] = len(found)
                    found.append(call)
        number += 1
    build = ToolCall.from_fields
    get_result = results.get
    return [
        build(tool, args, get_result(position), None, False, None, None, None, call_id, metadata)
        for position, (tool, args, call_id, metadata) in enumerate(found)
    ]


def _plain_tool_call(
    entry: Any, number: int
) -> tuple[str, Mapping[str, Any], str | None, dict[str, Any]] | None:
    """``(tool, args, id, metadata)`` of one ``tool_calls`` entry of message ``number``, as
    :func:`_tool_call` reads it (the common entry read here directly, any other by it)."""
    function = entry.get("function") if type(entry) is dict else None
    name = function.get("name") if type(function) is dict else None
    if type(function) is not dict or not name or type(name) is not str:
        draft = _tool_call(entry)
        if draft is None:
            return None
        draft.metadata["message"] = number
        return (draft.tool, draft.args, draft.id, draft.metadata)
    raw = function.get("arguments")
    metadata: dict[str, Any]
    if type(raw) is str:
        try:
            args, end = scan_once(raw, 0)
            if end != len(raw) or type(args) is not dict:
                raise ValueError
            metadata = {"format": FORMAT, "kind": "tool_calls", "message": number}
        except (StopIteration, ValueError, RecursionError):
            args, metadata = _read_args(raw, number)
    else:
        args, metadata = _read_args(raw, number)
    call_id = entry.get("id")
    if type(call_id) is not str or not call_id:
        call_id = None if call_id is None or call_id == "" else str(call_id)
    return (name, args, call_id, metadata)


def _read_args(raw: Any, number: int) -> tuple[Mapping[str, Any], dict[str, Any]]:
    """The arguments of a ``tool_calls`` entry of message ``number`` that the JSON scanner
    did not read at once, and the call's metadata (which notes unreadable arguments)."""
    args, problem = parse_args(raw)
    metadata: dict[str, Any] = {"format": FORMAT, "kind": "tool_calls"}
    if problem is not None:
        note_unreadable_args(metadata, problem, raw)
    metadata["message"] = number
    return args, metadata


def _id(value: Any) -> str | None:
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else None


def extract(payload: Any) -> list[ToolCall]:
    if type(payload) is dict and "choices" in payload and "messages" not in payload:
        fast = _completion_fast(payload)
        if fast is not None:
            return fast
    if (
        type(payload) is dict
        and type(payload.get("messages")) is list
        and payload.get("choices") is None
        and payload.get("output") is None
    ):
        fast = _messages_fast(payload["messages"])
        if fast is not None:
            return fast
    reader = _Reader()
    if isinstance(payload, (list, tuple)):
        reader.values(list(payload))
        return finish(reader.drafts)
    if not is_object(payload):
        raise unreadable(FORMAT, _EXPECTED, payload)
    read = False
    messages = get(payload, "messages")
    if is_list(messages):
        reader.values(list(messages))
        read = True
    inputs = get(payload, "input")
    if is_list(inputs) and not read:
        reader.values(list(inputs))
        read = True
    if get(payload, "choices") is not None:
        if _is_chunk(payload):
            reader.values([payload])
        else:
            reader.completion(payload)
        read = True
    output = get(payload, "output")
    if is_list(output):
        for item in output:
            reader.item(item)
        read = True
    if not read:
        if _responses.is_stream_event(payload):
            reader.values([payload])
        elif get(payload, "role") is not None:
            reader.message(payload)
        elif text(payload, "type") in _responses.CALL_TYPES:
            reader.item(payload)
        else:
            raise unreadable(FORMAT, _EXPECTED, payload)
    return finish(reader.drafts)
