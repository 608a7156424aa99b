"""toolscore-mcp's entry point into toolscore: hook implementations only.

Registered through ``[project.entry-points.toolscore] toolscore_mcp``. Importing this module
imports nothing heavy: the ``mcp`` SDK, anyio and rich are imported inside the command
callbacks, so ``import toolscore`` and ``toolscore --help`` never load them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolscore._markers import hookimpl

if TYPE_CHECKING:
    import click


@hookimpl
def toolscore_add_hookspecs(plugin_manager: Any) -> None:
    """Add the lint-rule and scenario hooks, then the built-in lint rules (as plugins)."""
    from toolscore_mcp.lint import ensure_mcp_hooks

    ensure_mcp_hooks(plugin_manager)


@hookimpl
def toolscore_register_commands(cli: click.Group) -> None:
    """Add ``toolscore mcp list|lint|test|record`` and ``toolscore demo``."""
    from toolscore_mcp.cli import demo_command, mcp_group

    cli.add_command(mcp_group)
    cli.add_command(demo_command)
