"""What an executor is, and the ordered, bounded window every executor uses.

An executor applies a function to picklable batches and yields the answers **in input order**,
with only a bounded number of batches in flight, so a run over millions of cases holds a
constant amount of work in memory whatever the engine (process pool, Dask, ...).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, TypeVar

import attrs

T = TypeVar("T")
R = TypeVar("R")
F = TypeVar("F")


@attrs.frozen
class ExecutorOptions:
    """What a run asks of its executor.

    :param workers: parallel workers; ``None`` = sized to the machine (or the cluster).
    :param scheduler: a cluster address (``tcp://host:8786``) for executors that use one.
    :param extra: engine-specific settings, passed through untouched.
    """

    workers: int | None = None
    scheduler: str | None = None
    extra: tuple[tuple[str, Any], ...] = ()


class Executor(Protocol):
    """Runs batches; returned by an :class:`~toolscore.specs.ExecutorSpec` factory.

    An executor may also have a ``batch_size`` attribute: the cases per work unit it works
    best with, used when the run does not set one (``--batch-size``). An engine with a
    per-task cost of its own (scheduling, messages) wants bigger units than a process pool.
    """

    def map_batches(self, function: Callable[[T], R], batches: Iterable[T]) -> Iterator[R]:
        """``function(batch)`` for each batch, yielded in input order, lazily."""
        ...

    def close(self) -> None:
        """Release workers, pools or cluster connections; called once, at the end of a run."""
        ...


def default_workers() -> int:
    """Workers for a machine: the CPUs this process may use (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not on Linux
        return max(1, os.cpu_count() or 1)


def ordered_window(
    submit: Callable[[T], F],
    result: Callable[[F], R],
    items: Iterable[T],
    window: int,
) -> Iterator[R]:
    """Submit ``items`` keeping at most ``window`` in flight; yield results in input order.

    ``submit`` starts one item and returns a handle (a future); ``result`` waits for a handle.
    Reading ``items`` stays ``window`` ahead of the consumer, never further, which is what
    keeps memory flat on a dataset of any size.
    """
    pending: deque[F] = deque()
    for item in items:
        pending.append(submit(item))
        if len(pending) >= window:
            yield result(pending.popleft())
    while pending:
        yield result(pending.popleft())
