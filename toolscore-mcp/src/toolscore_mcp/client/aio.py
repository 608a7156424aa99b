"""The async tools a stdio run needs, on asyncio alone.

Why not anyio here: the first ``anyio.run`` imports its asyncio backend with its sockets,
streams and TLS modules, about 28 ms, a tenth of ``toolscore demo``, for a task group and a
semaphore. The small stdio client, the scenario runner and the run itself use what is below;
the SDK's sessions (HTTP, SSE, ``--client sdk``) bring anyio with them and run on the same
asyncio event loop, which anyio supports.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from types import TracebackType
from typing import Any, TypeVar

__all__ = ["TaskGroup", "run"]

T = TypeVar("T")


def run(coroutine_factory: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion on a fresh event loop."""
    return asyncio.run(coroutine_factory())


class TaskGroup:
    """Tasks started with :meth:`start_soon`, all awaited when the block ends.

    The first task that fails cancels the others, and its exception is raised once they have
    stopped (anyio raises an exception group there; callers here let nothing escape their
    tasks, so one exception is all there is to say). Python 3.10 has no ``asyncio.TaskGroup``.
    """

    def __init__(self) -> None:
        self._tasks: list[asyncio.Task[Any]] = []

    async def __aenter__(self) -> TaskGroup:
        return self

    def start_soon(self, function: Callable[..., Awaitable[Any]], *args: Any) -> None:
        self._tasks.append(asyncio.ensure_future(function(*args)))

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc is not None:
            await self._cancel_all()
            return
        try:
            await asyncio.gather(*self._tasks)
        except BaseException:
            await self._cancel_all()
            raise

    async def _cancel_all(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
