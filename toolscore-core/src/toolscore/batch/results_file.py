"""The ``--out`` file: appended one whole batch at a time, read back for resume and baselines.

Writes are appends of complete lines followed by ``flush`` and ``fsync``, so after a crash
(even ``kill -9``) the file holds every finished batch, plus at most one torn last line.
:func:`read_results` drops that torn line (truncating the file back to the last newline),
so a resumed run redoes exactly that case: nothing is lost and nothing is duplicated.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

from toolscore.batch.records import CaseResult
from toolscore.errors import InputError


class ResultsWriter:
    """Appends result lines to ``path`` (created, or emptied unless ``append``).

    Each :meth:`write_lines` call is one batch: its lines are written whole, then fsynced.
    The write and the fsync run on a writer thread (fsync releases the GIL), so scoring goes
    on while the disk catches up; at most ``pending`` batches wait. :meth:`close` waits
    for every batch to be durable, and a disk error surfaces at the next call.
    """

    def __init__(self, path: str | os.PathLike[str], *, append: bool, pending: int = 4) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | (0 if append else os.O_TRUNC)
        self._fd: int | None = os.open(self.path, flags, 0o666)
        self._queue: queue.Queue[bytes | None] = queue.Queue(maxsize=pending)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._drain, name="toolscore-results-writer")
        self._thread.daemon = True
        self._thread.start()

    def _drain(self) -> None:
        while (data := self._queue.get()) is not None:
            if self._error is not None:
                continue
            try:
                self._append(data)
            except BaseException as exc:  # reported to the caller by _check()
                self._error = exc

    def _append(self, data: bytes) -> None:
        assert self._fd is not None
        view = memoryview(data)
        while view:
            written = os.write(self._fd, view)
            view = view[written:]
        os.fsync(self._fd)

    def _check(self) -> None:
        if self._error is not None:
            raise OSError(f"cannot write {self.path}: {self._error}") from self._error

    def write_lines(self, lines: Iterable[str]) -> None:
        """Queue one batch of ``lines`` (each ending in a newline) to append whole and fsync."""
        self.write_bytes("".join(lines).encode("utf-8"))

    def write_bytes(self, data: bytes) -> None:
        """Queue one batch of complete lines, already encoded, to append whole and fsync."""
        if self._fd is None:
            raise ValueError("the results file is closed")
        self._check()
        self._queue.put(data)

    def close(self) -> None:
        """Wait until every queued batch is on disk, then close the file."""
        if self._fd is None:
            return
        self._queue.put(None)
        self._thread.join()
        os.close(self._fd)
        self._fd = None
        self._check()

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
