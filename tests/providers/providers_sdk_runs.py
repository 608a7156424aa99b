"""Real agent runs on scripted models, shared by the SDK tests and the fixture generator.

Each function runs a framework for real (no network: the model is scripted) and returns the
framework's own result object. ``python tests/providers/sdk_runs.py`` (in an environment with
the SDKs, e.g. the ``providers-sdk`` nox session's) rewrites the JSON fixtures made from them.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"


# -- LangGraph ---------------------------------------------------------------------------------


def langgraph_run() -> Any:
    """A two-node LangGraph agent (scripted chat model + ToolNode); returns the final state."""
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_core.tools import tool
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    @tool
    def get_weather(city: str) -> str:
        """Weather in a city."""
        return f"sunny in {city}"

    @tool
    def book_table(time: str, people: int) -> str:
        """Book a table."""
        raise ValueError("fully booked")

    class ScriptedChat(GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            return self

    model = ScriptedChat(
        messages=iter(
            [
                AIMessage(
                    content="",
                    tool_calls=[
                        {"name": "get_weather", "args": {"city": "Paris"}, "id": "call_w"},
                        {
                            "name": "book_table",
                            "args": {"time": "19:00", "people": 2},
                            "id": "call_b",
                        },
                    ],
                ),
                AIMessage(content="Sunny, but the restaurant is full."),
            ]
        )
    )

    def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode([get_weather, book_table], handle_tool_errors=True))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition)
    graph.add_edge("tools", "agent")
    graph.add_edge("agent", END)
    app = graph.compile()
    return app.invoke(
        {"messages": [HumanMessage(content="Weather in Paris, and book for 2 at 7pm")]}
    )


# -- Pydantic AI -------------------------------------------------------------------------------


def pydantic_ai_run() -> Any:
    """An agent on a FunctionModel that calls two tools, one of which asks for a retry."""
    from pydantic_ai import Agent, ModelRetry
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import FunctionModel

    turns = iter(
        [
            ModelResponse(
                parts=[
                    ToolCallPart("get_weather", {"city": "Rome"}, tool_call_id="pyd_1"),
                    ToolCallPart("book_table", '{"people": 0}', tool_call_id="pyd_2"),
                ]
            ),
            ModelResponse(parts=[ToolCallPart("book_table", {"people": 2}, tool_call_id="pyd_3")]),
            ModelResponse(parts=[TextPart("Booked.")]),
        ]
    )

    def script(messages: Any, info: Any) -> Any:
        return next(turns)

    agent = Agent(FunctionModel(script))

    @agent.tool_plain
    def get_weather(city: str) -> dict[str, Any]:
        """Weather in a city."""
        return {"city": city, "temp": 25}

    @agent.tool_plain(retries=2)
    def book_table(people: int) -> str:
        """Book a table."""
        if people < 1:
            raise ModelRetry("people must be at least 1")
        return f"booked for {people}"

    return agent.run_sync("Weather in Rome, and book a table")


def pydantic_ai_test_model_run() -> Any:
    """An agent on TestModel, which calls every tool once with generated arguments."""
    from pydantic_ai import Agent
    from pydantic_ai.models.test import TestModel

    agent = Agent(TestModel())

    @agent.tool_plain
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    return agent.run_sync("add things")


# -- OpenAI Agents SDK -------------------------------------------------------------------------


def openai_agents_run() -> Any:
    """An Agents SDK run on a scripted Model: one turn with two function calls, then text."""
    from agents import Agent, Runner, function_tool, set_tracing_disabled
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    set_tracing_disabled(True)
    outputs = [
        [
            ResponseFunctionToolCall(
                type="function_call",
                id="fc_1",
                call_id="call_1",
                name="get_weather",
                arguments=json.dumps({"city": "Oslo"}),
                status="completed",
            ),
            ResponseFunctionToolCall(
                type="function_call",
                id="fc_2",
                call_id="call_2",
                name="convert",
                arguments=json.dumps({"celsius": 3}),
                status="completed",
            ),
        ],
        [
            ResponseOutputMessage(
                type="message",
                id="msg_1",
                role="assistant",
                status="completed",
                content=[ResponseOutputText(type="output_text", text="3C in Oslo", annotations=[])],
            )
        ],
    ]

    class ScriptedModel(Model):
        async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
            return ModelResponse(output=outputs.pop(0), usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    @function_tool
    def get_weather(city: str) -> str:
        """Weather in a city."""
        return "3C"

    @function_tool
    def convert(celsius: float) -> float:
        """Celsius to Fahrenheit."""
        return celsius * 9 / 5 + 32

    agent = Agent(name="weather", model=ScriptedModel(), tools=[get_weather, convert])
    return asyncio.run(Runner.run(agent, "Weather in Oslo in F?"))


def openai_agents_handoff_run() -> Any:
    """An Agents SDK run with a handoff, on scripted Models: the triage agent calls
    ``lookup`` and then ``transfer_to_billing``; the billing agent answers in text."""
    from agents import Agent, Runner, function_tool, set_tracing_disabled
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    set_tracing_disabled(True)

    def call(call_id: str, name: str, args: dict[str, Any]) -> Any:
        return ResponseFunctionToolCall(
            type="function_call",
            id=f"fc_{call_id}",
            call_id=call_id,
            name=name,
            arguments=json.dumps(args),
            status="completed",
        )

    class ScriptedModel(Model):
        def __init__(self, outputs: list[list[Any]]) -> None:
            self.outputs = outputs

        async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
            return ModelResponse(output=self.outputs.pop(0), usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    @function_tool
    def lookup(account: str) -> str:
        """Look an account up."""
        return "overdue"

    answer = ResponseOutputMessage(
        type="message",
        id="msg_b",
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text="Paid.", annotations=[])],
    )
    billing = Agent(name="billing", model=ScriptedModel([[answer]]))
    triage = Agent(
        name="triage",
        model=ScriptedModel(
            [
                [call("call_l", "lookup", {"account": "A1"})],
                [call("call_h", "transfer_to_billing", {})],
            ]
        ),
        tools=[lookup],
        handoffs=[billing],
    )
    return asyncio.run(Runner.run(triage, "Why is my bill overdue?"))


def openai_agents_items_json(result: Any) -> dict[str, Any]:
    """The JSON form of a run's items: ``{"new_items": [{"type", "raw_item", "output"?}]}``."""
    out = []
    for item in result.new_items:
        raw = item.raw_item
        entry: dict[str, Any] = {
            "type": item.type,
            "raw_item": raw.model_dump(mode="json") if hasattr(raw, "model_dump") else raw,
        }
        if hasattr(item, "output"):
            entry["output"] = item.output
        if hasattr(item, "target_agent"):
            entry["target_agent"] = {"name": item.target_agent.name}
        out.append(entry)
    return {"new_items": out}


