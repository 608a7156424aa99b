"""Run scenarios against a server: concurrently, each with its timeout, surviving crashes.

Scenarios run ``concurrency`` at a time on one connection. When a call times out or the
server goes away, the run finds out which scenario was to blame before charging anyone:

* a timeout while the server still answers a ping is the scenario's own (charged at once);
* otherwise the connection is retired once the calls in flight settle, and every scenario
  whose call was caught up in it (or that shared the connection with it) is re-run alone,
  one call at a time on a few fresh servers; the one that times out or crashes a server it
  was the first call of is charged, the others get their real results;
* the remaining scenarios continue on a restarted server.

A server that cannot be restarted fails the remaining scenarios with its one-line error.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import attrs

from toolscore_mcp.client.errors import MCPConnectionClosed, MCPError, MCPTimeoutError
from toolscore_mcp.client.session import MCPConnection
from toolscore_mcp.grading.classify import missing_credential_line
from toolscore_mcp.grading.verdicts import excerpt, judge_result
from toolscore_mcp.model import MCPToolDef, Scenario, ScenarioResult

__all__ = ["RunStats", "ServerHandle", "run_scenarios"]

DEFAULT_CONCURRENCY = 10
_PING_TIMEOUT = 2.0
#: Fresh servers that re-run the suspects of a batch's trouble, one call at a time each.
_SUSPECT_SERVERS = 2


@attrs.define
class RunStats:
    """What happened to the server during a run."""

    restarts: int = 0
    crashes: int = 0
    junk_lines: int = 0
    #: Of those, the lines written after the server was ready (while tools were called).
    call_junk_lines: int = 0
    #: The first junk line, display-ready; ``junk_binary`` when it was not UTF-8.
    first_junk: str = ""
    junk_binary: bool = False
    #: The first stderr line that says a credential is missing (stdio servers), or "".
    missing_credential: str = ""


class ServerHandle:
    """The live connection, reopened on demand after a crash or a hang."""

    def __init__(
        self,
        opener: Callable[[], Awaitable[MCPConnection]],
        current: MCPConnection | None = None,
    ) -> None:
        self._opener = opener
        self.current = current
        #: Checked before every call: a path argument under the sandbox root that now
        #: resolves outside it (``escaping_value``), else None. Such a call is not made.
        self.escaping_value: Callable[[object], str | None] | None = None
        self.stats = RunStats()
        self._opened = current is not None
        #: The last connection ended in trouble (it died, or was killed as wedged): the next
        #: one is a restart. Reopening after a clean :meth:`close` between phases is not.
        self._lost = False

    async def get(self) -> MCPConnection:
        if self.current is None or self.current.closed:
            if self.current is not None:
                await self.retire(self.current)
            if self._opened and self._lost:
                self.stats.restarts += 1
            self._lost = False
            self.current = _ready(await self._opener())
            self._opened = True
        return self.current

    async def retire(self, connection: MCPConnection, *, force: bool = False) -> None:
        if self.current is connection and (force or connection.closed):
            self._lost = True
        self._collect(connection)
        await connection.aclose(force=force)
        if self.current is connection:
            self.current = None

    async def open_fresh(self) -> MCPConnection:
        """A separate server for one isolated scenario (counted as a restart)."""
        self.stats.restarts += 1
        return _ready(await self._opener())

    def _collect(self, connection: MCPConnection) -> None:
        if getattr(connection, "_toolscore_collected", False):
            return
        connection._toolscore_collected = True  # type: ignore[attr-defined]
        self.stats.junk_lines += connection.junk_lines
        startup = getattr(connection, "_toolscore_startup_junk", connection.junk_lines)
        self.stats.call_junk_lines += max(0, connection.junk_lines - startup)
        if connection.first_junk and not self.stats.first_junk:
            self.stats.first_junk = connection.first_junk
            self.stats.junk_binary = connection.junk_binary
        if not self.stats.missing_credential:
            self.stats.missing_credential = excerpt(
                missing_credential_line(connection.stderr_tail(1 << 16))
            )

    async def close(self) -> None:
        if self.current is not None:
            await self.retire(self.current)

    async def close_in_background(self) -> list[threading.Thread]:
        """Close as :meth:`close` does, but leave stopping the server's process to helper
        threads where the client can (the run's last close); the threads are returned, for
        the caller to join before it removes what the server may still be using."""
        connection, self.current = self.current, None
        if connection is None:
            return []
        self._collect(connection)
        later = getattr(connection, "aclose_in_background", None)
        if later is None:
            await connection.aclose()
            return []
        thread = await later()
        return [thread] if thread is not None else []


def _ready(connection: MCPConnection) -> MCPConnection:
    """Remember how much junk the server wrote before it was ready: only what it writes
    during calls corrupts a client's session."""
    connection._toolscore_startup_junk = connection.junk_lines  # type: ignore[attr-defined]
    return connection


def _trouble_result(scenario: Scenario, error: MCPError, timeout: float) -> ScenarioResult:
    if isinstance(error, MCPTimeoutError):
        return ScenarioResult(
            scenario,
            ok=False,
            is_error=True,
            duration=timeout,
            detail=excerpt(f"timeout: {error}"),
            verdict="fail",
            finding="timeout",
            category="defect",
        )
    if isinstance(error, MCPConnectionClosed):
        return ScenarioResult(
            scenario,
            ok=False,
            is_error=True,
            duration=0.0,
            detail=excerpt(_crash_detail(str(error))),
            verdict="fail",
            finding="crash",
            category="defect",
        )
    return ScenarioResult(
        scenario,
        ok=False,
        is_error=True,
        duration=0.0,
        detail=excerpt(f"transport error: {error}"),
        verdict="fail",
        finding="transport",
        category="defect",
    )


def _not_called(scenario: Scenario, path: str) -> ScenarioResult:
    """A call left out because one of its sandbox paths now leads outside the sandbox."""
    from toolscore.terminal_text import shown

    return ScenarioResult(
        scenario,
        ok=False,
        is_error=False,
        duration=0.0,
        detail=excerpt(
            # The reason first: a long path is what the excerpt cuts, never the why.
            "skipped: a path resolves outside the sandbox (a symlink was planted in it), so "
            f"the call was not made: {shown(path, one_line=True)}"
        ),
        verdict="inconclusive",
        finding="inconclusive",
        category="environment",
        needs="sandbox",
    )


def _crash_detail(message: str) -> str:
    _, marker, stderr = message.partition(" stderr: ")
    detail = "crash: the server exited while handling this call"
    return f"{detail} (stderr: {stderr})" if marker else detail


async def run_scenarios(
    server: ServerHandle,
    scenarios: Sequence[Scenario],
    tools: Mapping[str, MCPToolDef],
    *,
    timeout: float = 30.0,
    concurrency: int = DEFAULT_CONCURRENCY,
    on_result: Callable[[ScenarioResult], Any] | None = None,
) -> list[ScenarioResult]:
    """One result per scenario, in order; never raises for a misbehaving server.

    ``on_result`` is called with each result as it is settled (for a progress display).
    """
    from toolscore_mcp.client.aio import TaskGroup

    results: list[ScenarioResult | None] = _Settled(len(scenarios), on_result)
    pending: deque[int] = deque(range(len(scenarios)))
    suspects: list[int] = []
    width = max(1, concurrency)

    while pending:
        try:
            connection = await server.get()
        except MCPError as exc:
            _fail_rest(results, scenarios, pending, suspects, exc, timeout)
            return _done(results)
        state = _Batch(connection)

        async def worker(batch: _Batch = state, conn: MCPConnection = connection) -> None:
            while pending and not batch.tainted:
                index = pending.popleft()
                batch.start(index)
                outcome = await _attempt(conn, scenarios[index], tools, timeout, server)
                alone = batch.finish(index)
                if isinstance(outcome, ScenarioResult):
                    results[index] = outcome
                    continue
                if isinstance(outcome, MCPTimeoutError) and not conn.closed:
                    healthy = await conn.ping(min(_PING_TIMEOUT, timeout))
                    if alone or healthy:
                        # Its own hang: charge it; restart first if it wedged the server.
                        results[index] = _trouble_result(scenarios[index], outcome, timeout)
                        batch.tainted = batch.tainted or not healthy
                        continue
                elif alone and isinstance(outcome, MCPConnectionClosed):
                    server.stats.crashes += 1
                    results[index] = _trouble_result(scenarios[index], outcome, timeout)
                    batch.tainted = True
                    continue
                batch.tainted = True
                suspects.append(index)

        async with TaskGroup() as group:
            for _ in range(width):
                group.start_soon(worker)
        if state.tainted or connection.closed:
            # Innocent bystanders that finished on a connection that went bad keep their
            # results; only calls that were caught up in the trouble are re-run.
            await server.retire(connection, force=True)

    if not suspects:
        # The server stays up for the next batch: the state this batch made (notes, rows,
        # files a producer created) is what the next phase's readers and destroyers use.
        return _done(results)
    await _run_suspects_alone(server, scenarios, tools, suspects, results, timeout, width)
    return _done(results)


async def _run_suspects_alone(
    server: ServerHandle,
    scenarios: Sequence[Scenario],
    tools: Mapping[str, MCPToolDef],
    suspects: Sequence[int],
    results: list[ScenarioResult | None],
    timeout: float,
    width: int,
) -> None:
    """Re-run the calls caught up in a batch's trouble, each alone, so a crash or hang is
    charged to its call.

    A few fresh servers (:data:`_SUSPECT_SERVERS`, at most ``width``) take the suspects one
    call at a time: a server boot costs far more than a call (ten Node servers booting at once
    took longer than the whole run before the trouble). A suspect is charged only for trouble
    on a server it was the first call of: one that fails on a server that already answered
    another suspect (whose crash may have come late) is tried again on a fresh one. A server
    still healthy at the end serves the next phase.
    """
    from toolscore_mcp.client.aio import TaskGroup

    await server.close()
    queue = deque(suspects)
    kept: list[MCPConnection] = []

    async def worker() -> None:
        connection: MCPConnection | None = None
        served = 0
        while queue:
            index = queue.popleft()
            if connection is None:
                try:
                    connection, served = await server.open_fresh(), 0
                except MCPError as exc:
                    results[index] = _trouble_result(scenarios[index], exc, timeout)
                    continue
            outcome = await _attempt(connection, scenarios[index], tools, timeout, server)
            served += 1
            if isinstance(outcome, ScenarioResult):
                results[index] = outcome
                continue
            if isinstance(outcome, MCPTimeoutError) and await connection.ping(
                min(_PING_TIMEOUT, timeout)
            ):
                results[index] = _trouble_result(scenarios[index], outcome, timeout)
                continue  # its own hang: the server still answers
            await server.retire(connection, force=True)
            connection = None
            if served > 1:
                queue.appendleft(index)  # maybe another suspect's late crash: on a fresh one
                continue
            if isinstance(outcome, MCPConnectionClosed):
                server.stats.crashes += 1
            results[index] = _trouble_result(scenarios[index], outcome, timeout)
        if connection is not None:
            kept.append(connection)

    async with TaskGroup() as group:
        for _ in range(min(len(suspects), width, _SUSPECT_SERVERS)):
            group.start_soon(worker)
    await _keep_one(server, kept)


async def _keep_one(server: ServerHandle, connections: list[MCPConnection]) -> None:
    """Make the first of ``connections`` that is still open the server's current one; close
    the rest."""
    for connection in connections:
        if server.current is None and not connection.closed:
            server.current = connection
        else:
            await server.retire(connection)


class _Settled(list):  # type: ignore[type-arg]
    """The results list, telling ``on_result`` about each result as it is stored."""

    def __init__(self, size: int, on_result: Callable[[ScenarioResult], Any] | None) -> None:
        super().__init__([None] * size)
        self._on_result = on_result

    def __setitem__(self, index: Any, value: Any) -> None:
        super().__setitem__(index, value)
        if self._on_result is not None and isinstance(value, ScenarioResult):
            self._on_result(value)


class _Batch:
    """Calls in flight on one connection, and whether each ever shared it."""

    def __init__(self, connection: MCPConnection) -> None:
        self.connection = connection
        self.tainted = False
        self._active: set[int] = set()
        self._shared: set[int] = set()

    def start(self, index: int) -> None:
        if self._active:
            self._shared.update(self._active)
            self._shared.add(index)
        self._active.add(index)

    def finish(self, index: int) -> bool:
        """Remove ``index``; True if it never overlapped another call."""
        self._active.discard(index)
        return index not in self._shared


async def _attempt(
    connection: MCPConnection,
    scenario: Scenario,
    tools: Mapping[str, MCPToolDef],
    timeout: float,
    server: ServerHandle | None = None,
) -> ScenarioResult | MCPError:
    check = server.escaping_value if server is not None else None
    escaping = check(scenario.arguments) if check is not None else None
    if escaping is not None:
        return _not_called(scenario, escaping)
    try:
        result = await connection.call_tool(scenario.tool, scenario.arguments, timeout)
    except (MCPTimeoutError, MCPConnectionClosed) as exc:
        return exc
    except MCPError as exc:
        return _trouble_result(scenario, exc, timeout)
    return judge_result(tools.get(scenario.tool), scenario, result)


def _fail_rest(
    results: list[ScenarioResult | None],
    scenarios: Sequence[Scenario],
    pending: deque[int],
    suspects: list[int],
    error: MCPError,
    timeout: float,
) -> None:
    for index in [*suspects, *pending]:
        results[index] = _trouble_result(scenarios[index], error, timeout)
    pending.clear()
    suspects.clear()


def _done(results: list[ScenarioResult | None]) -> list[ScenarioResult]:
    return [r for r in results if r is not None]
