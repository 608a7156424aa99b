"""``toolscore mcp record``: sit between a client and a stdio server and save the tool calls."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from toolscore_mcp.cli.options import (
    abort,
    resolve_target,
    server_options,
    startup_timeout_option,
)

__all__ = ["record_command"]


@click.command("record", context_settings={"ignore_unknown_options": True})
@server_options(remote=False, timeout=False)
@startup_timeout_option
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    required=True,
    help="Session file to write (scores with `toolscore eval`).",
)
def record_command(output: Path, startup_timeout: float, **server: Any) -> None:
    """Record real tool calls between an MCP client and a server."""
    import shutil
    import tempfile

    from toolscore_mcp.client.recorder import MCPRecorder
    from toolscore_mcp.sandbox.environment import isolate

    given = resolve_target(**server)
    # The server runs in a throw-away folder (working directory, HOME, TMPDIR, XDG folders)
    # unless the config's cwd or env sets them, as in `mcp test`.
    folder = Path(tempfile.mkdtemp(prefix="toolscore-record-")).resolve()
    target = isolate(given, folder).target
    recorder = MCPRecorder(
        list(target.command),
        output,
        env=dict(target.env) or None,
        cwd=target.cwd,
        startup_timeout=startup_timeout,
    )
    try:
        code = recorder.run()
    except OSError as exc:
        abort(f"Failed to launch MCP server {list(given.command)}: {exc.strerror or exc}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(
        f"toolscore: recorded {recorder.calls_recorded} tool call(s) to {output}", file=sys.stderr
    )
    sys.exit(code)
