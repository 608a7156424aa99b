"""Every fixture (wire bodies, streams, logs, and the JSON dumps of real SDK objects and runs)
is detected as its own format, with one clear winner, and yields the calls it holds."""

from __future__ import annotations

from typing import Any

import pytest
from providers_support import EXTRACTORS, FIXTURES, load_fixture, ranking, summary, winner

#: fixture -> (format, [(tool, args)], {index: {field: value}} for results, errors, ids, ...)
CASES: dict[str, tuple[str, list[tuple[str, dict[str, Any]]], dict[int, dict[str, Any]]]] = {
    "openai_chat_completion.json": (
        "openai",
        [
            ("get_weather", {"city": "Paris", "unit": "c"}),
            ("search_flights", {"from": "CDG", "to": "JFK", "filters": {"max_stops": 1}}),
            ("run_sql", {"input": "SELECT * FROM trips WHERE city = 'Paris'"}),
            ("book", {}),
        ],
        {0: {"id": "call_1"}, 2: {"id": "call_3"}},
    ),
    "openai_chat_stream.json": (
        "openai",
        [("get_weather", {"city": "Oslo"}), ("get_time", {"tz": "CET"})],
        {0: {"id": "call_a"}, 1: {"id": "call_b"}},
    ),
    "openai_conversation.json": (
        "openai",
        [("get_weather", {"city": "Paris"}), ("search_flights", {"to": "NYC"})],
        {0: {"result": {"temp": 18}}, 1: {"result": "3 flights found"}},
    ),
    "openai_legacy_function_call.json": (
        "openai",
        [("calculator", {"expression": "2+2"})],
        {0: {"result": "4"}},
    ),
    "openai_responses.json": (
        "openai",
        [
            ("web_search", {"type": "search", "query": "paris weather"}),
            ("ask_question", {"repo": "a/b", "question": "why?"}),
            ("read_wiki", {"repo": "a/b"}),
            ("get_weather", {"city": "Paris"}),
            ("code_exec", {"input": "print('hi')"}),
        ],
        {
            1: {"result": "Because.", "is_error": False},
            2: {"error": "repo not found", "is_error": True},
            3: {"id": "call_9"},
        },
    ),
    "openai_responses_input.json": (
        "openai",
        [("get_weather", {"city": "Rome"})],
        {0: {"result": {"temp": 25}, "id": "call_1"}},
    ),
    "openai_responses_stream.json": (
        "openai",
        [("get_weather", {"city": "Lima"}), ("shell", {"input": "ls -la"})],
        {0: {"id": "call_x"}},
    ),
    "anthropic_message.json": (
        "anthropic",
        [
            ("web_search", {"query": "paris weather"}),
            ("echo", {"text": "hi"}),
            ("get_weather", {"city": "Paris"}),
        ],
        {1: {"result": "hi"}, 2: {"id": "toolu_1"}},
    ),
    "anthropic_conversation.json": (
        "anthropic",
        [("get_weather", {"city": "Paris"}), ("book_table", {"time": "19:00"})],
        {0: {"result": "18C"}, 1: {"is_error": True, "error": "fully booked"}},
    ),
    "anthropic_stream.json": (
        "anthropic",
        [("get_weather", {"city": "San Francisco", "days": 3}), ("get_time", {})],
        {0: {"id": "toolu_9"}},
    ),
    "gemini_response.json": (
        "gemini",
        [("get_weather", {"city": "Tokyo"}), ("get_time", {"tz": "JST"})],
        {},
    ),
    "gemini_stream.json": (
        "gemini",
        [("get_weather", {"city": "Tokyo"}), ("get_time", {"tz": "JST"})],
        {},
    ),
    "gemini_contents.json": (
        "gemini",
        [
            ("get_weather", {"city": "Tokyo"}),
            ("book", {"seats": 2}),
            ("code_execution", {"code": "print(1+1)", "language": "PYTHON"}),
        ],
        {
            0: {"result": {"output": {"temp": 21}}, "id": "fc1"},
            1: {"is_error": True, "error": "no seats"},
            2: {"result": "2\n"},
        },
    ),
    "langgraph_state.json": (
        "langchain",
        [("get_weather", {"city": "Paris"}), ("book_table", {"time": "19:00", "people": 2})],
        {0: {"result": "sunny in Paris", "id": "call_w"}, 1: {"is_error": True}},
    ),
    "langchain_dumpd.json": (
        "langchain",
        [("get_weather", {"city": "Paris"}), ("book_table", {"time": "19:00", "people": 2})],
        {0: {"result": "sunny in Paris"}, 1: {"is_error": True}},
    ),
    "langchain_messages_to_dict.json": (
        "langchain",
        [("get_weather", {"city": "Paris"}), ("book_table", {"time": "19:00", "people": 2})],
        {0: {"result": "sunny in Paris"}, 1: {"is_error": True}},
    ),
    "pydantic_ai_messages.json": (
        "pydantic_ai",
        [
            ("get_weather", {"city": "Rome"}),
            ("book_table", {"people": 0}),
            ("book_table", {"people": 2}),
        ],
        {
            0: {"result": {"city": "Rome", "temp": 25}, "id": "pyd_1"},
            1: {"is_error": True, "error": "people must be at least 1"},
            2: {"result": "booked for 2"},
        },
    ),
    "openai_agents_items.json": (
        "openai_agents",
        [("get_weather", {"city": "Oslo"}), ("convert", {"celsius": 3})],
        {0: {"result": "3C", "id": "call_1"}, 1: {"result": 37.4}},
    ),
    "claude_agent_sdk_stream.json": (
        "claude_agent_sdk",
        [
            ("Read", {"file_path": "/tmp/a.txt"}),
            ("mcp__notes__create", {"title": "a", "body": "hello"}),
        ],
        {0: {"result": "hello"}, 1: {"is_error": True, "error": "storage full"}},
    ),
    "crewai_tools_results.json": (
        "crewai",
        [
            ("search_internet", {"query": "AI news"}),
            ("read_website", {"url": "https://example.com"}),
        ],
        {0: {"result": "10 results"}},
    ),
    "crewai_events.json": (
        "crewai",
        [("search_internet", {"query": "AI"}), ("read_website", {"url": "https://x.test"})],
        {0: {"result": "10 results", "duration": 2.5}, 1: {"is_error": True, "error": "timeout"}},
    ),
    "mcp_session.json": (
        "mcp",
        [
            ("create_note", {"title": "a", "body": "b"}),
            ("export_notes", {"format": "pdf"}),
            ("search_notes", {"query": "x"}),
        ],
        {
            0: {"result": "ok", "duration": 0.012, "id": "3"},
            1: {
                "is_error": True,
                "error": "export failed: storage backend not configured",
                "result": None,
            },
            2: {"result": {"hits": 2}},
        },
    ),
    "mcp_raw_log.json": (
        "mcp",
        [("get_weather", {"city": "NYC"}), ("get_weather", {"city": "LA"}), ("slow_tool", {})],
        {
            0: {"result": "72F\n[resource link file:///w.txt]", "is_error": False},
            1: {"is_error": True, "error": "Unknown city: LA"},
            2: {"is_error": True, "error": "cancelled: timeout"},
        },
    ),
    "otel_otlp.json": (
        "otel",
        [("get_weather", {"city": "Paris"}), ("book", {"seats": 2})],
        {
            0: {"result": {"temp": 18}, "duration": 0.5, "id": "call_1"},
            1: {"is_error": True, "error": "upstream timed out", "duration": 0.25},
        },
    ),
    "otel_sdk_spans.json": (
        "otel",
        [("search", {"q": "otel"}), ("fetch", {"url": "https://x.test"})],
        {
            0: {"result": ["a", "b"], "id": "call_s"},
            1: {"is_error": True, "error": "fetch timed out"},
        },
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_fixture_is_detected_and_read(name: str) -> None:
    payload = load_fixture(name)
    fmt, expected, fields = CASES[name]
    assert winner(payload) == fmt, ranking(payload)
    calls = EXTRACTORS[fmt].extract(payload)
    assert summary(calls) == expected
    for index, values in fields.items():
        for field, value in values.items():
            assert getattr(calls[index], field) == value, (index, field)
    assert all(call.metadata["format"] == fmt for call in calls)


def test_winner_is_clear_of_the_runner_up() -> None:
    """Detection must not hinge on a hair: the winner leads the next format by 0.05 or more."""
    for name in CASES:
        ranked = ranking(load_fixture(name))
        if len(ranked) > 1:
            assert ranked[0][0] - ranked[1][0] >= 0.05, (name, ranked[:2])


def test_every_fixture_has_a_case() -> None:

    assert sorted(p.name for p in FIXTURES.glob("*.json")) == sorted(CASES)
