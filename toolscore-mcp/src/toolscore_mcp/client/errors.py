"""Errors of the MCP client, each with a one-line message fit for ``ERROR <message>``."""

from __future__ import annotations

from toolscore.errors import ToolscoreError

__all__ = [
    "MCPConnectionClosed",
    "MCPError",
    "MCPOversizeError",
    "MCPProtocolError",
    "MCPTimeoutError",
]


class MCPError(ToolscoreError):
    """The server could not be launched, reached, or answered with a protocol error."""


class MCPTimeoutError(MCPError):
    """No answer within the timeout."""


class MCPConnectionClosed(MCPError):
    """The server exited or dropped the connection."""


class MCPOversizeError(MCPError):
    """The server sent a message longer than the client reads; it was dropped unread."""


class MCPProtocolError(MCPError):
    """The server answered a request with a JSON-RPC error."""

    def __init__(self, message: str, *, code: int, rpc_message: str) -> None:
        super().__init__(message)
        self.code = code
        self.rpc_message = rpc_message
