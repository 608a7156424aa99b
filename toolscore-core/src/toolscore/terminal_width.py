"""Rich consoles for command output: wrapped to the terminal, never wrapped in a log.

Rich wraps every line at 80 columns when its stream is not a terminal. In a CI log or a file
that splits ``gold.json: 2/3 runs pass`` or a report path across two lines, so a grep or a
test that reads the output misses it. Every console that prints command output comes from
:func:`make_console`:

* ``COLUMNS`` set to a positive number: that width, terminal or not (a user's explicit choice);
* a terminal: the terminal's width, as rich measures it;
* anything else (a pipe, a file, a test runner's capture): :data:`UNWRAPPED_WIDTH`, wide enough
  that no report line is ever folded. Tables and panels that fit their content stay as narrow
  as their content.
"""

from __future__ import annotations

import os
import sys
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

#: The width off a terminal: far beyond any report line, small enough to stay cheap.
UNWRAPPED_WIDTH = 10_000


def output_width(stream: IO[str] | None) -> int | None:
    """The width to render at on ``stream``, or ``None`` to let rich measure the terminal."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    isatty = getattr(stream, "isatty", None)
    try:
        on_terminal = bool(isatty()) if isatty is not None else False
    except (ValueError, OSError):  # a closed or detached stream
        on_terminal = False
    return None if on_terminal else UNWRAPPED_WIDTH


def make_console(*, stderr: bool = False, file: IO[str] | None = None, **options: Any) -> Console:
    """A rich ``Console`` for command output on ``file`` (default: stdout, or stderr).

    ``options`` pass through to ``Console``; an explicit ``width`` wins over the rule above.
    """
    from rich.console import Console

    stream = file if file is not None else (sys.stderr if stderr else sys.stdout)
    options.setdefault("width", output_width(stream))
    return Console(file=file, stderr=stderr, **options)
