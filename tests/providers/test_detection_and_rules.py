"""Detection looks at the whole payload, and the reading rules users rely on hold."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from providers_support import EXTRACTORS, SPECS, load_fixture, ranking, summary, winner
from toolscore.errors import InputError

OPENAI_CALL = {
    "role": "assistant",
    "content": None,
    "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "search", "arguments": '{"q": "x"}'}}
    ],
}
ANTHROPIC_CALL = {
    "role": "assistant",
    "content": [{"type": "tool_use", "id": "t1", "name": "search", "input": {"q": "x"}}],
}


@pytest.mark.parametrize(
    ("payload", "fmt"),
    [
        (
            [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}, OPENAI_CALL],
            "openai",
        ),
        ([{"role": "user", "content": "u"}, OPENAI_CALL], "openai"),
        ({"messages": [{"role": "user", "content": "u"}, OPENAI_CALL]}, "openai"),
        ([{"role": "user", "content": "u"}, ANTHROPIC_CALL], "anthropic"),
        ({"messages": [{"role": "user", "content": "u"}, ANTHROPIC_CALL]}, "anthropic"),
        (
            {
                "system": "s",
                "max_tokens": 5,
                "messages": [{"role": "user", "content": "u"}, ANTHROPIC_CALL],
            },
            "anthropic",
        ),
        ([{"tool_name": "search", "tool_args": {"q": "x"}}], "crewai"),
        ([{"thought": "t", "tool": "search", "tool_input": '{"q": "x"}', "text": "..."}], "crewai"),
        ([{"action": "search", "action_input": {"q": "x"}}], "langchain"),
        (
            {"intermediate_steps": [[{"tool": "search", "tool_input": "x", "log": ""}, "found"]]},
            "langchain",
        ),
        ([{"name": "search", "args": {"q": "x"}, "id": "1", "type": "tool_call"}], "langchain"),
        (
            [
                {"type": "human", "content": "u"},
                {
                    "type": "ai",
                    "content": "",
                    "tool_calls": [{"name": "search", "args": {"q": "x"}, "id": "1"}],
                },
            ],
            "langchain",
        ),
        (
            [
                {
                    "agent": {
                        "messages": [
                            {
                                "type": "ai",
                                "content": "",
                                "tool_calls": [{"name": "search", "args": {}, "id": "1"}],
                            }
                        ]
                    }
                }
            ],
            "langchain",
        ),
        (
            [
                {"jsonrpc": "2.0", "method": "initialize", "id": 0, "params": {}},
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "tools/call",
                    "params": {"name": "search", "arguments": {}},
                },
            ],
            "mcp",
        ),
        (
            [
                [
                    {
                        "jsonrpc": "2.0",
                        "id": 1,
                        "method": "tools/call",
                        "params": {"name": "search", "arguments": {}},
                    }
                ]
            ],
            "mcp",
        ),
        (
            [
                {"role": "user", "parts": [{"text": "u"}]},
                {"role": "model", "parts": [{"functionCall": {"name": "search", "args": {}}}]},
            ],
            "gemini",
        ),
        (
            [
                {"kind": "request", "parts": [{"part_kind": "user-prompt", "content": "u"}]},
                {
                    "kind": "response",
                    "parts": [
                        {
                            "part_kind": "tool-call",
                            "tool_name": "search",
                            "args": {},
                            "tool_call_id": "1",
                        }
                    ],
                },
            ],
            "pydantic_ai",
        ),
        (
            [
                {
                    "type": "tool_call_item",
                    "raw_item": {
                        "type": "function_call",
                        "name": "search",
                        "arguments": "{}",
                        "call_id": "1",
                    },
                }
            ],
            "openai_agents",
        ),
    ],
)
def test_whole_payload_detection(payload: Any, fmt: str) -> None:
    assert winner(payload) == fmt, ranking(payload)
    calls = EXTRACTORS[fmt].extract(payload)
    assert [c.tool for c in calls] == ["search"]


def test_a_conversation_is_described_once_per_detection(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every chat format rates a conversation from one description of its messages: the
    messages are tallied once per detection, whether the formats are handed the payload's own
    list or copies of it (a tuple's items), and never from a previous detection's tally."""
    from toolscore.extraction import Probe
    from toolscore_providers import _shapes

    tallied: list[int] = []
    real = _shapes._described

    def counting(values: Any) -> Any:
        tallied.append(len(values))
        return real(values)

    monkeypatch.setattr(_shapes, "_described", counting)
    messages = [
        {"role": "user", "content": "u"},
        OPENAI_CALL,
        {"role": "tool", "tool_call_id": "c1", "content": "{}"},
    ]
    for payload in ({"messages": messages}, messages, tuple(messages)):
        tallied.clear()
        probe = Probe(payload)
        ratings = {name: extractor.rate(probe) for name, extractor in EXTRACTORS.items()}
        assert tallied == [3], payload
        assert ratings["openai"] == 0.9
        assert ratings == {name: e.confidence(payload) for name, e in EXTRACTORS.items()}
    messages.append(ANTHROPIC_CALL)  # changed between two detections: described afresh
    probe = Probe({"messages": messages})
    assert EXTRACTORS["openai"].rate(probe) == 0.1


def test_plain_chat_without_tool_calls_still_has_one_winner() -> None:
    """A conversation with no tool markers reads as OpenAI (zero calls), never a tie."""
    payload = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    assert winner(payload) == "openai"
    assert EXTRACTORS["openai"].extract(payload) == []


