"""``toolscore mcp scenarios check|from-record``: work with scenario files without a server.

``check`` validates a scenario file the way ``mcp test --scenarios`` reads it, for a
pre-commit hook or CI step; ``from-record`` turns a session recorded with ``toolscore mcp
record`` into a starter file. :data:`scenarios_group` is attached to the ``mcp`` group by
:mod:`toolscore_mcp.cli.group`. As in every ``mcp`` command, a handled failure is one line,
``ERROR <message>`` (:func:`toolscore_mcp.cli.options.abort`), exit code 2 for bad input and
1 otherwise; only click is imported at module level.
"""

from __future__ import annotations

from pathlib import Path

import click

from toolscore_mcp.cli.options import abort

__all__ = ["scenarios_group"]

_USAGE = 2


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


@click.group("scenarios")
def scenarios_group() -> None:
    """Check scenario files and make them from recorded sessions."""


@scenarios_group.command("check")
@click.argument("file", type=click.Path(path_type=Path))
def check_command(file: Path) -> None:
    """Validate a scenario file (YAML or JSON) for `mcp test --scenarios`."""
    from toolscore.errors import InputError

    from toolscore_mcp.scenarios.file_reader import load_scenario_file

    try:
        loaded = load_scenario_file(file)
    except InputError as exc:
        abort(str(exc), _USAGE)
    click.echo(f"{file}: OK, {_plural(len(loaded.tools), 'tool')}")


@scenarios_group.command("from-record")
@click.argument("session", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    required=True,
    help="Scenario file to write (.yaml/.yml, or .json).",
)
@click.option("--force", is_flag=True, help="Overwrite OUTPUT if it exists.")
def from_record_command(session: Path, output: Path, force: bool) -> None:
    """Turn a `toolscore mcp record` session into a scenario file."""
    from toolscore.errors import InputError

    from toolscore_mcp.scenarios.file_writer import write_scenario_file
    from toolscore_mcp.scenarios.recording import scenarios_from_recording

    if output.exists() and not force:
        abort(f"{output} exists; pass --force to overwrite it.", _USAGE)
    try:
        document = scenarios_from_recording(session)
    except InputError as exc:
        abort(str(exc), _USAGE)
    try:
        write_scenario_file(document, output)
    except OSError as exc:
        abort(f"Cannot write {output}: {exc.strerror or exc}")
    tools = document["tools"]
    calls = sum(len(entry["arguments"]) for entry in tools.values())
    click.echo(
        f"Wrote {_plural(calls, 'call')} for {_plural(len(tools), 'tool')} to {output}; "
        f"check it with `toolscore mcp scenarios check {output}`."
    )
