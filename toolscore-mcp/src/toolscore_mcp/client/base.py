"""What both MCP clients share: request bookkeeping, shutdown, and the failure messages.

:class:`ConnectionBase` is the common half of the SDK session
(:class:`toolscore_mcp.client.session.MCPConnection`) and the small stdio client
(:class:`toolscore_mcp.client.lite.LiteConnection`), so both report a hang, a crash or junk
on stdout in the same words.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if sys.version_info < (3, 11):  # pragma: no cover
    from exceptiongroup import BaseExceptionGroup  # type: ignore[import-not-found]

from toolscore_mcp.client.errors import (
    MCPError,
    MCPProtocolError,
    MCPTimeoutError,
)
from toolscore_mcp.client.stderr_ring import StderrRing
from toolscore_mcp.model import MCPToolDef, MCPToolResult, ServerDetails

if TYPE_CHECKING:
    pass
from toolscore_mcp.client.target import DEFAULT_STARTUP_TIMEOUT, ServerTarget

__all__ = ["ConnectionBase", "junk_excerpt", "junk_note", "startup_timeout_text"]

_MAX_PAGES = 100


def innermost_exception(exc: BaseException) -> BaseException:
    """The first real exception inside (possibly nested) exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def is_cancellation(exc: BaseException) -> bool:
    """A cancelled wait, which says nothing about why (anyio or asyncio flavour)."""
    import asyncio

    return isinstance(exc, asyncio.CancelledError) or type(exc).__name__ == "Cancelled"


def one_line(text: str) -> str:
    return " ".join(text.split())


def junk_note(count: int, first: str, binary: bool) -> str:
    """What the server put on stdout besides JSON-RPC, in one sentence (no final period).

    ``first`` is display-ready (``repr`` of the first junk line, text or bytes); bytes that
    are not UTF-8 are named as bytes, so a PNG on stdout reads as what it is.
    """
    if binary:
        return f"wrote non-JSON-RPC bytes on stdout: {first} ({count} line(s))"
    return f"wrote {count} non-JSON-RPC line(s) to stdout (first: {first})"


