"""The toolscore plugin of toolscore-providers: one extractor per provider or framework format.

Registered through the ``toolscore`` entry-point group. This module only declares the specs:
each factory imports its format module when the format is first needed and serves it through
the one :class:`~toolscore_providers._adapter.FormatAdapter`, and no module of
this distribution imports a provider SDK (SDK objects are read duck-typed).
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib import import_module
from typing import TYPE_CHECKING, Any

from toolscore import hookimpl

if TYPE_CHECKING:
    from collections.abc import Callable

    from toolscore.protocols import Extractor
    from toolscore.specs import ExtractorSpec

#: (name, format module, summary, aliases, function name)
_FORMATS: tuple[tuple[str, str, str, tuple[str, ...], str], ...] = (
    (
        "openai",
        "openai",
        "OpenAI chat completions (tool_calls, function_call, custom tools), Responses API, streams",
        ("openai_responses", "responses", "openai_chat"),
        "from_openai",
    ),
    (
        "anthropic",
        "anthropic",
        "Anthropic Messages: tool_use, server_tool_use, mcp_tool_use, message lists, streams",
        (),
        "from_anthropic",
    ),
    (
        "gemini",
        "gemini",
        "Google Gemini: functionCall parts, automatic function calling history, streams",
        ("google", "google_genai"),
        "from_gemini",
    ),
    (
        "langchain",
        "langchain",
        "LangChain / LangGraph: states, messages, dumpd form, agent actions",
        ("langgraph",),
        "from_langgraph",
    ),
    (
        "pydantic_ai",
        "pydantic_ai",
        "Pydantic AI run results and message histories",
        ("pydantic-ai", "pydanticai"),
        "from_pydantic_ai",
    ),
    (
        "openai_agents",
        "openai_agents",
        "OpenAI Agents SDK run results and items (new_items)",
        ("openai-agents",),
        "from_openai_agents",
    ),
    (
        "claude_agent_sdk",
        "claude_agent_sdk",
        "Claude Agent SDK message lists (mcp__server__tool names kept)",
        ("claude-agent-sdk",),
        "from_claude_agent_sdk",
    ),
    (
        "crewai",
        "crewai",
        "CrewAI tools_results, tool usage events, crew outputs",
        (),
        "from_crewai",
    ),
    (
        "mcp",
        "mcp",
        "MCP JSON-RPC logs and recorded sessions (tools/call only)",
        ("jsonrpc",),
        "from_mcp",
    ),
    (
        "otel",
        "otel",
        "OpenTelemetry GenAI execute_tool and MCP tools/call spans",
        ("opentelemetry",),
        "from_otel",
    ),
)


def _factory(module: str) -> Callable[[], Extractor]:
    def build() -> Extractor:
        from toolscore_providers._adapter import FormatAdapter

        format_module: Any = import_module(f"toolscore_providers.{module}")
        return FormatAdapter(format_module)

    build.__name__ = f"build_{module}"
    build.__qualname__ = build.__name__
    return build


@hookimpl
def toolscore_register_extractors() -> Iterator[ExtractorSpec]:
    """One spec per format; the extractor module is imported when the format is first used.

    The spec type is imported here, not with the module: ``toolscore --help`` imports every
    plugin module, and :mod:`toolscore.specs` brings attrs with it.
    """
    from toolscore.specs import ExtractorSpec

    for name, module, summary, aliases, function in _FORMATS:
        yield ExtractorSpec(
            name=name,
            factory=_factory(module),
            summary=summary,
            aliases=aliases,
            function_name=function,
        )
