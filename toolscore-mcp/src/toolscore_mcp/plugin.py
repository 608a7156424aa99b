"""toolscore-mcp's entry point into toolscore: hook implementations only.

Registered through ``[project.entry-points.toolscore] toolscore_mcp``. Importing this module
imports nothing heavy: the ``mcp`` SDK, anyio and rich are imported inside the command
callbacks, so ``import toolscore`` and ``toolscore --help`` never load them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolscore import hookimpl
from toolscore.command_table import CommandEntry, add_commands

if TYPE_CHECKING:
    import click

#: The commands this plugin adds: ``toolscore --help`` lists them from here without importing
#: them (or click, or the MCP SDK); the hook below adds them from the same table.
TOOLSCORE_COMMANDS = {
    "mcp": CommandEntry("toolscore_mcp.cli.group:mcp_group", "Test, lint, and score MCP servers."),
    "demo": CommandEntry(
        "toolscore_mcp.cli.demo:demo_command",
        "Health-check a bundled sample MCP server -- zero setup, no API key.",
    ),
}


@hookimpl
def toolscore_add_hookspecs(plugin_manager: Any) -> None:
    """Add the lint-rule and scenario hooks.

    Only the hookspec module is imported here, on every start-up; the built-in lint rules
    register themselves when linting first needs them (``registry.ensure_mcp_hooks``).
    """
    from toolscore_mcp.registry import add_mcp_hookspecs

    add_mcp_hookspecs(plugin_manager)


@hookimpl
def toolscore_describe_provided(plugin_manager: Any) -> dict[str, dict[str, list[str]]]:
    """List lint rules and value providers under the plugins that register them
    (``toolscore plugins list``), toolscore-mcp's own under ``toolscore_mcp``."""
    from toolscore_mcp.lint import lint_rules_by_plugin
    from toolscore_mcp.registry import ensure_mcp_hooks, gather_specs
    from toolscore_mcp.values.providers import ValueProviderSpec

    described: dict[str, dict[str, list[str]]] = {}
    for plugin, rules in lint_rules_by_plugin(plugin_manager).items():
        described.setdefault(plugin, {})["mcp_lint_rules"] = rules
    ensure_mcp_hooks(plugin_manager)
    _, owners, _ = gather_specs(
        plugin_manager, "toolscore_mcp_register_value_providers", ValueProviderSpec, "provider"
    )
    for provider, plugin in owners.items():
        owner = "toolscore_mcp" if plugin.startswith("toolscore_mcp.") else plugin
        described.setdefault(owner, {}).setdefault("mcp_value_providers", []).append(provider)
    return described


@hookimpl
def toolscore_register_commands(cli: click.Group) -> None:
    """Add ``toolscore mcp list|lint|test|record`` and ``toolscore demo``."""
    add_commands(cli, TOOLSCORE_COMMANDS)
