"""Conformance checked against the live session, after the scenarios ran.

* ``resource-link`` (2025-06-18): a ``resource_link`` item in a tool result has a string
  ``uri`` with a scheme and a string ``name``, and the client can read it through
  ``resources/read``. A link the server cannot resolve is a dead end for the model.
* ``tools-list-stable``: two ``tools/list`` calls in one session return the same tools with
  the same definitions (unless the server said ``notifications/tools/list_changed``, which
  toolscore does not wait for). A list that drifts call to call breaks caching clients and
  hides what the model will really be shown.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from toolscore import hookimpl
from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.client.errors import MCPError
from toolscore_mcp.conformance import ConformanceCheckSpec, ConformanceContext, ConformanceFinding

__all__: list[str] = []

#: Links read per run (each is one request).
MAX_LINKS = 10
_SCHEME = lazy_pattern(r"^[A-Za-z][A-Za-z0-9+.\-]*:")

FIX_LINK_SHAPE = (
    'Give every resource_link item {"type": "resource_link", "uri": "<scheme>:...", "name": '
    '"..."}; clients drop links without a URI scheme or a name.'
)
FIX_LINK_READ = (
    "Serve the linked URI through resources/read (and the resources capability), or return "
    "the content inline; a link the client cannot read is a dead end for the model."
)
FIX_UNSTABLE = (
    "Return the same tools/list on every call within a session; when the tools really change, "
    "send notifications/tools/list_changed so clients list them again."
)


def _links(context: ConformanceContext) -> list[tuple[str, Mapping[str, Any]]]:
    found: list[tuple[str, Mapping[str, Any]]] = []
    for result in context.results:
        response = result.response
        if response is None or response.is_error or not isinstance(response.content, list):
            continue
        for item in response.content:
            if isinstance(item, Mapping) and item.get("type") == "resource_link":
                found.append((result.scenario.tool, item))
    return found


async def _resource_links(context: ConformanceContext) -> list[ConformanceFinding]:
    findings: list[ConformanceFinding] = []
    read: set[str] = set()
    for tool, item in _links(context):
        uri, name = item.get("uri"), item.get("name")
        if not isinstance(uri, str) or not _SCHEME.match(uri) or not isinstance(name, str):
            findings.append(
                ConformanceFinding(
                    tool,
                    f"resource_link item is malformed (uri={uri!r}, name={name!r})",
                    FIX_LINK_SHAPE,
                    "error",
                )
            )
            continue
        if uri in read or len(read) >= MAX_LINKS:
            continue
        read.add(uri)
        try:
            answer = await context.connection.request(
                "resources/read", {"uri": uri}, context.timeout
            )
        except MCPError as exc:
            findings.append(
                ConformanceFinding(
                    tool, f"resource_link {uri!r} cannot be read: {exc}", FIX_LINK_READ, "error"
                )
            )
            continue
        contents = answer.get("contents") if isinstance(answer, Mapping) else None
        if not isinstance(contents, list) or not contents:
            findings.append(
                ConformanceFinding(
                    tool,
                    f"resources/read of resource_link {uri!r} returned no contents",
                    FIX_LINK_READ,
                    "error",
                )
            )
    return findings


def _canonical(tools: Iterable[Any]) -> dict[str, str]:
    return {
        tool.name: json.dumps(tool.raw or {"name": tool.name}, sort_keys=True, default=str)
        for tool in tools
    }


async def _tools_list_stable(context: ConformanceContext) -> list[ConformanceFinding]:
    first = _canonical(context.tools)
    second = _canonical(await context.connection.list_tools())
    findings: list[ConformanceFinding] = []
    for name in sorted(set(first) | set(second)):
        if name not in second:
            message = "listed by the first tools/list call, missing from the second"
        elif name not in first:
            message = "missing from the first tools/list call, listed by the second"
        elif first[name] != second[name]:
            message = "its definition changed between two tools/list calls"
        else:
            continue
        findings.append(ConformanceFinding(name, message, FIX_UNSTABLE))
    return findings


@hookimpl
def toolscore_mcp_register_conformance_checks() -> Iterable[ConformanceCheckSpec]:
    yield ConformanceCheckSpec(
        "resource-link",
        _resource_links,
        summary="resource_link items are well formed and readable through resources/read",
        needs="session",
        since="2025-06-18",
        order=40,
    )
    yield ConformanceCheckSpec(
        "tools-list-stable",
        _tools_list_stable,
        summary="tools/list returns the same tools on a second call",
        needs="session",
        order=50,
    )
