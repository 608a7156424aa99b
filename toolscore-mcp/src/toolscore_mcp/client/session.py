"""The MCP client: the official SDK's ``ClientSession`` over stdio, streamable HTTP or SSE.

The SDK does the handshake (``initialize``) and the JSON-RPC plumbing. ``tools/list`` and
``tools/call`` go out as raw requests: the scorecard must see what the server really sent (a
tool without ``"type": "object"`` is a lint finding, not a reason to refuse the whole list),
and it checks ``outputSchema`` itself so that a mismatch is a finding rather than an
exception. Either SDK major works (1.x or 2.x); :mod:`toolscore_mcp.client.sdk_compat` hides where
they differ.

Launching the server and the handshake get their own, longer deadline (``startup_timeout``):
a first ``npx`` run or a server that migrates a database takes seconds before it answers,
which says nothing about how fast its tools are.

Every failure becomes an :class:`~toolscore_mcp.client.errors.MCPError` with a one-line message.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
from collections.abc import Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any

import attrs

if sys.version_info < (3, 11):  # pragma: no cover
    from exceptiongroup import BaseExceptionGroup  # type: ignore[import-not-found]

from toolscore_mcp.client import sdk_compat
from toolscore_mcp.client.errors import (
    MCPConnectionClosed,
    MCPError,
    MCPProtocolError,
    MCPTimeoutError,
)
from toolscore_mcp.client.stderr_ring import StderrRing
from toolscore_mcp.model import ServerDetails

if TYPE_CHECKING:
    from anyio.abc import TaskStatus
from toolscore_mcp.client.base import ConnectionBase, innermost_exception, is_cancellation, one_line
from toolscore_mcp.client.target import DEFAULT_STARTUP_TIMEOUT, ServerTarget, toolscore_version

__all__ = ["MCPConnection", "quiet_sdk_logging"]

_CONNECTION_CLOSED = sdk_compat.CONNECTION_CLOSED
_REQUEST_TIMEOUT = -32001


_AUTH_HINT = " (check the URL, and any --header the server needs for authentication)"


def quiet_sdk_logging() -> None:
    """Keep the SDK's log records (tracebacks for junk stdout lines) off the terminal.

    Called by every SDK session as it opens; the small client never imports logging."""
    import logging

    logger = logging.getLogger("mcp")
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())
    logger.propagate = False


class MCPConnection(ConnectionBase):
    """One live session with a server; an async context manager.

    ``details`` holds what the handshake told; ``junk_lines`` counts stdout lines that were
    not JSON-RPC; ``closed`` turns true once the server is gone.

    The transport and the SDK session live in a task of their own (:meth:`_serve`): the
    SDK's transports run readers and writers in task groups whose failures cancel the task
    that entered them (1.x's stdio writer fails so when the server dies while we write).
    Hosted apart, such a failure ends this connection and the requests waiting on it, never
    the caller's run.
    """

    def __init__(
        self,
        target: ServerTarget,
        timeout: float = 30.0,
        *,
        startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
    ) -> None:
        super().__init__(target, timeout, startup_timeout=startup_timeout)
        self._session: sdk_compat.RawSession | None = None
        self._pid: int | None = None
        self._group: Any = None  # the anyio task group that hosts _serve
        self._stop: Any = None  # anyio.Event: set to end _serve
        self._inflight: set[Any] = set()  # cancel scopes of the requests waiting for answers
        self._connecting: Any = None  # anyio.CancelScope bounding the connect, see _serve

    # -- lifecycle ---------------------------------------------------------------------------

    async def __aenter__(self) -> MCPConnection:
        quiet_sdk_logging()
        import anyio

        self._stop = anyio.Event()
        self._group = anyio.create_task_group()
        await self._group.__aenter__()
        try:
            self._session = await self._group.start(self._serve)
        except BaseException as exc:
            closing = await self._close_quietly()
            leaf = innermost_exception(exc)
            if isinstance(leaf, MCPError):
                raise leaf from None
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
            if is_cancellation(leaf) and closing is not None:
                leaf = innermost_exception(
                    closing
                )  # the transport's own error: refused, not found, TLS...
            raise self._launch_error(leaf) from None
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self._close_quietly()

    async def aclose(self, *, force: bool = False) -> None:
        """Close the session; ``force`` kills a stdio server first (one that hangs would
        otherwise get the SDK's polite two-second shutdown)."""
        if force:
            self.kill()
        await self._close_quietly()

    def kill(self) -> None:
        """Kill a stdio server's process group at once (it runs in a session of its own)."""
        if self._pid is None:
            return
        import signal

        with contextlib.suppress(OSError):
            os.killpg(self._pid, signal.SIGKILL)

    async def _close_quietly(self) -> BaseException | None:
        """Close everything, swallowing errors; returns the first one (it may say more than
        the error that made us close). Call from the task that opened the connection."""
        self.closed = True
        swallowed: BaseException | None = None
        group, self._group = self._group, None
        if group is not None:
            self._stop.set()
            try:
                await group.__aexit__(None, None, None)
            except (Exception, BaseExceptionGroup) as exc:
                swallowed = exc
        if self._stderr is not None:
            self._stderr.close()  # its last 64 KiB stay readable
        return swallowed

    async def _serve(self, *, task_status: TaskStatus[sdk_compat.RawSession]) -> None:
        """Open the transport and the session, hand the session over, hold both until closed.

        A failure before the hand-over is the caller's (``TaskGroup.start`` raises it); one
        after it only ends the connection: whatever was waiting gets "connection closed".
        """
        import anyio

        started = False
        # Bounds connecting (``_open`` sets and lifts the deadline): an SSE stream that never
        # sends its endpoint event would otherwise hold the transport open for good.
        self._connecting = anyio.CancelScope()
        try:
            with self._connecting:
                async with contextlib.AsyncExitStack() as stack:
                    session = await self._open(stack)
                    task_status.started(session)
                    started = True
                    await self._stop.wait()
            if self._connecting.cancelled_caught and not started:
                raise self._connect_timeout_error()
        except Exception:
            if not started:
                raise
        finally:
            self._end_requests()

    def _end_requests(self) -> None:
        """The connection is over: mark it closed and wake every request still waiting."""
        self.closed = True
        for scope in list(self._inflight):
            scope.cancel()

    async def _open(self, stack: contextlib.AsyncExitStack) -> sdk_compat.RawSession:
        """Launch or connect, start the session and complete the handshake."""
        import anyio

        sdk_compat.load()
        before = _child_pids()
        self._connecting.deadline = anyio.current_time() + self.startup_timeout
        read, write = await stack.enter_async_context(self._transport())
        self._connecting.deadline = math.inf
        if self.target.transport == "stdio":
            new = _child_pids() - before
            self._pid = new.pop() if len(new) == 1 else None
            if self._stderr is not None:
                self._stderr.spawned()
        session = await stack.enter_async_context(
            sdk_compat.open_session(
                read,
                write,
                message_handler=self._on_message,
                # Like the IDE clients servers are written for: some expose tools only to
                # clients that support roots, so the capability is declared even with none.
                roots=self.target.root_entries(),
                client_name="toolscore",
                client_version=toolscore_version(),
            )
        )
        try:
            # One deadline for the answer and the ``initialized`` notification after it.
            with anyio.fail_after(self.startup_timeout):
                result = await session.initialize()
        except Exception as exc:
            error = self._request_error(
                "initialize", innermost_exception(exc), self.startup_timeout
            )
            if isinstance(error, MCPTimeoutError):
                self.kill()  # it never started: no polite shutdown to wait for
            raise error from None
        self.details = _with_handshake(self.details, result)
        return session

    def _transport(self) -> Any:
        target = self.target
        if target.transport == "stdio":
            from mcp.client.stdio import StdioServerParameters, stdio_client

            if not target.command:
                raise MCPError("No MCP server command given.")
            self._stderr = StderrRing()  # closed in _close_quietly
            params = StdioServerParameters(
                command=target.command[0],
                args=list(target.command[1:]),
                env={**os.environ, **target.env},
                cwd=target.cwd,
            )
            # Bytes that are not UTF-8 reach ``_on_message`` as junk lines we can show as
            # bytes (the declared choices, strict/ignore/replace, kill the reader or lose them).
            params.encoding_error_handler = "surrogateescape"  # type: ignore[assignment]
            return stdio_client(params, errlog=self._stderr.writer)  # type: ignore[arg-type]
        # Connecting is part of starting; each request still gets its own ``timeout``.
        timeout = max(self.timeout, self.startup_timeout)
        if target.transport == "sse":
            from mcp.client.sse import sse_client

            return sse_client(
                target.url,
                headers=dict(target.headers),
                timeout=timeout,
                sse_read_timeout=max(timeout, 300.0),
            )
        return sdk_compat.streamable_http(target.url, target.headers, timeout)

    async def _on_message(self, message: Any) -> None:
        """Count stdout lines that were not JSON-RPC (the transport hands them over as parse
        errors, ``ValueError``s). Other exceptions (1.x reports a late answer to a timed-out
        request as a ``RuntimeError``) are not the server's stdout hygiene."""
        if isinstance(message, ValueError):
            self._record_junk(_junk_line(message))

    # -- diagnostics -------------------------------------------------------------------------

    def _launch_error(self, exc: BaseException) -> MCPError:
        if isinstance(exc, OSError) and self.target.transport == "stdio":
            return MCPError(
                f"Failed to launch MCP server {list(self.target.command)}: {one_line(str(exc))}"
            )
        where = self.target.describe()
        status = _http_status(exc)
        if status is not None:
            return MCPError(
                f"MCP error for 'initialize' (HTTP {status}): {where} refused the handshake"
                f"{_AUTH_HINT}"
            )
        text = one_line(str(exc)) or type(exc).__name__
        return MCPError(f"Could not connect to MCP server at {where}: {text}")

    def _connect_timeout_error(self) -> MCPTimeoutError:
        """Connecting took longer than the start-up timeout (an SSE stream that never sent
        its endpoint event, a launch that never returned)."""
        limit = self.startup_timeout
        where = self.target.describe()
        what = (
            " (the SSE stream sent no 'endpoint' event)" if self.target.transport == "sse" else ""
        )
        return MCPTimeoutError(
            f"Timed out after {limit}s connecting to MCP server at {where}{what};"
            " raise the bound with --startup-timeout."
        )

    def _closed_error(self, method: str) -> MCPConnectionClosed:
        self.closed = True
        what = "exited" if self.target.transport == "stdio" else "closed the connection"
        return MCPConnectionClosed(
            f"MCP server {what} before responding to {method!r}."
            + (self._junk_hint() if method == "initialize" else "")
            + self._stderr_hint()
        )

    def _request_error(self, method: str, exc: BaseException, limit: float) -> MCPError:
        """The one-line error for a failed request; ``limit`` is the deadline it had."""
        code = sdk_compat.error_code(exc)
        if isinstance(exc, TimeoutError) or code == _REQUEST_TIMEOUT:
            if method == "initialize":
                return self._startup_timeout_error(limit)
            return MCPTimeoutError(
                f"Timed out after {limit}s waiting for response to {method!r}."
                + self._stderr_hint()
            )
        if code == _CONNECTION_CLOSED and sdk_compat.is_connection_lost(exc):
            return self._closed_error(method)
        if isinstance(code, int):
            text = one_line(str(exc))
            if method == "initialize" and self.target.transport != "stdio":
                text += _AUTH_HINT
            return MCPProtocolError(
                f"MCP error for {method!r} (code={code}): {text}", code=code, rpc_message=text
            )
        if isinstance(exc, MCPError):
            return exc
        return MCPError(
            f"MCP request {method!r} failed: {one_line(str(exc)) or type(exc).__name__}"
        )

    # -- requests ----------------------------------------------------------------------------

    async def request(
        self, method: str, params: Mapping[str, Any] | None, timeout: float | None = None
    ) -> dict[str, Any]:
        """Send one request; the raw ``result`` dict, or an :class:`MCPError`."""
        import anyio

        session = self._session
        if self.closed or session is None:
            raise MCPConnectionClosed(f"MCP server has exited; cannot send {method!r}.")
        limit = timeout if timeout is not None else self.timeout
        with anyio.CancelScope() as scope:
            self._inflight.add(scope)
            try:
                return await session.request(method, params, limit)
            except Exception as exc:
                raise self._request_error(method, innermost_exception(exc), limit) from None
            finally:
                self._inflight.discard(scope)
        # Only reached when _end_requests cancelled the scope: the connection ended first.
        raise self._closed_error(method)


def _child_pids() -> set[int]:
    """Our direct children (Linux /proc); empty where that is not available."""
    pids: set[int] = set()
    try:
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children", encoding="ascii") as handle:
                pids.update(int(pid) for pid in handle.read().split())
    except (OSError, ValueError):
        return set()
    return pids


def _http_status(exc: BaseException) -> int | None:
    """The status of an HTTP error response (httpx's and httpx2's ``HTTPStatusError``).

    2.x's streamable HTTP transport turns a refused handshake (401, 404...) into a JSON-RPC
    error; 1.x's, and the SSE transport of both, raise the HTTP error instead.
    """
    status = getattr(getattr(exc, "response", None), "status_code", None)
    return status if isinstance(status, int) and status >= 400 else None


def _with_handshake(details: ServerDetails, result: Mapping[str, Any]) -> ServerDetails:
    """``details`` completed from the ``initialize`` result (as sent on the wire)."""
    raw_info = result.get("serverInfo")
    info: Mapping[str, Any] = raw_info if isinstance(raw_info, Mapping) else {}
    capabilities = result.get("capabilities")
    instructions = result.get("instructions")
    return attrs.evolve(
        details,
        name=str(info.get("name") or ""),
        version=str(info.get("version") or ""),
        protocol_version=str(result.get("protocolVersion") or ""),
        instructions=instructions if isinstance(instructions, str) else None,
        capabilities=dict(capabilities) if isinstance(capabilities, Mapping) else {},
    )


def _junk_line(exc: Exception) -> bytes:
    """The stdout line a parse error is about, as the server wrote it.

    pydantic's errors carry the line as ``input``; undecodable bytes come back through
    ``surrogateescape``. Other errors give their own text.
    """
    errors = getattr(exc, "errors", None)
    if callable(errors):
        with contextlib.suppress(Exception):
            line = errors()[0].get("input")
            if isinstance(line, str):
                return line.encode("utf-8", "surrogateescape")
            if line is not None:  # JSON, but not a JSON-RPC message
                return json.dumps(line, ensure_ascii=False, default=str).encode()
    return str(exc).encode("utf-8", "replace")
