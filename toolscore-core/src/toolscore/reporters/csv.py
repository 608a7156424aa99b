"""The CSV report: every metric as one ``Category,Metric,Value`` row, for spreadsheets.

Layout: a summary block (gold and trace call counts), an empty row, then the
flattened metrics. Nested keys form the category (``tool_correctness_metrics``,
``efficiency_metrics.cost_by_tool``); lists are joined with ``", "``; a float whose key ends with
``_accuracy`` or ``_rate`` or contains ``score`` is a percentage with two decimals, other floats
have four decimals. Values are redacted: spreadsheets get shared.

Text from data (tool names as keys, reasons, lists of names) that starts with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return gets a leading ``'`` (OWASP's advice against CSV
injection): a spreadsheet would otherwise run it as a formula (``=cmd|' /C calc'!A0``). Numbers
we format ourselves (``-0.5000``) are written as they are and stay numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from toolscore._markers import hookimpl
from toolscore.reporters._common import redact
from toolscore.specs import ReporterSpec

if TYPE_CHECKING:
    from toolscore.result import EvaluationResult

__all__ = ["CsvReporter", "flatten_metrics", "neutralize"]

HEADER = ("Category", "Metric", "Value")


#: First characters that make a spreadsheet read a cell as a formula (or hide what follows).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralize(text: str) -> str:
    """``text`` with a ``'`` in front when a spreadsheet would run it as a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _format(key: str, value: Any) -> str:
    if isinstance(value, float):
        if key.endswith("_accuracy") or key.endswith("_rate") or "score" in key:
            return f"{value * 100:.2f}%"
        return f"{value:.4f}"
    if isinstance(value, (bool, int)) or value is None:
        return str(value)
    if isinstance(value, (list, tuple)):
        return neutralize(redact(", ".join(map(str, value))))
    return neutralize(redact(str(value)))


def flatten_metrics(metrics: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, str, str]]:
    """Yield ``(category, metric, value)`` rows for ``metrics``, depth first, in key order."""
    for key, value in metrics.items():
        name = str(key)
        if isinstance(value, Mapping):
            yield from flatten_metrics(value, f"{prefix}{name}.")
        else:
            category = neutralize(redact(prefix.rstrip(".")))
            yield category, neutralize(redact(name)), _format(name, value)


def render_csv(result: EvaluationResult) -> str:
    """The report text (CRLF line ends, as the csv module writes them)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(HEADER)
    writer.writerow(("Summary", "Gold Calls Count", str(len(result.gold_calls))))
    writer.writerow(("Summary", "Trace Calls Count", str(len(result.trace_calls))))
    writer.writerow(("", "", ""))
    writer.writerow(HEADER)
    for category, name, value in flatten_metrics(result.metrics):
        writer.writerow((category, name, value))
    return buffer.getvalue()


class CsvReporter:
    """Renders :func:`render_csv`."""

    def render(self, result: EvaluationResult, *, verbose: bool = False) -> str:
        return render_csv(result)


@hookimpl
def toolscore_register_reporters() -> Iterator[ReporterSpec]:
    yield ReporterSpec(
        name="csv",
        factory=CsvReporter,
        summary="flattened metrics for spreadsheets",
        extension=".csv",
    )
