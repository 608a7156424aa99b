"""Google Gemini (``google-genai`` and the REST API): responses, contents, streamed chunks.

Reads:

* a ``GenerateContentResponse``: the ``functionCall`` (REST) or ``function_call`` (SDK)
  parts of ``candidates[*].content.parts``, preceded by the calls of its
  ``automatic_function_calling_history`` (the SDK runs those functions itself and records them
  there, with their ``functionResponse``);
* a list of streamed response chunks (their calls in order; the automatic-calling history,
  repeated on chunks, is read once);
* contents (``[{"role": "user" | "model", "parts": [...]}]``, bare or as ``{"contents": ...}``),
  a single content or candidate, and bare part lists;
* results from ``functionResponse`` parts, by ``id`` or else by name in call order; a
  response holding ``error`` fails the call;
* ``executableCode`` / ``codeExecutionResult`` parts: the hosted code-execution tool, as a
  ``code_execution`` call marked ``provider_executed``.
"""

from __future__ import annotations

from typing import Any

from toolscore.model import ToolCall

from toolscore_providers._common import (
    CallDraft,
    Drafts,
    finish,
    get,
    is_list,
    is_object,
    items,
    module_root,
    new_draft,
    plain,
    sample,
    unreadable,
)
from toolscore_providers._shapes import message_tally, mostly_messages

FORMAT = "gemini"

_EXPECTED = (
    "a response (candidates), streamed chunks, contents ({role, parts}) or parts with functionCall"
)
_HISTORY = ("automatic_function_calling_history", "automaticFunctionCallingHistory")


def _function_call(part: Any) -> Any:
    return get(part, "function_call", "functionCall")


def _function_response(part: Any) -> Any:
    return get(part, "function_response", "functionResponse")


_PART_KEYS = (
    "function_call",
    "functionCall",
    "function_response",
    "functionResponse",
    "executable_code",
    "executableCode",
)


def _is_part(value: Any) -> bool:
    return any(get(value, key) is not None for key in _PART_KEYS)


def _is_response(value: Any) -> bool:
    return is_list(get(value, "candidates")) or any(is_list(get(value, h)) for h in _HISTORY)


#: The top-level keys :func:`confidence` reads in a plain dict: one with none of them rates
#: 0.0, and detection skips this format for it (``Extractor.detection_keys``).
DETECTION_KEYS = frozenset(
    {
        "candidates",
        *_HISTORY,
        "contents",
        *_PART_KEYS,
        "parts",
        "content",
    }
)


def confidence(payload: Any) -> float:
    root = module_root(payload)
    if root == "google":
        return 1.0
    if isinstance(payload, (list, tuple)):
        window = sample(list(payload))
        if not window:
            return 0.0
        if all(module_root(v) == "google" for v in window):
            return 1.0
        responses = sum(1 for v in window if _is_response(v))
        if responses and responses * 2 >= len(window):
            return 0.95
        parts = sum(1 for v in window if _is_part(v))
        if parts and parts * 2 >= len(window):
            return 0.8
        counts = message_tally(window)
        if mostly_messages(counts) and counts["gemini"] and counts["gemini"] * 2 >= counts["_n"]:
            return 0.9
        return 0.0
    if not is_object(payload):
        return 0.0
    if _is_response(payload):
        return 0.95
    contents = get(payload, "contents")
    if is_list(contents):
        counts = message_tally(list(contents))
        return 0.9 if counts["gemini"] else 0.0
    if _is_part(payload):
        return 0.7
    parts = get(payload, "parts")
    if is_list(parts) and get(payload, "role") in (None, "user", "model", "function"):
        return 0.8 if any(_is_part(p) for p in sample(list(parts))) else 0.4
    content = get(payload, "content")
    if is_list(get(content, "parts")):
        return 0.7
    return 0.0


class _Reader(Drafts):
    def __init__(self) -> None:
        super().__init__()
        self.by_name: dict[str, list[CallDraft]] = {}
        self.code: list[CallDraft] = []

    def parts(self, parts: Any) -> None:
        for part in items(parts):
            self.part(part)

    def part(self, part: Any) -> None:
        call = _function_call(part)
        if call is not None:
            draft = new_draft(
                FORMAT,
                get(call, "name"),
                _args_of(call),
                id=get(call, "id"),
                kind="function_call",
                where=call,
                required=is_object(call),
            )
            if draft is not None:
                self.add(draft)
                self.by_name.setdefault(draft.tool, []).append(draft)
            return
        response = _function_response(part)
        if response is not None:
            self.response(response)
            return
        code = get(part, "executable_code", "executableCode")
        if code is not None:
            args = {k: v for k in ("code", "language") if isinstance(v := get(code, k), str)}
            draft = new_draft(
                FORMAT,
                "code_execution",
                args,
                id=get(code, "id"),
                kind="code_execution",
                extra={"provider_executed": True},
            )
            if draft is not None:
                self.drafts.append(draft)
                self.code.append(draft)
            return
        outcome = get(part, "code_execution_result", "codeExecutionResult")
        if outcome is not None and self.code:
            draft = self.code.pop(0)
            output = get(outcome, "output")
            status = get(outcome, "outcome")
            if isinstance(status, str) and status not in ("OUTCOME_OK", "OUTCOME_UNSPECIFIED"):
                draft.fail(output if isinstance(output, str) and output else status)
            else:
                draft.result = output

    def response(self, response: Any) -> None:
        name = get(response, "name")
        draft = self.index.find(get(response, "id"))
        if draft is None and isinstance(name, str):
            waiting = [d for d in self.by_name.get(name, []) if d.result is None and not d.is_error]
            draft = waiting[0] if waiting else None
        if draft is None:
            return
        value = plain(get(response, "response"))
        if isinstance(value, dict) and value.get("error") is not None:
            draft.fail(value["error"])
        else:
            draft.result = value

    def content(self, content: Any) -> None:
        if is_list(content):
            self.parts(content)
        else:
            self.parts(get(content, "parts"))

    def generate_response(self, response: Any, read_history: bool = True) -> None:
        if read_history:
            for entry in items(get(response, *_HISTORY)):
                self.content(entry)
        for candidate in items(get(response, "candidates")):
            self.content(get(candidate, "content"))


def _args_of(call: Any) -> Any:
    args = get(call, "args")
    if args is None:
        args = get(call, "arguments")
    return plain(args)


def extract(payload: Any) -> list[ToolCall]:
    reader = _Reader()
    if isinstance(payload, (list, tuple)):
        values = list(payload)
        if any(_is_response(v) for v in sample(values)):
            histories = [items(get(v, *_HISTORY)) for v in values]
            longest = max(histories, key=len, default=[])
            for entry in longest:
                reader.content(entry)
            for value in values:
                reader.generate_response(value, read_history=False)
        else:
            for value in values:
                if _is_part(value):
                    reader.part(value)
                elif is_list(get(value, "parts")):
                    reader.content(value)
                elif get(value, "content") is not None:
                    reader.content(get(value, "content"))
        return finish(reader.drafts)
    if not is_object(payload):
        raise unreadable(FORMAT, _EXPECTED, payload)
    if _is_response(payload):
        reader.generate_response(payload)
    elif is_list(get(payload, "contents")):
        for entry in items(get(payload, "contents")):
            reader.content(entry)
    elif is_list(get(payload, "parts")):
        reader.content(payload)
    elif get(payload, "content") is not None:
        reader.content(get(payload, "content"))
    elif _is_part(payload):
        reader.part(payload)
    else:
        raise unreadable(FORMAT, _EXPECTED, payload)
    return finish(reader.drafts)
