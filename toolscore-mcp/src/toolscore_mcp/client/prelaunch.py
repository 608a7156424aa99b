"""Start a stdio server while ``mcp test`` is still getting ready, so the two start-ups overlap.

Why: a server takes from 20 ms (a small Python script) to seconds (``npx``, migrations) to
answer ``initialize``, and the scorecard takes about 100 ms to import its machinery and build
its plan before it launches anything. Launched first, the server boots on another core in the
meantime: ``toolscore demo`` is about 25 ms faster, and a slow server is ready that much sooner.

The command calls :func:`prelaunch` as soon as it knows the target. The first connection of
the run (:class:`toolscore_mcp.client.lite.LiteConnection`) claims the process if it was
launched exactly as the connection would launch it (same command, environment and folder), and
otherwise launches its own; :meth:`Prelaunched.discard` ends an unclaimed one. The command
fills ``{sandbox}`` in first (building the sandbox, which such a command needs anyway); a target
whose command, environment or folder still mentions it is never prelaunched.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from toolscore_mcp.client.stderr_ring import StderrRing
from toolscore_mcp.client.target import ServerTarget

if TYPE_CHECKING:
    import asyncio

__all__ = ["PipedProcess", "Prelaunched", "prelaunch", "spawn", "stop_politely"]

#: How often :meth:`PipedProcess.wait` looks whether the process has ended.
WAIT_POLL_SECONDS = 0.005


def _launch_key(target: ServerTarget) -> tuple[Any, ...]:
    return (tuple(target.command), tuple(sorted(target.env.items())), target.cwd)


class Prelaunched:
    """A server process started ahead of the run, until a connection claims it."""

    def __init__(self, target: ServerTarget, popen: subprocess.Popen[bytes], stderr: StderrRing):
        self.key = _launch_key(target)
        self.popen: subprocess.Popen[bytes] | None = popen
        self.stderr = stderr

    def claim(self, target: ServerTarget) -> tuple[subprocess.Popen[bytes], StderrRing] | None:
        """The process and its stderr ring, once, if ``target`` launches exactly this way."""
        if self.popen is None or _launch_key(target) != self.key:
            return None
        popen, self.popen = self.popen, None
        return popen, self.stderr

    def discard(self) -> None:
        """End the process if no connection claimed it."""
        popen, self.popen = self.popen, None
        if popen is None:
            return
        with contextlib.suppress(OSError):
            popen.kill()
        with contextlib.suppress(Exception):
            popen.wait(timeout=1.0)
        for pipe in (popen.stdin, popen.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        self.stderr.close()


def _mentions_sandbox(target: ServerTarget) -> bool:
    texts = [*target.command, *target.env.values(), target.cwd or ""]
    return any("{sandbox" in text for text in texts)


def prelaunch(target: ServerTarget, *, client: str = "auto") -> Prelaunched | None:
    """Start ``target``'s process now if the run will launch it over stdio with the small
    client; ``None`` otherwise, or if it cannot start (the run's own launch reports why)."""
    if client == "sdk" or target.transport != "stdio" or not target.command:
        return None
    if _mentions_sandbox(target):
        return None
    try:
        popen, stderr = spawn(target)
    except (OSError, ValueError):
        return None
    return Prelaunched(target, popen, stderr)


def spawn(target: ServerTarget) -> tuple[subprocess.Popen[bytes], StderrRing]:
    """Start ``target``'s command with piped stdin and stdout and its stderr kept in a ring.

    :raises OSError: the command cannot be run (not found, not executable, a bad folder).
    """
    stderr = StderrRing()
    try:
        popen = subprocess.Popen(
            list(target.command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr.writer,
            env={**os.environ, **target.env},
            cwd=target.cwd,
        )
    except BaseException:
        stderr.close()
        raise
    stderr.spawned()
    return popen, stderr


class _Stdin:
    def __init__(self, transport: asyncio.WriteTransport, popen: subprocess.Popen[bytes]):
        self._transport = transport
        self._popen = popen

    async def send(self, data: bytes) -> None:
        if self._transport.is_closing() or self._popen.poll() is not None:
            raise BrokenPipeError("the server's stdin is closed")
        self._transport.write(data)

    async def aclose(self) -> None:
        self._transport.close()

    def close_now(self) -> None:
        self._transport.close()


class _Stdout:
    def __init__(self, reader: asyncio.StreamReader):
        self._reader = reader

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while True:
            chunk = await self._reader.read(65536)
            if not chunk:
                return
            yield chunk


class PipedProcess:
    """A running :class:`subprocess.Popen` whose pipes the event loop reads and writes: what
    the small client needs of a process (``stdin.send``/``aclose``, ``async for`` over
    ``stdout``, ``returncode``, ``terminate``, ``kill``, ``wait`` and ``aclose``)."""

    def __init__(
        self,
        popen: subprocess.Popen[bytes],
        stdin: _Stdin,
        stdout: _Stdout,
        read_transport: asyncio.ReadTransport,
    ) -> None:
        self._popen = popen
        self.stdin = stdin
        self.stdout = stdout
        self._read_transport = read_transport

    @classmethod
    async def adopt(cls, popen: subprocess.Popen[bytes]) -> PipedProcess:
        """Attach the process's pipes to the running asyncio event loop."""
        import asyncio

        assert popen.stdin is not None
        assert popen.stdout is not None
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=2**16)
        read_transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), popen.stdout
        )
        write_transport, _ = await loop.connect_write_pipe(asyncio.Protocol, popen.stdin)
        return cls(popen, _Stdin(write_transport, popen), _Stdout(reader), read_transport)

    @property
    def returncode(self) -> int | None:
        return self._popen.poll()

    def kill(self) -> None:
        self._popen.kill()

    def terminate(self) -> None:
        self._popen.terminate()

    async def wait(self) -> int:
        import asyncio

        while (code := self._popen.poll()) is None:
            await asyncio.sleep(WAIT_POLL_SECONDS)
        return code

    def release(self) -> subprocess.Popen[bytes]:
        """Close both pipes now (the server reads the end of its input) and hand the process
        over, still running, to be stopped off the event loop (:func:`stop_politely`)."""
        self.stdin.close_now()
        self._read_transport.close()
        return self._popen

    async def aclose(self) -> None:
        await self.stdin.aclose()
        self._read_transport.close()
        if self._popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self._popen.kill()
            await self.wait()


def stop_politely(popen: subprocess.Popen[bytes], grace: float, terminate_grace: float) -> None:
    """The end of the stdio shutdown sequence, once stdin is closed, for a plain thread: wait
    ``grace`` seconds for the process to exit, then SIGTERM and wait ``terminate_grace``,
    then SIGKILL."""
    for wait, stop in ((grace, popen.terminate), (terminate_grace, popen.kill)):
        with contextlib.suppress(subprocess.TimeoutExpired):
            popen.wait(wait)
            return
        with contextlib.suppress(OSError):
            stop()
    with contextlib.suppress(subprocess.TimeoutExpired):
        popen.wait(terminate_grace)
