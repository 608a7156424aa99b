"""Read an MCP client's config file and pick the server to test.

Understands the shapes clients write:

* Claude Desktop, Claude Code ``.mcp.json`` and Cursor: ``{"mcpServers": {name: entry}}``;
* VS Code ``.vscode/mcp.json``: ``{"servers": {name: entry}}`` (and ``{"mcp": {"servers":
  ...}}`` in ``settings.json``).

An entry is a stdio server (``command``, ``args``, ``env``, ``cwd``) or a remote one (``url``,
``headers``, ``type`` of ``http``/``streamable-http``/``sse``). Errors are ``ValueError``
(``FileNotFoundError`` for a missing file), one line each, naming the file and the server.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolscore_mcp.client.target import ServerTarget

__all__ = ["MCPServerSpec", "load_mcp_config"]

#: The public name of a resolved config entry (an alias of :class:`ServerTarget`).
MCPServerSpec = ServerTarget

_REMOTE_TYPES = {"http": "http", "streamable-http": "http", "streamablehttp": "http", "sse": "sse"}


def _servers(raw: Mapping[str, Any], path: Path) -> Mapping[str, Any]:
    for key in ("mcpServers", "servers"):
        value = raw.get(key)
        if isinstance(value, Mapping) and value:
            return value
    nested = raw.get("mcp")
    if isinstance(nested, Mapping):
        value = nested.get("servers")
        if isinstance(value, Mapping) and value:
            return value
    raise ValueError(f"MCP config file {path} is missing a non-empty 'mcpServers' object.")


def _string_map(entry: Mapping[str, Any], key: str, server: str) -> dict[str, str]:
    value = entry.get(key, {})
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise ValueError(f"MCP server {server!r} {key!r} must be a mapping of string to string.")
    return dict(value)


def load_mcp_config(path: str | Path, server: str | None = None) -> ServerTarget:
    """The server named ``server`` (or the only one) from the config file at ``path``."""
    config_path = Path(path)
    if not config_path.is_file():
        raise FileNotFoundError(f"MCP config file not found: {config_path}")
    try:
        raw = json.loads(config_path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValueError(f"MCP config file is not valid JSON ({config_path}): {exc}") from exc
    if not isinstance(raw, Mapping):
        raise ValueError(f"MCP config file must contain a JSON object: {config_path}")
    servers = _servers(raw, config_path)
    available = sorted(str(name) for name in servers)
    if server is None:
        if len(servers) > 1:
            raise ValueError(
                f"Multiple MCP servers defined; specify one of: {', '.join(available)}"
            )
        server = next(iter(servers))
    if server not in servers:
        raise ValueError(
            f"MCP server {server!r} not found in {config_path}. Available servers: {', '.join(available)}"
        )
    entry = servers[server]
    if not isinstance(entry, Mapping):
        raise ValueError(f"MCP server {server!r} must be a JSON object in {config_path}.")

    kind = str(entry.get("type") or entry.get("transport") or "").lower()
    url = entry.get("url") or entry.get("serverUrl")
    if kind in _REMOTE_TYPES or (url and not entry.get("command")):
        if not isinstance(url, str) or not url:
            raise ValueError(f"MCP server {server!r} must define a non-empty string 'url'.")
        transport = _REMOTE_TYPES.get(kind) or (
            "sse" if url.rstrip("/").endswith("/sse") else "http"
        )
        return ServerTarget(
            transport=transport,  # type: ignore[arg-type]
            url=url,
            headers=_string_map(entry, "headers", server),
            name=server,
        )

    command = entry.get("command")
    if not isinstance(command, str) or not command.strip():
        raise ValueError(f"MCP server {server!r} must define a non-empty string 'command'.")
    args = entry.get("args", [])
    if args is None:
        args = []
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise ValueError(f"MCP server {server!r} 'args' must be a list of strings.")
    cwd = entry.get("cwd")
    if cwd is not None and not isinstance(cwd, str):
        raise ValueError(f"MCP server {server!r} 'cwd' must be a string.")
    if cwd:
        cwd = str((config_path.parent / cwd).resolve()) if not Path(cwd).is_absolute() else cwd
    return ServerTarget(
        transport="stdio",
        command=(command, *args),
        env=_string_map(entry, "env", server),
        cwd=cwd or None,
        name=server,
    )
