"""Plugin metrics as report rows: one generic rendering every built-in view shares.

The built-in views lay out the built-in metrics by hand; a plugin's metric has no layout of
its own, so each view shows it as a row "label: text" from :func:`plugin_metric_rows`. A
plugin changes its row through its ``MetricSpec`` (``label``, ``render``); without those, a
number is shown with 4 significant digits, a mapping as ``key=value`` pairs and anything
else as compact JSON, cut to one line.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from toolscore.result import EvaluationResult

__all__ = ["MetricRow", "format_value", "plugin_metric_rows"]

#: Longest text of one row; longer values end with an ellipsis.
MAX_TEXT = 200


@attrs.frozen
class MetricRow:
    """One plugin metric, ready for any view."""

    #: The metric's key in ``EvaluationResult.metrics``.
    name: str
    #: The row title (the spec's ``label``, else the name).
    label: str
    #: The value as one line of text.
    text: str
    #: The value itself, for views that keep types (CSV numbers).
    value: Any


def format_value(value: Any) -> str:
    """The default one-line text of a metric value."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.4g}" if math.isfinite(value) else str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return ", ".join(f"{key}={format_value(item)}" for key, item in value.items())
    if isinstance(value, Sequence):
        return "[" + ", ".join(format_value(item) for item in value) + "]"
    return repr(value)


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def plugin_metric_rows(result: EvaluationResult) -> list[MetricRow]:
    """The rows of ``result``'s plugin metrics, in the order they were computed.

    A ``render`` override that raises falls back to the default text: a plugin's bug never
    loses a report.
    """
    specs: Mapping[str, Any] = getattr(result, "plugin_metrics", None) or {}
    rows: list[MetricRow] = []
    for name, value in result.metrics.items():
        spec = specs.get(name)
        if spec is None:
            continue
        render = getattr(spec, "render", None)
        text = None
        if render is not None:
            try:
                text = str(render(value))
            except Exception:
                text = None
        if text is None:
            text = format_value(value)
        label = getattr(spec, "label", None) or name
        rows.append(MetricRow(name=name, label=label, text=_one_line(text), value=value))
    return rows
