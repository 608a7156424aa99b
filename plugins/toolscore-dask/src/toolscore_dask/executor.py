"""``DaskExecutor``: batches of cases as tasks on a ``distributed`` cluster.

With ``--scheduler tcp://host:8786`` it connects to a running cluster (the workers need the
same toolscore distributions installed as the client); without one it starts a
``LocalCluster`` of ``workers`` single-threaded worker processes for the run and stops it
at the end. At most ``2 × workers`` batches are in flight and results are gathered in
submission order, so answers come back in dataset order and memory stays flat.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from toolscore.batch.executors import ExecutorOptions, default_workers, ordered_window

T = TypeVar("T")
R = TypeVar("R")


class DaskExecutor:
    """Runs ``map_batches`` on a Dask cluster (connected or started for the run)."""

    #: Cases per task when the run does not choose: each task costs the client and the
    #: scheduler about a millisecond of their own, so tasks of 1024 cases (about 0.3 s of
    #: scoring) keep that under 1%. Measured on 200,000 cases and 2 local workers: the
    #: client's CPU time fell from 11 s at 128 cases a task to 5 s, and throughput rose 9%.
    batch_size = 1024

    def __init__(self, options: ExecutorOptions) -> None:
        import dask
        import distributed

        # distributed keeps its last N low-level messages (1000 by default) for debugging;
        # each task message carries its batch of records, so the client (and a LocalCluster's
        # in-process scheduler) would hold ~1000 batches: 290 MB at 128 cases a batch. A short
        # log keeps the run's memory flat; restored in close().
        self._config: Any = dask.config.set({"distributed.admin.low-level-log-length": 16})
        # distributed is untyped: reach it through Any rather than silence each call.
        dist: Any = distributed
        Client, LocalCluster = dist.Client, dist.LocalCluster

        self._cluster: Any = None
        self._client: Any = None
        try:
            if options.scheduler:
                self._client = Client(options.scheduler)
            else:
                workers = options.workers if options.workers is not None else default_workers()
                if workers < 1:
                    raise ValueError(f"workers must be at least 1, got {workers}")
                self._cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=40,  # logging.ERROR: the run's own output stays readable
                )
                self._client = Client(self._cluster)
        except BaseException:
            self.close()
            raise
        self.workers = max(1, len(self._client.scheduler_info().get("workers", {})) or 1)

    def map_batches(self, function: Callable[[T], R], batches: Iterable[T]) -> Iterator[R]:
        client = self._client

        def submit(batch: T) -> Any:
            # pure=False: two equal batches (same records) are still two tasks.
            return client.submit(function, batch, pure=False)

        def result(future: Any) -> R:
            value: R = future.result()
            future.release()
            return value

        return ordered_window(submit, result, batches, 2 * self.workers)

    def close(self) -> None:
        try:
            if self._client is not None:
                self._client.close()
            if self._cluster is not None:
                self._cluster.close()
                self._cluster = None
        finally:
            if self._config is not None:
                self._config.__exit__(None, None, None)
                self._config = None

    def __repr__(self) -> str:
        return f"<DaskExecutor workers={self.workers} scheduler={self._client.scheduler.address}>"


__all__ = ["DaskExecutor"]
