"""Adds ``approve``, ``snapshots``, ``record`` and ``init`` to the ``toolscore`` command line.

Registered under the ``toolscore`` entry-point group. It is imported whenever the plugin
manager loads plugins (every ``evaluate()`` process), so it imports nothing but the marker;
click and the command modules come in only when the CLI asks for commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolscore import hookimpl

if TYPE_CHECKING:
    import click


@hookimpl
def toolscore_register_commands(cli: click.Group) -> None:
    from toolscore_pytest.cli import approve, init, record, snapshots

    for command in (approve, snapshots, record, init):
        if command.name not in cli.commands:
            cli.add_command(command)
