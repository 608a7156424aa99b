"""Shared terminal output for commands: consoles, one-line errors and exit codes."""

from __future__ import annotations

import enum
import sys
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from rich.console import Console


class ExitCode(enum.IntEnum):
    """Documented exit codes of every toolscore command."""

    OK = 0
    #: The check failed (score below --fail-under, violations, regression) or a handled error.
    ERROR = 1
    #: Usage errors (click's own, and option combinations we reject).
    USAGE = 2


def stdout_console() -> Console:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=False)


def stderr_console() -> Console:
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)


def error_line(message: str) -> None:
    """Print ``ERROR <message>`` on stderr, red when it is a terminal; markup is not parsed."""
    from rich.text import Text

    console = stderr_console()
    text = Text()
    text.append("ERROR", style="bold red")
    text.append(" " + message)
    console.print(text)


def fail(message: str, code: ExitCode = ExitCode.ERROR) -> NoReturn:
    """Print a one-line error and exit with ``code``."""
    error_line(message)
    sys.exit(int(code))
