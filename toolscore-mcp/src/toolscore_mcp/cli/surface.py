"""``toolscore mcp lock`` and ``toolscore mcp diff``: review the tool surface, then catch
what changes after review.

``lock`` writes ``mcp.lock.json`` from a live server (or a saved ``tools/list`` answer);
``diff OLD NEW`` compares two locks, or a lock and a live server, classifies each change
(:mod:`toolscore_mcp.surface.diff`) and exits 1 on breaking or risky changes (``--fail-on``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from toolscore_mcp.cli.options import (
    abort,
    resolve_target,
    server_options,
    startup_timeout_option,
)

__all__ = ["diff_command", "live_surface", "lock_command", "read_lock_or_fail", "render_diff"]

DEFAULT_LOCK = Path("mcp.lock.json")


def live_surface(
    server: dict[str, Any], timeout: float, startup_timeout: float = 60.0
) -> tuple[Any, list[Any]]:
    """The server's details and tools (a tools file when the command is one JSON file)."""
    from toolscore_mcp.client.errors import MCPError
    from toolscore_mcp.client.tools_file import load_tools_file
    from toolscore_mcp.grading.harness import query_server, run_sync

    command = server["command"]
    if len(command) == 1 and command[0].endswith(".json") and Path(command[0]).is_file():
        from toolscore.errors import InputError

        try:
            return load_tools_file(command[0])
        except InputError as exc:
            abort(str(exc), 2)
    target = resolve_target(**server)
    try:
        return run_sync(lambda: query_server(target, timeout, startup_timeout))
    except MCPError as exc:
        abort(f"Failed to query MCP server: {exc}")


@click.command("lock")
@server_options()
@startup_timeout_option
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=DEFAULT_LOCK,
    show_default=True,
    help="The lock file to write.",
)
def lock_command(output: Path, timeout: float, startup_timeout: float, **server: Any) -> None:
    """Write the reviewed tool surface (a hash and the normalized definition per tool).

    Commit the file; 'toolscore mcp diff' and 'toolscore mcp test --lock' then report every
    change to what was reviewed.
    """
    from toolscore_mcp.surface.lock import build_lock, write_lock

    details, tools = live_surface(server, timeout, startup_timeout)
    try:
        write_lock(output, build_lock(details, tools))
    except OSError as exc:
        abort(f"Cannot write {output}: {exc.strerror or exc}")
    click.echo(f"Locked {len(tools)} tool(s) in {output}.")


def _surface_of(
    path_or_server: dict[str, Any], timeout: float, startup_timeout: float
) -> dict[str, dict[str, Any]]:
    from toolscore_mcp.surface.lock import normalized

    command = path_or_server["command"]
    if len(command) == 1 and Path(command[0]).is_file() and _is_lock(Path(command[0])):
        return read_lock_or_fail(command[0])
    _, tools = live_surface(path_or_server, timeout, startup_timeout)
    return {tool.name: normalized(tool) for tool in tools}


def _is_lock(path: Path) -> bool:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(document, dict) and isinstance(document.get("tools"), dict)


def read_lock_or_fail(path: str) -> dict[str, dict[str, Any]]:
    """The tools of the lock file at ``path``; an unreadable lock ends the command (exit 2)."""
    from toolscore.errors import InputError

    from toolscore_mcp.surface.lock import read_lock

    try:
        return read_lock(path)
    except InputError as exc:
        abort(str(exc), 2)


def render_diff(changes: Any, fmt: str, artifact: str) -> str:
    """The diff in one of the formats ``mcp diff --format`` and ``mcp test --lock`` use."""
    from toolscore_mcp.client.target import toolscore_version
    from toolscore_mcp.reports.diff_report import (
        diff_to_json,
        diff_to_markdown,
        diff_to_sarif,
        diff_to_text,
        json_for_terminal,
    )

    if fmt == "json":
        return json_for_terminal(diff_to_json(changes))
    if fmt == "sarif":
        return json_for_terminal(
            diff_to_sarif(changes, artifact=artifact, version=toolscore_version())
        )
    if fmt == "md":
        return diff_to_markdown(changes)
    return diff_to_text(changes)


@click.command("diff")
@click.argument("old", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@server_options()
@startup_timeout_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "md", "json", "sarif"]),
    default="text",
    show_default=True,
)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--fail-on",
    type=click.Choice(["breaking", "risky", "any", "never"]),
    default="risky",
    show_default=True,
    help="Exit 1 on changes of this kind or worse (risky includes breaking).",
)
def diff_command(
    old: Path,
    fmt: str,
    output: Path | None,
    fail_on: str,
    timeout: float,
    startup_timeout: float,
    **server: Any,
) -> None:
    """Compare a lock file OLD with NEW: another lock file, or a live server (a command, --url
    or --config) whose current tools are compared against it.
    """
    from toolscore_mcp.surface.diff import diff_surfaces

    changes = diff_surfaces(
        read_lock_or_fail(str(old)), _surface_of(server, timeout, startup_timeout)
    )
    text = render_diff(changes, fmt, str(old))
    if output is not None:
        from toolscore.fileio import atomic_write_text

        try:
            atomic_write_text(output, text)
        except OSError as exc:
            abort(f"Cannot write {output}: {exc.strerror or exc}")
        click.echo(f"Wrote {len(changes)} change(s) to {output}.", err=True)
    else:
        click.echo(text, nl=False)
    failing = {
        "breaking": {"breaking"},
        "risky": {"breaking", "risky"},
        "any": {"breaking", "risky", "compatible"},
        "never": set(),
    }[fail_on]
    if any(change.kind in failing for change in changes):
        raise SystemExit(1)
