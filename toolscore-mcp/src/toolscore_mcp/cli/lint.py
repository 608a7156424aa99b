"""``toolscore mcp lint``: lint a server's tool definitions (live, or a saved tools/list).

Findings go to stdout (a table, or JSON); definition-only conformance checks, provider
compatibility and the token budget follow on stderr. Exit 1 on an error or a broken budget.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from toolscore_mcp.cli.options import (
    abort,
    budget_options,
    output_console,
    parse_budget_options,
    plugin_manager_of,
    resolve_target,
    server_options,
    startup_timeout_option,
)

__all__ = ["lint_command"]


@click.command("lint")
@server_options()
@startup_timeout_option
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
@budget_options
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
    startup_timeout: float,
    **server: Any,
) -> None:
    """Statically lint an MCP server's tool schemas."""
    limits = parse_budget_options(budget, max_tools)
    from toolscore_mcp.lint import lint_tools

    details, tools, artifact = _lint_input(tools_file, timeout, server, startup_timeout)
    issues = lint_tools(tools, details.instructions, pm=plugin_manager_of(ctx))
    if sarif_path is not None:
        _write_sarif(sarif_path, issues, details.name, artifact)
    errors = sum(1 for issue in issues if issue.severity == "error")
    warnings = len(issues) - errors
    if as_json:
        _print_lint_json(issues, details, len(tools), errors, warnings)
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
    for outcome in definition_conformance(tools, details, pm=plugin_manager_of(ctx)):
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

    console = output_console()
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

    from toolscore_mcp.client.target import toolscore_version
    from toolscore_mcp.reports.sarif import lint_to_sarif

    log = lint_to_sarif(
        issues, server_name=server_name, artifact=artifact, version=toolscore_version()
    )
    try:
        atomic_write_text(path, json.dumps(log, indent=2, ensure_ascii=False) + "\n")
    except OSError as exc:
        abort(f"Cannot write {path}: {exc.strerror or exc}")


def _lint_input(
    tools_file: Path | None, timeout: float, server: dict[str, Any], startup_timeout: float
) -> tuple[Any, list[Any], str | None]:
    """The server details and tools to lint, and the artifact SARIF names: from ``--file``
    (or a lone COMMAND that is a JSON file), else from the live server."""
    from toolscore_mcp.client.errors import MCPError
    from toolscore_mcp.client.tools_file import load_tools_file
    from toolscore_mcp.grading.harness import query_server, run_sync

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
            abort("Provide either --file or a server to lint, not both.", 2)
        from toolscore.errors import InputError

        try:
            details, tools = load_tools_file(tools_file)
        except InputError as exc:
            abort(str(exc), 2)
        return details, tools, str(tools_file)
    target = resolve_target(**server)
    try:
        details, tools = run_sync(lambda: query_server(target, timeout, startup_timeout))
    except MCPError as exc:
        abort(f"Failed to query MCP server: {exc}")
    return details, tools, str(server["config"]) if server["config"] else None


def _print_lint_json(
    issues: Sequence[Any], details: Any, tool_count: int, errors: int, warnings: int
) -> None:
    """``mcp lint --json``: the findings as one JSON document on stdout."""
    import json

    click.echo(
        json.dumps(
            {
                "server": {"name": details.name, "version": details.version},
                "tools": tool_count,
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
