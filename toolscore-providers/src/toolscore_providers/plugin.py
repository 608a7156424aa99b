"""The toolscore plugin of toolscore-providers: one extractor per provider or framework format.

Registered through the ``toolscore`` entry-point group. This module only declares the specs:
each factory imports its extractor module when the format is first needed, and no module of
this distribution imports a provider SDK (SDK objects are read duck-typed).
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib import import_module
from typing import TYPE_CHECKING, Any

from toolscore import hookimpl
from toolscore.specs import ExtractorSpec

if TYPE_CHECKING:
    from collections.abc import Callable

    from toolscore.protocols import Extractor

#: (name, module, class, summary, aliases, function name)
_FORMATS: tuple[tuple[str, str, str, str, tuple[str, ...], str], ...] = (
    (
        "openai",
        "openai",
        "OpenAIExtractor",
        "OpenAI chat completions (tool_calls, function_call, custom tools), Responses API, streams",
        ("openai_responses", "responses", "openai_chat"),
        "from_openai",
    ),
    (
        "anthropic",
        "anthropic",
        "AnthropicExtractor",
        "Anthropic Messages: tool_use, server_tool_use, mcp_tool_use, message lists, streams",
        (),
        "from_anthropic",
    ),
    (
        "gemini",
        "gemini",
        "GeminiExtractor",
        "Google Gemini: functionCall parts, automatic function calling history, streams",
        ("google", "google_genai"),
        "from_gemini",
    ),
    (
        "langchain",
        "langchain",
        "LangChainExtractor",
        "LangChain / LangGraph: states, messages, dumpd form, agent actions",
        ("langgraph",),
        "from_langgraph",
    ),
    (
        "pydantic_ai",
        "pydantic_ai",
        "PydanticAIExtractor",
        "Pydantic AI run results and message histories",
        ("pydantic-ai", "pydanticai"),
        "from_pydantic_ai",
    ),
    (
        "openai_agents",
        "openai_agents",
        "OpenAIAgentsExtractor",
        "OpenAI Agents SDK run results and items (new_items)",
        ("openai-agents",),
        "from_openai_agents",
    ),
    (
        "claude_agent_sdk",
        "claude_agent_sdk",
        "ClaudeAgentSDKExtractor",
        "Claude Agent SDK message lists (mcp__server__tool names kept)",
        ("claude-agent-sdk",),
        "from_claude_agent_sdk",
    ),
    (
        "crewai",
        "crewai",
        "CrewAIExtractor",
        "CrewAI tools_results, tool usage events, crew outputs",
        (),
        "from_crewai",
    ),
    (
        "mcp",
        "mcp",
        "MCPExtractor",
        "MCP JSON-RPC logs and recorded sessions (tools/call only)",
        ("jsonrpc",),
        "from_mcp",
    ),
    (
        "otel",
        "otel",
        "OTelExtractor",
        "OpenTelemetry GenAI execute_tool and MCP tools/call spans",
        ("opentelemetry",),
        "from_otel",
    ),
)


def _factory(module: str, cls: str) -> Callable[[], Extractor]:
    def build() -> Extractor:
        extractor: Any = getattr(import_module(f"toolscore_providers.{module}"), cls)()
        return extractor  # type: ignore[no-any-return]

    build.__name__ = f"build_{module}"
    build.__qualname__ = build.__name__
    return build


@hookimpl
def toolscore_register_extractors() -> Iterator[ExtractorSpec]:
    """One spec per format; the extractor module is imported when the format is first used."""
    for name, module, cls, summary, aliases, function in _FORMATS:
        yield ExtractorSpec(
            name=name,
            factory=_factory(module, cls),
            summary=summary,
            aliases=aliases,
            function_name=function,
        )
