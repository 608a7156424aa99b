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

    def __init__(self, options: ExecutorOptions) -> None:
        import distributed

        # distributed is untyped: reach it through Any rather than silence each call.
        dist: Any = distributed
        Client, LocalCluster = dist.Client, dist.LocalCluster

        self._cluster: Any = None
        self._client: Any
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
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None

    def __repr__(self) -> str:
        return f"<DaskExecutor workers={self.workers} scheduler={self._client.scheduler.address}>"


__all__ = ["DaskExecutor"]
