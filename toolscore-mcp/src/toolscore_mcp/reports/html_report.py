"""The scorecard as one self-contained HTML page (``--report html``).

From top to bottom: the grade (marked provisional when it rests on few tools) with how many
tools the run verified, the component scores, the "Top issues to fix", one row per tool with
its verdict and the evidence for it, then each tool's calls try by try (arguments sent, the
server's answer, the repair made next), the lint issues, the protocol conformance outcomes and
the run's notes. Inline CSS, no scripts, fonts, images or links to fetch: the file can be
attached to a CI run and opens anywhere.

Everything the server supplied (its name, tool names, descriptions, arguments, answers, notes)
is redacted and its control and bidi characters shown as escapes
(:func:`toolscore.terminal_text.shown`), then HTML-escaped; the finished page is redacted once
more as a whole.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from toolscore.terminal_text import shown

from toolscore_mcp.grading.scorecard import MCPScorecard, ToolCoverage
from toolscore_mcp.model import ScenarioResult
from toolscore_mcp.reports.console import scenarios_cell, scorecard_title
from toolscore_mcp.reports.coverage import format_arguments, latency_text, result_headline
from toolscore_mcp.reports.surface import edge_text

__all__ = ["ANSWER_LIMIT", "scorecard_to_html"]

#: Answers and excerpts longer than this are cut, so one huge answer cannot flood the page.
ANSWER_LIMIT = 400
#: Tool descriptions are cut here in the Tools table.
DESCRIPTION_LIMIT = 200

_CSS = """
:root{--good:#1a7f37;--warn:#9a6700;--bad:#cf222e;--ink:#1f2328;--muted:#59636e;
--line:#d1d9e0;--bg:#f6f8fa;--card:#fff}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);
font:15px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:26px;margin:0 0 4px;overflow-wrap:anywhere}h2{font-size:19px;margin:28px 0 10px}
h3{font-size:16px;margin:0 0 6px;overflow-wrap:anywhere}
.muted{color:var(--muted)}
.hero{display:flex;align-items:center;gap:28px;background:var(--card);border:1px solid var(--line);
border-left:10px solid var(--band);border-radius:10px;padding:20px 28px;margin-top:16px}
.hero .grade{font-size:40px;font-weight:700;border:3px solid var(--band);color:var(--band);
border-radius:50%;width:72px;height:72px;display:flex;align-items:center;justify-content:center;
flex:none}
.hero .score{font-size:22px;font-weight:700;color:var(--band)}
.hero .verified{font-size:17px;font-weight:600}
.badge{display:inline-block;font-size:12px;font-weight:700;text-transform:uppercase;
border-radius:10px;padding:1px 8px;margin-left:8px;vertical-align:middle;color:#fff;
background:var(--warn)}
.band-good{--band:var(--good)}.band-warning{--band:var(--warn)}.band-bad{--band:var(--bad)}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(170px,1fr));gap:12px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 16px}
.card .label{color:var(--muted);font-size:13px}.card .value{font-size:19px;font-weight:600}
.card.good .value{color:var(--good)}.card.warning .value{color:var(--warn)}
.card.bad .value{color:var(--bad)}
ol.issues{padding-left:24px;margin:0}ol.issues li{margin-bottom:8px}
.fix{color:var(--muted)}
.p0,.p1{color:var(--bad)}.p2{color:var(--warn)}
table{border-collapse:collapse;width:100%;background:var(--card);border:1px solid var(--line)}
th,td{border-bottom:1px solid var(--line);padding:6px 10px;text-align:left;vertical-align:top}
th{background:#eef1f4;font-size:13px}
td{overflow-wrap:anywhere}
code,pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;
word-break:break-word;margin:0}
.status{font-weight:700;white-space:nowrap}
.works,.pass{color:var(--good)}.defect,.fail{color:var(--bad)}
.needs,.inconclusive,.warning{color:var(--warn)}.skipped,.not-applicable,.not-run{color:var(--muted)}
.error{color:var(--bad)}
.tool{background:var(--card);border:1px solid var(--line);border-left:6px solid var(--muted);
border-radius:8px;padding:12px 16px;margin-bottom:12px}
.tool.st-works{border-left-color:var(--good)}.tool.st-defect{border-left-color:var(--bad)}
.tool.st-needs{border-left-color:var(--warn)}
table.calls{font-size:14px;table-layout:fixed}table.calls pre{max-height:12em;overflow:hidden}
.k{color:var(--muted);font-size:13px;margin-right:6px}
ul.notes{padding-left:20px;margin:0}
footer{margin:32px 0 8px;color:var(--muted);font-size:13px}
"""

_GRADE_BANDS = {"A": "good", "B": "warning", "C": "warning"}
_CONFORMANCE_WORDS = {"pass": "pass", "fail": "FAIL", "not-applicable": "n/a", "not-run": "not run"}


def _e(value: object) -> str:
    """Our own text, HTML-escaped."""
    return html.escape(str(value), quote=True)


def _s(value: object, *, limit: int | None = None) -> str:
    """Text from the server on one line: redacted, controls shown as escapes, HTML-escaped.

    Redaction comes before the cut, so a credential cut short is still recognised."""
    text = shown(value, one_line=True)
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    return html.escape(text, quote=True)


def _block(value: object, *, limit: int = ANSWER_LIMIT) -> str:
    """Multi-line text from the server (an answer) as a ``<pre>``, made safe like :func:`_s`."""
    text = shown(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"<pre>{html.escape(text, quote=True)}</pre>"


def _card(label: str, value: str, band: str = "") -> str:
    return (
        f'<div class="card {band}"><div class="label">{_e(label)}</div>'
        f'<div class="value">{_e(value)}</div></div>'
    )


def _rate_band(value: float) -> str:
    return "good" if value >= 0.9 else "warning" if value >= 0.7 else "bad"


def verified_text(card: MCPScorecard) -> str:
    """``verified 8 of 13 tools``: tools whose status is ``works`` or ``defect``."""
    return f"verified {card.conclusive_tools} of {len(card.tools)} tools"


def _hero(card: MCPScorecard) -> str:
    band = _GRADE_BANDS.get(card.grade, "bad")
    badge = '<span class="badge" id="provisional">provisional</span>' if card.provisional else ""
    return (
        f'<section class="hero band-{band}" id="grade">'
        f'<div class="grade" title="grade">{_e(card.grade)}</div>'
        f'<div><div class="score">Grade {_e(card.grade)}{badge} &middot; '
        f"score {_e(f'{card.score:.0%}')}</div>"
        f'<div class="verified" id="verified">{_e(verified_text(card))}</div>'
        f"{_unverified(card)}</div></section>"
    )


def _unverified(card: MCPScorecard) -> str:
    """What kept the other tools from a verdict (``2 need network, 1 skipped``), if any."""
    _, _, rest = card.coverage_line().partition("; ")
    return f'<div class="muted">{_s(rest)}</div>' if rest else ""


def _summary(card: MCPScorecard) -> str:
    cards = [
        _card(
            "Happy-path pass rate", f"{card.happy_pass_rate:.0%}", _rate_band(card.happy_pass_rate)
        ),
        _card(
            "Edge-case resilience",
            edge_text(card).removeprefix("edge "),
            _rate_band(card.edge_resilience_rate),
        ),
        _card(
            "Lint score",
            f"{card.lint_score:.0%} ({card.lint_errors} errors, {card.lint_warnings} warnings)",
            _rate_band(card.lint_score),
        ),
        _card("Call latency", latency_text(card)),
        _card("Definition tokens", f"~{card.total_tool_tokens} across {len(card.tools)} tool(s)"),
    ]
    if card.instructions:
        cards.append(_card("With server instructions", f"~{card.context_tokens} tokens"))
    if card.inconclusive_count:
        cards.append(_card("Inconclusive scenarios", str(card.inconclusive_count), "warning"))
    return '<h2>Summary</h2><div class="grid">' + "".join(cards) + "</div>"


def _issues(card: MCPScorecard) -> str:
    from toolscore_mcp.reports.surface import report_fixes

    fixes = report_fixes(card)
    if not fixes:
        return (
            '<h2 id="issues">Top issues to fix</h2><p>No issues found - an LLM should be able '
            "to use this server cleanly.</p>"
        )
    items = "".join(
        f'<li><code class="p{fix.priority}"><b>{_s(fix.tool)}</b></code> {_s(fix.problem)}'
        f'<div class="fix">&rarr; {_s(fix.fix)}</div></li>'
        for fix in fixes
    )
    return f'<h2 id="issues">Top issues to fix</h2><ol class="issues">{items}</ol>'


def _status_word(row: ToolCoverage | None) -> str:
    if row is None:
        return "not advertised"
    if row.status == "needs":
        return f"needs {row.needs or 'valid input'}"
    if row.status == "skipped":
        return f"skipped: {row.needs}" if row.needs else "skipped"
    return row.status


def _evidence(results: Iterable[ScenarioResult]) -> str:
    for result in results:
        if result.evidence is not None:
            return (
                f'<span class="k">{_s(result.evidence.kind)}</span>'
                f"<code>{_s(result.evidence.excerpt, limit=ANSWER_LIMIT)}</code>"
            )
    return '<span class="muted">no evidence recorded</span>'


def _mine(card: MCPScorecard, tool: str) -> list[ScenarioResult]:
    return [result for result in card.results if result.scenario.tool == tool]


def _tools_table(card: MCPScorecard) -> str:
    statuses = {row.tool: row for row in card.coverage()}
    descriptions = {tool.name: tool.description for tool in card.tools}
    rows = []
    for index, summary in enumerate(card.tool_summaries()):
        row = statuses.get(summary.name)
        status = row.status if row is not None else "skipped"
        description = descriptions.get(summary.name, "")
        happy = [r for r in _mine(card, summary.name) if r.scenario.kind == "happy"]
        rows.append(
            f'<tr class="tool-row" id="row-{index}"><td><a href="#tool-{index}"><code><b>'
            f"{_s(summary.name)}</b></code></a>"
            f'<div class="muted">{_s(description, limit=DESCRIPTION_LIMIT)}</div></td>'
            f'<td class="status {status}">{_s(_status_word(row))}</td>'
            f"<td>{_evidence(happy)}</td>"
            f"<td>{_e(scenarios_cell(summary))}</td>"
            f"<td>{_e(f'{summary.avg_latency_ms:.1f} ms')}</td><td>{summary.tokens}</td></tr>"
        )
    if not rows:
        return '<h2 id="tools">Tools</h2><p class="muted">The server advertised no tools.</p>'
    return (
        '<h2 id="tools">Tools</h2><table class="tools"><thead><tr><th>Tool</th><th>Verdict</th>'
        "<th>Evidence</th><th>Scenarios passed</th><th>Avg latency</th><th>Def. tokens</th>"
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _answer(result: ScenarioResult) -> str:
    """The server's answer to the call the verdict rests on, and the verdict's detail when it
    says something the answer does not."""
    text = result.response.text if result.response is not None else ""
    detail = result.detail or ""
    parts = [_block(text)] if text else []
    if detail and detail.strip() != text.strip():
        parts.append(f'<div class="muted">{_s(detail, limit=ANSWER_LIMIT)}</div>')
    return "".join(parts) or '<span class="muted">no answer</span>'


def _call_rows(result: ScenarioResult) -> str:
    """One row per try of a scenario: the rejected tries with the repair made next, then the
    call the verdict rests on. The first cell names the scenario and its verdict."""
    scenario = result.scenario
    tries = len(result.attempts) + 1
    about = (
        f'<span class="k">{_e(scenario.kind)}</span>'
        f'<span class="status {_e(result.verdict)}">{_s(result_headline(result))}</span>'
        f'<div class="muted">{_s(scenario.description)}</div>'
    )
    if scenario.setup:
        calls = ", ".join(f"<code>{_s(call.tool)}</code>" for call in scenario.setup)
        about += f'<div class="muted">after {calls}</div>'
    if result.evidence is not None:
        about += (
            f'<div><span class="k">evidence: {_s(result.evidence.kind)}</span>'
            f"<code>{_s(result.evidence.excerpt, limit=ANSWER_LIMIT)}</code></div>"
        )
    first = f'<td rowspan="{tries}">{about}</td>'
    rows = []
    for number, attempt in enumerate(result.attempts, start=1):
        repair = f"<code>{_s(attempt.repair)}</code>" if attempt.repair else ""
        rows.append(
            f"<tr>{first if number == 1 else ''}<td>{number}</td>"
            f"<td><code>{_s(format_arguments(attempt.arguments))}</code></td>"
            f'<td><span class="k">rejected</span>{_s(attempt.detail, limit=ANSWER_LIMIT)}</td>'
            f"<td>{repair}</td></tr>"
        )
    rows.append(
        f"<tr>{first if tries == 1 else ''}<td>{tries}</td>"
        f"<td><code>{_s(format_arguments(scenario.arguments))}</code></td>"
        f"<td>{_answer(result)}</td><td></td></tr>"
    )
    return "".join(rows)


def _tool_details(card: MCPScorecard) -> str:
    statuses = {row.tool: row for row in card.coverage()}
    sections = []
    for index, summary in enumerate(card.tool_summaries()):
        row = statuses.get(summary.name)
        status = row.status if row is not None else "skipped"
        results = _mine(card, summary.name)
        if results:
            calls = (
                '<table class="calls"><colgroup><col style="width:25%"><col style="width:3.5em">'
                '<col style="width:22%"><col><col style="width:17%"></colgroup>'
                "<thead><tr><th>Scenario</th><th>Try</th>"
                "<th>Arguments sent</th><th>Answer</th><th>Repair made next</th></tr></thead>"
                f"<tbody>{''.join(_call_rows(result) for result in results)}</tbody></table>"
            )
        else:
            calls = '<p class="muted">Not called.</p>'
        sections.append(
            f'<section class="tool st-{status}" id="tool-{index}"><h3><code>{_s(summary.name)}'
            f'</code> <span class="status {status}">{_s(_status_word(row))}</span></h3>{calls}'
            "</section>"
        )
    if not sections:
        return ""
    return '<h2 id="calls">Calls, try by try</h2>' + "".join(sections)


def _table(anchor: str, heading: str, head: Sequence[str], rows: Sequence[str], empty: str) -> str:
    title = f'<h2 id="{anchor}">{_e(heading)}</h2>'
    if not rows:
        return f'{title}<p class="muted">{_e(empty)}</p>'
    cells = "".join(f"<th>{_e(name)}</th>" for name in head)
    return f"{title}<table><thead><tr>{cells}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _lint(card: MCPScorecard) -> str:
    rows = [
        f'<tr><td class="status {_e(issue.severity)}">{_e(issue.severity)}</td>'
        f"<td><code>{_s(issue.tool)}</code></td><td><code>{_s(issue.rule)}</code></td>"
        f'<td>{_s(issue.message)}<div class="fix">&rarr; {_s(issue.fix)}</div></td></tr>'
        for issue in card.lint
    ]
    return _table(
        "lint", "Lint issues", ("Severity", "Tool", "Rule", "Issue"), rows, "No lint issues."
    )


def _conformance(card: MCPScorecard) -> str:
    rows = []
    for outcome in card.conformance:
        word = _CONFORMANCE_WORDS.get(outcome.status, outcome.status)
        found = "".join(
            f"<div><code>{_s(f.tool)}</code>: {_s(f.message)}</div>" for f in outcome.findings
        )
        if outcome.findings and outcome.findings[0].fix:
            found += f'<div class="fix">&rarr; {_s(outcome.findings[0].fix)}</div>'
        detail = found or f'<span class="muted">{_s(outcome.note or outcome.summary)}</span>'
        rows.append(
            f"<tr><td><code>{_e(outcome.rule)}</code></td>"
            f'<td class="status {_e(outcome.status)}">{_e(word)}</td><td>{detail}</td></tr>'
        )
    table = _table(
        "conformance", "Protocol conformance", ("Check", "Status", "Findings"), rows, "Not checked."
    )
    protocol = _s(card.server.protocol_version or "unknown")
    return f'{table}<p class="muted">Negotiated protocol: <code>{protocol}</code></p>'


def _notes(card: MCPScorecard) -> str:
    breaches = card.budget_report().breaches()
    items = [f"<li>{_s(note)}</li>" for note in card.notes]
    items += [f'<li class="error">Over budget: {_s(breach)}</li>' for breach in breaches]
    if card.lock_changes:
        items += [
            f"<li>Changed since the lock file ({_e(change.kind)}): <code>{_s(change.tool)}</code>"
            f" {_s(change.message)}</li>"
            for change in card.lock_changes
        ]
    if not items:
        return ""
    return f'<h2>Notes</h2><ul class="notes">{"".join(items)}</ul>'


def scorecard_to_html(card: MCPScorecard, *, version: str = "") -> str:
    """The whole page, escaped and redacted; ends with a newline."""
    from toolscore.redaction import redact

    title = f"MCP Scorecard: {scorecard_title(card)}"
    footer = f"Generated with toolscore {version}".strip()
    body = "".join(
        (
            f"<h1>{_s(title)}</h1>",
            _hero(card),
            _summary(card),
            _issues(card),
            _tools_table(card),
            _tool_details(card),
            _lint(card),
            _conformance(card),
            _notes(card),
            f"<footer>{_e(footer)}</footer>",
        )
    )
    page = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<link rel="icon" href="data:,">\n'
        f"<title>{_s(title)} - grade {_e(card.grade)}</title>\n<style>{_CSS}</style>\n</head>\n"
        f"<body>\n<main>{body}</main>\n</body>\n</html>\n"
    )
    return redact(page)
