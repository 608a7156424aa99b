"""Style tags for messages, shared by the confidence checks of the chat-style extractors.

Several providers use ``{"role": ..., "content": ...}`` messages, so a message list is
attributed by the *markers* it carries anywhere in the list, not by its first item: OpenAI's
``tool_calls[*].function`` and ``role: "tool"``, Anthropic's typed content blocks, LangChain's
``type: "ai"`` messages, and so on. Every extractor rates a list from the same tally, so their
ratings stay consistent with each other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from functools import partial
from operator import is_
from typing import Any

from toolscore_providers._common import class_name, get, has, is_list, items, module_root, sample

ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function", "model"})
#: Roles only LangChain message dicts use.
LANGCHAIN_ROLES = frozenset({"human", "ai"})

ANTHROPIC_BLOCKS = frozenset(
    {
        "tool_use",
        "tool_result",
        "server_tool_use",
        "mcp_tool_use",
        "mcp_tool_result",
        "thinking",
        "redacted_thinking",
        "document",
        "search_result",
        "container_upload",
    }
)
LANGCHAIN_TYPES = frozenset(
    {
        "human",
        "ai",
        "tool",
        "system",
        "chat",
        "function",
        "remove",
        "AIMessageChunk",
        "HumanMessageChunk",
        "ToolMessageChunk",
        "SystemMessageChunk",
        "ChatMessageChunk",
    }
)
CLAUDE_SDK_TYPES = frozenset({"assistant", "user", "system", "result", "stream_event"})
PYDANTIC_AI_KINDS = frozenset({"request", "response"})


def _block_type(block: Any) -> Any:
    return get(block, "type")


def _is_anthropic_block(block: Any) -> bool:
    kind = _block_type(block)
    if not isinstance(kind, str):
        return False
    if kind in ANTHROPIC_BLOCKS or kind.endswith("_tool_result"):
        return True
    # Anthropic images and documents carry a "source"; OpenAI's carry "image_url".
    return kind == "image" and get(block, "source") is not None


def _tool_call_tags(entry: Any, out: set[str]) -> None:
    if get(entry, "function") is not None or get(entry, "custom") is not None:
        out.add("openai")
    elif get(entry, "name") is not None and (
        get(entry, "args") is not None or get(entry, "type") == "tool_call"
    ):
        out.add("langchain_calls")


_LANGCHAIN = frozenset({"langchain"})
_CLAUDE_SDK = frozenset({"claude_sdk"})


#: The keys of a plain chat message, which :func:`_plain_chat_tags` reads alone.
_PLAIN_CHAT_KEYS = frozenset({"role", "content", "tool_calls", "tool_call_id", "name"})


def _plain_chat_tags(message: dict[str, Any]) -> frozenset[str] | None:
    """:func:`tags` of a dict with only the keys of a plain chat message and text content,
    or ``None`` for any other message.

    Why: saved conversations are mostly such messages and every detection tags them all. Of
    the checks in :func:`tags` only the role, the ``tool_calls`` entries and a tool message's
    ``tool_call_id`` can apply to them (no ``type``, ``lc``, ``model``, parts or content
    blocks), so those are all this reads. A message of the common shape (:func:`_plain_shape`)
    is tagged by its shape alone, and a shape once.
    """
    if not _PLAIN_CHAT_KEYS.issuperset(message):
        return None
    shape = _plain_shape(message)
    if shape is not None:
        return _shape_tags(shape, message)
    content = message.get("content")
    if content is not None and type(content) is not str:
        return None
    return _plain_chat_compute(message, message.get("role"), content)


#: A plain chat message's shape: its role, no text, makes OpenAI function calls, has a call id.
_Shape = tuple[str, bool, bool, bool]


def _plain_shape(message: dict[str, Any]) -> _Shape | None:
    """The shape of a plain chat message (only :data:`_PLAIN_CHAT_KEYS`, checked by the
    caller) whose role is a string, content text or absent, and calls all OpenAI function
    entries; ``None`` for any other. Such a message's tags depend on its shape alone."""
    content = message.get("content")
    if content is not None and type(content) is not str:
        return None
    role = message.get("role")
    if type(role) is not str:
        return None
    calls = message.get("tool_calls")
    if calls is not None and (type(calls) is not list or not _function_calls(calls)):
        return None
    return (role, content is None, bool(calls), message.get("tool_call_id") is not None)


