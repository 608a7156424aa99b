"""What each first-party distribution provides, declared once, for "pip install X" hints.

Core never imports another distribution, but when a user asks for something that is not
installed (``toolscore mcp``, ``format="openai"``, ``from_gemini``, ``--llm-judge``, the
``dask`` executor) the error should say which distribution to install. Every such message
is built from :data:`FIRST_PARTY`: one :class:`Provides` declaration per distribution.
``tests/integration/test_first_party.py`` checks each installed distribution really
registers what its declaration says, so this table cannot drift from the plugins.

Importing this module is cheap (no attrs, no plugin manager): the CLI reads it on an
unknown command.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = [
    "FIRST_PARTY",
    "Provides",
    "distribution_of_kind",
    "install_hint",
    "provider_of",
]


class Provides(NamedTuple):
    """One distribution's declaration: the names it registers, by kind."""

    #: The distribution to ``pip install``.
    distribution: str
    #: Top-level ``toolscore`` commands (``toolscore_register_commands``).
    commands: tuple[str, ...] = ()
    #: Extractor names and aliases (``toolscore_register_extractors``).
    formats: tuple[str, ...] = ()
    #: ``from_<format>`` helpers those extractors expose (``ExtractorSpec.function_name``).
    functions: tuple[str, ...] = ()
    #: LLM judge names (``toolscore_register_judges``); ``JudgeConfig`` comes with them.
    judges: tuple[str, ...] = ()
    #: Batch executors (``toolscore_register_executors``).
    executors: tuple[str, ...] = ()


#: One declaration per first-party distribution (the example plugins' own included).
FIRST_PARTY: tuple[Provides, ...] = (
    Provides(
        "toolscore-providers",
        formats=(
            "openai",
            "openai_chat",
            "openai_responses",
            "responses",
            "anthropic",
            "gemini",
            "google",
            "google_genai",
            "langchain",
            "langgraph",
            "pydantic_ai",
            "pydanticai",
            "openai_agents",
            "claude_agent_sdk",
            "crewai",
            "mcp",
            "jsonrpc",
            "otel",
            "opentelemetry",
        ),
        functions=(
            "from_openai",
            "from_anthropic",
            "from_gemini",
            "from_langgraph",
            "from_pydantic_ai",
            "from_openai_agents",
            "from_claude_agent_sdk",
            "from_crewai",
            "from_otel",
        ),
    ),
    Provides("toolscore-mcp", commands=("mcp", "demo")),
    Provides("toolscore-pytest", commands=("approve", "snapshots", "record", "init")),
    Provides(
        "toolscore-judge",
        judges=("openai", "anthropic", "gemini", "openai_compatible"),
    ),
    Provides("toolscore-dask", executors=("dask",)),
)

_KINDS = frozenset(Provides._fields) - {"distribution"}


def _key(kind: str, name: str) -> str:
    if kind in ("formats", "functions"):
        return name.lower().replace("-", "_")
    return name


def provider_of(kind: str, name: str) -> str | None:
    """The first-party distribution that provides ``name`` of ``kind``, or ``None``.

    ``kind`` is a field of :class:`Provides` (``"commands"``, ``"formats"``, ...). Format
    and function names compare case- and dash-insensitively, as ``--format`` does.
    """
    if kind not in _KINDS:
        raise ValueError(f"unknown kind {kind!r}; one of {', '.join(sorted(_KINDS))}")
    key = _key(kind, name)
    for declaration in FIRST_PARTY:
        if key in getattr(declaration, kind):
            return declaration.distribution
    return None


def distribution_of_kind(kind: str) -> str | None:
    """The first distribution that provides anything of ``kind`` (``"judges"``: toolscore-judge)."""
    for declaration in FIRST_PARTY:
        if getattr(declaration, kind):
            return declaration.distribution
    return None


def install_hint(distribution: str) -> str:
    """``"the X distribution, which is not installed (or was disabled): pip install X"``."""
    return (
        f"the {distribution} distribution, which is not installed (or was disabled): "
        f"pip install {distribution}"
    )
