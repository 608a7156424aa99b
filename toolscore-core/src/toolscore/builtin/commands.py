"""Core's own CLI commands, resolved lazily by name.

The root group looks a built-in name up in :data:`BUILTIN_COMMANDS` and imports only that
command's module, so ``toolscore eval`` never scans entry points for plugin commands. The same
table is contributed through ``toolscore_register_commands`` so that ``plugins list --all`` shows
core's commands like anyone else's.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from toolscore._markers import hookimpl

if TYPE_CHECKING:
    import click

#: Command name -> "module:attribute" of a click command.
BUILTIN_COMMANDS: dict[str, str] = {
    "eval": "toolscore.cli.eval:command",
    "eval-batch": "toolscore.cli.batch:command",
    "validate": "toolscore.cli.validate:command",
    "plugins": "toolscore.cli.plugins:command",
    "regression": "toolscore.cli.regression:command",
    "compare": "toolscore.cli.compare_models:command",
    "generate": "toolscore.cli.generate:command",
}


def load_builtin_command(name: str) -> click.Command | None:
    """Import and return the built-in command ``name``, or ``None`` if it is not built in."""
    target = BUILTIN_COMMANDS.get(name)
    if target is None:
        return None
    module_name, _, attribute = target.partition(":")
    command: click.Command = getattr(import_module(module_name), attribute)
    return command


@hookimpl
def toolscore_register_commands(cli: click.Group) -> None:
    for name in BUILTIN_COMMANDS:
        if name not in cli.commands:
            command = load_builtin_command(name)
            if command is not None:
                cli.add_command(command, name)
