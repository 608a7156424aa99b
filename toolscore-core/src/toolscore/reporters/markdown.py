"""The Markdown report: the GitHub job-summary format.

Meant for ``$GITHUB_STEP_SUMMARY``, pull-request comments and wikis. The whole document is
passed through credential redaction, because it ends up where many people read it. A judge that
failed (``semantic_score`` of ``None``) is reported as such instead of crashing the report.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from toolscore._markers import hookimpl
from toolscore.reporters._common import (
    findings,
    generated_at,
    json_safe,
    redact,
    required_completed,
)
from toolscore.specs import ReporterSpec

if TYPE_CHECKING:
    from toolscore.result import EvaluationResult

__all__ = ["MarkdownReporter", "status_label"]

FOOTER = "*Generated with [Toolscore](https://github.com/yotambraun/toolscore)*"


def status_label(value: float) -> str:
    """≥ 0.95 Excellent, ≥ 0.85 Good, ≥ 0.70 Fair, else Needs Improvement."""
    if value >= 0.95:
        return "✅ Excellent"
    if value >= 0.85:
        return "🟢 Good"
    if value >= 0.70:
        return "🟡 Fair"
    return "🔴 Needs Improvement"


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _key_metric_rows(result: EvaluationResult) -> Iterator[str]:
    metrics = result.metrics
    candidates: list[tuple[str, object]] = [
        ("Invocation Accuracy", metrics.get("invocation_accuracy")),
        ("Selection Accuracy", metrics.get("selection_accuracy")),
    ]
    args = metrics.get("argument_metrics")
    if isinstance(args, Mapping):
        candidates.append(("Argument F1 Score", args.get("f1")))
    seq = metrics.get("sequence_metrics")
    if isinstance(seq, Mapping):
        candidates.append(("Sequence Accuracy", seq.get("sequence_accuracy")))
    for label, raw in candidates:
        value = _number(raw)
        if value is not None:
            yield f"| {label} | {value * 100:.2f}% | {status_label(value)} |"


def _efficiency(metrics: Mapping[str, object]) -> list[str]:
    eff = metrics.get("efficiency_metrics")
    if not isinstance(eff, Mapping):
        return []
    lines = ["## ⚡ Efficiency Metrics", "", "| Metric | Value |", "|--------|-------|"]
    rate = _number(eff.get("redundant_rate"))
    if rate is not None:
        lines.append(f"| Redundant Call Rate | {rate * 100:.2f}% |")
    if eff.get("error_count"):
        lines.append(f"| Failed Calls | {eff['error_count']} |")
        lines.append(f"| Retries After Failure | {eff.get('retry_after_error_count', 0)} |")
    lines.append("")
    return lines


def _semantic(metrics: Mapping[str, object]) -> list[str]:
    sem = metrics.get("semantic_metrics")
    if not isinstance(sem, Mapping):
        return []
    lines = ["## 🧠 Semantic Evaluation", "", "| Metric | Value |", "|--------|-------|"]
    if "semantic_score" in sem:
        score = _number(sem.get("semantic_score"))
        lines.append(
            f"| Semantic Score | {score * 100:.2f}% |"
            if score is not None
            else "| Semantic Score | n/a (the judge returned no score) |"
        )
    if sem.get("error"):
        error = str(sem["error"]).replace("|", "\\|").replace("\n", " ")
        lines.append(f"| Judge Error | {error} |")
    lines.append("")
    return lines


def _side_effects(metrics: Mapping[str, object]) -> list[str]:
    side = metrics.get("side_effect_metrics")
    if not isinstance(side, Mapping):
        return []
    lines = ["## 🔄 Side Effects", "", "| Metric | Value |", "|--------|-------|"]
    rate = _number(side.get("success_rate"))
    if rate is not None:
        lines.append(f"| Success Rate | {rate * 100:.2f}% |")
    if side.get("total_checks"):
        lines.append(
            f"| Checks Passed | {side.get('passed_checks', 0)} of {side['total_checks']} |"
        )
    lines.append("")
    return lines


def _plugin_metrics(result: EvaluationResult) -> list[str]:
    """One table row per plugin metric (the generic rendering, or the plugin's own)."""
    from toolscore.reporters.plugin_metrics import plugin_metric_rows

    rows = plugin_metric_rows(result)
    if not rows:
        return []
    lines = ["## 🧩 Plugin Metrics", "", "| Metric | Value |", "|--------|-------|"]
    lines += [f"| {_cell(row.label)} | {_cell(row.text)} |" for row in rows]
    lines.append("")
    return lines


def _cell(text: str) -> str:
    """``text`` safe inside a Markdown table cell (pipes and backslashes escaped)."""
    return text.replace("\\", "\\\\").replace("|", "\\|")


def render_markdown(result: EvaluationResult) -> str:
    """The report text, redacted."""
    metrics = result.metrics
    lines = [
        "# Toolscore Evaluation Report",
        "",
        f"**Generated:** {generated_at().strftime('%Y-%m-%d %H:%M:%S')}",
        "",
        "## 📊 Summary",
        "",
        f"- **Gold Standard Calls:** {len(result.gold_calls)}",
        f"- **Actual Trace Calls:** {len(result.trace_calls)}",
        f"- **Score:** {result.score * 100:.1f}% (grade {result.grade})",
    ]
    completed = required_completed(result)
    if completed is not None:
        lines.append(f"- **Required Calls Completed:** {completed} of {len(result.gold_calls)}")
    lines += [
        "",
        "## 🎯 Key Metrics",
        "",
        "| Metric | Value | Status |",
        "|--------|-------|--------|",
    ]
    lines += list(_key_metric_rows(result))
    lines.append("")
    found = findings(result)
    if found:
        lines += ["## 🛡️ Behavior and Safety", ""]
        for severity, message in found:
            icon = "🔴" if severity == "error" else "🟡"
            lines.append(f"- {icon} **{severity}**: {message}")
        lines.append("")
    lines += _efficiency(metrics)
    lines += _semantic(metrics)
    lines += _side_effects(metrics)
    lines += _plugin_metrics(result)
    lines += [
        "## 📋 All Metrics",
        "",
        "<details>",
        "<summary>Click to expand full metrics</summary>",
        "",
        "```json",
        json.dumps(json_safe(metrics), indent=2, ensure_ascii=False),
        "```",
        "</details>",
        "",
        "---",
        FOOTER,
    ]
    return redact("\n".join(lines)) + "\n"


class MarkdownReporter:
    """Renders :func:`render_markdown`."""

    def render(self, result: EvaluationResult, *, verbose: bool = False) -> str:
        return render_markdown(result)


@hookimpl
def toolscore_register_reporters() -> Iterator[ReporterSpec]:
    yield ReporterSpec(
        name="markdown",
        factory=MarkdownReporter,
        summary="GitHub job-summary Markdown (redacted)",
        extension=".md",
    )
