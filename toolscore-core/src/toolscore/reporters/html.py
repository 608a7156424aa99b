"""The HTML report: one self-contained page, readable at a glance.

Score, grade and verdict first; then the summary numbers, behaviour and safety findings, the
"Top issues to fix", the expected-vs-actual table, metric cards, performance, and every metric in
detail (a list of records, such as ``trajectory_details``, as a table of its own). Matchers
in expected arguments are shown in their JSON form (``{"$regex": "\\d+"}``). One file with inline CSS and no scripts, fonts, images or links to fetch, so it can be
attached to a CI run or mailed and opens anywhere. Every value is HTML-escaped and the whole
document is passed through credential redaction.
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolscore._markers import hookimpl
from toolscore.reporters._common import (
    as_float,
    compact_json,
    findings,
    fix_list,
    generated_at,
    metric,
    redact,
    required_completed,
)
from toolscore.specs import ReporterSpec

if TYPE_CHECKING:
    from toolscore.model import ToolCall
    from toolscore.result import EvaluationResult

__all__ = ["HtmlReporter", "render_html"]

_CSS = """
:root{--good:#1a7f37;--warn:#9a6700;--bad:#cf222e;--ink:#1f2328;--muted:#59636e;
--line:#d1d9e0;--bg:#f6f8fa;--card:#fff}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);
font:15px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 10px}
.muted{color:var(--muted)}
.hero{display:flex;align-items:center;gap:28px;background:var(--card);border:1px solid var(--line);
border-left:10px solid var(--band);border-radius:10px;padding:20px 28px;margin-top:16px}
.hero .score{font-size:56px;font-weight:700;color:var(--band);line-height:1}
.hero .grade{font-size:40px;font-weight:700;border:3px solid var(--band);color:var(--band);
border-radius:50%;width:72px;height:72px;display:flex;align-items:center;justify-content:center}
.hero .verdict{font-size:22px;font-weight:700;color:var(--band)}
.band-good{--band:var(--good)}.band-warning{--band:var(--warn)}.band-bad{--band:var(--bad)}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(180px,1fr));gap:12px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 16px}
.card .label{color:var(--muted);font-size:13px}.card .value{font-size:24px;font-weight:600}
.card.good .value{color:var(--good)}.card.warning .value{color:var(--warn)}
.card.bad .value{color:var(--bad)}
ul.findings{list-style:none;padding:0;margin:0}
ul.findings li{background:var(--card);border:1px solid var(--line);border-left:6px solid var(--muted);
border-radius:6px;padding:8px 12px;margin-bottom:6px}
ul.findings li.error{border-left-color:var(--bad)}ul.findings li.warning{border-left-color:var(--warn)}
.sev{font-weight:700;text-transform:uppercase;font-size:12px;margin-right:8px}
li.error .sev{color:var(--bad)}li.warning .sev{color:var(--warn)}
ol.issues{padding-left:24px;margin:0}ol.issues li{margin-bottom:8px}
.fix{color:var(--muted)}
table{border-collapse:collapse;width:100%;background:var(--card);border:1px solid var(--line)}
th,td{border-bottom:1px solid var(--line);padding:6px 10px;text-align:left;vertical-align:top}
th{background:#eef1f4;font-size:13px}
code,pre{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;
word-break:break-word;margin:0}
td.status{font-weight:600;white-space:nowrap}
tr.match td.status{color:var(--good)}tr.differ td.status,tr.failed td.status{color:var(--warn)}
tr.missing td.status,tr.extra td.status{color:var(--bad)}
table.records{font-size:13px}table.records th,table.records td{padding:3px 6px}
details{margin-top:8px}summary{cursor:pointer;font-weight:600}
footer{margin:32px 0 8px;color:var(--muted);font-size:13px}
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _as_json_forms(value: Any) -> Any:
    """``value`` with every matcher written as its JSON form (``{"$regex": "\\d+"}``).

    A matcher without a JSON form keeps its repr (through :func:`compact_json`).
    """
    from toolscore.matching.matchers import Matcher, matcher_to_json

    if isinstance(value, Matcher):
        try:
            return matcher_to_json(value)
        except ValueError:
            return value
    if isinstance(value, Mapping):
        return {k: _as_json_forms(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_as_json_forms(item) for item in value]
    return value


def _json_text(value: Any) -> str:
    """One line of JSON for a value shown in the page, matchers in their JSON form."""
    return compact_json(_as_json_forms(value))


def score_band(value: float) -> str:
    """The card class of a higher-is-better metric: good ≥ 0.8, warning ≥ 0.5, bad."""
    if value >= 0.8:
        return "good"
    if value >= 0.5:
        return "warning"
    return "bad"


def rate_band(value: float) -> str:
    """The card class of a lower-is-better rate: good ≤ 0.2, warning ≤ 0.5, bad."""
    if value <= 0.2:
        return "good"
    if value <= 0.5:
        return "warning"
    return "bad"


def _hero_band(score: float) -> tuple[str, str]:
    if score >= 0.9:
        return "good", "PASS"
    if score >= 0.7:
        return "warning", "WARN"
    return "bad", "FAIL"


def _card(label: str, value: str, band: str = "") -> str:
    return (
        f'<div class="card {band}"><div class="label">{_e(label)}</div>'
        f'<div class="value">{_e(value)}</div></div>'
    )


def _hero(result: EvaluationResult) -> str:
    score = result.score
    band, word = _hero_band(score)
    return (
        f'<section class="hero band-{band}" id="score">'
        f'<div class="score">{_e(f"{score:.1%}")}</div>'
        f'<div class="grade" title="grade">{_e(result.grade)}</div>'
        f'<div><div class="verdict">{_e(word)}</div>'
        f'<div class="muted">overall score, grade {_e(result.grade)}</div></div></section>'
    )


def _summary(result: EvaluationResult) -> str:
    cards = [
        _card("Expected Calls", str(len(result.gold_calls))),
        _card("Actual Calls", str(len(result.trace_calls))),
        _card("Score", f"{result.score:.1%} ({result.grade})", score_band(result.score)),
    ]
    recall = result.required_call_recall
    completed = required_completed(result)
    if recall is not None and completed is not None:
        cards.append(
            _card(
                "Required Calls Completed",
                f"{completed} of {len(result.gold_calls)} ({recall:.0%})",
                score_band(recall),
            )
        )
    return '<h2>Summary</h2><div class="grid">' + "".join(cards) + "</div>"


def _findings(result: EvaluationResult) -> str:
    found = findings(result)
    if not found:
        return ""
    items = "".join(
        f'<li class="{_e(severity)}"><span class="sev">{_e(severity)}</span>{_e(message)}</li>'
        for severity, message in found
    )
    return f'<h2>Behavior and Safety</h2><ul class="findings">{items}</ul>'


def _issues(result: EvaluationResult) -> str:
    fixes = fix_list(result)
    if not fixes:
        return (
            '<h2>Top issues to fix</h2><p class="good-note">No tool-calling issues - the actual '
            "calls match the expected spec.</p>"
        )
    items = "".join(
        f"<li><code>{_e(item.tool)}</code> {_e(item.problem)}"
        f'<div class="fix">&rarr; {_e(item.fix)}</div></li>'
        for item in fixes
    )
    return f'<h2>Top issues to fix</h2><ol class="issues">{items}</ol>'


def _call_cell(call: ToolCall | None, *, expected: bool) -> str:
    if call is None:
        return '<td class="muted">&mdash;</td>'
    if expected and call.args is None:
        args = '<span class="muted">(arguments not checked)</span>'
    else:
        args = f"<code>{_e(_json_text(call.actual_args if not expected else call.args))}</code>"
    extra = ""
    if not expected and call.is_error:
        extra = f'<div class="muted">failed: {_e(call.error or "error")}</div>'
    return f"<td><code><b>{_e(call.tool)}</b></code><br>{args}{extra}</td>"


_ROW_STATUS = {
    "match": ("match", "match"),
    "mismatch": ("differ", "arguments differ"),
    "wrong_tool": ("differ", "wrong tool"),
    "missing": ("missing", "missing"),
    "extra": ("extra", "extra"),
}


def _comparison_rows(result: EvaluationResult) -> Iterator[str]:
    """One row per expected or actual call, aligned by tool name as the fix list is."""
    from toolscore.diff import diff_rows

    strict = bool(getattr(result, "strict", False))
    for row in diff_rows(result.gold_calls, result.trace_calls, strict=strict):
        css, status = _ROW_STATUS.get(row.status, ("differ", row.status))
        if row.status == "match" and row.actual is not None and row.actual.is_error:
            css, status = "failed", "call failed"
        if row.problems:
            detail = "; ".join(row.problems)
        elif row.status == "missing":
            detail = "never called"
        elif row.status == "extra":
            detail = "not expected"
        else:
            detail = ""
        yield (
            f'<tr class="{css}"><td>{row.number}</td>{_call_cell(row.expected, expected=True)}'
            f'{_call_cell(row.actual, expected=False)}<td class="status">{_e(status)}</td>'
            f"<td>{_e(detail)}</td></tr>"
        )


def _comparison(result: EvaluationResult) -> str:
    rows = "".join(_comparison_rows(result))
    if not rows:
        return '<h2>Expected vs actual calls</h2><p class="muted">No calls expected or made.</p>'
    return (
        '<h2>Expected vs actual calls</h2><table class="calls"><thead><tr><th>#</th>'
        "<th>Expected</th><th>Actual</th><th>Status</th><th>Details</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def _metric_cards(result: EvaluationResult) -> str:
    cards = []
    for label, value in (
        ("Invocation Accuracy", as_float(metric(result, "invocation_accuracy"))),
        ("Selection Accuracy", result.selection_accuracy),
        ("Sequence Accuracy", result.sequence_accuracy),
        ("Argument F1", result.argument_f1),
    ):
        cards.append(_card(label, f"{value:.1%}", score_band(value)))
    rate = as_float(metric(result, "efficiency_metrics", "redundant_rate"))
    cards.append(_card("Redundant Call Rate", f"{rate:.1%}", rate_band(rate)))
    side = result.metrics.get("side_effect_metrics")
    if isinstance(side, Mapping) and side.get("total_checks"):
        success = as_float(side.get("success_rate"), 1.0)
        cards.append(_card("Side-Effect Success", f"{success:.1%}", score_band(success)))
    semantic = result.metrics.get("semantic_metrics")
    if isinstance(semantic, Mapping) and semantic:
        score = semantic.get("semantic_score")
        if isinstance(score, (int, float)) and not isinstance(score, bool):
            cards.append(_card("Semantic Score", f"{score:.1%}", score_band(float(score))))
        else:
            cards.append(_card("Semantic Score", "n/a (judge error)", "bad"))
    return '<h2>Core Metrics</h2><div class="grid">' + "".join(cards) + "</div>"


def _plugin_metrics(result: EvaluationResult) -> str:
    """A card per plugin metric (the generic rendering, or the plugin's own)."""
    from toolscore.reporters.plugin_metrics import plugin_metric_rows

    rows = plugin_metric_rows(result)
    if not rows:
        return ""
    cards = "".join(_card(row.label, row.text) for row in rows)
    return '<h2>Plugin Metrics</h2><div class="grid">' + cards + "</div>"


def _performance(result: EvaluationResult) -> str:
    latency = result.metrics.get("latency_metrics")
    cost = result.metrics.get("cost_metrics")
    total_duration = (
        as_float(latency.get("total_duration")) if isinstance(latency, Mapping) else 0.0
    )
    total_cost = as_float(cost.get("total_cost")) if isinstance(cost, Mapping) else 0.0
    if total_duration <= 0 and total_cost <= 0:
        return ""
    cards = []
    if isinstance(latency, Mapping) and total_duration > 0:
        cards.append(_card("Total Duration", f"{total_duration:.2f}s"))
        cards.append(_card("Average Duration", f"{as_float(latency.get('average_duration')):.2f}s"))
    if total_cost > 0:
        cards.append(_card("Total Cost", f"${total_cost:.4f}"))
    return '<h2>Performance</h2><div class="grid">' + "".join(cards) + "</div>"


def _scalar_text(key: str, value: Any) -> str:
    """A metric value as text: percentages for rates, accuracies and scores, as in the CSV."""
    if isinstance(value, float):
        if key.endswith("_accuracy") or key.endswith("_rate") or "score" in key:
            return f"{value * 100:.2f}%"
        return f"{value:.4f}"
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, (bool, int)) or value is None:
        return str(value)
    return _json_text(value)


def _is_records(value: Any) -> bool:
    """A non-empty list whose items are all mappings (``trajectory_details``, per-call lists)."""
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and bool(value)
        and all(isinstance(item, Mapping) for item in value)
    )


def _records_table(records: Sequence[Mapping[str, Any]]) -> str:
    """A list of records as a table: one column per key, in first-seen order."""
    columns: dict[str, None] = {}
    for record in records:
        columns.update(dict.fromkeys(str(key) for key in record))
    head = "".join(f"<th>{_e(redact(column))}</th>" for column in columns)
    body = []
    for record in records:
        values = {str(key): value for key, value in record.items()}
        cells = "".join(
            f"<td><code>{_e(_scalar_text(column, values[column]))}</code></td>"
            if column in values
            else '<td class="muted">&mdash;</td>'
            for column in columns
        )
        body.append(f"<tr>{cells}</tr>")
    return (
        f'<table class="records"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def _metric_rows(metrics: Mapping[str, Any], prefix: str = "") -> Iterator[str]:
    """One row per metric, depth first; a list of records is a table in its row."""
    for key, value in metrics.items():
        name = str(key)
        if isinstance(value, Mapping) and value:
            yield from _metric_rows(value, f"{prefix}{name}.")
            continue
        if _is_records(value):
            shown = _records_table(value)
        else:
            shown = f"<code>{_e(_scalar_text(name, value))}</code>"
        yield (
            f"<tr><td>{_e(redact(prefix.rstrip('.')))}</td><td>{_e(redact(name))}</td>"
            f"<td>{shown}</td></tr>"
        )


def _all_metrics(result: EvaluationResult) -> str:
    rows = "".join(_metric_rows(_as_json_forms(result.metrics)))
    return (
        "<h2>Metric details</h2><details open><summary>Every metric</summary>"
        '<table class="metrics"><thead><tr><th>Group</th><th>Metric</th><th>Value</th></tr>'
        f"</thead><tbody>{rows}</tbody></table></details>"
    )


def render_html(result: EvaluationResult) -> str:
    """The whole page, escaped and redacted."""
    stamp = generated_at().strftime("%Y-%m-%d %H:%M:%S")
    title = f"Toolscore Evaluation Report - {result.score:.1%} ({result.grade})"
    body = "".join(
        (
            "<h1>Toolscore Evaluation Report</h1>",
            f'<div class="muted">Generated: {_e(stamp)}</div>',
            _hero(result),
            _summary(result),
            _findings(result),
            _issues(result),
            _comparison(result),
            _metric_cards(result),
            _plugin_metrics(result),
            _performance(result),
            _all_metrics(result),
            "<footer>Generated with toolscore</footer>",
        )
    )
    page = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<link rel="icon" href="data:,">\n'
        f"<title>{_e(title)}</title>\n<style>{_CSS}</style>\n</head>\n"
        f"<body>\n<main>{body}</main>\n</body>\n</html>\n"
    )
    return redact(page)


class HtmlReporter:
    """Renders :func:`render_html`."""

    def render(self, result: EvaluationResult, *, verbose: bool = False) -> str:
        return render_html(result)


@hookimpl
def toolscore_register_reporters() -> Iterator[ReporterSpec]:
    yield ReporterSpec(
        name="html",
        factory=HtmlReporter,
        summary="one self-contained HTML page (redacted)",
        extension=".html",
    )
