"""The ``toolscore mcp`` group: every subcommand, attached in one place.

Added to the root ``toolscore`` group by :mod:`toolscore_mcp.plugin` (with ``toolscore
demo`` from :mod:`toolscore_mcp.cli.demo`). Only click is imported by the command modules;
the SDK, anyio and rich are imported inside the callbacks.
"""

from __future__ import annotations

import click

from toolscore_mcp.cli.lint import lint_command
from toolscore_mcp.cli.listing import list_command
from toolscore_mcp.cli.record import record_command
from toolscore_mcp.cli.scenario import scenarios_group
from toolscore_mcp.cli.surface import diff_command, lock_command
from toolscore_mcp.cli.test import test_command

__all__ = ["mcp_group"]


@click.group("mcp")
def mcp_group() -> None:
    """Test, lint, and score MCP servers."""


for _command in (
    list_command,
    lint_command,
    test_command,
    record_command,
    scenarios_group,
    lock_command,
    diff_command,
):
    mcp_group.add_command(_command)
