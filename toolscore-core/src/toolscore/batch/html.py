"""The aggregate report as one self-contained HTML page with inline SVG charts.

Two charts, drawn here as plain SVG (no script, no external asset): the score distribution
(a histogram of 20 bins over [0, 1]) and the failure rate per tool (horizontal bars). Every
piece of text from the data (ids, tool names, file paths) goes through :func:`escape`:
redacted, control characters shown as escapes, then HTML-escaped.
"""

from __future__ import annotations

from html import escape as _escape_html

from toolscore.batch.aggregate import Aggregate
from toolscore.batch.report import format_number, format_percent


def escape(text: str) -> str:
    """Text from the data, ready for the page."""
    from toolscore.terminal_text import shown

    return _escape_html(shown(text, one_line=True))


_STYLE = """
body{font-family:system-ui,sans-serif;margin:2rem;color:#1d2430;max-width:70rem}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}td,th{border:1px solid #d0d7de;
padding:.25rem .6rem;text-align:right}th{background:#f3f5f8}td.l,th.l{text-align:left}
svg text{font-size:11px;fill:#1d2430}.bar{fill:#4b7bd6}.fail{fill:#d6604b}
"""


def _histogram_svg(counts: tuple[int, ...]) -> str:
    width, height, pad = 600, 220, 30
    top = max((*counts, 1))
    bar = (width - 2 * pad) / len(counts)
    parts = [
        f'<svg role="img" aria-label="score distribution" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">'
    ]
    for i, count in enumerate(counts):
        h = (height - 2 * pad) * count / top
        x, y = pad + i * bar, height - pad - h
        low = i / len(counts)
        parts.append(
            f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{bar - 2:.1f}" height="{h:.1f}">'
            f"<title>{low:.2f}–{low + 1 / len(counts):.2f}: {count}</title></rect>"
        )
    for tick in range(0, 11, 2):
        x = pad + (width - 2 * pad) * tick / 10
        parts.append(
            f'<text x="{x:.1f}" y="{height - pad + 14}" text-anchor="middle">{tick / 10:.1f}</text>'
        )
    parts.append(f'<text x="{pad}" y="{pad - 10}">max {top} cases per bin</text></svg>')
    return "".join(parts)


def _tools_svg(aggregate: Aggregate, limit: int = 20) -> str:
    tools = aggregate.tools[:limit]
    row, label, width = 20, 160, 600
    height = row * len(tools) + 20
    parts = [
        f'<svg role="img" aria-label="failure rate per tool" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg">'
    ]
    span = width - label - 60
    for i, tool in enumerate(tools):
        y = 10 + i * row
        name = escape(tool.tool if len(tool.tool) <= 24 else tool.tool[:23] + "…")
        parts.append(f'<text x="{label - 6}" y="{y + 13}" text-anchor="end">{name}</text>')
        w = span * tool.failure_rate
        parts.append(
            f'<rect class="fail" x="{label}" y="{y + 2}" width="{w:.1f}" height="{row - 6}">'
            f"<title>{escape(tool.tool)}: {tool.failed}/{tool.expected}</title></rect>"
        )
        parts.append(
            f'<text x="{label + w + 4:.1f}" y="{y + 13}">{format_percent(tool.failure_rate)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _table(headers: list[str], rows: list[list[str]], left: int = 1) -> str:
    head = "".join(
        f'<th class="{"l" if i < left else ""}">{escape(h)}</th>' for i, h in enumerate(headers)
    )
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="{"l" if i < left else ""}">{escape(c)}</td>' for i, c in enumerate(r)
        )
        + "</tr>"
        for r in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def render_batch_html(aggregate: Aggregate) -> str:
    a = aggregate
    sections = [
        f"<h1>toolscore eval-batch</h1><p><b>{a.cases}</b> cases scored, "
        f"<b>{a.bad_records}</b> bad records skipped"
        + (f", {a.resumed} resumed" if a.resumed else "")
        + f". Mean score <b>{format_number(a.mean)}</b> (grade {escape(a.grade)}).</p>",
        "<h2>Score</h2>",
        _table(
            ["mean", "min", *(f"p{p}" for p, _ in a.percentiles), "max"],
            [
                [
                    format_number(a.mean),
                    format_number(a.minimum),
                    *(format_number(v) for _, v in a.percentiles),
                    format_number(a.maximum),
                ]
            ],
            left=0,
        ),
        "<h3>Score distribution</h3>",
        _histogram_svg(a.histogram),
        "<h2>Grades</h2>",
        _table(
            ["grade", "cases", "share"],
            [[g, str(n), format_percent(n / a.cases) if a.cases else "n/a"] for g, n in a.grades],
        ),
        "<h2>Failure rate per tool</h2>",
        _tools_svg(a),
        _table(
            ["tool", "expected calls", "failed", "failure rate"],
            [
                [t.tool, str(t.expected), str(t.failed), format_percent(t.failure_rate)]
                for t in a.tools
            ],
        ),
        "<h2>Findings</h2>",
        _table(
            ["code", "cases", "share of cases", "occurrences"],
            [[f.code, str(f.cases), format_percent(f.rate), str(f.count)] for f in a.findings],
        ),
        "<h2>Worst cases</h2>",
        _table(
            ["id", "score", "grade", "record"],
            [[c.id, format_number(c.score), c.grade, c.source] for c in a.worst],
        ),
    ]
    if a.baseline is not None:
        sections += [
            "<h2>Regressions</h2>",
            f"<p>Against <code>{escape(a.baseline)}</code>: {a.compared} compared, "
            f"<b>{a.regression_count} regressed</b>, {a.improved_count} improved.</p>",
            _table(
                ["id", "before", "after", "change", "record"],
                [
                    [
                        r.id,
                        format_number(r.before),
                        format_number(r.after),
                        f"{r.delta:+.3f}",
                        r.source,
                    ]
                    for r in a.regressions
                ],
            ),
        ]
    if a.errors:
        sections += [
            "<h2>Bad records</h2><ul>",
            *(f"<li><code>{escape(e)}</code></li>" for e in a.errors),
            "</ul>",
        ]
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        "<title>toolscore eval-batch</title>"
        f"<style>{_STYLE}</style></head><body>" + "\n".join(sections) + "</body></html>\n"
    )
