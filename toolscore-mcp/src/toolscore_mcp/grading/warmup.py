"""Import what a run needs once the server answers, while the server is still starting.

A real server takes from a third of a second to several seconds to answer ``initialize``
(an interpreter and its libraries, ``npx``), and the run spends that time waiting. What it
imports after the answer comes (jsonschema for schemas beyond the plain subset, the sandbox's
builders, rich and the console report) cost about 0.2 s, all of it on the critical path. A
helper thread imports them during the wait instead; a module the run asks for while the
thread is still importing it is waited for, never imported twice. A failed import is left
for the run to meet (and report) where it needs the module.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

__all__ = ["WARM_MODULES", "in_background", "warm_up"]

#: Imported on the helper thread, in this order (the ones needed soonest first).
WARM_MODULES = (
    "jsonschema.validators",
    "toolscore.bounded_schema",
    "toolscore_mcp.sandbox.sandbox",
    "toolscore_mcp.values.harvest",
    "toolscore_mcp.scenarios.generate",
    "toolscore_mcp.reports.console",
    "toolscore_mcp.reports.markdown",
)


def _import_all() -> None:
    for name in WARM_MODULES:
        try:
            importlib.import_module(name)
        except Exception:  # the run imports it again where it needs it, and reports why
            continue


def warm_up() -> threading.Thread:
    """Start importing :data:`WARM_MODULES` on a daemon thread; the thread is returned."""
    thread = threading.Thread(target=_import_all, name="toolscore-warm-up", daemon=True)
    thread.start()
    return thread


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
