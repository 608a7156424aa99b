"""Progress of a CLI run: a rich bar (cases/s, ETA) on a terminal, quiet log lines otherwise.

The log lines go to stderr at most every ``interval`` seconds, so a CI log of a long nightly
run shows it is alive without a line per batch.
"""

from __future__ import annotations

import sys
import time
from typing import Any


class Progress:
    """Call :meth:`advance` per result; :meth:`close` prints the final line."""

    def __init__(
        self, total: int | None, *, tty: bool | None = None, interval: float = 30.0
    ) -> None:
        self.total = total
        self.done = 0
        #: Records that were not cases (bad JSON, duplicate ids, ...); ``done`` counts them too.
        self.bad = 0
        self._closed = False
        self.started = time.perf_counter()
        self._last_log = self.started
        self._interval = interval
        self._bar: Any = None
        self._task: Any = None
        if sys.stderr.isatty() if tty is None else tty:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(
                TextColumn("[bold]eval-batch"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]} cases/s"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=False,
            )
            self._task = self._bar.add_task("cases", total=total, rate="-")
            self._bar.start()

    def rate(self) -> float:
        elapsed = time.perf_counter() - self.started
        return self.done / elapsed if elapsed > 0 else 0.0

    def advance(self, count: int = 1) -> None:
        self.done += count
        if self._bar is not None:
            self._bar.update(self._task, advance=count, rate=f"{self.rate():.0f}")
            return
        now = time.perf_counter()
        if now - self._last_log >= self._interval:
            self._last_log = now
            self._log()

    def note_bad_record(self) -> None:
        """Count a record that is not a case, so the log counts cases as the summary does."""
        self.bad += 1

    def _log(self) -> None:
        bad = f" ({self.bad} bad record(s) skipped)" if self.bad else ""
        print(
            f"eval-batch: {self.done - self.bad} cases{bad}, {self.rate():.0f} records/s",
            file=sys.stderr,
        )

    def close(self) -> None:
        """Stop the bar, or print the final log line; only the first call does anything."""
        if self._closed:
            return
        self._closed = True
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
        else:
            self._log()
