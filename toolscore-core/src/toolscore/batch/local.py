"""Core's built-in executor plugin: registers ``local``, a process pool on this machine.

This module is registered with every plugin manager, so it stays import-light: the pool
itself lives in :mod:`toolscore.batch.pool` and is imported only by the factory.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolscore._markers import hookimpl
from toolscore.specs import ExecutorSpec


def _local(options: Any) -> Any:
    from toolscore.batch.pool import LocalExecutor

    return LocalExecutor(options)


@hookimpl
def toolscore_register_executors() -> Iterator[ExecutorSpec]:
    yield ExecutorSpec(
        name="local",
        factory=_local,
        summary="process pool on this machine (--workers N; 1 runs in-process)",
    )
