"""A small stdio MCP client without the SDK: what ``mcp test`` uses for stdio servers.

Importing the official SDK's client costs more than a second (its protocol models, for every
protocol version, are built at import), often more than the whole test of a small server.
Over stdio the protocol ``mcp test`` needs is small (``initialize``, ``tools/list`` with
pagination, ``tools/call``, ``ping``, answering the server's ``roots/list`` and ``ping``), so
this client speaks it directly, with the same interface as
:class:`toolscore_mcp.client.session.MCPConnection`. HTTP and SSE servers, and ``--client sdk``, use
the SDK.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Mapping
from types import TracebackType
from typing import Any

import attrs

from toolscore_mcp.client.base import ConnectionBase
from toolscore_mcp.client.errors import (
    MCPConnectionClosed,
    MCPError,
    MCPOversizeError,
    MCPProtocolError,
    MCPTimeoutError,
)
from toolscore_mcp.client.prelaunch import PipedProcess, Prelaunched, spawn, stop_politely
from toolscore_mcp.client.target import DEFAULT_STARTUP_TIMEOUT, ServerTarget, toolscore_version
from toolscore_mcp.model import ServerDetails

__all__ = ["LiteConnection"]

PROTOCOL_VERSION = "2025-11-25"
#: A stdout "line" longer than this is junk, dropped as it grows (no message is this big);
#: the requests waiting when it is dropped fail with :class:`MCPOversizeError`.
MAX_LINE_BYTES = 64 * 1024 * 1024
#: Closing: how long a server may take to exit once its stdin is closed before it gets
#: SIGTERM, and then SIGKILL. The MCP shutdown sequence for stdio (close stdin, wait a
#: reasonable time, SIGTERM, SIGKILL) leaves the times to the client. By then the server has
#: answered everything; a server in Python spends 0.2-0.5 s tearing its interpreter down
#: after EOF, time the user would wait for nothing, while SIGTERM ends it at once. A server
#: that exits on EOF (as Node servers do, in about 10 ms) never sees a signal.
EXIT_GRACE_SECONDS = 0.1
TERMINATE_GRACE_SECONDS = 1.0


class LiteConnection(ConnectionBase):
    """One stdio session; same surface as ``MCPConnection`` (used by the runner)."""

    def __init__(
        self,
        target: ServerTarget,
        timeout: float = 30.0,
        *,
        startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
        prelaunched: Prelaunched | None = None,
    ) -> None:
        super().__init__(target, timeout, startup_timeout=startup_timeout)
        self._prelaunched = prelaunched
        # The small client speaks stdio only, whatever the target says.
        self.details = ServerDetails(target=target.describe(), transport="stdio")
        self._process: Any = None
        #: The stdout reader and the answers to the server's own requests.
        self._tasks: set[asyncio.Task[Any]] = set()
        self._next_id = 0
        self._waiters: dict[int, Any] = {}
        self._answers: dict[int, dict[str, Any]] = {}
        #: Requests that were waiting when a line past MAX_LINE_BYTES was dropped.
        self._oversized: set[int] = set()

    async def __aenter__(self) -> LiteConnection:
        if not self.target.command:
            raise MCPError("No MCP server command given.")
        claimed = self._prelaunched.claim(self.target) if self._prelaunched else None
        if claimed is None:
            try:
                claimed = spawn(self.target)
            except OSError as exc:
                raise MCPError(
                    f"Failed to launch MCP server {list(self.target.command)}: {exc}"
                ) from None
        popen, self._stderr = claimed  # the ring is closed in aclose
        self._process = await PipedProcess.adopt(popen)
        self._start(self._read())
        try:
            result = await self._handshake()
        except BaseException as exc:
            # A server that never started gets no polite shutdown to wait for.
            await self.aclose(force=isinstance(exc, MCPTimeoutError))
            raise
        raw_info = result.get("serverInfo")
        info: Mapping[str, Any] = raw_info if isinstance(raw_info, Mapping) else {}
        capabilities = result.get("capabilities")
        instructions = result.get("instructions")
        self.details = attrs.evolve(
            self.details,
            name=str(info.get("name") or ""),
            version=str(info.get("version") or ""),
            protocol_version=str(result.get("protocolVersion") or ""),
            instructions=instructions if isinstance(instructions, str) else None,
            capabilities=dict(capabilities) if isinstance(capabilities, Mapping) else {},
        )
        return self

    def _start(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _handshake(self) -> dict[str, Any]:
        """``initialize`` and the ``initialized`` notification, within the start-up timeout."""
        limit = self.startup_timeout
        # Declared even with no roots, as the SDK client does: servers offer some tools only
        # to clients that support roots.
        capabilities = {"roots": {"listChanged": False}}
        params = {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": capabilities,
            "clientInfo": {"name": "toolscore", "version": toolscore_version()},
        }

        async def initialize() -> dict[str, Any]:
            result = await self.request("initialize", params, limit)
            await self._send(
                {"jsonrpc": "2.0", "method": "notifications/initialized", "params": {}}
            )
            return result

        try:
            return await asyncio.wait_for(initialize(), limit)
        except (asyncio.TimeoutError, MCPTimeoutError):
            raise self._startup_timeout_error(limit) from None

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    def kill(self) -> None:
        if self._process is not None and self._process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self._process.kill()

    async def aclose(self, *, force: bool = False) -> None:
        if force:
            self.kill()

        was_closed, self.closed = self.closed, True
        process = self._process
        if process is not None and not was_closed:
            with contextlib.suppress(Exception):
                await process.stdin.aclose()
            for grace, stop in (
                (EXIT_GRACE_SECONDS, process.terminate),
                (TERMINATE_GRACE_SECONDS, process.kill),
            ):
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(process.wait(), grace)
                if process.returncode is not None:
                    break
                with contextlib.suppress(ProcessLookupError):
                    stop()
            else:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(process.wait(), TERMINATE_GRACE_SECONDS)
        tasks, self._tasks = list(self._tasks), set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if process is not None:
            with contextlib.suppress(Exception):
                await process.aclose()
        self._wake_all()
        self._close_stderr()

    async def aclose_in_background(self) -> threading.Thread | None:
        """Close the session now and leave stopping the process to a helper thread, which
        the caller joins before it removes what the server may still be using.

        For the run's last close: the shutdown sequence is the same as :meth:`aclose`'s
        (stdin closed, a grace, SIGTERM, SIGKILL), but a Python server's 0.1 s or more of
        exiting is no longer waited for before the report. None when there is no process
        left to stop (then this is :meth:`aclose`).
        """
        process = self._process
        if process is None or self.closed or process.returncode is not None:
            await self.aclose()
            return None
        self.closed = True
        tasks, self._tasks = list(self._tasks), set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        popen = process.release()
        self._wake_all()
        stderr = self._stderr  # stays readable; closed once the process is gone

        def stop() -> None:
            stop_politely(popen, EXIT_GRACE_SECONDS, TERMINATE_GRACE_SECONDS)
            if stderr is not None:
                stderr.close()

        thread = threading.Thread(target=stop, name="toolscore-server-stop")
        thread.start()
        return thread

    def _close_stderr(self) -> None:
        if self._stderr is not None:
            self._stderr.close()  # its last 64 KiB stay readable

    def _wake_all(self) -> None:
        for event in self._waiters.values():
            event.set()

    async def _read(self) -> None:
        """Split stdout into lines in time linear in their length.

        Chunks of an unfinished line are kept in a list and joined once, when the newline
        that ends it arrives; only each new chunk is searched for that newline. A line that
        grows past :data:`MAX_LINE_BYTES` is dropped as it grows (up to its newline) and
        the requests waiting for an answer fail at once with :class:`MCPOversizeError`.
        """
        parts: list[bytes] = []
        size = 0
        dropping = False
        stdout = self._process.stdout
        try:
            async for chunk in stdout:
                start = 0
                while (end := chunk.find(b"\n", start)) >= 0:
                    piece = chunk[start:end]
                    start = end + 1
                    if dropping:
                        dropping = False
                    elif size + len(piece) > MAX_LINE_BYTES:
                        self._drop_oversized(parts, piece)
                    elif parts:
                        parts.append(piece)
                        self._dispatch(b"".join(parts))
                    else:
                        self._dispatch(piece)
                    parts, size = [], 0
                rest = chunk[start:]
                if not rest or dropping:
                    continue
                if size + len(rest) > MAX_LINE_BYTES:
                    self._drop_oversized(parts, rest)
                    parts, size, dropping = [], 0, True
                else:
                    parts.append(rest)
                    size += len(rest)
        except Exception:
            pass
        self.closed = True
        self._wake_all()

    def _drop_oversized(self, parts: list[bytes], tail: bytes) -> None:
        """Record a too-long line as junk and fail every request waiting for an answer."""
        self._record_junk((parts[0] if parts else tail)[:64])
        for request_id, event in self._waiters.items():
            self._oversized.add(request_id)
            event.set()

    def _dispatch(self, line: bytes) -> None:
        if not line.strip():
            return
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if isinstance(message, Mapping) and message.get("jsonrpc") == "2.0":
            request_id = message.get("id")
            if "method" in message:
                # Notifications (logging, progress, list changes) need no answer; of the
                # server's requests, roots/list and ping are served and the rest declined.
                if request_id is not None:
                    self._start(self._answer_server(message["method"], request_id))
                return
            if isinstance(request_id, int) and request_id in self._waiters:
                self._answers[request_id] = dict(message)
                self._waiters[request_id].set()
                return
            return
        self._record_junk(line)

    async def _answer_server(self, method: Any, request_id: Any) -> None:
        """Answer a request the server sent us: ``roots/list`` with the target's roots (an
        empty list when we declared none), ``ping`` with an empty result, anything else
        (sampling, elicitation: capabilities we do not declare) with "method not found"."""
        answer: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id}
        if method == "roots/list":
            answer["result"] = {"roots": self.target.root_entries()}
        elif method == "ping":
            answer["result"] = {}
        else:
            answer["error"] = {"code": -32601, "message": f"Method not found: {method}"}
        with contextlib.suppress(MCPError):
            await self._send(answer)

    async def _send(self, message: Mapping[str, Any]) -> None:
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        try:
            await self._process.stdin.send(data)
        except Exception as exc:
            self.closed = True
            raise MCPConnectionClosed(f"MCP server has exited; cannot send: {exc}") from None

    async def request(
        self, method: str, params: Mapping[str, Any] | None, timeout: float | None = None
    ) -> dict[str, Any]:
        if self.closed:
            raise MCPConnectionClosed(f"MCP server has exited; cannot send {method!r}.")
        self._next_id += 1
        request_id = self._next_id
        event = asyncio.Event()
        self._waiters[request_id] = event
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = dict(params)
        limit = timeout if timeout is not None else self.timeout
        try:
            await self._send(message)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(event.wait(), limit)
            answer = self._answers.pop(request_id, None)
        finally:
            self._waiters.pop(request_id, None)
            oversized = request_id in self._oversized
            self._oversized.discard(request_id)
        if answer is None and oversized:
            raise MCPOversizeError(
                f"MCP server sent a message longer than {MAX_LINE_BYTES // (1024 * 1024)} MiB "
                f"while {method!r} was waiting; it was dropped."
            )
        if answer is None:
            if self.closed:
                raise MCPConnectionClosed(
                    f"MCP server exited before responding to {method!r}.{self._stderr_hint()}"
                )
            raise MCPTimeoutError(f"Timed out after {limit}s waiting for response to {method!r}.")
        error = answer.get("error")
        if error is not None:
            code = error.get("code") if isinstance(error, Mapping) else None
            text = str(error.get("message", "")) if isinstance(error, Mapping) else str(error)
            raise MCPProtocolError(
                f"MCP error for {method!r} (code={code}): {text}",
                code=code if isinstance(code, int) else -32603,
                rpc_message=text,
            )
        result = answer.get("result")
        return dict(result) if isinstance(result, Mapping) else {}
