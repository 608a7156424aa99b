"""An example third-party toolscore plugin: the ``tap`` report format.

TAP (the Test Anything Protocol, version 13) is read by many CI tools and by Perl's ``prove``.
This reporter writes one test point per expected call (``not ok`` when the call is missing, has
different arguments, hit the wrong tool or failed), one point for unexpected extra calls, and the
score as a comment::

    TAP version 13
    1..3
    ok 1 - call 1: search
    not ok 2 - call 2: book
      ---
      message: 'expected call to `book` never happened'
      severity: fail
      ...
    ok 3 - no unexpected calls
    # score 50.0% (grade F)

Install it next to toolscore-core and ``tap`` is a report format like the built-in ones
(``toolscore.reporters.write_reports(result, {"tap": "out.tap"})``). The entry point lives in
``pyproject.toml``::

    [project.entry-points.toolscore]
    toolscore_example_reporter = "toolscore_example_reporter"
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import toolscore
from toolscore.specs import ReporterSpec

if TYPE_CHECKING:
    from toolscore.result import EvaluationResult

__all__ = ["TapReporter", "toolscore_register_reporters"]


def _yaml_string(text: str) -> str:
    """``text`` as a single-quoted YAML scalar on one line."""
    return "'" + " ".join(text.split()).replace("'", "''") + "'"


def _point(number: int, ok: bool, description: str, problems: list[str]) -> list[str]:
    # "#" starts a directive in a TAP description; keep descriptions plain.
    line = f"{'ok' if ok else 'not ok'} {number} - {description.replace('#', '')}"
    if ok:
        return [line]
    block = ["  ---", f"  message: {_yaml_string(problems[0])}", "  severity: fail"]
    if len(problems) > 1:
        block.append("  data:")
        block += [f"    - {_yaml_string(p)}" for p in problems[1:]]
    block.append("  ...")
    return [line, *block]


def _call_points(result: EvaluationResult) -> Iterator[tuple[bool, str, list[str]]]:
    from toolscore.diff import diff_rows

    extras: list[str] = []
    for row in diff_rows(result.gold_calls, result.trace_calls):
        expected, actual = row.expected, row.actual
        if expected is None:
            if actual is not None:
                extras.append(actual.tool)
            continue
        name = f"call {row.number}: {expected.tool}"
        if actual is None:
            yield False, name, [f"expected call to `{expected.tool}` never happened"]
        elif row.status == "wrong_tool":
            yield False, name, [f"called `{actual.tool}` where `{expected.tool}` was expected"]
        elif row.problems:
            yield False, name, ["arguments differ", *row.problems]
        elif actual.is_error:
            yield False, name, [f"the call failed: {actual.error or 'error'}"]
        else:
            yield True, name, []
    if extras:
        yield (
            False,
            "no unexpected calls",
            [f"{len(extras)} unexpected call(s): {', '.join(extras)}"],
        )
    else:
        yield True, "no unexpected calls", []


class TapReporter:
    """Renders an evaluation as a TAP version 13 stream."""

    def render(self, result: EvaluationResult, *, verbose: bool = False) -> str:
        from toolscore.redaction import redact
        from toolscore.terminal_text import visible

        points = list(_call_points(result))
        lines = ["TAP version 13", f"1..{len(points)}"]
        for number, (ok, description, problems) in enumerate(points, start=1):
            lines += _point(number, ok, description, problems)
        lines.append(f"# score {result.score:.1%} (grade {result.grade})")
        # TAP ends up in CI logs: never copy a credential from the trace into it, and show
        # control characters from tool names and values as escapes instead of sending them.
        return visible(redact("\n".join(lines) + "\n"))


@toolscore.hookimpl
def toolscore_register_reporters() -> Iterator[ReporterSpec]:
    yield ReporterSpec(
        name="tap",
        factory=TapReporter,
        summary="TAP version 13 (Test Anything Protocol), one test point per expected call",
        extension=".tap",
    )
