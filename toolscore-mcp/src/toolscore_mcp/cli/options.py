"""What every ``toolscore mcp`` command shares: server options, the target, failing.

Each command module (:mod:`toolscore_mcp.cli.test`, ``lint``, ``listing``, ``record``,
``demo``, ``surface``, ``scenario``) imports these instead of repeating them. Only click is
imported here; every handled failure is one line, ``ERROR <message>``, with exit code 2 for
usage problems and 1 otherwise (:func:`abort`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from toolscore.lazy_pattern import lazy_pattern

__all__ = [
    "abort",
    "budget_options",
    "output_console",
    "parse_budget_options",
    "plugin_manager_of",
    "resolve_target",
    "server_options",
    "startup_timeout_option",
]

F = TypeVar("F", bound=Callable[..., Any])

_ENV_REF = lazy_pattern(r"\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}")
#: A lone COMMAND that is a URL is taken as ``--url`` (as the MCP Inspector does).
_URL = lazy_pattern(r"https?://\S+$", re.IGNORECASE)


def abort(message: str, code: int = 1) -> NoReturn:
    """End the command with one ``ERROR <message>`` line and exit ``code`` (2: usage)."""
    from toolscore.cli.output import ExitCode, fail

    fail(message, ExitCode(code))


def output_console() -> Any:
    """The rich console commands print their tables and scorecards on (stdout)."""
    from toolscore.cli.output import stdout_console

    return stdout_console()


def _pairs(values: Sequence[str], option: str) -> dict[str, str]:
    result: dict[str, str] = {}
    for value in values:
        key, sep, rest = value.partition("=")
        if not sep or not key.strip():
            abort(f"{option} expects KEY=VALUE, got {value!r}.", 2)
        result[key.strip()] = _ENV_REF.sub(lambda m: os.environ.get(m.group(1), ""), rest)
    return result


def server_options(*, remote: bool = True, timeout: bool = True) -> Callable[[F], F]:
    """The options every ``mcp`` subcommand shares: how to start or reach the server."""

    def decorate(function: F) -> F:
        decorators: list[Callable[[Any], Any]] = [
            click.argument("command", nargs=-1, type=click.UNPROCESSED),
            click.option(
                "--config",
                type=click.Path(path_type=Path),
                help="MCP client config file (Claude Desktop, .mcp.json, VS Code or Cursor).",
            ),
            click.option("--server", "server_name", help="Server name inside --config."),
            click.option(
                "--env",
                "env_pairs",
                multiple=True,
                metavar="KEY=VALUE",
                help="Environment variable for a stdio server; repeatable.",
            ),
        ]
        if remote:
            decorators += [
                click.option(
                    "--url", help="Reach a remote server (streamable HTTP, or SSE).", metavar="URL"
                ),
                click.option(
                    "--transport",
                    type=click.Choice(["auto", "http", "sse"]),
                    default="auto",
                    show_default=True,
                    help="Remote transport; auto picks SSE for URLs ending in /sse.",
                ),
                click.option(
                    "--header",
                    "header_pairs",
                    multiple=True,
                    metavar="KEY=VALUE",
                    help="HTTP header (e.g. Authorization=Bearer ${TOKEN}); ${VAR} reads the environment.",
                ),
            ]
        if timeout:
            decorators.append(
                click.option(
                    "--timeout",
                    type=float,
                    default=30.0,
                    show_default=True,
                    help="Seconds to wait for each request.",
                )
            )
        for decorator in reversed(decorators):
            function = decorator(function)
        return function

    return decorate


def startup_timeout_option(function: F) -> F:
    """``--startup-timeout``: how long launching, connecting and ``initialize`` may take."""
    return click.option(
        "--startup-timeout",
        type=click.FloatRange(min=0, min_open=True),
        default=60.0,
        show_default=True,
        help="Seconds the server may take to start and answer initialize (apart from --timeout); "
        "bounds waiting for an SSE endpoint event too.",
    )(function)


def budget_options(function: F) -> F:
    """``--budget`` and ``--max-tools`` (numbers or client presets), shared by lint and test."""
    function = click.option(
        "--max-tools",
        metavar="N|PRESET",
        help="Exit 1 when the server advertises more tools than this (or a preset's limit).",
    )(function)
    return click.option(
        "--budget",
        metavar="TOKENS|PRESET",
        help="Exit 1 when tool definitions plus instructions cost more tokens than this; a "
        "preset (cursor, vscode, openai) applies that client's documented limits.",
    )(function)


def parse_budget_options(budget: str | None, max_tools: str | None) -> Any:
    """The limits ``--budget`` and ``--max-tools`` ask for; a bad value ends the command."""
    from toolscore_mcp.grading.budget import parse_budget

    try:
        return parse_budget(budget, max_tools)
    except ValueError as exc:
        abort(str(exc), 2)


def resolve_target(
    command: Sequence[str],
    config: Path | None,
    server_name: str | None,
    env_pairs: Sequence[str] = (),
    url: str | None = None,
    transport: str = "auto",
    header_pairs: Sequence[str] = (),
) -> Any:
    """The server to talk to, from exactly one of COMMAND, --url and --config."""
    import attrs

    from toolscore_mcp.client.target import ServerTarget, command_from_tokens

    if not url and len(command) == 1 and _URL.match(command[0].strip()):
        # `toolscore mcp test https://host/mcp`: a URL is never a launch command.
        url, command = command[0].strip(), ()
    given = [
        name for name, value in (("command", command), ("url", url), ("config", config)) if value
    ]
    if len(given) > 1:
        if set(given) == {"command", "config"}:
            abort("Provide exactly one of a server command or --config, not both.", 2)
        abort("Provide exactly one of a server command, --url or --config.", 2)
    if not given:
        abort("Provide an MCP server command (quoted) or --config PATH [--server NAME].", 2)
    env = _pairs(env_pairs, "--env")
    headers = _pairs(header_pairs, "--header")
    if config is not None:
        from toolscore_mcp.client.config import load_mcp_config

        try:
            target = load_mcp_config(config, server_name)
        except (OSError, ValueError) as exc:
            abort(f"Failed to load MCP config: {' '.join(str(exc).split())}", 2)
        expanded = {
            k: _ENV_REF.sub(lambda m: os.environ.get(m.group(1), ""), v)
            for k, v in target.headers.items()
        }
        return attrs.evolve(target, env={**target.env, **env}, headers={**expanded, **headers})
    if url:
        kind = (
            transport
            if transport != "auto"
            else ("sse" if url.rstrip("/").endswith("/sse") else "http")
        )
        return ServerTarget(transport=kind, url=url, headers=headers)  # type: ignore[arg-type]
    argv = command_from_tokens(command)
    if not argv:
        abort("Provide an MCP server command (quoted) or --config PATH [--server NAME].", 2)
    return ServerTarget(command=argv, env=env)


def plugin_manager_of(ctx: click.Context) -> Any:
    """The running command's plugin manager, else the process-wide one, else a bare one."""
    try:
        from toolscore.cli import plugin_manager_for

        return plugin_manager_for(ctx)
    except Exception:
        pass
    try:
        from toolscore.plugins import get_plugin_manager

        return get_plugin_manager()
    except Exception:
        from toolscore.plugins.manager import ToolscorePluginManager

        return ToolscorePluginManager()
