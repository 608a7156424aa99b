"""A tiny stock-quote MCP server over stdio, built with the official ``mcp`` SDK.

``get_quote`` knows a handful of real tickers and answers every other symbol with an error
result (``isError: true``, "Unknown symbol: X"), as a real quote service would. Runs on both
majors of the SDK: ``MCPServer`` (2.x) or ``FastMCP`` (1.x).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

try:  # mcp 2.x
    from mcp.server.mcpserver import MCPServer as Server
    from mcp.server.mcpserver.exceptions import ToolError
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as Server  # type: ignore[no-redef,attr-defined,unused-ignore]
    from mcp.server.fastmcp.exceptions import ToolError  # type: ignore[no-redef,attr-defined,unused-ignore]

PRICES = {"AAPL": 227.48, "MSFT": 415.10, "GOOGL": 172.63, "AMZN": 186.40, "NVDA": 121.44}


def get_quote(
    symbol: Annotated[str, Field(description="Stock ticker symbol")],
) -> str:
    """Get the latest trade price of a stock, in US dollars."""
    price = PRICES.get(symbol.strip().upper())
    if price is None:
        raise ToolError(f"Unknown symbol: {symbol}")
    return f"{symbol.upper()}: {price:.2f} USD"


server: Any = Server("quotes")
server.tool()(get_quote)


if __name__ == "__main__":
    server.run()
