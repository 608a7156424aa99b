"""``toolscore validate FILE``: can this trace (or gold file) be read, as what, and how many calls?

A gold file with steps (``optional``, ``repeat``, ``any_order``, ``one_of``) or turns is
checked by the same parser that scores it (:mod:`toolscore.expectations.document`); a flat
gold call list reads as a canonical trace, as it always did.

Exit codes: 0 when the file reads (a non-empty file with no calls is a warning), 1 when it
does not: a malformed item or step (named by its JSON path, or its line in JSON Lines), or a
forced ``--format`` that reads no calls from a file another format reads calls from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from toolscore.cli.options import check_format
from toolscore.cli.output import ExitCode, fail


def printable(text: str) -> str:
    """``text`` with lone surrogates (undecodable file names, ``"\\ud800"`` escapes in a
    trace) written as ``\\udxxx``, so printing it can never raise ``UnicodeEncodeError``."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


#: Characters of the first call's arguments that are printed. A 10 MB argument printed whole
#: was wrapped by rich in time quadratic in the line's length (32 s); the rest is counted.
SHOWN_ARGS = 10_000
#: Characters past the cut that are redacted with it, so a credential that starts before the
#: cut is recognised whole (a PEM block cut short is hidden to its end anyway).
_REDACTION_MARGIN = 2_000


def _cut(text: str) -> str:
    """``text``, or its first :data:`SHOWN_ARGS` characters redacted and a count of the rest.

    Redaction comes before the cut (a key cut in half would no longer be recognised), and only
    of the part shown plus a margin, so printing stays linear in the argument's size.
    """
    if len(text) <= SHOWN_ARGS + _REDACTION_MARGIN:
        return text
    from toolscore.redaction import redact

    shown_part = redact(text[: SHOWN_ARGS + _REDACTION_MARGIN])[:SHOWN_ARGS]
    return f"{shown_part}... ({len(text) - SHOWN_ARGS} more characters)"


@click.command(name="validate")
@click.argument("trace_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "-f",
    "--format",
    "trace_format",
    default="auto",
    show_default=True,
    callback=check_format,
    help="Trace format.",
)
@click.pass_context
def command(ctx: click.Context, trace_file: Path, trace_format: str) -> None:
    """Validate a trace file, or a gold file with steps or turns.

    Reads TRACE_FILE (JSON, or JSON Lines: one JSON value per line) as --format, or as the
    format detected, and prints the number of tool calls. Exit code 0 when it reads (a
    non-empty file with no calls is a warning); 1 when it does not: invalid JSON (a JSON Lines
    error names the line), a malformed item (named by its JSON path, e.g.
    $.messages[3].content[1].name), or a forced --format that reads no calls from a file that
    another format reads calls from.

    A gold file that has "turns", or whose calls hold optional, repeat, any_order or one_of
    steps, is checked as a gold file instead (each mistake named by its JSON path, e.g.
    $.calls[1].max) and its turns and steps are counted.
    """
    from rich.panel import Panel
    from rich.text import Text

    from toolscore.cli import plugin_manager_for
    from toolscore.cli.output import stdout_console
    from toolscore.input_checks import argument_problems
    from toolscore.loading import calls_from_trace_data, read_document
    from toolscore.terminal_text import shown

    pm = plugin_manager_for(ctx)
    try:
        data, item_lines = read_document(trace_file, what="Trace file")  # parsed once, held once
    except Exception as exc:
        fail(printable(f"Invalid trace file: {exc}"), ExitCode.ERROR)
    from toolscore.expectations.document import is_step_gold

    if trace_format == "auto" and item_lines is None and is_step_gold(data):
        _validate_gold(data, trace_file, pm)
        return
    try:
        detected = trace_format
        if trace_format == "auto":
            detected = pm.detect_format(data) or "unknown"
        calls = calls_from_trace_data(
            data, trace_format, plugin_manager=pm, source=str(trace_file), lines=item_lines
        )
    except Exception as exc:
        fail(printable(f"Invalid trace file: {exc}"), ExitCode.ERROR)
    # Everything is rendered before the first line is printed: no "OK" followed by a crash.
    lines = [f"Format: {detected}", f"Total calls: {len(calls)}"]
    if calls:
        lines.append(f"First tool: {calls[0].tool}")
        lines.append(f"First args: {_cut(repr(dict(calls[0].actual_args)))}")
    warnings = [f"Warning: {line}" for line in argument_problems(calls)]
    if not calls and data:
        warnings.append(
            f"Warning: the file is not empty but no tool calls were read from it as {detected}"
        )
    console = stdout_console()
    body = Text()
    body.append("OK", style="bold green")
    body.append(printable(f" Valid trace file: {shown(trace_file, one_line=True)}"))
    console.print(Panel(body, border_style="green", expand=False))
    # What comes from the file is redacted and its control characters shown as escapes.
    for line in lines:
        console.print(printable(shown(line, one_line=True)), markup=False)
    for line in warnings:
        console.print(printable(shown(line, one_line=True)), style="yellow", markup=False)


def _validate_gold(data: object, gold_file: Path, pm: Any) -> None:
    """Check a gold file with steps or turns by the parser that scores it; print its shape."""
    from rich.panel import Panel
    from rich.text import Text

    from toolscore.cli.output import stdout_console
    from toolscore.expectations.document import parse_gold_document
    from toolscore.terminal_text import shown

    try:
        document = parse_gold_document(data, source=str(gold_file), plugin_manager=pm)
    except Exception as exc:
        fail(printable(f"Invalid gold file: {exc}"), ExitCode.ERROR)
    console = stdout_console()
    body = Text()
    body.append("OK", style="bold green")
    body.append(printable(f" Valid gold file: {shown(gold_file, one_line=True)}"))
    console.print(Panel(body, border_style="green", expand=False))
    if document.turns:
        console.print(f"Turns: {len(document.parts)}", markup=False)
    steps = [len(part.steps) for part in document.parts]
    console.print(f"Steps: {' + '.join(map(str, steps)) if steps else 0}", markup=False)
