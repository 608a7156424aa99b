"""The ``--out`` file: appended one whole batch at a time, read back for resume and baselines.

Each batch is one append of complete lines. Once the append returns, the lines are the
kernel's: a killed process (even ``kill -9``) loses none of them, so the file holds every
batch written, plus at most one torn last line if the kill landed mid-append. An ``fsync``
follows within ``sync_interval`` seconds of an append and at the end, which bounds what a
machine crash can lose without paying a disk flush per batch. :func:`read_results` drops a
torn last line (truncating the file back to the last newline), so a resumed run redoes
exactly the cases not in the file: nothing is lost and nothing is duplicated.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import threading
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from toolscore.batch.records import CaseResult
from toolscore.errors import InputError

#: Buffers per ``writev`` call: POSIX guarantees at least 16; Linux takes 1024.
_IOV_MAX = max(16, os.sysconf("SC_IOV_MAX")) if hasattr(os, "sysconf") else 16


class ResultsWriter:
    """Appends result lines to ``path`` (created, or emptied unless ``append``).

    Each :meth:`write_chunks` (or :meth:`write_lines`) call is one batch, appended whole by
    the caller's thread: one ``writev`` into the page cache, which is cheaper than handing the
    batch to another thread (every hand-over costs the caller a switch of the interpreter
    lock). A background thread fsyncs what was appended, within ``sync_interval`` seconds
    (``fsync`` releases the lock, so scoring goes on while the disk catches up). :meth:`close`
    waits until every batch is durable; a disk error surfaces at the next call.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        append: bool,
        sync_interval: float = 1.0,
    ) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | (0 if append else os.O_TRUNC)
        self._fd: int | None = os.open(self.path, flags, 0o666)
        #: A device or FIFO (``--out /dev/null``) is written through and never fsynced.
        self._durable = stat.S_ISREG(os.fstat(self._fd).st_mode)
        self._error: BaseException | None = None
        self._sync_interval = sync_interval
        self._dirty = False  # appended since the last fsync began
        self._closing = threading.Event()
        self._syncer = threading.Thread(target=self._sync_loop, name="toolscore-results-fsync")
        self._syncer.daemon = True
        self._syncer.start()

    def _sync_loop(self) -> None:
        while not self._closing.wait(self._sync_interval):
            if self._dirty and self._error is None:
                self._sync()

    def _sync(self) -> None:
        fd = self._fd
        assert fd is not None
        self._dirty = False  # cleared first: an append during the fsync marks it again
        if not self._durable:
            return
        try:
            os.fsync(fd)
        except BaseException as exc:  # reported to the caller by _check()
            self._error = exc

    def _check(self) -> None:
        if self._error is not None:
            raise OSError(f"cannot write {self.path}: {self._error}") from self._error

    def write_lines(self, lines: Iterable[str]) -> None:
        """Append one batch of ``lines`` (each ending in a newline) whole."""
        self.write_chunks([line.encode("utf-8") for line in lines])

    def write_chunks(self, chunks: Sequence[bytes]) -> None:
        """Append one batch of complete lines, already encoded, whole."""
        fd = self._fd
        if fd is None:
            raise ValueError("the results file is closed")
        self._check()
        if not chunks:
            return
        with interrupts_deferred():  # Ctrl-C lands after the batch's last newline
            if not hasattr(os, "writev"):  # Windows
                _write_all(fd, b"".join(chunks))
            else:
                # writev takes the lines as they are (no batch-sized copy); a short write (a
                # full disk, a signal) is finished with plain writes.
                for start in range(0, len(chunks), _IOV_MAX):
                    group = chunks[start : start + _IOV_MAX]
                    written = os.writev(fd, group)
                    if written < sum(map(len, group)):
                        _write_all(fd, b"".join(group)[written:])
        self._dirty = True

    def close(self) -> None:
        """Fsync what is left, then close the file."""
        if self._fd is None:
            return
        self._closing.set()
        self._syncer.join()
        if self._dirty and self._error is None:
            self._sync()
        os.close(self._fd)
        self._fd = None
        self._check()

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold SIGINT until the block is done, then deliver it as it would have been.

    Why: Ctrl-C raised between two writes of one batch would leave a torn last line; the
    reader skips it, so the run stays correct, but the line's work is lost. Off the main
    thread (where signals cannot be handled) the block simply runs.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, lambda number, _frame: held.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if held and callable(previous):
            previous(signal.SIGINT, None)
        elif held and previous == signal.SIG_DFL:
            raise KeyboardInterrupt


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def read_results(path: str | os.PathLike[str], *, repair: bool = False) -> Iterator[CaseResult]:
    """The results stored in ``path``, in file order.

    A last line without its newline, or that does not decode, is a torn write: it is skipped,
    and with ``repair`` the file is truncated back to the previous line so appends continue
    cleanly. A bad line anywhere else is an :class:`InputError` naming file and line.
    """
    file = Path(path)
    if not file.exists():
        return
    name = str(file)
    good_end = 0
    torn_at: int | None = None
    with file.open("rb") as handle:
        previous: tuple[int, int, bytes] | None = None
        offset = 0
        for number, raw in enumerate(handle, 1):
            start, offset = offset, offset + len(raw)
            if previous is not None:
                result = _decode(previous, name, last=False)
                if result is not None:
                    yield result
                good_end = start
            previous = (number, start, raw)
        if previous is not None:
            result = _decode(previous, name, last=True)
            if result is None:
                torn_at = previous[1]
            else:
                yield result
                good_end = offset
    if repair and torn_at is not None:
        os.truncate(file, good_end)


def _decode(item: tuple[int, int, bytes], name: str, *, last: bool) -> CaseResult | None:
    number, _start, raw = item
    if not raw.strip():
        return None
    if last and not raw.endswith(b"\n"):
        return None
    try:
        return CaseResult.from_line(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        if last:
            return None
        raise InputError(f"not a result line: {exc}", source=f"{name}:{number}") from None
