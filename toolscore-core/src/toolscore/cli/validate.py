"""``toolscore validate TRACE_FILE``: can this trace be read, as what, and how many calls?"""

from __future__ import annotations

from pathlib import Path

import click

from toolscore.cli.output import ExitCode, fail


@click.command(name="validate")
@click.argument("trace_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "-f", "--format", "trace_format", default="auto", show_default=True, help="Trace format."
)
@click.pass_context
def command(ctx: click.Context, trace_file: Path, trace_format: str) -> None:
    """Validate trace file format."""
    from rich.panel import Panel
    from rich.text import Text

    from toolscore.cli import plugin_manager_for
    from toolscore.cli.output import stdout_console
    from toolscore.loading import load_trace, read_json

    pm = plugin_manager_for(ctx)
    try:
        detected = trace_format
        if trace_format == "auto":
            detected = pm.detect_format(read_json(trace_file)) or "unknown"
        calls = load_trace(trace_file, format=trace_format, plugin_manager=pm)
    except Exception as exc:
        fail(f"Invalid trace file: {exc}", ExitCode.ERROR)
    console = stdout_console()
    body = Text()
    body.append("OK", style="bold green")
    body.append(f" Valid trace file: {trace_file}")
    console.print(Panel(body, border_style="green", expand=False))
    console.print(f"Format: {detected}", markup=False)
    console.print(f"Total calls: {len(calls)}", markup=False)
    if calls:
        console.print(f"First tool: {calls[0].tool}", markup=False)
        console.print(f"First args: {dict(calls[0].actual_args)!r}", markup=False)
    from toolscore.input_checks import argument_problems

    for line in argument_problems(calls):
        console.print(f"Warning: {line}", style="yellow", markup=False)
