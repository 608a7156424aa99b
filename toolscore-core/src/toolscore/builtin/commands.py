"""Core's own CLI commands, resolved lazily by name.

The root group looks a built-in name up in :data:`BUILTIN_COMMANDS` and imports only that
command's module, so ``toolscore eval`` never scans entry points for plugin commands, and
``toolscore --help`` lists them from the table's summaries without importing any. The same
table is contributed through ``toolscore_register_commands`` so that ``plugins list --all``
shows core's commands like anyone else's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolscore._markers import hookimpl
from toolscore.command_table import CommandEntry, add_commands

if TYPE_CHECKING:
    import click

#: Command name -> where its click command lives, and its summary in ``toolscore --help``.
BUILTIN_COMMANDS: dict[str, CommandEntry] = {
    "eval": CommandEntry(
        "toolscore.cli.eval:command", "Evaluate an agent trace against gold standard."
    ),
    "eval-batch": CommandEntry(
        "toolscore.cli.batch:command",
        "Evaluate a dataset of cases (JSONL, gold/ + traces/, or OTLP) in parallel.",
    ),
    "validate": CommandEntry(
        "toolscore.cli.validate:command", "Validate a trace file or a gold file."
    ),
    "plugins": CommandEntry(
        "toolscore.cli.plugins:command", "Inspect installed toolscore plugins."
    ),
    "regression": CommandEntry(
        "toolscore.cli.regression:command", "Compare agent trace against a saved baseline."
    ),
    "compare": CommandEntry(
        "toolscore.cli.compare_models:command",
        "Compare multiple model traces against gold standard.",
    ),
    "generate": CommandEntry(
        "toolscore.cli.generate:command", "Generate synthetic test cases from function schemas."
    ),
}


def load_builtin_command(name: str) -> click.Command | None:
    """Import and return the built-in command ``name``, or ``None`` if it is not built in."""
    entry = BUILTIN_COMMANDS.get(name)
    return entry.load() if entry is not None else None


@hookimpl
def toolscore_register_commands(cli: click.Group) -> None:
    add_commands(cli, BUILTIN_COMMANDS)
