"""The ``local`` executor: batches run in this process (1 worker) or in a process pool.

With one worker there is no pool at all, so ``--workers 1`` costs nothing over a plain loop.
With more, a :class:`concurrent.futures.ProcessPoolExecutor` runs the batches and at most
``2 × workers`` are in flight.
"""

from __future__ import annotations

import itertools
import os
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

from toolscore.batch.executors import ExecutorOptions, default_workers, ordered_window
from toolscore.batch.worker_process import capped_workers, prepare_worker

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

T = TypeVar("T")
R = TypeVar("R")


class LocalExecutor:
    """A process pool sized to the machine (or ``options.workers``)."""

    def __init__(self, options: ExecutorOptions) -> None:
        if options.scheduler:
            raise ValueError(
                "--scheduler needs a cluster executor (e.g. --executor dask); "
                "the local executor has none"
            )
        requested = options.workers if options.workers is not None else default_workers()
        if requested < 1:
            raise ValueError(f"workers must be at least 1, got {requested}")
        self._explicit = options.workers is not None
        self.workers, warning = capped_workers(requested, default_workers())
        if warning:
            warnings.warn(warning, RuntimeWarning, stacklevel=2)
        self._pool: ProcessPoolExecutor | None = None

    def map_batches(self, function: Callable[[T], R], batches: Iterable[T]) -> Iterator[R]:
        # No more processes than batches: read up to one batch per worker before starting any.
        pending = iter(batches)
        head = list(itertools.islice(pending, self.workers))
        if len(head) < self.workers:
            workers, warning = capped_workers(self.workers, default_workers(), len(head))
            if warning and self._explicit:
                warnings.warn(warning, RuntimeWarning, stacklevel=2)
            self.workers = workers
        batches = itertools.chain(head, pending)
        if self.workers == 1:
            return map(function, batches)
        # imported here: a one-worker run (and its start-up time) never needs the pool
        from concurrent.futures import ProcessPoolExecutor

        pool = self._pool = ProcessPoolExecutor(
            max_workers=self.workers, initializer=prepare_worker, initargs=(os.getpid(),)
        )

        def submit(batch: T) -> Future[R]:
            return pool.submit(function, batch)

        def result(future: Future[R]) -> R:
            return future.result()

        return ordered_window(submit, result, batches, 2 * self.workers)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __repr__(self) -> str:
        return f"<LocalExecutor workers={self.workers}>"


__all__ = ["LocalExecutor"]
