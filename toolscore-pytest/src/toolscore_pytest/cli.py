"""The snapshot commands (``approve``, ``snapshots``, ``record``) and ``init``.

Only click is imported here; rich, the snapshot store and the scaffolder are imported when a
command runs. Errors are one ``ERROR ...`` line on stderr; exit codes are
0 done, 1 failed, 2 wrong usage, and ``record -- CMD`` exits with the command's own code.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click
from toolscore.terminal_text import shown, shown_markup

if TYPE_CHECKING:
    from toolscore.snapshots import Snapshot, SnapshotStore

DEFAULT_DIR = ".toolscore/snapshots"
FORMATS = ("auto", "openai", "anthropic", "gemini", "mcp", "langchain", "otel", "custom")

_dir_option = click.option(
    "--dir",
    "snap_dir",
    type=click.Path(path_type=Path),
    default=DEFAULT_DIR,
    help=f"Snapshot folder (default: {DEFAULT_DIR}).",
)


def _store(snap_dir: Path) -> SnapshotStore:
    from toolscore.snapshots import SnapshotStore

    return SnapshotStore(snap_dir)


def _fail(message: str, code: int = 1) -> NoReturn:
    from toolscore.cli.output import ExitCode, fail

    fail(message, ExitCode(code))


def _load(store: SnapshotStore, name: str) -> Snapshot | None:
    from toolscore.errors import InputError

    try:
        return store.load(name)
    except InputError as exc:
        _fail(str(exc))


def _readable(store: SnapshotStore) -> list[Snapshot]:
    """Every readable snapshot; each unreadable file gets a one-line note on stderr."""
    from toolscore.errors import InputError

    found = []
    for path in store.files():
        try:
            found.append(store.read_file(path))
        except InputError as exc:
            click.echo(shown(f"skipped: {exc}"), err=True)
    return sorted(found, key=lambda s: s.name)


def _age(created_at: str) -> str:
    try:
        created = datetime.fromisoformat(created_at)
    except (TypeError, ValueError):
        return created_at or "unknown"
    if created.tzinfo is None:
        created = created.replace(tzinfo=timezone.utc)
    days = (datetime.now(timezone.utc) - created).days
    if days <= 0:
        return "today"
    return "1 day ago" if days == 1 else f"{days} days ago"


def _console() -> Any:
    """Standard output; message lines are never wrapped (tables still fit the width)."""
    from toolscore.cli.output import stdout_console

    console = stdout_console()
    console.soft_wrap = True
    return console


# -- approve ---------------------------------------------------------------------------------------


@click.command("approve", help="Approve one or more snapshots for use as a baseline.")
@click.argument("names", nargs=-1)
@click.option("--all", "approve_all", is_flag=True, help="Approve every pending snapshot.")
@_dir_option
def approve(names: tuple[str, ...], approve_all: bool, snap_dir: Path) -> None:
    from rich.table import Table

    if not names and not approve_all:
        _fail("Provide snapshot NAME(s) or --all.", 2)
    store = _store(snap_dir)
    console = _console()
    if approve_all:
        chosen = [s for s in _readable(store) if not s.approved]
        if not chosen:
            console.print("No pending snapshots found — nothing to approve.")
            return
    else:
        chosen = []
        for name in dict.fromkeys(names):
            snapshot = _load(store, name)
            if snapshot is None:
                _fail(f"Snapshot {name!r} does not exist.")
            assert snapshot is not None
            chosen.append(snapshot)
    table = Table(header_style="bold magenta")
    table.add_column("Name", style="cyan", overflow="fold")
    table.add_column("Calls", justify="right")
    table.add_column("Age", style="dim")
    for snapshot in chosen:
        snapshot.approved = True
        store.save(snapshot)
        table.add_row(
            shown_markup(snapshot.name, one_line=True),
            str(len(snapshot.calls)),
            shown_markup(_age(snapshot.created_at), one_line=True),
        )
    console.print()
    console.print(table)
    console.print(f"\n[green]Approved {len(chosen)} snapshot(s).[/green]")


# -- snapshots list | show | rm ----------------------------------------------------------------------


@click.group("snapshots", help="List, inspect, and manage recorded snapshots.")
def snapshots() -> None:
    pass


@snapshots.command("list", help="List all recorded snapshots.")
@click.option("--pending", is_flag=True, help="Only snapshots waiting for approval.")
@_dir_option
def snapshots_list(pending: bool, snap_dir: Path) -> None:
    from rich.table import Table

    found = _readable(_store(snap_dir))
    if pending:
        found = [s for s in found if not s.approved]
    console = _console()
    if not found:
        console.print("No snapshots found.")
        return
    table = Table(header_style="bold magenta")
    table.add_column("Status", justify="center", width=6)
    table.add_column("Name", style="cyan", overflow="fold")
    table.add_column("Calls", justify="right")
    table.add_column("Updated", style="dim")
    table.add_column("Source", style="dim")
    for snapshot in found:
        status = "[green]v[/green]" if snapshot.approved else "[yellow]o[/yellow]"
        table.add_row(
            status,
            shown_markup(snapshot.name, one_line=True),
            str(len(snapshot.calls)),
            shown_markup(snapshot.updated_at[:19], one_line=True),
            shown_markup(snapshot.source, one_line=True),
        )
    console.print()
    console.print(table)
    approved = sum(1 for s in found if s.approved)
    console.print(
        f"[green]v[/green] approved ({approved})   [yellow]o[/yellow] pending approval "
        f"({len(found) - approved}): `toolscore approve NAME` or `toolscore approve --all`"
    )
    console.print()


@snapshots.command("show", help="Show the tool calls and metadata for a snapshot.")
@click.argument("name")
@_dir_option
def snapshots_show(name: str, snap_dir: Path) -> None:

    snapshot = _load(_store(snap_dir), name)
    if snapshot is None:
        _fail(f"Snapshot {name!r} not found.")
    assert snapshot is not None
    console = _console()
    status = "[green]approved[/green]" if snapshot.approved else "[yellow]pending[/yellow]"
    console.print(
        f"\n[bold]Snapshot:[/bold] [cyan]{shown_markup(snapshot.name, one_line=True)}[/cyan]"
        f"  {status}"
    )
    console.print(f"Source:  {shown_markup(snapshot.source, one_line=True)}")
    console.print(f"Created: {shown_markup(snapshot.created_at, one_line=True)}")
    console.print(f"Updated: {shown_markup(snapshot.updated_at, one_line=True)}")
    console.print(f"Calls:   {len(snapshot.calls)}")
    console.print()
    for index, call in enumerate(snapshot.calls, 1):
        console.print(
            f"[bold]Call {index}[/bold] — "
            f"[cyan]{shown_markup(call.get('tool', '?'), one_line=True)}[/cyan]"
        )
        console.print(shown_markup(json.dumps(call.get("args", {}), indent=2, ensure_ascii=False)))
        console.print()


@snapshots.command("rm", help="Delete a snapshot by name.")
@click.argument("name")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@_dir_option
def snapshots_rm(name: str, yes: bool, snap_dir: Path) -> None:

    store = _store(snap_dir)
    if not store.exists(name):  # a corrupt file can still be removed
        _fail(f"Snapshot {name!r} not found.")
    console = _console()
    if not yes:
        answer = click.prompt(f"Delete snapshot {name!r}? [y/N]", default="n", show_default=False)
        if answer.strip().lower() not in ("y", "yes"):
            console.print("Aborted.")
            return
    store.delete(name)
    console.print(f"[green]Deleted[/green] snapshot [cyan]{shown_markup(repr(name))}[/cyan].")


# -- record ----------------------------------------------------------------------------------------


@click.command(
    "record",
    help="Record tool-call snapshots.",
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
@click.option("--update", is_flag=True, help="Overwrite an existing snapshot and approve it.")
@click.option(
    "--from-trace",
    "from_trace",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Take the calls from a trace file instead of running a command.",
)
@click.option("--name", default=None, help="Snapshot name (required with --from-trace).")
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(FORMATS),
    default="auto",
    help="Trace format for --from-trace (default: auto-detect).",
)
@_dir_option
@click.argument("cmd", nargs=-1, type=click.UNPROCESSED)
@click.pass_context
def record(
    ctx: click.Context,
    update: bool,
    from_trace: Path | None,
    name: str | None,
    fmt: str,
    snap_dir: Path,
    cmd: tuple[str, ...],
) -> None:
    """Record tool-call snapshots.

    \b
    Run a command (usually pytest) so its snapshot tests record:
      toolscore record [--update] -- pytest tests/ -k booking
    \b
    Or take the calls from a trace file:
      toolscore record --from-trace trace.json --name booking [-f openai]

    Then review and run `toolscore approve`.
    """
    command = [*cmd, *ctx.args]
    if from_trace is not None and command:
        _fail(
            "--from-trace and a trailing command are mutually exclusive; use one or the other.", 2
        )
    if from_trace is None and not command:
        _fail("Provide either --from-trace FILE or a command after --.", 2)
    if from_trace is not None:
        if not name:
            _fail("--name is required when using --from-trace.", 2)
        assert name is not None
        _record_trace(ctx, from_trace, name, fmt, update, _store(snap_dir))
        return
    sys.exit(_record_command(command, update))


def _record_trace(
    ctx: click.Context, trace: Path, name: str, fmt: str, update: bool, store: SnapshotStore
) -> None:
    from toolscore.cli import plugin_manager_for
    from toolscore.errors import ToolscoreError
    from toolscore.loading import load_trace
    from toolscore.snapshots import Snapshot

    try:
        tool_calls = load_trace(trace, format=fmt, plugin_manager=plugin_manager_for(ctx))
    except (OSError, ValueError, TypeError, ToolscoreError) as exc:
        _fail(f"Failed to load trace: {exc}")
    calls = [{"tool": call.tool, "args": dict(call.args or {})} for call in tool_calls]
    existing = _load(store, name)
    console = _console()
    quoted = shown_markup(repr(name), one_line=True)
    if existing is not None and not update:
        _fail(f"Snapshot {name!r} already exists. Use --update to overwrite and approve it.")
    if existing is not None:
        existing.calls = calls
        existing.approved = True
        existing.source = "trace"
        store.save(existing)
        console.print(
            f"[green]Updated[/green] snapshot [cyan]{quoted}[/cyan] ({len(calls)} calls) — approved."
        )
        return
    store.save(Snapshot(name=name, calls=calls, approved=False, source="trace"))
    console.print(
        f"[green]Recorded[/green] snapshot [cyan]{quoted}[/cyan] ({len(calls)} calls) — pending approval."
    )
    console.print(
        f"Run [cyan]toolscore approve {shown_markup(name, one_line=True)}[/cyan] to approve it."
    )


def _record_command(command: list[str], update: bool) -> int:
    import os
    import subprocess

    console = _console()
    console.print(f"Recording snapshots via: {' '.join(command)}", markup=False)
    env = {**os.environ, "TOOLSCORE_RECORD": "1"}
    if update:
        env["TOOLSCORE_RECORD_UPDATE"] = "1"
    try:
        code = subprocess.run(command, env=env, check=False).returncode
    except OSError as exc:
        _fail(f"Cannot run {command[0]!r}: {exc.strerror or exc}")
    if code == 0:
        console.print(
            "[green]Done.[/green] Run [cyan]toolscore approve --all[/cyan] to approve any new snapshots."
        )
    else:
        console.print(
            f"[yellow]Command exited with code {code}.[/yellow] Run [cyan]toolscore approve --all[/cyan] "
            "to approve any recorded snapshots."
        )
    return code


# -- init ------------------------------------------------------------------------------------------


@click.command("init", help="Scaffold a working Toolscore test suite for your agent.")
@click.option(
    "--framework",
    type=click.Choice(
        [
            "langgraph",
            "pydantic_ai",
            "openai_agents",
            "crewai",
            "claude_agent_sdk",
            "openai",
            "anthropic",
            "generic",
        ]
    ),
    default=None,
    help="Agent framework to scaffold for (default: detect it).",
)
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Project folder (default: the current folder).",
)
@click.option("--yes", "-y", is_flag=True, help="Use the detected framework without asking.")
@click.option("--no-ci", is_flag=True, help="Do not write the GitHub Actions workflow.")
@click.option("--force", is_flag=True, help="Overwrite existing files.")
def init(
    framework: str | None, directory: Path | None, yes: bool, no_ci: bool, force: bool
) -> None:
    """Scaffold a working Toolscore test suite for your agent.

    Detects the agent framework from pyproject.toml, requirements*.txt or imports, and writes
    a pytest suite that passes on its first run, plus a GitHub Actions workflow.
    """
    from toolscore_pytest.frameworks import FRAMEWORKS, detect_frameworks
    from toolscore_pytest.scaffold import scaffold

    root = directory if directory is not None else Path.cwd()
    console = _console()
    console.print("\n[bold cyan]Toolscore init[/bold cyan] - scaffolding a tool-call test suite\n")
    if framework is None:
        detected = detect_frameworks(root)
        if detected == ["generic"]:
            console.print("No framework detected - using [green]generic[/green] (works anywhere).")
        elif len(detected) == 1:
            console.print(f"Detected framework: [green]{FRAMEWORKS[detected[0]]}[/green]")
        else:
            labels = ", ".join(FRAMEWORKS[key] for key in detected)
            console.print(f"Detected frameworks: [green]{labels}[/green]")
        framework = detected[0]
        if not yes and sys.stdin.isatty():
            framework = click.prompt(
                "Scaffold for which framework?",
                type=click.Choice(list(FRAMEWORKS)),
                default=framework,
            )
    else:
        console.print(f"Framework: [green]{FRAMEWORKS[framework]}[/green]")
    assert framework is not None
    try:
        written = scaffold(framework, root, with_ci=not no_ci, force=force)
    except FileExistsError as exc:
        _fail(f"{exc} already exists. Re-run with --force to overwrite it.")
    except OSError as exc:
        _fail(f"Failed to scaffold project: {exc}")
    console.print()
    for path in written:
        try:
            shown = path.relative_to(root)
        except ValueError:
            shown = path
        console.print(f"[green]created[/green] {shown}")
    console.print("\n[bold green]Done![/bold green] Next steps:\n")
    console.print(
        "  [bold]0.[/bold] Want a full health check right now, no setup? [cyan]toolscore demo[/cyan]"
    )
    console.print(
        "  [bold]1.[/bold] Run [cyan]pytest[/cyan] to record the sample agent's calls, then "
        "[cyan]toolscore approve --all[/cyan] to make them the baseline."
    )
    console.print(
        "  [bold]2.[/bold] Change a value in [cyan]_fake_agent_response[/cyan] and run "
        "[cyan]pytest[/cyan] again: the test fails and shows the drift."
    )
    console.print(
        "  [bold]3.[/bold] Put your real agent in place of [cyan]_fake_agent_response[/cyan] in "
        "[cyan]tests/test_agent_tools.py[/cyan]."
    )
    console.print()