def junk_excerpt(raw: bytes) -> tuple[str, bool]:
    """``(display text, is binary)`` for one junk stdout line: ``repr`` of its text (at
    most 80 characters) or, when it is not UTF-8, of its first 32 bytes."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return repr(raw[:32]), True
    return repr(one_line(text)[:80]), False


def startup_timeout_text(limit: float) -> str:
    """The message for a server that did not finish its handshake in time (both clients)."""
    return (
        f"Timed out after {limit}s waiting for response to 'initialize'."
        " The server did not start within the start-up timeout; raise it with --startup-timeout."
    )


class ConnectionBase:
    """What both connections (this module's and the SDK-free demo one) build on ``request``.

    A subclass opens the session, sends requests, reports junk stdout lines to
    :meth:`_record_junk` and keeps the server's stderr in ``_stderr``, a bounded
    :class:`~toolscore_mcp.client.stderr_ring.StderrRing` (stdio only); tool calls, pings, stderr
    reading, reading ``tools/list`` pages and the start-up errors are the same for both.
    """

    def __init__(
        self,
        target: ServerTarget,
        timeout: float = 30.0,
        *,
        startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
    ) -> None:
        self.target = target
        #: Per request (tools/list, tools/call, ping) unless a call gives its own.
        self.timeout = timeout
        #: Launch plus the ``initialize`` handshake and ``initialized`` notification.
        self.startup_timeout = startup_timeout
        self.details = ServerDetails(target=target.describe(), transport=target.transport)
        self.junk_lines = 0
        #: The first junk line, display-ready (``repr`` of its text or of its bytes).
        self.first_junk = ""
        #: True when that line was not UTF-8 (binary output on stdout).
        self.junk_binary = False
        #: What was wrong with the ``tools/list`` answers (one line each): the tools list is
        #: missing or not a list, an entry is not a tool object.
        self.listing_problems: list[str] = []
        self.closed = False
        self._stderr: StderrRing | None = None

    async def request(
        self, method: str, params: Mapping[str, Any] | None, timeout: float | None = None
    ) -> dict[str, Any]:
        """Send one request; the raw ``result`` dict, or an :class:`MCPError`."""
        raise NotImplementedError

    def stderr_tail(self, limit: int = 2000) -> str:
        """The last ``limit`` characters the server wrote to stderr (stdio only)."""
        return self._stderr.tail(limit) if self._stderr is not None else ""

    def _stderr_hint(self) -> str:
        lines = [line.strip() for line in self.stderr_tail().splitlines() if line.strip()]
        return f" stderr: {lines[-1]}" if lines else ""

    def _record_junk(self, raw: bytes) -> None:
        """Count one stdout line that is not JSON-RPC; keep an excerpt of the first only."""
        self.junk_lines += 1
        if not self.first_junk:
            self.first_junk, self.junk_binary = junk_excerpt(raw)

    def _junk_hint(self) -> str:
        if not self.junk_lines:
            return ""
        note = junk_note(self.junk_lines, self.first_junk, self.junk_binary)
        return f" The server {note}; stdout must carry only protocol messages."

    def _startup_timeout_error(self, limit: float) -> MCPError:
        """No ``initialize`` answer within the start-up timeout: name the option that
        raises it, and what the server said meanwhile (junk on stdout, its last stderr line).

        A server that wrote binary output instead of an answer is reported as that, not as
        slow: "MCP server wrote non-JSON-RPC bytes on stdout: b'\\x89PNG...'".
        """
        if self.junk_binary:
            return MCPError(
                "MCP server "
                + junk_note(self.junk_lines, self.first_junk, binary=True)
                + f" and no answer to 'initialize' within {limit}s;"
                " stdout must carry only protocol messages." + self._stderr_hint()
            )
        return MCPTimeoutError(
            startup_timeout_text(limit) + self._junk_hint() + self._stderr_hint()
        )

    def _tools_from(self, result: Mapping[str, Any]) -> list[MCPToolDef]:
        """The tools of one ``tools/list`` page; what is malformed goes to
        ``listing_problems`` (a lint finding) instead of being dropped silently."""
        entries = result.get("tools")
        if not isinstance(entries, list):
            shown = "missing" if "tools" not in result else _json_type(entries)
            self.listing_problems.append(
                f"tools/list answered without a tools list ('tools' is {shown})"
            )
            return []
        tools: list[MCPToolDef] = []
        for index, entry in enumerate(entries):
            if not isinstance(entry, Mapping):
                self.listing_problems.append(
                    f"tools/list entry {index} is not a tool object (it is {_json_type(entry)})"
                )
            elif not isinstance(entry.get("name"), str):
                self.listing_problems.append(
                    f"tools/list entry {index} has no string 'name'"
                    f" (it is {_json_type(entry.get('name'))})"
                )
            else:
                tools.append(MCPToolDef.from_wire(entry))
        return tools

    async def list_tools(self) -> list[MCPToolDef]:
        """Every tool, following ``nextCursor``; non-object entries are skipped."""
        tools: list[MCPToolDef] = []
        cursor: Any = None
        seen: set[str] = set()
        for _ in range(_MAX_PAGES):
            result = await self.request("tools/list", {"cursor": cursor} if cursor else None)
            tools.extend(self._tools_from(result))
            cursor = result.get("nextCursor")
            if not cursor:
                return tools
            if not isinstance(cursor, str) or cursor in seen:
                raise MCPError(f"tools/list returned a repeated or invalid cursor {cursor!r}.")
            seen.add(cursor)
        raise MCPError(f"tools/list returned more than {_MAX_PAGES} pages.")

    async def call_tool(
        self, name: str, arguments: Mapping[str, Any], timeout: float | None = None
    ) -> MCPToolResult:
        """Call a tool. A JSON-RPC error answer is returned as ``is_error=True``, not raised;
        timeouts and a lost connection raise."""
        start = time.perf_counter()
        try:
            raw = await self.request(
                "tools/call", {"name": name, "arguments": dict(arguments)}, timeout
            )
        except MCPProtocolError as exc:
            error = {"code": exc.code, "message": exc.rpc_message}
            return MCPToolResult(
                content=error,
                is_error=True,
                duration=time.perf_counter() - start,
                raw={"error": error},
                rpc_error_code=exc.code,
            )
        duration = time.perf_counter() - start
        return MCPToolResult(
            content=raw.get("content", []),
            is_error=bool(raw.get("isError")),
            duration=duration,
            structured=raw.get("structuredContent"),
            raw=raw,
        )

    async def ping(self, timeout: float) -> bool:
        """Is the server still answering?"""
        try:
            await self.request("ping", None, timeout)
        except MCPError:
            return False
        return True


def _json_type(value: Any) -> str:
    """The JSON name of a value's type (``null``, ``object``, ``string``...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Mapping):
        return "an object"
    return "an array" if isinstance(value, list) else type(value).__name__
