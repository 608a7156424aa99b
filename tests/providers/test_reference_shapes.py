"""Payload shapes a user may hand us unchanged after swapping toolscore in (drop-in use).

Each payload here must give the documented calls (docs/compat.md#what-stays-the-same); where we
depart on purpose (handoffs kept, unreadable arguments noted) the departure is the documented
one (docs/compat.md#handoffs, docs/compat.md#arguments-not-json).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from providers_support import EXTRACTORS, summary, winner


class _Raw:
    """A run item's ``raw_item`` as a plain object: just ``name`` and ``arguments``."""

    def __init__(self, name: str, arguments: str) -> None:
        self.name = name
        self.arguments = arguments


class _Item:
    def __init__(self, kind: str, raw: Any) -> None:
        self.type = kind
        self.raw_item = raw


class _RunResult:
    def __init__(self, items: list[Any]) -> None:
        self.new_items = items


@pytest.mark.parametrize(
    "payload",
    [
        [{"type": "tool_call_item", "raw_item": {"name": "search", "arguments": '{"q": "x"}'}}],
        [_Item("tool_call_item", _Raw("search", '{"q": "x"}'))],
        _RunResult([_Item("tool_call_item", _Raw("search", '{"q": "x"}'))]),
        {"new_items": [{"type": "tool_call_item", "raw_item": _Raw("search", '{"q": "x"}')}]},
    ],
    ids=["dict-items", "object-items", "run-result-object", "new-items-dict"],
)
def test_agents_raw_items_without_a_type_are_function_calls(payload: Any) -> None:
    assert winner(payload) == "openai_agents"
    assert summary(EXTRACTORS["openai_agents"].extract(payload)) == [("search", {"q": "x"})]


def test_agents_message_items_between_calls_are_skipped() -> None:
    items = [
        {"type": "message_output_item", "raw_item": {}},
        {"type": "tool_call_item", "raw_item": {"name": "ping", "arguments": "{}"}},
    ]
    assert summary(EXTRACTORS["openai_agents"].extract(items)) == [("ping", {})]


def test_agents_handoffs_are_calls_marked_as_handoffs() -> None:
    items = [
        {
            "type": "handoff_call_item",
            "raw_item": {
                "type": "function_call",
                "name": "transfer_to_billing",
                "arguments": "{}",
                "call_id": "h1",
            },
        },
        {
            "type": "handoff_output_item",
            "raw_item": {"type": "function_call_output", "call_id": "h1", "output": '{"a": 1}'},
            "target_agent": {"name": "billing"},
        },
    ]
    (call,) = EXTRACTORS["openai_agents"].extract(items)
    assert (call.tool, call.args, call.id) == ("transfer_to_billing", {}, "h1")
    assert call.metadata["handoff"] is True
    assert call.metadata["handoff_to"] == "billing"
    assert call.result == {"a": 1}


class _ToolCallPart:
    """A Pydantic AI part whose arguments are private and only offered by ``args_as_dict``."""

    part_kind = "tool-call"

    def __init__(self, tool_name: str, args: dict[str, Any]) -> None:
        self.tool_name = tool_name
        self._args = args

    def args_as_dict(self) -> dict[str, Any]:
        return self._args


class _Message:
    def __init__(self, parts: list[Any]) -> None:
        self.parts = parts


class _AgentRunResult:
    def all_messages(self) -> list[Any]:
        return [_Message([_ToolCallPart("search", {"q": "python"})])]


def test_pydantic_ai_arguments_come_from_args_as_dict() -> None:
    result = _AgentRunResult()
    assert winner(result) == "pydantic_ai"
    assert summary(EXTRACTORS["pydantic_ai"].extract(result)) == [("search", {"q": "python"})]


def test_langgraph_state_with_langchain_role_names_is_detected() -> None:
    state = {
        "messages": [
            {"role": "human", "content": "search for me"},
            {"role": "ai", "tool_calls": [{"name": "search", "args": {"q": "t"}, "id": "1"}]},
            {"role": "tool", "tool_call_id": "1", "content": "found"},
        ]
    }
    assert winner(state) == "langchain"
    (call,) = EXTRACTORS["langchain"].extract(state)
    assert (call.tool, call.args, call.result) == ("search", {"q": "t"}, "found")


def _completion(arguments: str) -> dict[str, Any]:
    entry = {"id": "c", "type": "function", "function": {"name": "f", "arguments": arguments}}
    return {"choices": [{"message": {"role": "assistant", "tool_calls": [entry]}}]}


def test_openai_arguments_that_are_not_json_score_as_none_and_keep_the_text() -> None:
    (call,) = EXTRACTORS["openai"].extract(_completion("not valid json"))
    assert call.args == {}
    assert call.metadata["raw_arguments"] == "not valid json"
    assert call.metadata["args_parse_error"].startswith("invalid JSON arguments")


def test_otel_arguments_that_are_not_json_are_kept_as_value() -> None:
    span = {
        "name": "execute_tool f",
        "attributes": {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": "f",
            "gen_ai.tool.call.arguments": "not json",
        },
        "startTimeUnixNano": "1",
    }
    (call,) = EXTRACTORS["otel"].extract([span])
    assert call.args == {"value": "not json"}
    assert call.metadata["raw_arguments"] == "not json"
    good = json.loads(json.dumps(span))
    good["attributes"]["gen_ai.tool.call.arguments"] = '{"a": 1}'
    (call,) = EXTRACTORS["otel"].extract([good])
    assert call.args == {"a": 1}
    assert "raw_arguments" not in call.metadata