def test_unparseable_arguments_are_kept_and_reported() -> None:
    payload = {
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": "c",
                            "type": "function",
                            "function": {"name": "f", "arguments": "{'bad': json}"},
                        }
                    ],
                }
            }
        ]
    }
    (call,) = EXTRACTORS["openai"].extract(payload)
    # {} for the score; the text and the decoder's error kept in metadata
    # (docs/compat.md#arguments-not-json).
    assert call.args == {}
    assert call.metadata["raw_arguments"] == "{'bad': json}"
    assert call.metadata["args_parse_error"].startswith(
        "invalid JSON arguments: Expecting property name"
    )
    empty = {
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "tool_calls": [
                        {"id": "c", "type": "function", "function": {"name": "f", "arguments": ""}}
                    ],
                }
            }
        ]
    }
    (call,) = EXTRACTORS["openai"].extract(empty)
    assert call.args == {}
    assert "args_parse_error" not in call.metadata


def test_json_arguments_that_are_not_objects_are_wrapped() -> None:
    payload = [
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": "f", "arguments": "[1, 2]"}}
            ],
        }
    ]
    assert summary(EXTRACTORS["openai"].extract(payload)) == [("f", {"value": [1, 2]})]


def test_mcp_ids_pair_by_type_and_value_and_only_tools_call_counts() -> None:
    calls = EXTRACTORS["mcp"].extract(load_fixture("mcp_raw_log.json"))
    assert [c.tool for c in calls] == ["get_weather", "get_weather", "slow_tool"]
    assert calls[0].metadata["jsonrpc_id"] == 2
    assert calls[1].metadata["jsonrpc_id"] == "2"
    assert calls[0].result.startswith("72F")
    assert calls[1].metadata["error_code"] == -32602
    bool_ids = [
        {
            "jsonrpc": "2.0",
            "id": True,
            "method": "tools/call",
            "params": {"name": "a", "arguments": {}},
        },
        {"jsonrpc": "2.0", "id": True, "result": {"content": [{"type": "text", "text": "x"}]}},
    ]
    (call,) = EXTRACTORS["mcp"].extract(bool_ids)
    assert call.result is None


def test_mcp_response_before_request_still_pairs() -> None:
    log = [
        {"jsonrpc": "2.0", "id": 5, "result": {"content": [{"type": "text", "text": "late"}]}},
        {
            "jsonrpc": "2.0",
            "id": 5,
            "method": "tools/call",
            "params": {"name": "a", "arguments": '{"k": 1}'},
        },
    ]
    (call,) = EXTRACTORS["mcp"].extract(log)
    assert (call.args, call.result) == ({"k": 1}, "late")


def test_otel_merges_spans_of_one_call_and_keeps_order() -> None:
    calls = EXTRACTORS["otel"].extract(load_fixture("otel_otlp.json"))
    assert [c.tool for c in calls] == ["get_weather", "book"]
    assert calls[0].metadata["spans"] == 2
    assert calls[0].metadata["mcp_session_id"] == "sess-1"


def test_otel_separate_calls_of_one_tool_stay_separate() -> None:
    def span(span_id: str, call_id: str, start: int) -> dict[str, Any]:
        return {
            "traceId": "t",
            "spanId": span_id,
            "name": "execute_tool search",
            "startTimeUnixNano": str(start),
            "endTimeUnixNano": str(start + 10),
            "attributes": {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": "search",
                "gen_ai.tool.call.id": call_id,
            },
        }

    calls = EXTRACTORS["otel"].extract([span("b", "c2", 200), span("a", "c1", 100)])
    assert [c.id for c in calls] == ["c1", "c2"]


def test_a_payload_of_another_format_is_an_input_error() -> None:
    with pytest.raises(
        InputError, match=r"^\$: not a gemini payload: expected .*got an object with keys 'choices'"
    ):
        EXTRACTORS["gemini"].extract({"choices": []})


def test_langchain_legacy_string_input() -> None:
    calls = EXTRACTORS["langchain"].extract(
        [
            {"tool": "search", "tool_input": "weather", "log": "thinking"},
            {"tool": "calc", "tool_input": '{"x": 1}'},
        ]
    )
    assert summary(calls) == [("search", {"input": "weather"}), ("calc", {"x": 1})]
    assert calls[0].metadata["log"] == "thinking"


def test_specs_name_every_format_and_helper() -> None:
    assert sorted(SPECS) == sorted(
        [
            "openai",
            "anthropic",
            "gemini",
            "langchain",
            "pydantic_ai",
            "openai_agents",
            "claude_agent_sdk",
            "crewai",
            "mcp",
            "otel",
        ]
    )
    assert SPECS["langchain"].aliases == ("langgraph",)
    assert {spec.function_name for spec in SPECS.values()} >= {
        "from_openai",
        "from_anthropic",
        "from_gemini",
        "from_langgraph",
        "from_pydantic_ai",
        "from_openai_agents",
        "from_claude_agent_sdk",
        "from_crewai",
        "from_otel",
    }


def test_plugin_module_imports_no_extractor_or_sdk() -> None:
    code = (
        "import sys, json; import toolscore_providers.plugin as p; list(p.toolscore_register_extractors());"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('toolscore_providers.', 'openai',"
        " 'anthropic', 'google', 'langchain', 'pydantic_ai', 'agents', 'opentelemetry', 'mcp')))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == ["toolscore_providers.plugin"]
