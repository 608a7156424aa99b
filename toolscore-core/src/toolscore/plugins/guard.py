"""Running a third-party plugin's code so that it cannot end, hang or steer the run.

A plugin's metric ``compute()``, reporter ``render()`` or hook implementation is somebody
else's code inside our process. :func:`run_plugin_code` runs it in a worker thread, with the
caller's context (the active plugin manager), and turns what would otherwise take the command
over into a :class:`PluginCodeError` the caller records as that plugin's failure:

* ``SystemExit`` (``sys.exit(0)`` in a metric turned a failing ``--fail-under`` run into exit
  0) and a ``KeyboardInterrupt`` raised by the plugin itself;
* any other exception;
* a call still running after the time limit (``TOOLSCORE_PLUGIN_TIMEOUT`` seconds, default
  60; ``0`` or ``off`` for none). The hung thread is left behind as a daemon: Python cannot
  stop it, but the run goes on and the process can exit.

A real Ctrl-C arrives in the main thread while it waits, and ends the run as usual.
Core's own built-ins are called directly: they are ours, and fast.
"""

from __future__ import annotations

import contextvars
import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from toolscore.errors import PluginError

__all__ = [
    "DEFAULT_PLUGIN_TIMEOUT",
    "PLUGIN_TIMEOUT_ENV",
    "PluginCodeError",
    "plugin_time_limit",
    "run_plugin_code",
]

T = TypeVar("T")

PLUGIN_TIMEOUT_ENV = "TOOLSCORE_PLUGIN_TIMEOUT"
#: Seconds one plugin call may take: generous, so only a hang ever reaches it.
DEFAULT_PLUGIN_TIMEOUT = 60.0


class PluginCodeError(PluginError):
    """A plugin's code raised, exited or hung; ``str()`` says which, in one line."""


def plugin_time_limit() -> float | None:
    """The limit from ``TOOLSCORE_PLUGIN_TIMEOUT`` (seconds), or None when switched off."""
    raw = os.environ.get(PLUGIN_TIMEOUT_ENV, "").strip().lower()
    if not raw:
        return DEFAULT_PLUGIN_TIMEOUT
    if raw in {"0", "off", "none", "no"}:
        return None
    try:
        value = float(raw)
    except ValueError:
        return DEFAULT_PLUGIN_TIMEOUT
    return value if value > 0 and value == value else None


def run_plugin_code(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``function(*args, **kwargs)`` in a guarded thread (see the module)."""
    outcome: list[tuple[bool, Any]] = []
    context = contextvars.copy_context()

    def target() -> None:
        try:
            outcome.append((True, context.run(function, *args, **kwargs)))
        except BaseException as exc:  # everything: the caller decides what it means
            outcome.append((False, exc))

    limit = plugin_time_limit()
    thread = threading.Thread(target=target, name="toolscore-plugin", daemon=True)
    thread.start()
    thread.join(limit)
    if not outcome:
        raise PluginCodeError(
            f"did not return within {limit:g} s ({PLUGIN_TIMEOUT_ENV} sets the limit)"
        )
    ok, value = outcome[0]
    if ok:
        return value  # type: ignore[no-any-return]
    if isinstance(value, SystemExit):
        raise PluginCodeError(f"SystemExit: {value.code}") from value
    if isinstance(value, KeyboardInterrupt):
        raise PluginCodeError("KeyboardInterrupt raised by the plugin itself") from value
    raise value
