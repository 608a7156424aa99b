"""Shared terminal output for commands: consoles, one-line errors and exit codes."""

from __future__ import annotations

import enum
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from rich.console import Console

    from toolscore.model import ToolCall


class ExitCode(enum.IntEnum):
    """Documented exit codes of every toolscore command."""

    OK = 0
    #: The check failed (score below --fail-under, violations, regression) or a handled error.
    ERROR = 1
    #: Usage errors (click's own, and option combinations we reject).
    USAGE = 2
    #: Stopped by Ctrl-C (SIGINT): 128 + 2, as shells report it.
    INTERRUPTED = 130


def stdout_console() -> Console:
    from toolscore.terminal_width import make_console

    return make_console(highlight=False, soft_wrap=False)


def stderr_console() -> Console:
    from toolscore.terminal_width import make_console

    return make_console(stderr=True, highlight=False, soft_wrap=True)


def error_line(message: str) -> None:
    """Print ``ERROR <message>`` on stderr, red when it is a terminal; markup is not parsed.

    Messages quote data (file contents, a server's answer), so they are redacted and control
    characters in them shown as escapes (:func:`toolscore.terminal_text.shown`).
    """
    from rich.text import Text

    from toolscore.terminal_text import shown

    console = stderr_console()
    text = Text()
    text.append("ERROR", style="bold red")
    text.append(" " + shown(message))
    console.print(text)


def warn_unreadable_arguments(trace_file: object, calls: Sequence[ToolCall]) -> None:
    """On stderr, one ``Warning:`` line per call of ``trace_file`` whose arguments could not
    be decoded (:mod:`toolscore.input_checks` says how they are scored)."""
    from toolscore.input_checks import argument_problems

    problems = argument_problems(calls)
    if problems:
        from toolscore.terminal_text import shown

        console = stderr_console()
        for line in problems:
            console.print(shown(f"Warning: {trace_file}: {line}"), style="yellow", markup=False)


def warn_judge_error(metrics: Mapping[str, object]) -> None:
    """On stderr, why the LLM judge gave no score (a missing key, an HTTP error), if it did not.

    The evaluation goes on without it and the reports record the error; without this line a
    user who asked for ``--llm-judge`` would see no sign of it in the console summary.
    """
    semantic = metrics.get("semantic_metrics")
    error = semantic.get("error") if isinstance(semantic, Mapping) else None
    if error:
        from toolscore.terminal_text import shown

        stderr_console().print(shown(f"Warning: LLM judge: {error}"), style="yellow", markup=False)


def fail(message: str, code: ExitCode = ExitCode.ERROR) -> NoReturn:
    """Print a one-line error and exit with ``code``."""
    error_line(message)
    sys.exit(int(code))


#: The errors a command that reads files expects, with the text put before the error's own.
FILE_ERRORS: tuple[tuple[type[Exception], str], ...] = (
    (FileNotFoundError, "File not found: "),
    (ValueError, "Invalid data: "),
)


@contextmanager
def handled_errors(
    verbose: bool,
    unexpected: str,
    *,
    hint: str = "",
    expected: Sequence[tuple[type[Exception], str]] = FILE_ERRORS,
    code: ExitCode = ExitCode.ERROR,
) -> Iterator[None]:
    """Turn a command's errors into one-line messages and exit ``code`` (never a traceback).

    An error of an ``expected`` type (the first that matches) prints its prefix and the error;
    any other prints ``unexpected``, the error and ``hint``, or is re-raised with ``verbose``
    so that ``-v`` shows the traceback.
    """
    from toolscore.errors import OutputError

    try:
        yield
    except OutputError as exc:  # says which file and why, whatever the command expected
        fail(str(exc), code)
    except Exception as exc:
        for kind, prefix in expected:
            if isinstance(exc, kind):
                fail(f"{prefix}{exc}", code)
        if verbose:
            raise
        fail(f"{unexpected}{exc}{hint}", code)


@contextmanager
def warnings_as_lines() -> Iterator[None]:
    """Inside the block, a Python warning is one ``Warning: <message>`` line on stderr (not
    ``file:line: RuntimeWarning: ...`` and the source line after it)."""
    import warnings

    import click

    def show(message: Warning | str, *_args: object, **_kwargs: object) -> None:
        from toolscore.terminal_text import shown

        click.echo(f"Warning: {shown(str(message))}", err=True)

    with warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.showwarning = show  # type: ignore[assignment]
        yield
