"""Real SDK objects: responses built by the provider clients from wire bodies served on
127.0.0.1, and agent runs on scripted models. Each object must be detected as its format and
yield the same calls as its plain-JSON form (the fixture the default test run reads).

Run with the SDKs installed: the nox session ``providers-sdk`` (``pytest tests/providers -m sdk``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from providers_replay import json_body, replay, sse_body
from providers_support import EXTRACTORS, load_fixture, winner

pytestmark = pytest.mark.sdk


def full(calls: list[Any]) -> list[tuple[Any, ...]]:
    """Everything a call carries that the payload tells, for object-vs-JSON comparisons."""
    return [
        (c.tool, dict(c.args or {}), c.id, c.result, c.error, c.is_error, dict(c.metadata))
        for c in calls
    ]


def same_as_fixture(payload: Any, fixture: str, fmt: str) -> list[Any]:
    assert winner(payload) == fmt
    calls = EXTRACTORS[fmt].extract(payload)
    expected = EXTRACTORS[fmt].extract(load_fixture(fixture))
    assert full(calls) == full(expected)
    assert calls
    return calls


# -- OpenAI --------------------------------------------------------------------------------------


def test_openai_chat_completion_from_the_client() -> None:
    openai = pytest.importorskip("openai")
    with replay([json_body(load_fixture("openai_chat_completion.json"))]) as (url, _):
        client = openai.OpenAI(api_key="test", base_url=f"{url}/v1", max_retries=0)
        response = client.chat.completions.create(
            model="gpt-4o", messages=[{"role": "user", "content": "go"}]
        )
    calls = same_as_fixture(response, "openai_chat_completion.json", "openai")
    assert calls[3].metadata["args_parse_error"].startswith("invalid JSON arguments")


def test_openai_chat_stream_from_the_client() -> None:
    openai = pytest.importorskip("openai")
    body = sse_body(load_fixture("openai_chat_stream.json"), done=True)
    with replay([body]) as (url, _):
        client = openai.OpenAI(api_key="test", base_url=f"{url}/v1", max_retries=0)
        chunks = list(
            client.chat.completions.create(
                model="gpt-4o", messages=[{"role": "user", "content": "go"}], stream=True
            )
        )
    assert len(chunks) == 7
    same_as_fixture(chunks, "openai_chat_stream.json", "openai")


def test_openai_model_validate_of_a_response_body() -> None:
    pytest.importorskip("openai")
    from openai.types.chat import ChatCompletion
    from openai.types.responses import Response

    same_as_fixture(
        ChatCompletion.model_validate(load_fixture("openai_chat_completion.json")),
        "openai_chat_completion.json",
        "openai",
    )
    same_as_fixture(
        Response.model_validate(load_fixture("openai_responses.json")),
        "openai_responses.json",
        "openai",
    )


def test_openai_responses_from_the_client() -> None:
    openai = pytest.importorskip("openai")
    with replay([json_body(load_fixture("openai_responses.json"))]) as (url, _):
        client = openai.OpenAI(api_key="test", base_url=f"{url}/v1", max_retries=0)
        response = client.responses.create(model="gpt-4.1", input="go")
    calls = same_as_fixture(response, "openai_responses.json", "openai")
    assert calls[1].metadata["provider_executed"] is True
    assert "provider_executed" not in calls[3].metadata


def test_openai_responses_stream_from_the_client() -> None:
    openai = pytest.importorskip("openai")
    body = sse_body(load_fixture("openai_responses_stream.json"), named=True)
    with replay([body]) as (url, _):
        client = openai.OpenAI(api_key="test", base_url=f"{url}/v1", max_retries=0)
        events = list(client.responses.create(model="gpt-4.1", input="go", stream=True))
    same_as_fixture(events, "openai_responses_stream.json", "openai")


# -- Anthropic -----------------------------------------------------------------------------------


def test_anthropic_message_from_the_client() -> None:
    anthropic = pytest.importorskip("anthropic")
    with replay([json_body(load_fixture("anthropic_message.json"))]) as (url, _):
        client = anthropic.Anthropic(api_key="test", base_url=url, max_retries=0)
        message = client.messages.create(
            model="claude-sonnet-4-5", max_tokens=100, messages=[{"role": "user", "content": "go"}]
        )
    calls = same_as_fixture(message, "anthropic_message.json", "anthropic")
    assert [c.metadata.get("provider_executed", False) for c in calls] == [True, True, False]


def test_anthropic_stream_events_and_final_message() -> None:
    anthropic = pytest.importorskip("anthropic")
    events_json = load_fixture("anthropic_stream.json")
    request: dict[str, Any] = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "go"}],
    }
    with replay([sse_body(events_json, named=True), sse_body(events_json, named=True)]) as (url, _):
        client = anthropic.Anthropic(api_key="test", base_url=url, max_retries=0)
        events = list(client.messages.create(stream=True, **request))
        client = anthropic.Anthropic(api_key="test", base_url=url, max_retries=0)
        with client.messages.stream(**request) as stream:
            final = stream.get_final_message()
    same_as_fixture(events, "anthropic_stream.json", "anthropic")
    calls = same_as_fixture(final, "anthropic_stream.json", "anthropic")
    assert calls[0].args == {"city": "San Francisco", "days": 3}


# -- Gemini --------------------------------------------------------------------------------------


def _genai_client(url: str) -> Any:
    from google import genai
    from google.genai import types

    return genai.Client(api_key="test", http_options=types.HttpOptions(base_url=url))


def test_gemini_response_and_stream_from_the_client() -> None:
    pytest.importorskip("google.genai")
    stream_events = load_fixture("gemini_stream.json")
    responses = [json_body(load_fixture("gemini_response.json")), sse_body(stream_events)]
    with replay(responses) as (url, _):
        client = _genai_client(url)
        response = client.models.generate_content(model="gemini-2.5-flash", contents="go")
        chunks = list(
            client.models.generate_content_stream(model="gemini-2.5-flash", contents="go")
        )
    same_as_fixture(response, "gemini_response.json", "gemini")
    same_as_fixture(chunks, "gemini_stream.json", "gemini")


def test_gemini_automatic_function_calling_runs_the_tool() -> None:
    pytest.importorskip("google.genai")
    from google.genai import types

    seen: list[str] = []

    def get_weather(city: str) -> dict[str, Any]:
        """Weather in a city."""
        seen.append(city)
        return {"temp": 21}

    first = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Kyoto"}}}],
                }
            }
        ]
    }
    final = {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": "21C"}]}, "finishReason": "STOP"}
        ]
    }
    with replay([json_body(first), json_body(final)]) as (url, requests):
        client = _genai_client(url)
        response = client.models.generate_content(
            model="gemini-2.5-flash",
            contents="Weather in Kyoto?",
            config=types.GenerateContentConfig(tools=[get_weather]),
        )
    assert seen == ["Kyoto"]
    assert len(requests) == 2
    assert winner(response) == "gemini"
    calls = EXTRACTORS["gemini"].extract(response)
    assert [(c.tool, dict(c.args or {}), c.result) for c in calls] == [
        ("get_weather", {"city": "Kyoto"}, {"result": {"temp": 21}})
    ]
    dumped = json.loads(response.model_dump_json(exclude_none=True))
    assert full(EXTRACTORS["gemini"].extract(dumped)) == full(calls)


# -- LangChain / LangGraph -------------------------------------------------------------------------


def test_langgraph_state_objects_and_dumps() -> None:
    pytest.importorskip("langgraph")
    from langchain_core.load import dumpd
    from langchain_core.messages import messages_to_dict
    from providers_sdk_runs import langgraph_run

    state = langgraph_run()
    calls = same_as_fixture(state, "langgraph_state.json", "langchain")
    assert calls[1].is_error
    assert "fully booked" in (calls[1].error or "")
    same_as_fixture(state["messages"], "langgraph_state.json", "langchain")
    same_as_fixture([dumpd(m) for m in state["messages"]], "langchain_dumpd.json", "langchain")
    same_as_fixture(
        messages_to_dict(state["messages"]), "langchain_messages_to_dict.json", "langchain"
    )
    single = EXTRACTORS["langchain"].extract(state["messages"][1])
    assert [c.tool for c in single] == ["get_weather", "book_table"]


# -- Pydantic AI ---------------------------------------------------------------------------------


def test_pydantic_ai_function_model_run() -> None:
    pytest.importorskip("pydantic_ai")
    from providers_sdk_runs import pydantic_ai_run

    result = pydantic_ai_run()
    calls = same_as_fixture(result, "pydantic_ai_messages.json", "pydantic_ai")
    assert [c.is_error for c in calls] == [False, True, False]
    same_as_fixture(result.all_messages(), "pydantic_ai_messages.json", "pydantic_ai")


def test_pydantic_ai_test_model_run() -> None:
    pytest.importorskip("pydantic_ai")
    from providers_sdk_runs import pydantic_ai_test_model_run

    result = pydantic_ai_test_model_run()
    assert winner(result) == "pydantic_ai"
    calls = EXTRACTORS["pydantic_ai"].extract(result)
    assert [c.tool for c in calls] == ["add"]
    assert set(calls[0].args or {}) == {"a", "b"}
    assert calls[0].result == (calls[0].args or {})["a"] + (calls[0].args or {})["b"]


# -- OpenAI Agents SDK ---------------------------------------------------------------------------


def test_openai_agents_scripted_run() -> None:
    pytest.importorskip("agents")
    from providers_sdk_runs import openai_agents_items_json, openai_agents_run

    result = openai_agents_run()
    calls = same_as_fixture(result, "openai_agents_items.json", "openai_agents")
    assert [c.result for c in calls] == ["3C", 37.4]
    same_as_fixture(result.new_items, "openai_agents_items.json", "openai_agents")
    assert full(EXTRACTORS["openai_agents"].extract(openai_agents_items_json(result))) == full(
        calls
    )


# -- Claude Agent SDK ----------------------------------------------------------------------------


def test_openai_agents_handoff_is_a_call_marked_as_handoff() -> None:
    """The model called ``transfer_to_billing`` as a tool: it is scored as a call
    (docs/compat.md#handoffs), marked as a handoff, in run order, objects and JSON alike."""
    pytest.importorskip("agents")
    from providers_sdk_runs import openai_agents_handoff_run, openai_agents_items_json

    result = openai_agents_handoff_run()
    assert winner(result) == "openai_agents"
    calls = EXTRACTORS["openai_agents"].extract(result)
    assert [(c.tool, dict(c.args or {}), c.id) for c in calls] == [
        ("lookup", {"account": "A1"}, "call_l"),
        ("transfer_to_billing", {}, "call_h"),
    ]
    assert "handoff" not in calls[0].metadata
    assert calls[0].result == "overdue"
    assert calls[1].metadata["handoff"] is True
    assert calls[1].metadata["handoff_to"] == "billing"
    as_json = openai_agents_items_json(result)
    assert full(EXTRACTORS["openai_agents"].extract(as_json)) == full(calls)
    assert full(EXTRACTORS["openai_agents"].extract(list(result.new_items))) == full(calls)


def test_claude_agent_sdk_messages_parsed_by_the_sdk() -> None:
    pytest.importorskip("claude_agent_sdk")
    import dataclasses

    from claude_agent_sdk._internal.message_parser import parse_message

    lines = load_fixture("claude_agent_sdk_stream.json")
    messages = [parse_message(line) for line in lines]
    calls = same_as_fixture(messages, "claude_agent_sdk_stream.json", "claude_agent_sdk")
    assert calls[1].tool == "mcp__notes__create"
    as_dicts = [dataclasses.asdict(m) for m in messages if m is not None]
    assert winner(as_dicts) == "claude_agent_sdk"
    assert full(EXTRACTORS["claude_agent_sdk"].extract(as_dicts)) == full(calls)


# -- OpenTelemetry -------------------------------------------------------------------------------


def test_otel_sdk_spans_from_the_in_memory_exporter() -> None:
    pytest.importorskip("opentelemetry.sdk")
    from providers_sdk_runs import otel_spans

    spans = otel_spans()
    assert winner(spans) == "otel"
    calls = EXTRACTORS["otel"].extract(spans)
    # The execute_tool span and the MCP client span inside it are one call.
    assert [(c.tool, dict(c.args or {})) for c in calls] == [
        ("search", {"q": "otel"}),
        ("fetch", {"url": "https://x.test"}),
    ]
    assert calls[0].result == ["a", "b"]
    assert calls[0].metadata["spans"] == 2
    assert calls[1].is_error
    assert calls[1].error == "fetch timed out"
    as_json = [json.loads(span.to_json()) for span in spans]
    assert [(c.tool, c.args, c.result, c.error) for c in EXTRACTORS["otel"].extract(as_json)] == [
        (c.tool, c.args, c.result, c.error) for c in calls
    ]


def test_otel_sdk_span_objects_and_their_otlp_json_agree() -> None:
    """ReadableSpan objects (their SpanContext ids and parents), ``to_json()`` dicts and the
    SDK's OTLP/JSON encoding give the same calls: nested spans of one call are merged in all
    three (objects used to count the MCP client span inside an execute_tool span twice)."""
    pytest.importorskip("opentelemetry.exporter.otlp.proto.common")
    from providers_sdk_runs import otel_spans, otlp_json

    spans = otel_spans()
    expected = [
        ("search", {"q": "otel"}, ["a", "b"], None),
        ("fetch", {"url": "https://x.test"}, None, "fetch timed out"),
    ]
    readings = {
        "objects": spans,
        "to_json": [json.loads(span.to_json()) for span in spans],
        "otlp_json": otlp_json(spans),
    }
    for form, payload in readings.items():
        assert winner(payload) == "otel", form
        calls = EXTRACTORS["otel"].extract(payload)
        assert [(c.tool, dict(c.args or {}), c.result, c.error) for c in calls] == expected, form
        assert calls[0].metadata["spans"] == 2, form


def test_otel_objects_merge_an_mcp_span_nested_without_a_shared_call_id() -> None:
    pytest.importorskip("opentelemetry.sdk")
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.trace import SpanKind

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("agent")
    with (
        tracer.start_as_current_span(
            "execute_tool search",
            attributes={
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": "search",
                "gen_ai.tool.call.arguments": json.dumps({"q": "otel"}),
            },
        ),
        tracer.start_as_current_span(
            "tools/call search",
            kind=SpanKind.CLIENT,
            attributes={"mcp.method.name": "tools/call", "gen_ai.tool.name": "search"},
        ),
    ):
        pass
    spans = list(exporter.get_finished_spans())
    for payload in (spans, [json.loads(span.to_json()) for span in spans]):
        calls = EXTRACTORS["otel"].extract(payload)
        assert [(c.tool, dict(c.args or {})) for c in calls] == [("search", {"q": "otel"})]


def test_mcp_sdk_client_spans_over_stdio(tmp_path: Any) -> None:
    """The ``mcp`` SDK's own client spans (``MCP send tools/call <tool>``: the tool is only in
    the span name) give the calls; with the server's spans of the same session (joined by the
    propagated trace context) each call is still one call, with the server's verdict."""
    pytest.importorskip("mcp.shared._otel", reason="this mcp SDK has no OpenTelemetry spans")
    pytest.importorskip("opentelemetry.exporter.otlp.proto.common")
    from providers_sdk_runs import mcp_stdio_spans, otlp_json

    client, server = mcp_stdio_spans(tmp_path)
    for form, payload in {
        "objects": client,
        "to_json": [json.loads(span.to_json()) for span in client],
        "otlp_json": otlp_json(client),
    }.items():
        assert winner(payload) == "otel", form
        calls = EXTRACTORS["otel"].extract(payload)
        assert [c.tool for c in calls] == ["add", "explode"], form
        assert calls[0].metadata["tool_name_from"] == "span_name", form
    (served_add, served_explode) = EXTRACTORS["otel"].extract(server)
    assert (served_add.tool, served_add.is_error) == ("add", False)
    assert (served_explode.tool, served_explode.is_error) == ("explode", True)
    both = EXTRACTORS["otel"].extract([json.loads(span.to_json()) for span in client] + server)
    assert [(c.tool, c.is_error) for c in both] == [("add", False), ("explode", True)]
