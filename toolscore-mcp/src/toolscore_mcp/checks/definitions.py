"""Conformance of tool annotations (MCP 2025-03-26 and later, ``ToolAnnotations``).

Annotations are how a client decides whether to ask before a call: ``readOnlyHint``,
``destructiveHint``, ``idempotentHint`` and ``openWorldHint`` are booleans and ``title`` a
string. ``destructiveHint`` and ``idempotentHint`` mean something only when ``readOnlyHint``
is false, so a read-only tool that also claims to be destructive contradicts itself. A tool
whose name says it deletes or writes (the roles of :mod:`toolscore_mcp.values.roles`), or whose
name or description says it reaches the network, should say so in its annotations rather
than leave the client to the defaults.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

import attrs
from toolscore import hookimpl
from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.conformance import ConformanceCheckSpec, ConformanceContext, ConformanceFinding
from toolscore_mcp.model import MCPToolDef
from toolscore_mcp.values.providers import name_tokens
from toolscore_mcp.values.roles import tool_role

__all__ = ["annotation_findings", "reaches_network"]

HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")

FIX_TYPES = (
    "Send annotations as an object whose readOnlyHint, destructiveHint, idempotentHint and "
    "openWorldHint are true/false and whose title is a string; clients ignore (or reject) "
    "other values."
)
FIX_CONTRADICTION = (
    "Drop destructiveHint (it applies only when readOnlyHint is false) or set readOnlyHint to "
    "false if the tool changes state."
)
FIX_DESTROYER = (
    "Annotate the tool with readOnlyHint: false and destructiveHint: true (or false if it only "
    "adds), so clients ask before calling it."
)
FIX_READONLY_DESTROYER = (
    "A tool whose name says it deletes is annotated read-only: correct readOnlyHint, or rename "
    "the tool if it really only reads; clients auto-approve read-only tools."
)
FIX_WRITER = (
    "Annotate the tool with readOnlyHint: false (and destructiveHint: false when it never "
    "overwrites), so clients know it changes state."
)
FIX_NETWORK = (
    "Annotate the tool with openWorldHint: true; it reaches outside the server (the web, "
    "remote services), which clients may want to confirm."
)

_NETWORK_TOKENS = frozenset(
    {"fetch", "http", "https", "url", "urls", "web", "webpage", "browse", "browser", "download",
     "crawl", "scrape", "webhook", "internet"}
)  # fmt: skip
_NETWORK_TEXT = lazy_pattern(
    r"\b(?:the (?:web|internet)|web ?(?:page|site)s?|websites?|https?://|HTTP requests?|"
    r"(?:fetch|download|crawl|scrape)(?:es|s)? (?:a |the )?(?:url|page|site|web))",
    re.IGNORECASE,
)


def reaches_network(tool: MCPToolDef) -> bool:
    """Does the tool's name, or what its description says it does, say it reaches the
    network?

    Only the description's opening sentence counts: later ones give examples ("users going
    from visiting a website to a purchase") or tell the agent what to do itself ("query the
    web rather than speculate"), which says nothing about the tool.
    """
    if any(token in _NETWORK_TOKENS for token in name_tokens(tool.name)):
        return True
    return bool(_NETWORK_TEXT.search(_opening_sentence(tool.description or "")))


def _opening_sentence(text: str) -> str:
    """The text up to the end of its first sentence or line."""
    match = _SENTENCE_END.search(text)
    return text[: match.start()] if match else text


_SENTENCE_END = lazy_pattern(r"[.!?](?:\s|$)|\n")


def _named_role(tool: MCPToolDef) -> str:
    """The role the tool's name alone gives (annotations ignored)."""
    return tool_role(attrs.evolve(tool, raw={}))


def annotation_findings(tool: MCPToolDef) -> Iterator[ConformanceFinding]:
    """Every annotation problem of one tool."""
    raw = tool.raw.get("annotations")
    if raw is not None and not isinstance(raw, Mapping):
        yield ConformanceFinding(
            tool.name, f"annotations is {type(raw).__name__}, not an object", FIX_TYPES, "error"
        )
        return
    annotations: Mapping[str, object] = raw or {}
    for hint in HINTS:
        value = annotations.get(hint)
        if value is not None and not isinstance(value, bool):
            yield ConformanceFinding(
                tool.name, f"annotations.{hint} is {value!r}, not a boolean", FIX_TYPES, "error"
            )
    title = annotations.get("title")
    if title is not None and not isinstance(title, str):
        yield ConformanceFinding(
            tool.name, f"annotations.title is {title!r}, not a string", FIX_TYPES, "error"
        )
    read_only = annotations.get("readOnlyHint")
    if read_only is True and annotations.get("destructiveHint") is True:
        yield ConformanceFinding(
            tool.name,
            "annotations say readOnlyHint: true and destructiveHint: true",
            FIX_CONTRADICTION,
        )
    role = _named_role(tool)
    if role == "destroyer":
        if read_only is True:
            yield ConformanceFinding(
                tool.name,
                "its name says it deletes but it is annotated readOnlyHint: true",
                FIX_READONLY_DESTROYER,
            )
        elif read_only is None and "destructiveHint" not in annotations:
            yield ConformanceFinding(
                tool.name,
                "its name says it deletes but it declares neither readOnlyHint nor destructiveHint",
                FIX_DESTROYER,
            )
    elif role == "producer" and read_only is None and "destructiveHint" not in annotations:
        yield ConformanceFinding(
            tool.name,
            "its name says it writes but it declares neither readOnlyHint nor destructiveHint",
            FIX_WRITER,
        )
    if "openWorldHint" not in annotations and reaches_network(tool):
        yield ConformanceFinding(
            tool.name, "it reaches the network but declares no openWorldHint", FIX_NETWORK
        )


def _annotations(context: ConformanceContext) -> Iterator[ConformanceFinding]:
    for tool in context.tools:
        yield from annotation_findings(tool)


@hookimpl
def toolscore_mcp_register_conformance_checks() -> Iterable[ConformanceCheckSpec]:
    yield ConformanceCheckSpec(
        "annotations",
        _annotations,
        summary="annotations are typed, consistent, and present on deleting, writing and "
        "network tools",
        since="2025-03-26",
        order=10,
    )
