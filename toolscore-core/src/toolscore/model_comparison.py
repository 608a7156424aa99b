"""Comparing several models' traces against one gold file (``toolscore compare``).

:func:`compare_models` turns ``{model name: EvaluationResult}`` into the comparison document::

    {"models": [...], "metrics": {metric: {model: value}},
     "rankings": {metric: [models, best first]},
     "best_model": {"name", "average_score"},
     "summary": {"total_models", "average_scores": {model: avg}}}

The six metrics are invocation_accuracy, selection_accuracy, tool_correctness,
sequence_accuracy, argument_f1 and redundant_rate (lower is better, so it ranks ascending and
counts as ``1 − rate`` in the average). Ties keep the input order.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from toolscore.result import EvaluationResult

__all__ = [
    "COMPARED_METRICS",
    "compare_models",
    "print_comparison_table",
    "save_comparison_report",
]

#: metric key -> (metrics group or None for top level, key inside it, display label).
COMPARED_METRICS: dict[str, tuple[str | None, str, str]] = {
    "invocation_accuracy": (None, "invocation_accuracy", "Invocation Acc"),
    "selection_accuracy": (None, "selection_accuracy", "Selection Acc"),
    "tool_correctness": ("tool_correctness_metrics", "tool_correctness", "Tool Correctness"),
    "sequence_accuracy": ("sequence_metrics", "sequence_accuracy", "Sequence Acc"),
    "argument_f1": ("argument_metrics", "f1", "Argument F1"),
    "redundant_rate": ("efficiency_metrics", "redundant_rate", "Redundant Rate"),
}

LOWER_IS_BETTER = frozenset({"redundant_rate"})


def _value(result: EvaluationResult, group: str | None, key: str) -> float:
    source: Any = result.metrics if group is None else result.metrics.get(group)
    value = source.get(key, 0.0) if isinstance(source, Mapping) else 0.0
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0.0
    return float(value)


def compare_models(model_results: Mapping[str, EvaluationResult]) -> dict[str, Any]:
    """The comparison document for ``model_results`` (``{}`` for no models)."""
    if not model_results:
        return {}
    metrics: dict[str, dict[str, float]] = {
        name: {model: _value(result, group, key) for model, result in model_results.items()}
        for name, (group, key, _label) in COMPARED_METRICS.items()
    }
    rankings = {
        name: [
            model
            for model, _ in sorted(
                values.items(), key=lambda kv: kv[1], reverse=name not in LOWER_IS_BETTER
            )
        ]
        for name, values in metrics.items()
    }
    averages: dict[str, float] = {}
    for model in model_results:
        scores = [
            1.0 - metrics[name][model] if name in LOWER_IS_BETTER else metrics[name][model]
            for name in COMPARED_METRICS
        ]
        averages[model] = sum(scores) / len(scores)
    best = max(averages.items(), key=lambda kv: kv[1])[0]
    return {
        "models": list(model_results),
        "metrics": metrics,
        "rankings": rankings,
        "best_model": {"name": best, "average_score": averages[best]},
        "summary": {"total_models": len(model_results), "average_scores": averages},
    }


def _color(name: str, value: float) -> str:
    if name in LOWER_IS_BETTER:
        return "green" if value < 0.1 else "yellow" if value < 0.3 else "red"
    return "green" if value >= 0.9 else "yellow" if value >= 0.7 else "red"


def print_comparison_table(comparison: Mapping[str, Any], console: Console | None = None) -> None:
    """Print the "Model Comparison Results" table and the overall winner."""
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    from toolscore.terminal_width import make_console

    console = console if console is not None else make_console()
    models: list[str] = list(comparison.get("models", []))
    if not models:
        console.print("[yellow]No models to compare[/yellow]")
        return
    console.print()
    console.print("[bold cyan]Model Comparison Results[/bold cyan]")
    console.print()
    table = Table(show_header=True, header_style="bold magenta")
    table.add_column("Metric", style="cyan", no_wrap=True)
    for model in models:
        table.add_column(escape(model), justify="right")
    table.add_column("Best", style="bold green", justify="center")
    for name, (_group, _key, label) in COMPARED_METRICS.items():
        values: Mapping[str, float] = comparison["metrics"].get(name, {})
        if not values:
            continue
        best = comparison["rankings"][name][0]
        cells: list[Any] = [label]
        for model in models:
            value = values.get(model, 0.0)
            style = _color(name, value)
            cells.append(Text(f"{value:.1%}", style=f"bold {style}" if model == best else style))
        cells.append(Text(best))
        table.add_row(*cells)
    console.print(table)
    console.print()
    winner = comparison.get("best_model") or {}
    if winner:
        console.print(
            f"[bold green]Overall Winner:[/bold green] {escape(str(winner['name']))} "
            f"(avg score: {winner['average_score']:.1%})"
        )
        console.print()


def save_comparison_report(comparison: Mapping[str, Any], output_file: str | Path) -> Path:
    """Write the comparison document as JSON (indent 2, atomically, parent folders created)."""
    from toolscore.fileio import atomic_write_json

    return atomic_write_json(output_file, dict(comparison))
