"""CrewAI: agents' tool results, tool-usage events and crew outputs.

CrewAI has no single trace object, so several of its shapes are read:

* ``tools_results`` entries (an agent's ``tools_results``, bare or as
  ``{"tools_results": [...]}``): ``tool_name``, ``tool_args`` (a dict or a JSON string),
  ``result``; ``ToolCalling`` objects (``tool_name``, ``arguments``) too;
* tool-usage events from the event bus (``tool_usage_started`` / ``_finished`` /
  ``_error``): a finished or error event completes the oldest open call of its tool, with
  ``output`` or ``error``, ``from_cache``, and ``finished_at - started_at`` as duration;
* agent actions (``{"thought", "tool", "tool_input", ...}``), ``tool_input`` decoded as
  LangChain's (a non-JSON string becomes ``{"input": text}``);
* a ``CrewOutput`` / ``TaskOutput``'s ``messages`` (OpenAI-style chat messages), read with
  the openai format's chat reader.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from toolscore.model import ToolCall

from toolscore_providers._common import (
    CallDraft,
    MalformedItemError,
    action_input,
    decode_json,
    finish,
    get,
    is_list,
    is_object,
    items,
    json_kind,
    module_root,
    new_draft,
    plain,
    present,
    sample,
    text,
    unreadable,
)

FORMAT = "crewai"

_EXPECTED = (
    "tools_results entries (tool_name/tool_args), tool usage events, agent actions "
    "(thought/tool/tool_input) or a crew output with tasks_output"
)
_EVENTS = frozenset({"tool_usage_started", "tool_usage_finished", "tool_usage_error"})


def _is_entry(value: Any) -> bool:
    return isinstance(get(value, "tool_name"), str) and text(value, "type") not in _EVENTS


def _is_event(value: Any) -> bool:
    return text(value, "type") in _EVENTS


def _is_action(value: Any) -> bool:
    return (
        get(value, "tool") is not None
        and present(value, "tool_input")
        and present(value, "thought")
    )


def _tasks(payload: Any) -> list[Any] | None:
    tasks = get(payload, "tasks_output")
    if is_list(tasks):
        return list(tasks)
    return None


#: The top-level keys :func:`confidence` reads in a plain dict: one with none of them rates
#: 0.0, and detection skips this format for it (``Extractor.detection_keys``).
DETECTION_KEYS = frozenset({"tools_results", "tasks_output", "type", "tool", "tool_name"})


def confidence(payload: Any) -> float:
    if module_root(payload) == "crewai":
        return 1.0
    if isinstance(payload, (list, tuple)):
        window = sample(list(payload))
        if not window:
            return 0.0
        if all(module_root(v) == "crewai" for v in window):
            return 1.0
        known = sum(1 for v in window if _is_entry(v) or _is_event(v) or _is_action(v))
        if known and known * 4 >= len(window) * 3:
            return 0.9
        return 0.0
    if not is_object(payload):
        return 0.0
    if is_list(get(payload, "tools_results")):
        return 0.95
    if _tasks(payload) is not None:
        return 0.9
    if _is_event(payload) or _is_action(payload):
        return 0.8
    if _is_entry(payload):
        return 0.6
    return 0.0


class _Reader:
    def __init__(self) -> None:
        self.drafts: list[CallDraft] = []
        self.open: dict[str, list[tuple[CallDraft, float | None]]] = {}

    def entry(self, entry: Any) -> None:
        raw = get(entry, "tool_args")
        if raw is None:
            raw = get(entry, "arguments")
        draft = new_draft(
            FORMAT,
            get(entry, "tool_name"),
            plain(raw),
            kind="tool_result",
            where=entry,
            key="tool_name",
        )
        if draft is None:
            return
        if present(entry, "result"):
            draft.result = decode_json(plain(get(entry, "result")))
        if get(entry, "result_as_answer") is True:
            draft.metadata["result_as_answer"] = True
        self.drafts.append(draft)

    def action(self, action: Any) -> None:
        raw = action_input(get(action, "tool_input"))
        draft = new_draft(
            FORMAT, get(action, "tool"), plain(raw), kind="agent_action", where=action, key="tool"
        )
        if draft is None:
            return
        if present(action, "result"):
            draft.result = decode_json(plain(get(action, "result")))
        self.drafts.append(draft)

    def event(self, event: Any) -> None:
        kind = get(event, "type")
        name = get(event, "tool_name")
        if name is not None and not isinstance(name, str):
            raise MalformedItemError(
                f"expected a string, got {json_kind(name)}", event, "tool_name"
            )
        if not name:
            return
        started = _seconds(get(event, "started_at", "timestamp"))
        if kind == "tool_usage_started":
            draft = self._new_event_call(event)
            if draft is not None:
                self.open.setdefault(name, []).append((draft, started))
            return
        waiting = self.open.get(name)
        if waiting:
            draft, opened = waiting.pop(0)
        else:
            draft = self._new_event_call(event)
            opened = started
            if draft is None:
                return
        finished = _seconds(get(event, "finished_at"))
        if opened is not None and finished is not None and finished >= opened:
            draft.duration = finished - opened
        if get(event, "from_cache") is True:
            draft.metadata["from_cache"] = True
        if kind == "tool_usage_error":
            draft.fail(plain(get(event, "error")) or "tool usage error")
        else:
            draft.result = decode_json(plain(get(event, "output")))

    def _new_event_call(self, event: Any) -> CallDraft | None:
        draft = new_draft(
            FORMAT, get(event, "tool_name"), plain(get(event, "tool_args")), kind="tool_usage"
        )
        if draft is not None:
            agent = get(event, "agent_role")
            if isinstance(agent, str):
                draft.metadata["agent_role"] = agent
            self.drafts.append(draft)
        return draft

    def value(self, value: Any) -> None:
        if _is_event(value):
            self.event(value)
        elif _is_entry(value):
            self.entry(value)
        elif _is_action(value):
            self.action(value)


def _seconds(value: Any) -> float | None:
    if isinstance(value, datetime):
        return value.timestamp()
    if isinstance(value, str) and value:
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
        except ValueError:
            return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return None


def extract(payload: Any) -> list[ToolCall]:
    reader = _Reader()
    if isinstance(payload, (list, tuple)):
        for value in payload:
            reader.value(value)
        return finish(reader.drafts)
    if not is_object(payload):
        raise unreadable(FORMAT, _EXPECTED, payload)
    results = get(payload, "tools_results")
    tasks = _tasks(payload)
    if is_list(results):
        for value in results:
            reader.value(value)
    elif tasks is not None or is_list(get(payload, "messages")):
        from toolscore_providers import openai

        messages: list[Any] = []
        for task in tasks if tasks is not None else [payload]:
            messages.extend(items(get(task, "messages")))
        calls = openai.extract(messages) if messages else []
        return [_reformat(call) for call in calls]
    elif _is_event(payload) or _is_entry(payload) or _is_action(payload):
        reader.value(payload)
    else:
        raise unreadable(FORMAT, _EXPECTED, payload)
    return finish(reader.drafts)


def _reformat(call: ToolCall) -> ToolCall:
    import attrs

    return attrs.evolve(call, metadata={**call.metadata, "format": FORMAT})
