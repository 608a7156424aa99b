"""Commands declared as a table: listed by ``toolscore --help`` without importing them.

Why: ``toolscore --help`` lists every command with its one-line summary. Asking the commands
themselves means importing every command module (core's and each plugin's) and building a
plugin manager (pluggy, attrs): most of the time ``--help`` took. A command declared here
is a name, where its click command lives, and its summary; the command's module is imported
only when the command runs (or its own ``--help`` is asked for).

A plugin declares its commands with a module-level ``TOOLSCORE_COMMANDS`` table and adds
them from that same table in its ``toolscore_register_commands`` hook::

    TOOLSCORE_COMMANDS = {
        "hello": CommandEntry("my_plugin.cli:hello", "Say hello."),
    }

    @toolscore.hookimpl
    def toolscore_register_commands(cli):
        add_commands(cli, TOOLSCORE_COMMANDS)

``toolscore --help`` imports the plugin module (cheap: it imports no more than the marker and
this module) and reads the table instead of calling the hook. A plugin that implements the
hook without a table still works: ``--help`` then builds the plugin manager and asks every
plugin, as before. The summary must be the command's own short help (``cmd.get_short_help_str``);
``tests/integration/test_command_tables.py`` checks that for core's and the first-party tables.

This module imports nothing but the standard library: it is imported by plugin modules in
every process that loads plugins, where click must not be imported.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import click

__all__ = ["TABLE_ATTRIBUTE", "CommandEntry", "add_commands"]

#: The module attribute a plugin declares its commands in: ``{name: CommandEntry}``.
TABLE_ATTRIBUTE = "TOOLSCORE_COMMANDS"


class CommandEntry(NamedTuple):
    """One command of a table: where it lives and how ``toolscore --help`` sums it up."""

    #: ``module:attribute`` of the click command (or group).
    target: str
    #: Its one-line summary, as the command itself would give it (its short help).
    summary: str

    def load(self) -> click.Command:
        """Import the command's module and return the command."""
        module_name, _, attribute = self.target.partition(":")
        command: click.Command = getattr(import_module(module_name), attribute)
        return command


def add_commands(cli: click.Group, table: Mapping[str, CommandEntry]) -> None:
    """Add every command of ``table`` to ``cli`` under its name, unless the name is taken
    (the first plugin to add a name keeps it, as core's own commands come first)."""
    for name, entry in table.items():
        if name not in cli.commands:
            cli.add_command(entry.load(), name)