# -- OpenTelemetry -----------------------------------------------------------------------------


def otel_spans() -> list[Any]:
    """Spans of an instrumented agent, from the SDK's InMemorySpanExporter."""
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    from opentelemetry.trace import SpanKind, Status, StatusCode

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("agent")
    with tracer.start_as_current_span(
        "invoke_agent", attributes={"gen_ai.operation.name": "invoke_agent"}
    ):
        with tracer.start_as_current_span(
            "chat gpt-4o", kind=SpanKind.CLIENT, attributes={"gen_ai.operation.name": "chat"}
        ):
            pass
        with (
            tracer.start_as_current_span(
                "execute_tool search",
                attributes={
                    "gen_ai.operation.name": "execute_tool",
                    "gen_ai.tool.name": "search",
                    "gen_ai.tool.call.id": "call_s",
                    "gen_ai.tool.call.arguments": json.dumps({"q": "otel"}),
                },
            ),
            tracer.start_as_current_span(
                "tools/call search",
                kind=SpanKind.CLIENT,
                attributes={
                    "mcp.method.name": "tools/call",
                    "gen_ai.tool.name": "search",
                    "gen_ai.tool.call.id": "call_s",
                    "jsonrpc.request.id": "12",
                    "gen_ai.tool.call.result": json.dumps(["a", "b"]),
                },
            ),
        ):
            pass
        with tracer.start_as_current_span(
            "execute_tool fetch",
            attributes={
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": "fetch",
                "gen_ai.tool.call.arguments": json.dumps({"url": "https://x.test"}),
            },
        ) as span:
            span.record_exception(TimeoutError("fetch timed out"))
            span.set_attribute("error.type", "TimeoutError")
            span.set_status(Status(StatusCode.ERROR))
    return list(exporter.get_finished_spans())


def otlp_json(spans: list[Any]) -> dict[str, Any]:
    """``spans`` as an OTLP/JSON export (``{"resourceSpans": [...]}``), encoded by the SDK's
    own OTLP encoder and protobuf's JSON mapping, as an OTLP file or HTTP exporter writes it."""
    from google.protobuf.json_format import MessageToDict
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    return MessageToDict(encode_spans(spans))


def _sdk_provider() -> Any:
    """The process's SDK tracer provider (installed once: OpenTelemetry allows one)."""
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider

    current = trace.get_tracer_provider()
    if isinstance(current, TracerProvider):
        return current
    provider = TracerProvider()
    trace.set_tracer_provider(provider)
    return provider


def mcp_stdio_spans(tmp: Path) -> tuple[list[Any], list[dict[str, Any]]]:
    """A real ``mcp`` SDK client calls a real SDK server over stdio, both instrumented by the
    SDK itself: returns (the client's spans as ReadableSpan objects, the server's spans as
    ``to_json()`` dicts). Calls: ``add {a: 2, b: 3}``, then ``explode {reason: "x"}``."""
    import os

    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    _sdk_provider().add_span_processor(SimpleSpanProcessor(exporter))
    out = tmp / "server_spans.jsonl"
    params = StdioServerParameters(
        command=sys.executable,
        args=[str(Path(__file__).parent / "servers" / "otel_mcp_server.py")],
        env={**os.environ, "TOOLSCORE_SPANS_OUT": str(out)},
    )

    async def run() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("add", {"a": 2, "b": 3})
            await session.call_tool("explode", {"reason": "x"})

    asyncio.run(run())
    client = list(exporter.get_finished_spans())
    exporter.shutdown()
    server = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return client, server


# -- fixture generator -------------------------------------------------------------------------


def _write(name: str, payload: Any) -> None:
    text = json.dumps(payload, indent=1, ensure_ascii=False, default=str)
    (FIXTURES / name).write_text(text + "\n", encoding="utf-8")


def main() -> int:
    from langchain_core.load import dumpd
    from langchain_core.messages import messages_to_dict
    from pydantic_ai.messages import ModelMessagesTypeAdapter

    state = langgraph_run()
    _write(
        "langgraph_state.json", {"messages": [m.model_dump(mode="json") for m in state["messages"]]}
    )
    _write("langchain_dumpd.json", [dumpd(m) for m in state["messages"]])
    _write("langchain_messages_to_dict.json", messages_to_dict(state["messages"]))
    run = pydantic_ai_run()
    _write(
        "pydantic_ai_messages.json",
        json.loads(ModelMessagesTypeAdapter.dump_json(run.all_messages())),
    )
    _write("openai_agents_items.json", openai_agents_items_json(openai_agents_run()))
    _write("otel_sdk_spans.json", [json.loads(span.to_json()) for span in otel_spans()])
    return 0


if __name__ == "__main__":
    sys.exit(main())