def _function_calls(calls: list[Any]) -> bool:
    """Whether every entry of a ``tool_calls`` list is a dict with a ``function``."""
    for entry in calls:  # noqa: SIM110 - all() over a generator costs twice this loop
        if type(entry) is not dict or entry.get("function") is None:
            return False
    return True


def _shape_tags(shape: _Shape, message: dict[str, Any]) -> frozenset[str]:
    """The tags of ``message``, of shape ``shape``: remembered per shape."""
    found = _PLAIN_SHAPES.get(shape)
    if found is None:
        found = _plain_chat_compute(message, shape[0], message.get("content"))
        if len(_PLAIN_SHAPES) < _SHAPES_KEPT:
            _PLAIN_SHAPES[shape] = found
    return found


#: Tags of plain chat messages by shape: a conversation has a handful of shapes.
_PLAIN_SHAPES: dict[_Shape, frozenset[str]] = {}
#: At most this many shapes are kept (roles are whatever strings payloads hold).
_SHAPES_KEPT = 256


def _plain_chat_compute(message: dict[str, Any], role: Any, content: Any) -> frozenset[str]:
    """:func:`_plain_chat_tags`, every check."""
    out: set[str] = set()
    _role_tags(role, content, out)
    for entry in items(message.get("tool_calls")):
        _tool_call_tags(entry, out)
    if role == "tool" and message.get("tool_call_id") is not None:
        out.add("openai")
    return frozenset(out)


def tags(message: Any) -> frozenset[str]:
    """What a message looks like: a set of style tags (empty for non-messages)."""
    if type(message) is dict:
        plain = _plain_chat_tags(message)
        if plain is not None:
            return plain
    return _tags(message)


def _tags(message: Any) -> frozenset[str]:
    """:func:`tags`, every check."""
    out: set[str] = set()
    field: Callable[[str], Any]
    if type(message) is dict:  # decoded JSON: read its keys directly
        field = message.get
    else:
        root = module_root(message)
        if root in ("langchain_core", "langchain"):
            return _LANGCHAIN
        if root == "claude_agent_sdk":
            return _CLAUDE_SDK
        field = partial(get, message)
    role = field("role")
    kind = field("type")
    content: Any = field("content")
    _role_tags(role, content, out)
    _kind_tags(message, field, kind, role, content, out)
    for entry in items(field("tool_calls")):
        _tool_call_tags(entry, out)
    if field("function_call") is not None and role is not None:
        out.add("openai")
    if role == "tool" and field("tool_call_id") is not None:
        out.add("openai")
    _content_tags(field, content, out)
    if (
        not out.intersection({"claude_sdk", "langchain"})
        and field("model") is not None
        and has(message, "parent_tool_use_id")
        and is_list(content)
    ):
        out.add("claude_sdk")
    return frozenset(out)


def _role_tags(role: Any, content: Any, out: set[str]) -> None:
    """Tags a message's ``role`` gives."""
    if isinstance(role, str) and role in LANGCHAIN_ROLES:
        # LangChain's own role names in message dicts ({"role": "ai"}), as
        # convert_to_messages accepts them.
        out.update(("role", "langchain"))
    if isinstance(role, str) and role in ROLES:
        out.add("role")
        if role in ("tool", "function", "developer", "system"):
            out.add("openai" if role != "system" or isinstance(content, str) else "role")
        if role == "model":
            out.add("gemini")


