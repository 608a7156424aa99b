"""``toolscore mcp list|lint|test|record`` and ``toolscore demo``.

Added to the root ``toolscore`` group by :mod:`toolscore_mcp.plugin`. Only click is imported
here; the SDK, anyio and rich are imported inside the callbacks. Every handled failure is one
line, ``ERROR <message>``, with exit code 2 for usage problems and 1 otherwise.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from toolscore.lazy_pattern import lazy_pattern

F = TypeVar("F", bound=Callable[..., Any])

_GRADES = ("A", "B", "C", "D", "F")
_ENV_REF = lazy_pattern(r"\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}")
#: A lone COMMAND that is a URL is taken as ``--url`` (as the MCP Inspector does).
_URL = lazy_pattern(r"https?://\S+$", re.IGNORECASE)
DEMO_HINT = (
    "That's the health-check. Now point it at your own server: "
    'toolscore mcp test "python your_server.py"'
)


def _fail(message: str, code: int = 1) -> NoReturn:
    from toolscore.cli.output import ExitCode, fail

    fail(message, ExitCode(code))


def _console() -> Any:
    from toolscore.cli.output import stdout_console

    return stdout_console()


def _pairs(values: Sequence[str], option: str) -> dict[str, str]:
    result: dict[str, str] = {}
    for value in values:
        key, sep, rest = value.partition("=")
        if not sep or not key.strip():
            _fail(f"{option} expects KEY=VALUE, got {value!r}.", 2)
        result[key.strip()] = _ENV_REF.sub(lambda m: os.environ.get(m.group(1), ""), rest)
    return result


def _server_options(*, remote: bool = True, timeout: bool = True) -> Callable[[F], F]:
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


def _budget_options(function: F) -> F:
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


def _parse_budget(budget: str | None, max_tools: str | None) -> Any:
    from toolscore_mcp.grading.budget import parse_budget

    try:
        return parse_budget(budget, max_tools)
    except ValueError as exc:
        _fail(str(exc), 2)


def _resolve_target(
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

    from toolscore_mcp.client.session import ServerTarget, command_from_tokens

    if not url and len(command) == 1 and _URL.match(command[0].strip()):
        # `toolscore mcp test https://host/mcp`: a URL is never a launch command.
        url, command = command[0].strip(), ()
    given = [
        name for name, value in (("command", command), ("url", url), ("config", config)) if value
    ]
    if len(given) > 1:
        if set(given) == {"command", "config"}:
            _fail("Provide exactly one of a server command or --config, not both.", 2)
        _fail("Provide exactly one of a server command, --url or --config.", 2)
    if not given:
        _fail("Provide an MCP server command (quoted) or --config PATH [--server NAME].", 2)
    env = _pairs(env_pairs, "--env")
    headers = _pairs(header_pairs, "--header")
    if config is not None:
        from toolscore_mcp.client.config import load_mcp_config

        try:
            target = load_mcp_config(config, server_name)
        except (OSError, ValueError) as exc:
            _fail(f"Failed to load MCP config: {' '.join(str(exc).split())}", 2)
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
        _fail("Provide an MCP server command (quoted) or --config PATH [--server NAME].", 2)
    return ServerTarget(command=argv, env=env)


def _plugin_manager(ctx: click.Context) -> Any:
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


@click.group("mcp")
def mcp_group() -> None:
    """Test, lint, and score MCP servers."""


@mcp_group.command("list")
@_server_options()
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the tools/list answer as JSON (a file `mcp lint` reads).",
)
def list_command(as_json: bool, timeout: float, **server: Any) -> None:
    """List the tools advertised by an MCP server."""
    from toolscore_mcp.client.errors import MCPError
    from toolscore_mcp.grading.harness import query_server, run_sync, tools_file_payload

    target = _resolve_target(**server)
    try:
        details, tools = run_sync(lambda: query_server(target, timeout))
    except MCPError as exc:
        _fail(f"Failed to query MCP server: {exc}")
    if as_json:
        import json

        click.echo(json.dumps(tools_file_payload(details, tools), indent=2, ensure_ascii=False))
        return
    from rich.table import Table
    from rich.text import Text
    from toolscore.terminal_text import shown

    console = _console()
    name = shown(f"{details.name or 'unknown server'} {details.version}", one_line=True)
    console.print(Text(f"\n{name}  ({len(tools)} tools)", style="bold"))
    table = Table(header_style="bold magenta")
    table.add_column("Tool", style="cyan")
    table.add_column("Params", justify="right")
    table.add_column("Description")
    for tool in tools:
        properties = tool.input_schema.get("properties")
        count = len(properties) if isinstance(properties, dict) else 0
        description = (
            Text(shown(tool.description))
            if tool.description
            else Text("(no description)", style="red")
        )
        table.add_row(Text(shown(tool.name, one_line=True)), str(count), description)
    console.print(table)


@mcp_group.command("lint")
@_server_options()
@click.option(
    "--file",
    "tools_file",
    type=click.Path(path_type=Path),
    help="Lint a saved tools/list answer (JSON) instead of a live server.",
)
@click.option(
    "--sarif",
    "sarif_path",
    type=click.Path(path_type=Path),
    help="Also write the findings as SARIF.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@_budget_options
@click.pass_context
def lint_command(
    ctx: click.Context,
    /,
    tools_file: Path | None,
    sarif_path: Path | None,
    as_json: bool,
    budget: str | None,
    max_tools: str | None,
    timeout: float,
    **server: Any,
) -> None:
    """Statically lint an MCP server's tool schemas."""
    limits = _parse_budget(budget, max_tools)
    from toolscore_mcp.client.errors import MCPError
    from toolscore_mcp.grading.harness import load_tools_file, query_server, run_sync
    from toolscore_mcp.lint import lint_tools

    command = server["command"]
    if (
        tools_file is None
        and len(command) == 1
        and command[0].endswith(".json")
        and Path(command[0]).is_file()
    ):
        tools_file, server["command"] = Path(command[0]), ()
    if tools_file is not None:
        if server["command"] or server["config"] or server["url"]:
            _fail("Provide either --file or a server to lint, not both.", 2)
        from toolscore.errors import InputError

        try:
            details, tools = load_tools_file(tools_file)
        except InputError as exc:
            _fail(str(exc), 2)
        artifact: str | None = str(tools_file)
    else:
        target = _resolve_target(**server)
        try:
            details, tools = run_sync(lambda: query_server(target, timeout))
        except MCPError as exc:
            _fail(f"Failed to query MCP server: {exc}")
        artifact = str(server["config"]) if server["config"] else None
    issues = lint_tools(tools, details.instructions, pm=_plugin_manager(ctx))
    if sarif_path is not None:
        _write_sarif(sarif_path, issues, details.name, artifact)
    errors = sum(1 for issue in issues if issue.severity == "error")
    warnings = len(issues) - errors
    if as_json:
        import json

        click.echo(
            json.dumps(
                {
                    "server": {"name": details.name, "version": details.version},
                    "tools": len(tools),
                    "errors": errors,
                    "warnings": warnings,
                    "issues": [
                        {
                            "tool": i.tool,
                            "severity": i.severity,
                            "message": i.message,
                            "fix": i.fix,
                            "rule": i.rule,
                        }
                        for i in issues
                    ],
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        _print_lint(issues, len(tools), errors, warnings)
    breaches = _lint_surface(tools, details, limits, ctx)
    if errors or breaches:
        sys.exit(1)


def _lint_surface(tools: Sequence[Any], details: Any, limits: Any, ctx: click.Context) -> list[str]:
    """Definition-only conformance checks, provider compatibility and the budget, printed
    on stderr after the lint table (stdout keeps the lint findings alone, as before);
    returns the broken budget gates."""
    from rich.text import Text
    from toolscore.terminal_text import shown
    from toolscore.terminal_width import make_console

    from toolscore_mcp.checks.provider_compat import PROVIDERS, compatibility, incompatible_count
    from toolscore_mcp.conformance import definition_conformance
    from toolscore_mcp.grading.budget import measure

    console = make_console(stderr=True)
    for outcome in definition_conformance(tools, details, pm=_plugin_manager(ctx)):
        for finding in outcome.findings:
            console.print(
                Text(
                    f"{outcome.rule}: {shown(finding.tool, one_line=True)}: {shown(finding.message)}",
                    style="yellow",
                )
            )
    rows = compatibility(tools)
    refused = incompatible_count(rows)
    console.print(
        Text(
            "Provider compatibility: "
            + ", ".join(f"{p} accepts {len(rows) - refused[p]}/{len(rows)}" for p in PROVIDERS),
            style="dim",
        )
    )
    report = measure(tools, details.instructions, limits)
    console.print(
        Text(
            f"Token budget: ~{report.total_tokens} tokens, {report.tool_count} tools.", style="dim"
        )
    )
    for a, b, ratio in report.duplicates:
        console.print(Text(f"near-duplicate descriptions: {a} / {b} ({ratio:.0%})", style="yellow"))
    breaches = report.breaches()
    for breach in breaches:
        console.print(Text(f"Over budget: {breach}", style="red"))
    return breaches


def _print_lint(issues: Sequence[Any], tool_count: int, errors: int, warnings: int) -> None:
    from rich.table import Table
    from rich.text import Text
    from toolscore.terminal_text import shown

    console = _console()
    if not issues:
        line = Text("OK", style="bold green")
        line.append(f" No lint issues across {tool_count} tools.", style="")
        console.print(line)
        return
    console.print(Text(f"Lint: {errors} errors, {warnings} warnings", style="bold"))
    table = Table(header_style="bold magenta")
    table.add_column("Severity")
    table.add_column("Tool", style="cyan")
    table.add_column("Message")
    for issue in issues:
        style = "red" if issue.severity == "error" else "yellow"
        table.add_row(
            Text(issue.severity, style=style),
            Text(shown(issue.tool, one_line=True)),
            Text(shown(issue.message)),
        )
    console.print(table)


def _write_sarif(path: Path, issues: Sequence[Any], server_name: str, artifact: str | None) -> None:
    import json

    from toolscore.fileio import atomic_write_text

    from toolscore_mcp.client.session import _version
    from toolscore_mcp.reports.sarif import lint_to_sarif

    log = lint_to_sarif(issues, server_name=server_name, artifact=artifact, version=_version())
    try:
        atomic_write_text(path, json.dumps(log, indent=2, ensure_ascii=False) + "\n")
    except OSError as exc:
        _fail(f"Cannot write {path}: {exc.strerror or exc}")


@mcp_group.command("test")
@_server_options()
@click.option(
    "--cases", type=int, default=3, show_default=True, help="Happy-path scenarios per tool."
)
@click.option("--no-edge-cases", is_flag=True, help="Skip the edge-case scenarios.")
@click.option(
    "--concurrency",
    type=click.IntRange(1, 64),
    default=10,
    show_default=True,
    help="Scenarios in flight at once.",
)
@click.option(
    "--report",
    type=click.Choice(["md", "json", "sarif"]),
    help="Write a report file (needs --output): Markdown, JSON, or SARIF (lint and scenario findings).",
)
@click.option("-o", "--output", type=click.Path(path_type=Path), help="Report file path.")
@click.option(
    "--fail-under", help="Exit 1 when the grade is worse than this (A-F).", metavar="GRADE"
)
@click.option(
    "--ci",
    is_flag=True,
    help=(
        "CI mode: also write the scorecard to $GITHUB_STEP_SUMMARY and exit 1 on blocking issues "
        "(a tool that fails on valid input, a crash or hang, or a schema error)."
    ),
)
@click.option(
    "--strict",
    is_flag=True,
    help="With --ci: also fail on inconclusive happy paths (rejected input, missing network or setup).",
)
@click.option(
    "--startup-timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=60.0,
    show_default=True,
    help="Seconds the server may take to start and answer initialize (apart from --timeout).",
)
@click.option(
    "--scenarios",
    "scenarios_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A scenario file (YAML or JSON): arguments, setup calls, expectations and skips per tool.",
)
@click.option(
    "--save-scenarios",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a starter scenario file from what this run learned (arguments that worked).",
)
@click.option(
    "--recorded",
    type=click.Path(dir_okay=False, path_type=Path),
    help="An 'mcp record' session: arguments that worked there are tried first.",
)
@click.option(
    "--no-sandbox",
    is_flag=True,
    help="Do not create the run's sandbox (files, git repository, database, loopback web server).",
)
@click.option(
    "--client",
    type=click.Choice(["auto", "sdk"]),
    default="auto",
    show_default=True,
    help="MCP client: auto uses a small built-in client for stdio servers (no SDK import) and "
    "the official SDK for HTTP and SSE; sdk uses the SDK for every server.",
)
@click.option(
    "-v",
    "--verbose",
    is_flag=True,
    help="Explain each failed or inconclusive happy path try by try (also with --report).",
)
@_budget_options
@click.option(
    "--lock",
    "lock_file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    help="A reviewed mcp.lock.json: exit 1 when the server's tools differ from it.",
)
@click.pass_context
def test_command(
    ctx: click.Context,
    /,
    cases: int,
    no_edge_cases: bool,
    concurrency: int,
    report: str | None,
    output: Path | None,
    fail_under: str | None,
    ci: bool,
    strict: bool,
    startup_timeout: float,
    scenarios_file: Path | None,
    save_scenarios: Path | None,
    recorded: Path | None,
    no_sandbox: bool,
    client: str,
    verbose: bool,
    budget: str | None,
    max_tools: str | None,
    lock_file: Path | None,
    timeout: float,
    **server: Any,
) -> None:
    """Run the full scorecard against an MCP server.

    Every run gets a fresh sandbox, built when first needed: {sandbox} in the command, its
    env or a config file is a temporary folder with text, JSON, CSV, xlsx and PNG files, a git
    repository and a SQLite database, and {sandbox_url} a web server on 127.0.0.1. Nothing is
    written outside it.

    COMMAND is the server's launch command as one quoted string ("python server.py"), or
    several words after --; a URL (or --url) for a remote server; or --config.
    """
    if fail_under is not None and fail_under.upper() not in _GRADES:
        _fail(f"--fail-under must be one of A-F, got {fail_under!r}.", 2)
    if report is not None and output is None:
        _fail("--report requires --output PATH.", 2)
    if output is not None and report is None:
        report = {".json": "json", ".sarif": "sarif"}.get(output.suffix.lower(), "md")
    limits = _parse_budget(budget, max_tools)
    locked = None
    if lock_file is not None:
        from toolscore_mcp.cli.surface import _read

        locked = _read(str(lock_file))
    target = _resolve_target(**server)
    from toolscore_mcp.client.prelaunch import prelaunch

    early = prelaunch(target, client=client)  # boots while the rest gets ready
    try:
        card = _run_scorecard(
            ctx,
            target,
            cases=cases,
            edge_cases=not no_edge_cases,
            timeout=timeout,
            concurrency=concurrency,
            startup_timeout=startup_timeout,
            sandbox=not no_sandbox,
            client=client,
            scenarios=str(scenarios_file) if scenarios_file else None,
            recorded=str(recorded) if recorded else None,
            prelaunched=early,
        )
    finally:
        if early is not None:
            early.discard()
    import attrs

    card = attrs.evolve(card, budget=limits)
    if locked is not None:
        from toolscore_mcp.surface.diff import diff_surfaces
        from toolscore_mcp.surface.lock import normalized

        changes = diff_surfaces(locked, {tool.name: normalized(tool) for tool in card.tools})
        card = attrs.evolve(card, lock_changes=tuple(changes))
    if save_scenarios is not None:
        _save_scenarios(card, save_scenarios)
    _finish(
        card,
        report=report,
        output=output,
        fail_under=fail_under,
        ci=ci,
        strict=strict,
        verbose=verbose,
    )


def _save_scenarios(card: Any, path: Path) -> None:
    from toolscore_mcp.scenarios.file import starter_from_run, write_scenario_file

    document = starter_from_run(card.tools, card.results, placeholders=dict(card.sandbox))
    try:
        write_scenario_file(document, path)
    except OSError as exc:
        _fail(f"Cannot write {path}: {exc.strerror or exc}")
    click.echo(f"Wrote starter scenarios to {path}.", err=True)


@contextlib.contextmanager
def _progress_display() -> Iterator[Any]:
    """A live "tools done of total, current tool" line on a terminal; nothing otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    from toolscore.terminal_text import shown_markup

    with Progress(
        TextColumn("[bold]testing[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("", total=None)

        def update(done: int, total: int, tool: str) -> None:
            bar.update(task, completed=done, total=total, description=shown_markup(tool))

        yield update


def _finish(
    card: Any,
    *,
    report: str | None,
    output: Path | None,
    fail_under: str | None,
    ci: bool,
    strict: bool = False,
    verbose: bool = False,
) -> None:
    """Write the report, print the scorecard, and apply the gates."""
    from rich.text import Text
    from toolscore.terminal_text import shown

    from toolscore_mcp.reports.console import print_scorecard
    from toolscore_mcp.reports.markdown import scorecard_to_markdown

    console = _console()
    wrote = False
    if report is not None and output is not None:
        _write_report(card, report, output)
        name = shown(card.server.name or "server", one_line=True)
        console.print(
            Text(
                f"{name} -> Grade {card.grade} (score {card.score:.0%}). Report written to {output}."
            )
        )
        wrote = True
    if ci or verbose or not wrote:
        print_scorecard(card, console, verbose=verbose)
    if ci:
        summary = os.environ.get("GITHUB_STEP_SUMMARY")
        if summary:
            try:
                with open(summary, "a", encoding="utf-8") as handle:
                    handle.write(scorecard_to_markdown(card) + "\n")
            except OSError as exc:
                _fail(f"Cannot write the GitHub job summary {summary}: {exc.strerror or exc}")
            console.print(
                Text("Wrote the scorecard to the GitHub Actions job summary.", style="dim")
            )
    from toolscore_mcp.grading.scorecard import grade_meets

    if fail_under is not None and not grade_meets(card.grade, fail_under):
        console.print(
            Text(f"Grade {card.grade} is below the required {fail_under.upper()}.", style="red")
        )
        sys.exit(1)
    breaches = card.budget_report().breaches()
    if breaches:
        console.print(Text(f"Over budget: {'; '.join(breaches)}.", style="red"))
        sys.exit(1)
    if card.lock_changes:
        console.print(
            Text(
                f"The tool surface differs from the lock file ({len(card.lock_changes)} "
                "unreviewed change(s)); review them, then run 'toolscore mcp lock'.",
                style="red",
            )
        )
        sys.exit(1)
    if ci and fail_under is None and card.blocking:
        console.print(Text("Blocking issues found (see 'Top issues to fix' above).", style="red"))
        sys.exit(1)
    if ci and strict and card.blocking_strict:
        console.print(
            Text(f"Inconclusive tools under --strict: {card.coverage_line()}.", style="red")
        )
        sys.exit(1)


def _write_report(card: Any, report: str, output: Path) -> None:
    import json

    from toolscore.fileio import atomic_write_text

    from toolscore_mcp.client.session import _version
    from toolscore_mcp.reports.json_report import scorecard_to_json
    from toolscore_mcp.reports.markdown import scorecard_to_markdown
    from toolscore_mcp.reports.sarif import scorecard_to_sarif

    if report == "json":
        text = json.dumps(scorecard_to_json(card), indent=2) + "\n"
    elif report == "sarif":
        log = scorecard_to_sarif(card, version=_version())
        text = json.dumps(log, indent=2, ensure_ascii=False) + "\n"
    else:
        text = scorecard_to_markdown(card)
    try:
        atomic_write_text(output, text)
    except OSError as exc:
        _fail(f"Cannot write {output}: {exc.strerror or exc}")


@mcp_group.command("record", context_settings={"ignore_unknown_options": True})
@_server_options(remote=False, timeout=False)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    required=True,
    help="Session file to write (scores with `toolscore eval`).",
)
def record_command(output: Path, **server: Any) -> None:
    """Record real tool calls between an MCP client and a server."""
    from toolscore_mcp.client.recorder import MCPRecorder

    target = _resolve_target(**server)
    recorder = MCPRecorder(
        list(target.command), output, env=dict(target.env) or None, cwd=target.cwd
    )
    try:
        code = recorder.run()
    except OSError as exc:
        _fail(f"Failed to launch MCP server {list(target.command)}: {exc.strerror or exc}")
    print(
        f"toolscore: recorded {recorder.calls_recorded} tool call(s) to {output}", file=sys.stderr
    )
    sys.exit(code)


def _run_scorecard(ctx: click.Context, target: Any, **settings: Any) -> Any:
    """Grade ``target`` with ``TestOptions(**settings)`` and a live progress display; a server
    that cannot start, or a bad scenario file or recording, ends the command with one line."""
    from toolscore.errors import InputError

    from toolscore_mcp.client.errors import MCPError
    from toolscore_mcp.grading.harness import TestOptions, grade_server, run_sync

    pm = _plugin_manager(ctx)
    with _progress_display() as progress:
        options = TestOptions(progress=progress, **settings)
        try:
            return run_sync(lambda: grade_server(target, options, pm=pm))
        except MCPError as exc:
            _fail(f"Failed to test MCP server: {exc}")
        except InputError as exc:  # a bad scenario file or recording, read before the launch
            _fail(str(exc), 2)


@click.command("demo")
@click.pass_context
def demo_command(ctx: click.Context) -> None:
    """Health-check a bundled sample MCP server -- zero setup, no API key."""
    from toolscore_mcp.client.prelaunch import prelaunch
    from toolscore_mcp.client.session import ServerTarget

    # The sample server's file, found without importing it: it runs in its own process.
    sample_server = Path(__file__).resolve().parent.parent / "sample_server.py"
    target = ServerTarget(command=(sys.executable, str(sample_server)))
    early = prelaunch(target)  # boots while the rest gets ready
    from rich.text import Text

    from toolscore_mcp.client.errors import MCPError
    from toolscore_mcp.grading.harness import TestOptions, grade_server, run_sync

    console = _console()
    console.print(
        Text(
            "toolscore demo - grading a bundled sample MCP server (no setup, no API key).\n",
            style="bold",
        )
    )
    try:
        card = run_sync(
            lambda: grade_server(
                target, TestOptions(timeout=30.0, prelaunched=early), pm=_plugin_manager(ctx)
            )
        )
    except MCPError as exc:
        _fail(f"Failed to run the demo server: {exc}")
    finally:
        if early is not None:
            early.discard()
    from toolscore_mcp.reports.console import print_scorecard

    print_scorecard(card, console)
    console.print(Text(f"\n{DEMO_HINT}", style="bold"))


def _attach_scenario_commands() -> None:
    from toolscore_mcp.cli.scenario import scenarios_group
    from toolscore_mcp.cli.surface import diff_command, lock_command

    mcp_group.add_command(scenarios_group)
    mcp_group.add_command(lock_command)
    mcp_group.add_command(diff_command)


_attach_scenario_commands()
