"""Baselines: save an evaluation's key metrics, and later check a new trace against them.

``toolscore eval ... --save-baseline baseline.json`` writes one::

    {"version": "<toolscore version>", "created_at": "<UTC ISO>", "gold_file_hash": "<md5 or ''>",
     "metrics": {"invocation_accuracy", "selection_accuracy", "tool_correctness",
                 "sequence_accuracy", "argument_f1", "argument_precision", "argument_recall",
                 "redundant_rate"[, "semantic_score"]},
     "metadata": {"gold_calls_count": N, "trace_calls_count": M}}

``toolscore regression baseline.json trace.json -g gold.json -t 0.05`` re-evaluates and flags a
metric as a regression when it got worse by more than the threshold (an absolute difference in
score units; only ``redundant_rate`` is lower-is-better).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from toolscore.errors import InputError

if TYPE_CHECKING:
    from rich.console import Console

    from toolscore.result import EvaluationResult

__all__ = [
    "LOWER_IS_BETTER",
    "Baseline",
    "ComparisonResult",
    "RegressionItem",
    "compare_to_baseline",
    "extract_metrics",
    "load_baseline",
    "print_comparison_result",
    "save_baseline",
]

#: Metrics where a smaller value is better; every other metric is higher-is-better.
LOWER_IS_BETTER = frozenset({"redundant_rate"})

STATUSES = ("regression", "improvement", "stable")


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0.0
    return float(value)


def extract_metrics(result: EvaluationResult) -> dict[str, float]:
    """The baseline's metrics of ``result``, in the order of the file layout above."""
    m = result.metrics
    out = {
        "invocation_accuracy": _number(m.get("invocation_accuracy", 0.0)),
        "selection_accuracy": _number(m.get("selection_accuracy", 0.0)),
    }
    groups: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
        ("tool_correctness_metrics", (("tool_correctness", "tool_correctness"),)),
        ("sequence_metrics", (("sequence_accuracy", "sequence_accuracy"),)),
        (
            "argument_metrics",
            (
                ("argument_f1", "f1"),
                ("argument_precision", "precision"),
                ("argument_recall", "recall"),
            ),
        ),
        ("efficiency_metrics", (("redundant_rate", "redundant_rate"),)),
    )
    for group, keys in groups:
        values = m.get(group)
        if isinstance(values, Mapping) and values:
            for name, key in keys:
                out[name] = _number(values.get(key, 0.0))
    semantic = m.get("semantic_metrics")
    if isinstance(semantic, Mapping):
        score = semantic.get("semantic_score")
        if isinstance(score, (int, float)) and not isinstance(score, bool):
            out["semantic_score"] = float(score)
    return out


def _md5(path: str | Path | None) -> str:
    if not path:
        return ""
    try:
        return hashlib.md5(Path(path).read_bytes(), usedforsecurity=False).hexdigest()
    except OSError:
        return ""


@attrs.frozen
class Baseline:
    """A saved set of metric values to compare later evaluations against."""

    version: str
    created_at: str
    gold_file_hash: str
    metrics: Mapping[str, float]
    metadata: Mapping[str, Any] = attrs.field(factory=dict)

    @classmethod
    def from_result(cls, result: EvaluationResult, gold_file: str | Path | None = None) -> Baseline:
        from toolscore._version import version

        return cls(
            version=version(),
            created_at=datetime.now(timezone.utc).isoformat(),
            gold_file_hash=_md5(gold_file),
            metrics=extract_metrics(result),
            metadata={
                "gold_calls_count": len(result.gold_calls),
                "trace_calls_count": len(result.trace_calls),
            },
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "created_at": self.created_at,
            "gold_file_hash": self.gold_file_hash,
            "metrics": dict(self.metrics),
            "metadata": dict(self.metadata),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "<baseline>") -> Baseline:
        """Validate and build; every problem names ``source`` and the JSON path."""
        if not isinstance(data, Mapping) or "metrics" not in data:
            raise InputError(f"Invalid baseline file format: {source}")
        metrics = data["metrics"]
        if not isinstance(metrics, Mapping):
            raise InputError("expected an object of metric values", source=source, path="$.metrics")
        values: dict[str, float] = {}
        for name, value in metrics.items():
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not math.isfinite(value)
            ):
                raise InputError(
                    f"expected a finite number, got {value!r}",
                    source=source,
                    path=f"$.metrics.{name}",
                )
            values[str(name)] = float(value)
        metadata = data.get("metadata", {})
        return cls(
            version=str(data.get("version", "unknown")),
            created_at=str(data.get("created_at", "")),
            gold_file_hash=str(data.get("gold_file_hash", "") or ""),
            metrics=values,
            metadata=dict(metadata) if isinstance(metadata, Mapping) else {},
        )


def save_baseline(
    result: EvaluationResult, path: str | Path, gold_file: str | Path | None = None
) -> Path:
    """Write ``result``'s baseline to ``path`` (atomically, parent folders created)."""
    from toolscore.fileio import atomic_write_json

    return atomic_write_json(path, Baseline.from_result(result, gold_file).to_dict())


def load_baseline(path: str | Path) -> Baseline:
    """Read a baseline file.

    Raises ``FileNotFoundError`` for a missing file and :class:`~toolscore.errors.InputError`
    (a ``ValueError``) for invalid JSON or a file that is not a baseline.
    """
    file_path = Path(path)
    if not file_path.is_file():
        raise FileNotFoundError(f"Baseline file not found: {path}")
    try:
        data = json.loads(file_path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(f"expected UTF-8 JSON ({exc.reason})", source=str(path)) from None
    except json.JSONDecodeError as exc:
        raise InputError(
            f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}", source=str(path)
        ) from None
    return Baseline.from_dict(data, source=str(path))


