"""``toolscore mcp list``: print the tools a server advertises (a table, or JSON to lint later)."""

from __future__ import annotations

from typing import Any

import click

from toolscore_mcp.cli.options import (
    abort,
    output_console,
    resolve_target,
    server_options,
    startup_timeout_option,
)

__all__ = ["list_command"]


@click.command("list")
@server_options()
@startup_timeout_option
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the tools/list answer as JSON (a file `mcp lint` reads).",
)
def list_command(as_json: bool, timeout: float, startup_timeout: float, **server: Any) -> None:
    """List the tools advertised by an MCP server."""
    from toolscore_mcp.client.errors import MCPError
    from toolscore_mcp.client.tools_file import tools_file_payload
    from toolscore_mcp.grading.harness import query_server, run_sync

    target = resolve_target(**server)
    try:
        details, tools = run_sync(lambda: query_server(target, timeout, startup_timeout))
    except MCPError as exc:
        abort(f"Failed to query MCP server: {exc}")
    if as_json:
        import json

        click.echo(json.dumps(tools_file_payload(details, tools), indent=2, ensure_ascii=False))
        return
    from rich.table import Table
    from rich.text import Text
    from toolscore.terminal_text import shown

    console = output_console()
    name = shown(f"{details.name or 'unknown server'} {details.version}", one_line=True)
    console.print(Text(f"\n{name}  ({len(tools)} tools)", style="bold"))
    table = Table(header_style="bold magenta")
    table.add_column("Tool", style="cyan")
    table.add_column("Params", justify="right")
    table.add_column("Description")
    for tool in tools:
        properties = tool.input_schema.get("properties")
        count = len(properties) if isinstance(properties, dict) else 0
        description = (
            Text(shown(tool.description))
            if tool.description
            else Text("(no description)", style="red")
        )
        table.add_row(Text(shown(tool.name, one_line=True)), str(count), description)
    console.print(table)
