"""The JSON report: every metric and every call, as recorded, for machines.

Layout::

    {"timestamp": <local ISO time>,
     "summary": {"gold_calls_count", "trace_calls_count", "score", "grade", "weights",
                 "required_call_recall", "failed_calls", "policy_violations", "secrets"},
     "metrics": {...},
     "gold_calls": [{"tool", "args", "result", "timestamp", "duration", "cost", "metadata"}],
     "trace_calls": [...]}

Calls are kept as recorded (credentials are NOT redacted: this file feeds other tools). A failed
call also carries ``is_error`` and ``error``, and a call with a provider id carries ``id``. Values
JSON cannot hold (matchers, sets, SDK objects, NaN) are written in a JSON-safe form instead of
failing the run.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from toolscore._markers import hookimpl
from toolscore.reporters._common import call_record, generated_at, json_safe, summary
from toolscore.specs import ReporterSpec

if TYPE_CHECKING:
    from toolscore.result import EvaluationResult

__all__ = ["JsonReporter", "report_dict"]


def report_dict(result: EvaluationResult) -> dict[str, Any]:
    """The report as a JSON-safe dict (what :class:`JsonReporter` serialises)."""
    report = {
        "timestamp": generated_at().isoformat(),
        "summary": summary(result),
        "metrics": result.metrics,
        "findings": _findings(result),
        "gold_calls": [call_record(call) for call in result.gold_calls],
        "trace_calls": [call_record(call) for call in result.trace_calls],
    }
    safe: dict[str, Any] = json_safe(report)
    return safe


class JsonReporter:
    """Writes :func:`report_dict` with two-space indentation.

    The text is exactly ``json.dumps(report_dict(result), indent=2)``, but built call by call:
    a whole-report ``json_safe`` copy and one indented dump of it held several times a large
    trace's size in memory at once (a 34 MB trace peaked near 1 GB).
    """

    def render(self, result: EvaluationResult, *, verbose: bool = False) -> str:
        out = io.StringIO()
        out.write("{")
        head = {
            "timestamp": generated_at().isoformat(),
            "summary": summary(result),
            "metrics": result.metrics,
            "findings": _findings(result),
        }
        separator = "\n"
        for key, value in head.items():
            out.write(f"{separator}  {_dumps(key, 0)}: {_dumps(json_safe(value), 1)}")
            separator = ",\n"
        for key, calls in (("gold_calls", result.gold_calls), ("trace_calls", result.trace_calls)):
            out.write(f",\n  {_dumps(key, 0)}: ")
            if not calls:
                out.write("[]")
                continue
            out.write("[")
            item_separator = "\n"
            for call in calls:
                out.write(f"{item_separator}    {_dumps(json_safe(call_record(call)), 2)}")
                item_separator = ",\n"
            out.write("\n  ]")
        out.write("\n}\n")
        return out.getvalue()


def _findings(result: EvaluationResult) -> list[dict[str, Any]]:
    """Every finding with its stable code (:mod:`toolscore.findings`)."""
    from toolscore.findings import findings_for

    return [finding.to_dict() for finding in findings_for(result)]


def _dumps(value: Any, level: int) -> str:
    """``value`` as it appears ``level`` levels deep in a two-space-indented document (JSON
    escapes newlines inside strings, so every raw newline is structure)."""
    text = json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False)
    return text.replace("\n", "\n" + "  " * level) if level else text


@hookimpl
def toolscore_register_reporters() -> Iterator[ReporterSpec]:
    yield ReporterSpec(
        name="json",
        factory=JsonReporter,
        summary="every metric and call as recorded (machine-readable)",
        extension=".json",
    )
