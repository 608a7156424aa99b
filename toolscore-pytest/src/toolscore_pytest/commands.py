"""Adds ``approve``, ``snapshots``, ``record`` and ``init`` to the ``toolscore`` command line.

Registered under the ``toolscore`` entry-point group. It is imported whenever the plugin
manager loads plugins (every ``evaluate()`` process), so it imports nothing but the marker;
click and the command modules come in only when the CLI asks for commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolscore import hookimpl
from toolscore.command_table import CommandEntry, add_commands

if TYPE_CHECKING:
    import click

#: The commands this plugin adds: ``toolscore --help`` lists them from here without importing
#: :mod:`toolscore_pytest.cli`; the hook below adds them from the same table.
TOOLSCORE_COMMANDS = {
    "approve": CommandEntry(
        "toolscore_pytest.cli:approve", "Approve one or more snapshots for use as a baseline."
    ),
    "snapshots": CommandEntry(
        "toolscore_pytest.cli:snapshots", "List, inspect, and manage recorded snapshots."
    ),
    "record": CommandEntry("toolscore_pytest.cli:record", "Record tool-call snapshots."),
    "init": CommandEntry(
        "toolscore_pytest.cli:init", "Scaffold a working Toolscore test suite for your agent."
    ),
}


@hookimpl
def toolscore_register_commands(cli: click.Group) -> None:
    add_commands(cli, TOOLSCORE_COMMANDS)
