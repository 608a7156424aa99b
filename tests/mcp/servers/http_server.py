"""A real MCP server on the official SDK, served over streamable HTTP or SSE by uvicorn.

Usage: python http_server.py PORT [http|sse] [TOKEN]. With TOKEN every request must carry
``Authorization: Bearer TOKEN`` (401 otherwise), to test --header.
"""

from __future__ import annotations

import sys

import uvicorn

port = int(sys.argv[1])
transport = sys.argv[2] if len(sys.argv) > 2 else "http"
token = sys.argv[3] if len(sys.argv) > 3 else ""
instructions = "Weather lookups. Call get_forecast with a city."

try:  # mcp 2.x
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("weather-http", version="2.0.0", instructions=instructions)
except ImportError:  # mcp 1.x: the same server class under its old name
    from mcp.server.fastmcp import FastMCP

    server = FastMCP("weather-http", instructions=instructions)
    server._mcp_server.version = "2.0.0"


@server.tool()
def get_forecast(city: str, days: int = 3) -> str:
    """Get the weather forecast for a city for the next few days."""
    return f"{city}: sunny for {days} days"


@server.tool()
def convert_temperature(celsius: float) -> str:
    """Convert a temperature from Celsius to Fahrenheit."""
    return f"{celsius * 9 / 5 + 32:.1f} F"


@server.tool()
def broken_lookup(station: str) -> str:
    """Look up a weather station by its identifier."""
    raise RuntimeError("station index is corrupted")


app = server.sse_app() if transport == "sse" else server.streamable_http_app()


def guarded(inner):  # type: ignore[no-untyped-def]
    async def asgi(scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] == "http" and token:
            headers = dict(scope.get("headers") or [])
            if headers.get(b"authorization", b"").decode() != f"Bearer {token}":
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [(b"content-type", b"text/plain")],
                    }
                )
                await send({"type": "http.response.body", "body": b"unauthorized"})
                return
        await inner(scope, receive, send)

    return asgi


uvicorn.run(guarded(app), host="127.0.0.1", port=port, log_level="error")
