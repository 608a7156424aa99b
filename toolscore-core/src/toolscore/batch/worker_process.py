"""How a local worker process behaves towards signals and its parent.

* Ctrl-C in a terminal reaches every process of the foreground group. A worker ignores SIGINT:
  the parent alone decides, finishes the results line it is writing, cancels the queued work
  and says how to resume. Without this each worker printed its own traceback.
* A worker whose parent dies (SIGKILL, OOM killer) must not live on holding memory and CPU.
  On Linux the kernel sends it SIGTERM when the parent goes (``PR_SET_PDEATHSIG``); elsewhere
  a daemon thread watches the parent's pid and ends the worker when it changes.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

__all__ = ["MAX_WORKERS_PER_CPU", "capped_workers", "prepare_worker"]

#: ``--workers`` above this many per CPU only adds processes that wait for a core.
MAX_WORKERS_PER_CPU = 4
#: How often the fallback watchdog looks at the parent, in seconds.
_WATCH_INTERVAL = 1.0
_PR_SET_PDEATHSIG = 1


def capped_workers(requested: int, cpus: int, work_units: int | None = None) -> tuple[int, str]:
    """The workers to start for ``requested``, and a warning when fewer were started.

    Never more than :data:`MAX_WORKERS_PER_CPU` per CPU, nor more than the work units there
    are (when known): ``--workers 10000`` on 200 cases started 2,396 processes.
    """
    limit = MAX_WORKERS_PER_CPU * max(1, cpus)
    reason = f"{MAX_WORKERS_PER_CPU} per CPU on {cpus} CPU(s)"
    if work_units is not None and work_units < limit:
        limit, reason = max(1, work_units), f"{work_units} work unit(s)"
    if requested <= limit:
        return requested, ""
    return limit, f"--workers {requested} capped at {limit} ({reason})"


def prepare_worker(parent_pid: int) -> None:
    """Process-pool initializer: ignore SIGINT and end with the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux") and _parent_death_signal():
        if os.getppid() != parent_pid:  # the parent died before the request took effect
            os._exit(1)
        return
    threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True).start()


def _parent_death_signal() -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(_WATCH_INTERVAL)
    os._exit(1)
