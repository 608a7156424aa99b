"""``toolscore mcp test``: grade a server, write the report, and apply the CI gates.

The run itself is :func:`toolscore_mcp.grading.harness.grade_server`; this module turns the
options into its settings, shows progress on a terminal, writes the report file, prints the
scorecard and exits 1 when a gate (grade, budget, lock, blocking issues) fails.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
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

__all__ = ["test_command"]

_GRADES = ("A", "B", "C", "D", "F")
_REPORTS = ("md", "json", "sarif", "html")
_SUFFIXES = {".json": "json", ".sarif": "sarif", ".html": "html", ".htm": "html"}


@click.command("test")
@server_options()
@click.option(
    "--cases",
    type=int,
    default=3,
    show_default=True,
    help="Happy-path scenarios per tool (with 2 or more, a tool that acts on a sandbox file "
    "gets one more, on a fresh copy of it).",
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
    metavar="NAME[=PATH]",
    help="Write a report file: md, json, sarif (lint and scenario findings) or html (one "
    "self-contained page); the path after '=' or from --output.",
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
    "--allow-incomplete",
    is_flag=True,
    help="With --ci: accept a run that verified fewer than half of the tools (by default it fails).",
)
@startup_timeout_option
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
    "--allow-destructive",
    is_flag=True,
    help="Call destructive tools (annotated destructiveHint, or named delete, drop, wipe, reset, "
    "kill, purge...) even when their target is not in the sandbox or created by this run. "
    "Without it such calls are not sent, and the tool is listed as 'not called: destructive'.",
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
@budget_options
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
    allow_incomplete: bool,
    startup_timeout: float,
    scenarios_file: Path | None,
    save_scenarios: Path | None,
    recorded: Path | None,
    no_sandbox: bool,
    allow_destructive: bool,
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
    repository and a SQLite database, and {sandbox_url} a web server on 127.0.0.1. A stdio
    server runs in it: its working directory, HOME, TMPDIR and XDG folders are folders of the
    sandbox, unless a config's cwd or env (or --env) sets them. Generated relative paths are
    made absolute in the sandbox, and destructive tools are only called on the sandbox's files
    or on objects this run created (see --allow-destructive).

    COMMAND is the server's launch command as one quoted string ("python server.py"), or
    several words after --; a URL (or --url) for a remote server; or --config.
    """
    report, output = _report_format(report, output, fail_under)
    limits = parse_budget_options(budget, max_tools)
    locked = None
    if lock_file is not None:
        from toolscore_mcp.cli.surface import read_lock_or_fail

        locked = read_lock_or_fail(str(lock_file))
    with _scorecard_started_early(
        ctx,
        resolve_target(**server),
        no_sandbox=no_sandbox,
        client=client,
        cases=cases,
        edge_cases=not no_edge_cases,
        timeout=timeout,
        concurrency=concurrency,
        startup_timeout=startup_timeout,
        scenarios=str(scenarios_file) if scenarios_file else None,
        recorded=str(recorded) if recorded else None,
        allow_destructive=allow_destructive,
    ) as card:
        import attrs

        card = attrs.evolve(card, budget=limits)
        if locked is not None:
            card = _with_lock_changes(card, locked)
        if save_scenarios is not None:
            _save_scenarios(card, save_scenarios)
        _finish(
            card,
            report=report,
            output=output,
            fail_under=fail_under,
            ci=ci,
            strict=strict,
            allow_incomplete=allow_incomplete,
            verbose=verbose,
        )


@contextlib.contextmanager
def _scorecard_started_early(
    ctx: click.Context, target: Any, *, no_sandbox: bool, client: str, **options: Any
) -> Iterator[Any]:
    """The scorecard, with the server launched while the run gets ready: the sandbox's
    folder is reserved first, so the server starts in it, and a command that names
    ``{sandbox}`` gets it built first (the run would build it for the command anyway).

    Once the run is over, the sandbox is removed on a helper thread while the caller writes
    and prints the report (removing its folders takes about a tenth of a second), and is
    gone when the ``with`` block ends."""
    import threading

    from toolscore_mcp.client.prelaunch import prelaunch
    from toolscore_mcp.sandbox.environment import isolate
    from toolscore_mcp.sandbox.lazy import LazySandbox

    reserved = None if no_sandbox else LazySandbox.reserve()
    launched = (
        target
        if reserved is None
        else isolate(reserved.fill_target(target), reserved.reserved).target
    )
    early = prelaunch(launched, client=client)  # boots while the rest gets ready
    try:
        card = _run_scorecard(
            ctx,
            target,
            sandbox=not no_sandbox,
            client=client,
            prelaunched=early,
            reserved=reserved,
            **options,
        )
    except BaseException:
        if reserved is not None:
            reserved.close()
        raise
    finally:
        if early is not None:
            early.discard()
    closer = None
    if reserved is not None:
        closer = threading.Thread(target=reserved.close, name="toolscore-sandbox-close")
        closer.start()
    try:
        yield card
    finally:
        if closer is not None:
            closer.join()


