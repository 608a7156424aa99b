"""The aggregate report as text: JSON, Markdown and a console summary (HTML: :mod:`.html`).

Every view shows the same numbers: mean and percentiles of the score, the grade distribution,
failure rates per tool and per finding code, the worst cases with their ``file:line``, and
with a baseline the cases that regressed.
"""

from __future__ import annotations

import json
from typing import Any

from toolscore.batch.aggregate import Aggregate


def render_batch_json(aggregate: Aggregate) -> str:
    """The aggregate as JSON, credentials in ids, tool names and errors redacted."""
    from toolscore.redaction import redact_strings

    return json.dumps(redact_strings(aggregate.to_dict()), indent=2, ensure_ascii=False) + "\n"


def format_number(value: float | None, digits: int = 3) -> str:
    """A score as the batch reports print it: ``digits`` decimals, ``n/a`` for none or NaN."""
    return "n/a" if value is None or value != value else f"{value:.{digits}f}"


def format_percent(value: float) -> str:
    """A rate in ``[0, 1]`` as a percentage with one decimal."""
    return f"{100 * value:.1f}%"


def _md(text: Any) -> str:
    """``text`` from the data safe inside a Markdown table cell: redacted, control characters
    shown as escapes, HTML and Markdown table syntax escaped."""
    from html import escape

    from toolscore.terminal_text import shown

    return escape(shown(text, one_line=True)).replace("\\", "\\\\").replace("|", "\\|")


def render_batch_markdown(aggregate: Aggregate) -> str:
    a = aggregate
    lines = [
        "# toolscore eval-batch",
        "",
        f"**{a.cases}** cases scored, **{a.bad_records}** bad records skipped"
        + (f", {a.resumed} resumed from an earlier run" if a.resumed else "")
        + ".",
        "",
        "## Score",
        "",
        "| mean | grade | min | " + " | ".join(f"p{p}" for p, _ in a.percentiles) + " | max |",
        "|---" * (len(a.percentiles) + 4) + "|",
        f"| {format_number(a.mean)} | {a.grade} | {format_number(a.minimum)} | "
        + " | ".join(format_number(v) for _, v in a.percentiles)
        + f" | {format_number(a.maximum)} |",
        "",
        "## Grades",
        "",
        "| grade | cases | share |",
        "|---|---|---|",
        *(
            f"| {g} | {n} | {format_percent(n / a.cases) if a.cases else 'n/a'} |"
            for g, n in a.grades
        ),
        "",
        "## Failure rate per tool",
        "",
        "| tool | expected calls | failed | failure rate |",
        "|---|---|---|---|",
        *(
            f"| {_md(t.tool)} | {t.expected} | {t.failed} | {format_percent(t.failure_rate)} |"
            for t in a.tools
        ),
        "",
        "## Findings",
        "",
        "| code | cases | share of cases | occurrences |",
        "|---|---|---|---|",
        *(f"| {f.code} | {f.cases} | {format_percent(f.rate)} | {f.count} |" for f in a.findings),
        "",
        "## Worst cases",
        "",
        "| id | score | grade | record |",
        "|---|---|---|---|",
        *(
            f"| {_md(c.id)} | {format_number(c.score)} | {c.grade} | `{_md(c.source)}` |"
            for c in a.worst
        ),
    ]
    if a.baseline is not None:
        lines += [
            "",
            "## Regressions",
            "",
            f"Against `{_md(a.baseline)}`: {a.compared} cases compared, "
            f"**{a.regression_count} regressed**, {a.improved_count} improved.",
            "",
            "| id | before | after | change | record |",
            "|---|---|---|---|---|",
            *(
                f"| {_md(r.id)} | {format_number(r.before)} | {format_number(r.after)} | {r.delta:+.3f} | `{_md(r.source)}` |"
                for r in a.regressions
            ),
        ]
    if a.errors:
        lines += ["", "## Bad records", "", *(f"- `{_md(e)}`" for e in a.errors)]
    return "\n".join(lines) + "\n"


def _cell(text: Any) -> str:
    """Text from the data for the console: redacted, controls shown, rich markup escaped."""
    from toolscore.terminal_text import shown_markup

    return shown_markup(text, one_line=True)


def print_summary(aggregate: Aggregate, console: Any) -> None:
    """A short summary on a rich console (tables of the headline numbers)."""
    from rich.table import Table

    a = aggregate
    console.print(
        f"[bold]{a.cases}[/] cases, mean score [bold]{format_number(a.mean)}[/] (grade {a.grade}), "
        f"{a.bad_records} bad record(s) skipped" + (f", {a.resumed} resumed" if a.resumed else "")
    )
    scores = Table(title="Score", title_justify="left")
    for column in ("min", *(f"p{p}" for p, _ in a.percentiles), "max"):
        scores.add_column(column, justify="right")
    scores.add_row(
        format_number(a.minimum),
        *(format_number(v) for _, v in a.percentiles),
        format_number(a.maximum),
    )
    console.print(scores)
    grades = Table(title="Grades", title_justify="left")
    for grade, _ in a.grades:
        grades.add_column(grade, justify="right")
    grades.add_row(*(str(n) for _, n in a.grades))
    console.print(grades)
    if a.tools:
        tools = Table(title="Failure rate per tool (top 10)", title_justify="left")
        for column in ("tool", "expected", "failed", "rate"):
            tools.add_column(column, justify="left" if column == "tool" else "right")
        for t in a.tools[:10]:
            tools.add_row(
                _cell(t.tool), str(t.expected), str(t.failed), format_percent(t.failure_rate)
            )
        console.print(tools)
    if a.findings:
        findings = Table(title="Findings", title_justify="left")
        for column in ("code", "cases", "share", "occurrences"):
            findings.add_column(column, justify="left" if column == "code" else "right")
        for f in a.findings:
            findings.add_row(f.code, str(f.cases), format_percent(f.rate), str(f.count))
        console.print(findings)
    if a.worst:
        worst = Table(title="Worst cases", title_justify="left")
        for column in ("id", "score", "grade", "record"):
            worst.add_column(column)
        for c in a.worst[:10]:
            worst.add_row(_cell(c.id), format_number(c.score), c.grade, _cell(c.source))
        console.print(worst)
    if a.baseline is not None:
        console.print(
            f"Baseline {_cell(a.baseline)}: {a.compared} compared, "
            f"[bold]{a.regression_count} regressed[/], {a.improved_count} improved"
        )
        for r in a.regressions[:10]:
            console.print(
                f"  {_cell(r.id)}: {format_number(r.before)} -> {format_number(r.after)} ({r.delta:+.3f})  "
                + _cell(r.source)
            )
