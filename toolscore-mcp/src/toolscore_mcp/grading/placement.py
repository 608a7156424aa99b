"""Where the server runs, and what the report says when that is not the sandbox.

A stdio server is started inside the run's sandbox (working directory, HOME, TMPDIR, XDG
folders); one that cannot start there is started as the user gave it, and the report lists
the calls of tools that write, since they may have changed files outside the sandbox.
Destructive tools none of whose calls were sent are listed as not called, with the reason.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from toolscore_mcp.client.errors import MCPError, MCPProtocolError, MCPTimeoutError
from toolscore_mcp.client.session import MCPConnection
from toolscore_mcp.client.target import ServerTarget
from toolscore_mcp.model import MCPToolDef
from toolscore_mcp.sandbox.lazy import LazySandbox
from toolscore_mcp.scenarios.runner import ServerHandle

__all__ = [
    "MAX_LISTED_CALLS",
    "NO_SANDBOX",
    "Placement",
    "first_connection",
    "outside_notes",
    "place_in_sandbox",
    "withheld_destructive",
]

NO_SANDBOX = "the run has no sandbox (--no-sandbox)"


@attrs.define
class Placement:
    """Where the server runs: the target launched, and why it is not in the sandbox if not."""

    target: ServerTarget
    #: Why the server is not confined to the sandbox ("" when it is).
    outside: str = ""
    #: The target as the user gave it, tried when the server cannot start in the sandbox.
    fallback: ServerTarget | None = None


def place_in_sandbox(given: ServerTarget, target: ServerTarget, sandbox: LazySandbox) -> Placement:
    """``target`` moved into the sandbox (working directory, HOME, TMPDIR, XDG folders)."""
    from toolscore_mcp.sandbox.environment import inside, isolate, outside_folders

    if target.transport != "stdio" or not target.command:
        return Placement(target, outside="")
    isolation = isolate(target, sandbox.reserved)
    reasons: list[str] = []
    if isolation.work is None and not inside(Path(target.cwd or "."), sandbox.reserved):
        reasons.append(f"its working directory is {target.cwd} (the config's cwd)")
    folders = outside_folders(given, sandbox.reserved)
    if folders:
        reasons.append(f"its command or environment names {', '.join(folders[:3])}")
    fallback = target if isolation.work is not None else None
    return Placement(isolation.target, "; ".join(reasons), fallback)


async def first_connection(server: ServerHandle, placement: Placement) -> MCPConnection:
    """The run's first connection; a server that exits at start in the sandbox is started
    again as the user gave it (a command that relies on its folder), and the run says so."""
    try:
        return await server.get()
    except (MCPTimeoutError, MCPProtocolError):
        raise
    except MCPError as exc:
        if placement.fallback is None:
            raise
        first_error = exc
    placement.target, placement.fallback = placement.fallback, None
    connection = await server.get()
    placement.outside = (
        "it did not start in the sandbox, so it ran in your working directory with your HOME "
        f"(in the sandbox: {' '.join(str(first_error).split())[:160]})"
    )
    return connection


def withheld_destructive(
    withheld: Mapping[str, Sequence[str]], called: set[str]
) -> list[tuple[str, str]]:
    """Destructive tools none of whose calls were sent, with the reason."""
    return [
        (name, f"not called: destructive ({reasons[0]}; --allow-destructive calls it)")
        for name, reasons in withheld.items()
        if name not in called and reasons
    ]


MAX_LISTED_CALLS = 10


def outside_notes(
    placement: Placement, tools: Sequence[MCPToolDef], results: Sequence[Any]
) -> list[str]:
    """When the server was not confined to the sandbox, the calls of writing tools it got."""
    if not placement.outside:
        return []
    from toolscore.redaction import redact

    from toolscore_mcp.grading.verdicts import excerpt
    from toolscore_mcp.scenarios.safety import writes

    writers = {tool.name for tool in tools if writes(tool)}
    calls: list[str] = []
    for result in results:
        if result.scenario.tool not in writers:
            continue
        for arguments in [a.arguments for a in result.attempts] + [result.scenario.arguments]:
            shown = json.dumps(arguments, ensure_ascii=False, sort_keys=True, default=str)
            call = excerpt(redact(f"{result.scenario.tool} {shown}"))
            if call not in calls:
                calls.append(call)
    if not calls:
        return []
    listed = "; ".join(calls[:MAX_LISTED_CALLS])
    more = f"; and {len(calls) - MAX_LISTED_CALLS} more" if len(calls) > MAX_LISTED_CALLS else ""
    return [
        f"the server was not started in the sandbox ({placement.outside}); tools that write were "
        f"called and may have changed files outside it: {listed}{more}"
    ]
