"""``toolscore demo``: grade the bundled sample server, the zero-setup first run."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from toolscore_mcp.cli.options import abort, output_console, plugin_manager_of

__all__ = ["DEMO_HINT", "demo_command"]

DEMO_HINT = (
    "That's the health-check. Now point it at your own server: "
    'toolscore mcp test "python your_server.py"'
)


@click.command("demo")
@click.pass_context
def demo_command(ctx: click.Context) -> None:
    """Health-check a bundled sample MCP server -- zero setup, no API key."""
    from toolscore_mcp.client.prelaunch import prelaunch
    from toolscore_mcp.client.target import ServerTarget

    # The sample server's file, found without importing it: it runs in its own process.
    sample_server = Path(__file__).resolve().parent.parent / "sample_server.py"
    target = ServerTarget(command=(sys.executable, str(sample_server)))
    from toolscore_mcp.sandbox.environment import isolate
    from toolscore_mcp.sandbox.lazy import LazySandbox

    reserved = LazySandbox.reserve()  # first, so the server starts in it
    early = prelaunch(isolate(target, reserved.reserved).target)  # boots meanwhile
    from rich.text import Text

    from toolscore_mcp.client.errors import MCPError
    from toolscore_mcp.grading.harness import TestOptions, grade_server, run_sync

    console = output_console()
    console.print(
        Text(
            "toolscore demo - grading a bundled sample MCP server (no setup, no API key).\n",
            style="bold",
        )
    )
    try:
        card = run_sync(
            lambda: grade_server(
                target,
                TestOptions(timeout=30.0, prelaunched=early, reserved=reserved),
                pm=plugin_manager_of(ctx),
            )
        )
    except MCPError as exc:
        abort(f"Failed to run the demo server: {exc}")
    finally:
        if early is not None:
            early.discard()
        reserved.close()
    from toolscore_mcp.reports.console import print_scorecard

    print_scorecard(card, console)
    console.print(Text(f"\n{DEMO_HINT}", style="bold"))
