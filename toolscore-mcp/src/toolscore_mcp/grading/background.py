"""Work a run needs only at its end, done on a helper thread while it waits on the server.

Measuring the tool surface (token counts, near-duplicate descriptions, provider compatibility)
takes a tenth of a second or more on a server with dozens of tools, and depends only on the
tool list. Started as soon as the list is known, it runs while the run mostly waits for the
server's answers, instead of between the last answer and the report.

(Importing the modules the run needs after the handshake on such a thread, while the server
starts, was tried and dropped: on two busy cores it slowed a server that starts in half a
second by about 70 ms, competing with its start, and did not help one that starts slowly.)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["in_background"]

T = TypeVar("T")


def in_background(work: Callable[[], T]) -> Callable[[], T]:
    """Start ``work`` on a daemon thread now; the returned function waits for it and returns
    its result (or raises what it raised). For pure work the run needs only at the end
    (measuring the tool surface), done while the run waits on the server."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append((True, work()))
        except BaseException as exc:  # handed to the caller of the result
            outcome.append((False, exc))

    thread = threading.Thread(target=run, name="toolscore-background", daemon=True)
    thread.start()

    def result() -> T:
        thread.join()
        ok, value = outcome[0]
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]

    return result