def _kind_tags(
    message: Any, field: Callable[[str], Any], kind: Any, role: Any, content: Any, out: set[str]
) -> None:
    """Tags a message's ``type`` (or class) gives: LangChain and Claude Agent SDK messages."""
    if field("lc") is not None and is_list(field("id")):
        out.add("langchain")
    elif isinstance(kind, str):
        if (
            kind in LANGCHAIN_TYPES
            and role is None
            and (content is not None or isinstance(field("data"), dict))
        ):
            out.add("langchain")
        if (
            kind in CLAUDE_SDK_TYPES
            and role is None
            and (
                field("message") is not None
                or (
                    kind in ("system", "result")
                    and (field("session_id") is not None or field("subtype") is not None)
                )
            )
        ):
            out.add("claude_sdk")
    elif class_name(message) in ("AIMessage", "HumanMessage", "ToolMessage", "SystemMessage"):
        out.add("langchain")
    elif isinstance(field("subtype"), str) and (
        isinstance(field("data"), dict) or field("session_id") is not None
    ):
        # Claude Agent SDK system and result messages (dataclasses.asdict form).
        out.add("claude_sdk")


def _content_tags(field: Callable[[str], Any], content: Any, out: set[str]) -> None:
    """Tags the content blocks and parts give: Anthropic, Claude Agent SDK, Gemini, Pydantic AI."""
    if is_list(content):
        for block in content[:50]:
            if _is_anthropic_block(block):
                out.add("anthropic")
            elif (
                _block_type(block) is None
                and get(block, "name") is not None
                and get(block, "input") is not None
                and get(block, "id") is not None
            ) or (_block_type(block) is None and get(block, "tool_use_id") is not None):
                out.add("claude_sdk")
    parts: Any = field("parts")
    if is_list(parts):
        if (isinstance(field("kind"), str) and field("kind") in PYDANTIC_AI_KINDS) or any(
            get(p, "part_kind") is not None for p in parts[:50]
        ):
            out.add("pydantic_ai")
        else:
            out.add("gemini")


#: The tally's count of plain chat messages (:func:`_plain_chat_tags`), for :func:`all_plain_chat`.
PLAIN = "_plain"


def tally(values: Iterable[Any]) -> Counter[str]:
    """How many messages carry each tag, plus ``"_n"`` (messages), ``"_other"`` (non-messages)
    and ``"_plain"`` (plain chat messages); a count of 0 is left out."""
    return _described(values)[0]


def _described(values: Iterable[Any]) -> tuple[Counter[str], frozenset[str] | None]:
    """:func:`tally`, and the roles of the messages when every one is of the plain shape
    (:func:`_plain_shape`; ``None`` when any is not).

    Plain chat messages of the common shape (:func:`_plain_shape`) are counted by shape in
    one loop and tagged once per shape at the end; any other item takes the full check.
    Identical tag sets are counted together and added to the counter once each: a
    conversation has a handful of message shapes, and ``Counter.update`` per message was
    most of the tally's cost.
    """
    values = list(values)
    n = len(values)
    other = plain = 0
    by_shape: dict[_Shape, int] = {}
    examples: list[tuple[_Shape, dict[str, Any]]] = []
    shapes: dict[frozenset[str], int] = {}
    plain_keys = _PLAIN_CHAT_KEYS.issuperset
    for value in values:
        if type(value) is dict and plain_keys(value):
            # _plain_shape, inline: this loop runs once per message of every payload rated.
            content = value.get("content")
            role = value.get("role")
            calls = value.get("tool_calls")
            if (
                type(role) is str
                and (content is None or type(content) is str)
                and (calls is None or (type(calls) is list and _function_calls(calls)))
            ):
                shape = (role, content is None, bool(calls), value.get("tool_call_id") is not None)
                seen = by_shape.get(shape)
                if seen is None:
                    by_shape[shape] = 1
                    examples.append((shape, value))
                else:
                    by_shape[shape] = seen + 1
                continue
            found = _plain_chat_tags(value)
            if found is None:
                found = _tags(value)
            else:
                plain += 1
        else:
            found = _tags(value)
        if found:
            shapes[found] = shapes.get(found, 0) + 1
        else:
            other += 1
    shaped = 0
    for shape, example in examples:
        found = _shape_tags(shape, example)
        times = by_shape[shape]
        shaped += times
        plain += times
        if found:
            shapes[found] = shapes.get(found, 0) + times
        else:
            other += times
    counts: Counter[str] = Counter()
    if n:
        counts["_n"] = n
    if other:
        counts["_other"] = other
    count = counts.get  # no Counter.__missing__ (a Python call) per tag
    for found, times in shapes.items():
        for tag in found:
            counts[tag] = count(tag, 0) + times
    if plain:
        counts[PLAIN] = plain
    return counts, frozenset(shape[0] for shape in by_shape) if shaped == n else None