@attrs.frozen
class RegressionItem:
    """One metric compared with its baseline value."""

    metric_name: str
    baseline_value: float
    current_value: float
    #: current − baseline, in score units (not a relative change).
    delta: float
    #: delta / baseline × 100; ±100 or 0 when the baseline is 0.
    delta_percent: float
    threshold: float
    #: "regression", "improvement" or "stable".
    status: str

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class ComparisonResult:
    """The outcome of :func:`compare_to_baseline`."""

    passed: bool
    threshold: float
    baseline_timestamp: str
    comparison_timestamp: str
    items: tuple[RegressionItem, ...] = ()
    summary: str = ""
    #: False when the gold file changed since the baseline was saved (the numbers may not compare).
    gold_file_matches: bool = True

    @property
    def regressions(self) -> list[RegressionItem]:
        return [i for i in self.items if i.status == "regression"]

    @property
    def improvements(self) -> list[RegressionItem]:
        return [i for i in self.items if i.status == "improvement"]

    @property
    def stable(self) -> list[RegressionItem]:
        return [i for i in self.items if i.status == "stable"]

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "threshold": self.threshold,
            "baseline_timestamp": self.baseline_timestamp,
            "comparison_timestamp": self.comparison_timestamp,
            "summary": self.summary,
            "items": [item.to_dict() for item in self.items],
            "regression_count": len(self.regressions),
            "improvement_count": len(self.improvements),
        }


def _status(name: str, delta: float, threshold: float) -> str:
    worse = delta > threshold if name in LOWER_IS_BETTER else delta < -threshold
    better = delta < -threshold if name in LOWER_IS_BETTER else delta > threshold
    if worse:
        return "regression"
    if better:
        return "improvement"
    return "stable"


def compare_to_baseline(
    result: EvaluationResult,
    baseline: Baseline,
    threshold: float = 0.05,
    gold_file: str | Path | None = None,
) -> ComparisonResult:
    """Compare every metric of ``baseline`` with ``result``.

    A metric missing from ``result`` reads as 0.0. Boundaries are strict: a change of exactly
    ``threshold`` is stable. Items are sorted regressions first, then by the size of the change.
    """
    current = extract_metrics(result)
    items: list[RegressionItem] = []
    for name, base in baseline.metrics.items():
        value = current.get(name, 0.0)
        delta = value - base
        if base != 0:
            percent = delta / base * 100
        else:
            percent = 100.0 if delta > 0 else (0.0 if delta == 0 else -100.0)
        items.append(
            RegressionItem(
                name, base, value, delta, percent, threshold, _status(name, delta, threshold)
            )
        )
    items.sort(key=lambda i: (0 if i.status == "regression" else 1, -abs(i.delta)))
    regressions = sum(1 for i in items if i.status == "regression")
    improvements = sum(1 for i in items if i.status == "improvement")
    if regressions:
        summary = f"FAIL: {regressions} regression(s) detected (threshold: {threshold:.0%})"
    elif improvements:
        summary = f"PASS: No regressions, {improvements} improvement(s) detected"
    else:
        summary = f"PASS: No significant changes (threshold: {threshold:.0%})"
    matches = True
    if gold_file and baseline.gold_file_hash:
        current_hash = _md5(gold_file)
        matches = not current_hash or current_hash == baseline.gold_file_hash
    return ComparisonResult(
        passed=regressions == 0,
        threshold=threshold,
        baseline_timestamp=baseline.created_at,
        comparison_timestamp=datetime.now(timezone.utc).isoformat(),
        items=tuple(items),
        summary=summary,
        gold_file_matches=matches,
    )


def _delta_text(item: RegressionItem) -> str:
    sign = "+" if item.delta >= 0 else ""
    return f"{sign}{item.delta:.2%} ({item.delta_percent:+.1f}%)"


def print_comparison_result(comparison: ComparisonResult, console: Console | None = None) -> None:
    """Print the summary panel and the "Regression Analysis" table."""
    from rich.markup import escape
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    from toolscore.terminal_width import make_console

    console = console if console is not None else make_console()
    color = "green" if comparison.passed else "red"
    console.print()
    console.print(
        Panel.fit(f"[bold {color}]{escape(comparison.summary)}[/bold {color}]", border_style=color)
    )
    console.print()
    if not comparison.gold_file_matches:
        console.print(
            "[yellow]WARNING[/yellow] the gold file changed since the baseline was saved; "
            "the comparison may not be meaningful."
        )
        console.print()
    table = Table(title="Regression Analysis", show_header=True, header_style="bold magenta")
    table.add_column("Metric", style="cyan", no_wrap=True)
    table.add_column("Baseline", justify="right")
    table.add_column("Current", justify="right")
    table.add_column("Delta", justify="right")
    table.add_column("Status", justify="center")
    styles = {
        "regression": ("REGRESSION", "bold red", "red"),
        "improvement": ("IMPROVED", "bold green", "green"),
    }
    for item in comparison.items:
        label, status_style, delta_style = styles.get(item.status, ("OK", "dim", "dim"))
        table.add_row(
            item.metric_name.replace("_", " ").title(),
            f"{item.baseline_value:.2%}",
            f"{item.current_value:.2%}",
            Text(_delta_text(item), style=delta_style),
            Text(label, style=status_style),
        )
    console.print(table)
    console.print()
    console.print(f"[dim]Baseline created: {escape(comparison.baseline_timestamp)}[/dim]")
    console.print(f"[dim]Comparison time: {escape(comparison.comparison_timestamp)}[/dim]")
    console.print()
