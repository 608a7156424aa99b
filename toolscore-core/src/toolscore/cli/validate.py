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
@click.option(
    "--gold",
    "as_gold",
    is_flag=True,
    help="Check the file as a gold file, even if it also reads as a trace.",
)
@click.pass_context
def command(ctx: click.Context, trace_file: Path, trace_format: str, as_gold: bool) -> None:
    """Validate a trace file or a gold file.

    Reads TRACE_FILE (JSON, or JSON Lines: one JSON value per line) as --format, or as the
    format detected, and prints the number of tool calls. Exit code 0 when it reads (a
    non-empty file with no calls is a warning); 1 when it does not: invalid JSON (a JSON Lines
    error names the line), a malformed item (named by its JSON path, e.g.
    $.messages[3].content[1].name), or a forced --format that reads no calls from a file that
    another format reads calls from.

    A gold file is checked as one (or any file, with --gold): an object with "turns" or
    "match"; calls holding optional, repeat, any_order or one_of steps, "$" matchers
    ({"$regex": ...}) or gold keys (side_effects, description, schema) and no trace keys
    (result, error, duration, ...); or an item without "tool" whose key is a misspelt step.
    Each mistake is one line with its JSON path (an unknown "$" matcher or step key names
    the closest valid one); a valid file's turns, steps or calls and its matchers are counted.
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
    if as_gold or (trace_format == "auto" and item_lines is None and _looks_like_gold(data)):
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


#: Keys only a recorded call has: a file whose calls hold one is a trace.
_TRACE_KEYS = frozenset({"result", "error", "is_error", "duration", "cost", "timestamp", "id"})
#: Keys only an expected call has.
_GOLD_KEYS = frozenset({"side_effects", "description", "schema"})


def _looks_like_gold(data: Any) -> bool:
    """Whether ``data`` is a gold file rather than a trace (a flat call list is both)."""
    from collections.abc import Mapping

    from toolscore.expectations.document import is_step_gold
    from toolscore.gold_rules import STEP_KEYS, did_you_mean
    from toolscore.matching._expected import has_json_form

    if is_step_gold(data):
        return True
    if isinstance(data, Mapping):
        if "match" in data:
            return True
        data = data.get("calls")
    if not isinstance(data, list):
        return False
    items = [item for item in data if isinstance(item, Mapping)]
    for item in items:
        if "tool" not in item and any(did_you_mean(str(key), STEP_KEYS) for key in item):
            return True
    if any(_TRACE_KEYS & set(item) for item in items):
        return False
    return any(
        _GOLD_KEYS & set(item)
        or (isinstance(item.get("args"), dict) and has_json_form(item["args"]))
        for item in items
    )


def _read_gold(data: object, gold_file: Path, pm: Any) -> tuple[list[str], dict[str, int]]:
    """Read ``data`` as ``toolscore eval`` reads a gold file; what it holds, as lines.

    :raises toolscore.errors.GoldFileError: the first mistake, with its JSON path.
    """
    from collections.abc import Mapping

    from toolscore.expectations.document import is_step_gold, parse_gold_document
    from toolscore.gold_rules import forms_used
    from toolscore.loading import gold_calls_from_document
    from toolscore.matching._gold import match_from_document

    source = str(gold_file)
    lines: list[str] = []
    if is_step_gold(data):
        document = parse_gold_document(data, source=source, plugin_manager=pm)
        if document.turns:
            lines.append(f"Turns: {len(document.parts)}")
        steps = [len(part.steps) for part in document.parts]
        lines.append(f"Steps: {' + '.join(map(str, steps)) if steps else 0}")
    else:
        import json

        text = json.dumps(data, ensure_ascii=False)
        calls = gold_calls_from_document(data, text, source, pm)
        lines.append(f"Calls: {len(calls)}")
    spec = match_from_document(data, where=source)
    if spec is not None:
        lines.append(f"Match: {spec.mode} (arguments: {spec.args.kind})")
    if isinstance(data, Mapping) and "tools" in data:
        lines.append("Tools: given")
    return lines, forms_used(data)


def _validate_gold(data: object, gold_file: Path, pm: Any) -> None:
    """Check a gold file by the readers that score it; print its shape and matchers."""
    from rich.panel import Panel
    from rich.text import Text

    from toolscore.cli.output import stdout_console
    from toolscore.terminal_text import shown

    try:
        lines, forms = _read_gold(data, gold_file, pm)
    except Exception as exc:
        fail(printable(f"Invalid gold file: {exc}"), ExitCode.ERROR)
    used = ", ".join(f"{name} ({count})" for name, count in sorted(forms.items()))
    lines.append(f"Matchers: {used or 'none'}")
    console = stdout_console()
    body = Text()
    body.append("OK", style="bold green")
    body.append(printable(f" Valid gold file: {shown(gold_file, one_line=True)}"))
    console.print(Panel(body, border_style="green", expand=False))
    for line in lines:
        console.print(printable(shown(line, one_line=True)), markup=False)