#: The memo of the detection running now (a :class:`toolscore.extraction.Probe`'s), set by
#: ``FormatAdapter.rate`` while one format rates a payload; ``None`` outside detection.
MEMO: ContextVar[dict[Any, Any] | None] = ContextVar("toolscore_providers_memo", default=None)


#: A memo entry: the list tallied, its tally, the roles when all are plain-shaped.
_Entry = tuple[list[Any], Counter[str], "frozenset[str] | None"]


def message_tally(values: list[Any]) -> Counter[str]:
    """:func:`tally` of the items a confidence check looks at (read-only: it may be shared).

    Within one detection every format asks for the tally of the same messages; the first
    computes it and the others read it from the detection's memo. Formats pass the payload's
    own list where they can, so the entry is found by the list's identity; a copy of a list
    already tallied (a tuple's items, a slice) is found by comparing its items by identity.
    Each entry keeps its items alive, so no other object can take their ids while the memo
    lives.
    """
    window = sample(values)
    memo = MEMO.get()
    if memo is None:
        return tally(window)
    lists: dict[int, _Entry] | None = memo.get(_BY_LIST)
    if lists is None:
        lists = memo[_BY_LIST] = {}
    else:
        entry = lists.get(id(window))
        if entry is not None and entry[0] is window:
            return entry[1]
        for seen, counts, roles in list(lists.values()):
            if len(seen) == len(window) and all(map(is_, seen, window)):
                lists[id(window)] = (window, counts, roles)
                return counts
    counts, roles = _described(window)
    lists[id(window)] = (window, counts, roles)
    return counts


def plain_roles(messages: list[Any]) -> frozenset[str] | None:
    """The roles of ``messages`` when the memo in use holds the tally of this very list and
    every message in it was of the plain shape: a dict with only plain chat keys, a string
    role, text or no content, and calls (if any) all OpenAI function entries. ``None`` when
    no such tally is at hand.

    Why: the extractor chosen for a conversation reads it right after its detection tallied
    it (``FormatAdapter.extract_probed``); what the tally checked of every message need not
    be checked again.
    """
    memo = MEMO.get()
    lists: dict[int, _Entry] | None = memo.get(_BY_LIST) if memo is not None else None
    entry = lists.get(id(messages)) if lists is not None else None
    if entry is None or entry[0] is not messages:
        return None
    return entry[2]


#: The memo key of the tallies by the identity of the list asked about.
_BY_LIST = ("tally", "by list")


def all_plain_chat(values: list[Any]) -> bool:
    """Whether the items a confidence check looks at are all plain chat messages (dicts with
    only ``role``, text ``content``, ``tool_calls``, ``tool_call_id`` and ``name``).

    Why: formats whose items always carry other keys (Pydantic AI's ``kind``/``part_kind``,
    MCP's ``jsonrpc``) can rate such a list 0 from the shared tally instead of walking it.
    """
    window = sample(values)
    return bool(window) and message_tally(window)[PLAIN] == len(window)


def mostly_messages(counts: Counter[str]) -> bool:
    """At least one message, and at most a quarter of the items are not messages."""
    n = counts.get("_n", 0)
    return n > 0 and counts.get("_other", 0) * 4 <= n


def chat_score(counts: Counter[str], own: str, foreign: Iterable[str], *, unmarked: float) -> float:
    """How sure a ``role``-message format is of a message list, from the list's tally.

    Not mostly role messages: 0. Markers of ``own`` and none of ``foreign``: 0.9. Any marker of
    ``foreign``: 0.1. No marker of either: ``unmarked`` (plain chat could be either format).
    """
    count = counts.get
    if not mostly_messages(counts) or not count("role"):
        return 0.0
    # A tally holds no count of 0, so a foreign marker is counted exactly when it is a key.
    others = not counts.keys().isdisjoint(foreign)
    if count(own) and not others:
        return 0.9
    if others:
        return 0.1
    return unmarked
