"""A stdio server's stderr, kept as its last 64 KiB in memory.

A server may write to stderr without end (a log loop, a flood on purpose). The clients used
to hand it a temporary file, which such a server filled at disk speed. Here stderr is a pipe
that a daemon thread drains into a ring buffer: memory stays bounded, no disk is touched, and
the server never blocks on a full pipe. Both clients (the SDK one and the lite one) use it, so
crash details ("stderr: ...") read the same.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
from typing import BinaryIO

__all__ = ["DEFAULT_LIMIT", "StderrRing"]

#: Bytes of stderr kept: enough for the last lines of a traceback, whatever came before.
DEFAULT_LIMIT = 64 * 1024
_CHUNK = 64 * 1024
#: Most bytes read in one go while holding the lock (a flood must not starve ``tail``).
_DRAIN_MAX = 1024 * 1024


class StderrRing:
    """The pipe a server writes its stderr to, and the last ``limit`` bytes read from it.

    Give :attr:`writer` to the process as its stderr, call :meth:`spawned` once it runs (our
    copy of the write end is closed, so the pipe ends with the server), read with
    :meth:`tail`, and :meth:`close` when the session ends. The buffer stays readable after
    closing.
    """

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        self.limit = limit
        #: Everything the server wrote, kept or not.
        self.total = 0
        read_fd, write_fd = os.pipe()
        os.set_blocking(read_fd, False)
        self._read_fd: int | None = read_fd
        self.writer: BinaryIO | None = os.fdopen(write_fd, "wb", buffering=0)
        self._buffer = bytearray()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        # Written to by ``close`` so the reader wakes at once (no polling interval to wait out).
        self._wake_r, self._wake_w = os.pipe()
        self._eof = False
        self._thread = threading.Thread(target=self._pump, name="toolscore-stderr", daemon=True)
        self._thread.start()

    def spawned(self) -> None:
        """The server has its own copy of the write end; drop ours."""
        writer, self.writer = self.writer, None
        if writer is not None:
            with contextlib.suppress(OSError):
                writer.close()

    def tail(self, limit: int = 2000) -> str:
        """The last ``limit`` characters written so far (including what is still in the pipe)."""
        with self._lock:
            self._drain()
            data = bytes(self._buffer[-limit * 4 :])
        return data.decode("utf-8", "replace")[-limit:]

    def close(self) -> None:
        """Stop reading and release the pipe (idempotent)."""
        self.spawned()
        if self._stop.is_set():
            return
        self._stop.set()
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        with self._lock:
            fd, self._read_fd = self._read_fd, None
        for owned in (fd, self._wake_r, self._wake_w):
            if owned is not None:
                with contextlib.suppress(OSError):
                    os.close(owned)

    def _pump(self) -> None:
        while not self._stop.is_set() and not self._eof:
            fd = self._read_fd
            if fd is None:
                return
            try:
                ready, _, _ = select.select([fd, self._wake_r], [], [])
            except (OSError, ValueError):
                return
            if fd in ready:
                with self._lock:
                    self._drain()

    def _drain(self) -> None:
        """Read what the pipe holds now (at most ``_DRAIN_MAX``); call with the lock held."""
        fd = self._read_fd
        read = 0
        while fd is not None and not self._eof and read < _DRAIN_MAX:
            try:
                chunk = os.read(fd, _CHUNK)
            except BlockingIOError:
                return
            except OSError:
                self._eof = True
                return
            if not chunk:
                self._eof = True
                return
            read += len(chunk)
            self.total += len(chunk)
            self._buffer += chunk
            excess = len(self._buffer) - self.limit
            if excess > 0:
                del self._buffer[:excess]