def _report_format(
    report: str | None, output: Path | None, fail_under: str | None
) -> tuple[str | None, Path | None]:
    """Check ``--fail-under``, ``--report`` and ``--output`` together; the report format
    (from ``--report`` or else from the output file's extension) and its path
    (``--report FORMAT=PATH`` or ``--output``)."""
    if fail_under is not None and fail_under.upper() not in _GRADES:
        abort(f"--fail-under must be one of A-F, got {fail_under!r}.", 2)
    if report is not None:
        report, _, path = report.partition("=")
        if report not in _REPORTS:
            abort(f"--report must be one of {', '.join(_REPORTS)}, got {report!r}.", 2)
        if path and output is not None:
            abort("Give the report's path once: --report FORMAT=PATH or --output PATH.", 2)
        if path:
            output = Path(path)
    if report is not None and output is None:
        abort("--report requires --output PATH.", 2)
    if output is not None and report is None:
        report = _SUFFIXES.get(output.suffix.lower(), "md")
    return report, output


def _with_lock_changes(card: Any, locked: dict[str, dict[str, Any]]) -> Any:
    """``card`` with the changes of its tools against the reviewed lock (``--lock``)."""
    import attrs

    from toolscore_mcp.surface.diff import diff_surfaces
    from toolscore_mcp.surface.lock import normalized

    changes = diff_surfaces(locked, {tool.name: normalized(tool) for tool in card.tools})
    return attrs.evolve(card, lock_changes=tuple(changes))


def _save_scenarios(card: Any, path: Path) -> None:
    from toolscore_mcp.scenarios.file_writer import write_scenario_file
    from toolscore_mcp.scenarios.starter import starter_from_run

    document = starter_from_run(card.tools, card.results, placeholders=dict(card.sandbox))
    try:
        write_scenario_file(document, path)
    except OSError as exc:
        abort(f"Cannot write {path}: {exc.strerror or exc}")
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
    allow_incomplete: bool = False,
    verbose: bool = False,
) -> None:
    """Write the report, print the scorecard, and apply the gates."""
    from rich.text import Text
    from toolscore.terminal_text import shown

    from toolscore_mcp.reports.console import print_scorecard
    from toolscore_mcp.reports.markdown import scorecard_to_markdown

    console = output_console()
    if report is not None and output is not None:
        _write_report(card, report, output)
    print_scorecard(card, console, verbose=verbose)
    if report is not None and output is not None:
        name = shown(card.server.name or "server", one_line=True)
        console.print(
            Text(
                f"\n{name} -> Grade {card.grade} (score {card.score:.0%}). "
                f"Report written to {shown(output, one_line=True)}."
            )
        )
    if ci:
        summary = os.environ.get("GITHUB_STEP_SUMMARY")
        if summary:
            try:
                with open(summary, "a", encoding="utf-8") as handle:
                    handle.write(scorecard_to_markdown(card) + "\n")
            except OSError as exc:
                abort(f"Cannot write the GitHub job summary {summary}: {exc.strerror or exc}")
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
    if ci and card.incomplete and not allow_incomplete:
        console.print(
            Text(
                f"Incomplete run: {card.coverage_line()} (--allow-incomplete accepts it).",
                style="red",
            )
        )
        sys.exit(1)
    if ci and strict and card.blocking_strict:
        console.print(
            Text(f"Inconclusive tools under --strict: {card.coverage_line()}.", style="red")
        )
        sys.exit(1)


def _write_report(card: Any, report: str, output: Path) -> None:
    import json

    from toolscore.fileio import atomic_write_text

    from toolscore_mcp.client.target import toolscore_version
    from toolscore_mcp.reports.json_report import scorecard_to_json
    from toolscore_mcp.reports.markdown import scorecard_to_markdown
    from toolscore_mcp.reports.sarif import scorecard_to_sarif

    if report == "json":
        text = json.dumps(scorecard_to_json(card), indent=2) + "\n"
    elif report == "sarif":
        log = scorecard_to_sarif(card, version=toolscore_version())
        text = json.dumps(log, indent=2, ensure_ascii=False) + "\n"
    elif report == "html":
        from toolscore_mcp.reports.html_report import scorecard_to_html

        text = scorecard_to_html(card, version=toolscore_version())
    else:
        text = scorecard_to_markdown(card)
    try:
        atomic_write_text(output, text)
    except OSError as exc:
        abort(f"Cannot write {output}: {exc.strerror or exc}")


def _run_scorecard(ctx: click.Context, target: Any, **settings: Any) -> Any:
    """Grade ``target`` with ``TestOptions(**settings)`` and a live progress display; a server
    that cannot start, or a bad scenario file or recording, ends the command with one line."""
    from toolscore.errors import InputError

    from toolscore_mcp.client.errors import MCPError
    from toolscore_mcp.grading.harness import TestOptions, grade_server, run_sync

    pm = plugin_manager_of(ctx)
    with _progress_display() as progress:
        options = TestOptions(progress=progress, **settings)
        try:
            return run_sync(lambda: grade_server(target, options, pm=pm))
        except MCPError as exc:
            abort(f"Failed to test MCP server: {exc}")
        except InputError as exc:  # a bad scenario file or recording, read before the launch
            abort(str(exc), 2)
