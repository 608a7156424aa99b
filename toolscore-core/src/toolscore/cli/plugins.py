"""``toolscore plugins list``: what is installed, what each plugin provides, what failed.

``--json`` prints a stable document (schema version 1)::

    {"schema_version": 1,
     "plugins": [{"name", "distribution", "version", "status", "builtin", "entry_point",
                  "location", "hooks": [...], "provides": {"metrics": [...], ...},
                  "error": str | null}]}

``status`` is one of ``active``, ``builtin``, ``disabled``, ``failed``. Failed plugins are
always listed; core's built-ins only with ``--all``. In the table, everything a plugin supplied
(names, versions, errors, tracebacks) is redacted and its control characters shown as escapes:
an installed package must not be able to rewrite the terminal through its error message.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from toolscore.cli.output import ExitCode

if TYPE_CHECKING:
    from toolscore.plugins.records import PluginRecord

PLUGINS_JSON_SCHEMA_VERSION = 1

_STATUS_STYLE = {"active": "green", "builtin": "cyan", "disabled": "dim", "failed": "bold red"}


@click.group(name="plugins")
def command() -> None:
    """Inspect installed toolscore plugins."""


@command.command(name="list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (stable schema, see docs).")
@click.option("--all", "show_all", is_flag=True, help="Include core's built-in plugins.")
@click.option("--hook", "hook_filter", metavar="NAME", help="Only plugins implementing this hook.")
@click.option("--strict", is_flag=True, help="Exit 1 when any plugin failed to load.")
@click.option(
    "-v", "--verbose", is_flag=True, help="Show where each plugin was loaded from and full errors."
)
@click.pass_context
def list_plugins(
    ctx: click.Context,
    as_json: bool,
    show_all: bool,
    hook_filter: str | None,
    strict: bool,
    verbose: bool,
) -> None:
    """List installed plugins, what each provides, and which failed to load."""
    from toolscore.cli import plugin_manager_for

    pm = plugin_manager_for(ctx)
    # Commands are part of what a plugin provides; collect them the same way --help does.
    group = ctx.find_root().command
    if isinstance(group, click.Group):
        group.list_commands(ctx)
    records = [r for r in pm.records() if show_all or not r.builtin]
    if hook_filter:
        wanted = hook_filter if hook_filter.startswith("toolscore_") else f"toolscore_{hook_filter}"
        records = [r for r in records if wanted in r.hooks]
    if as_json:
        click.echo(json.dumps(plugins_document(records), indent=2))
    else:
        _print_table(records, verbose)
    if strict and any(r.status == "failed" for r in records):
        ctx.exit(int(ExitCode.ERROR))


def plugins_document(records: list[PluginRecord]) -> dict[str, Any]:
    """The ``--json`` document."""
    return {
        "schema_version": PLUGINS_JSON_SCHEMA_VERSION,
        "plugins": [
            {
                "name": r.name,
                "distribution": r.distribution,
                "version": r.version,
                "status": r.status,
                "builtin": r.builtin,
                "entry_point": r.entry_point,
                "location": r.location,
                "hooks": list(r.hooks),
                "provides": {kind: list(names) for kind, names in r.provides.items()},
                "error": r.error or None,
            }
            for r in records
        ],
    }


def _provides_text(record: PluginRecord) -> str:
    parts = [f"{kind}: {', '.join(names)}" for kind, names in record.provides.items()]
    return "\n".join(parts) or "-"


def _print_table(records: list[PluginRecord], verbose: bool) -> None:
    from rich.table import Table
    from rich.text import Text

    from toolscore.cli.output import stdout_console
    from toolscore.terminal_text import shown, shown_markup

    console = stdout_console()
    if not records:
        console.print("No plugins installed. (Use --all to include core's built-ins.)")
        return
    table = Table(title="toolscore plugins", show_lines=True)
    for column in ("Name", "Distribution", "Version", "Status", "Provides"):
        table.add_column(column, overflow="fold")
    if verbose:
        table.add_column("Loaded from", overflow="fold")
    for record in records:
        status = Text(
            shown(record.status, one_line=True), style=_STATUS_STYLE.get(record.status, "")
        )
        provides = Text(shown(_provides_text(record)))
        if record.error:
            error = shown(record.error)
            provides = Text(error, style="red") if provides.plain == "-" else provides
            if record.status == "failed" and error not in provides.plain:
                provides.append("\n" + error, style="red")
        row: list[Any] = [
            Text(shown(value, one_line=True))
            for value in (record.name, record.distribution, record.version)
        ]
        row += [status, provides]
        if verbose:
            row.append(Text(shown(record.location or record.entry_point, one_line=True)))
        table.add_row(*row)
    console.print(table)
    if verbose:
        for record in records:
            if record.traceback:
                name = shown_markup(record.name, one_line=True)
                distribution = shown_markup(record.distribution, one_line=True)
                console.print(f"\n[bold red]{name}[/] ({distribution}) failed:")
                console.print(Text(shown(record.traceback)))
