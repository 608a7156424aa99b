"""The terminal summary of an evaluation (rich), compact by default and detailed with ``-v``.

``toolscore eval`` prints :func:`print_evaluation_summary`; the ``console`` reporter renders the
same view as plain text for files and tests; docs/reports.md shows the layout. Every value
from data (tool names, issues, findings, tips) is redacted and its control characters are shown
as escapes (:mod:`toolscore.terminal_text`). ``rich`` is imported only when something is printed.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toolscore._markers import hookimpl
from toolscore.reporters._common import as_float, findings, fix_list, metric
from toolscore.specs import ReporterSpec
from toolscore.terminal_text import shown, shown_markup
from toolscore.terminal_width import UNWRAPPED_WIDTH

if TYPE_CHECKING:
    from collections.abc import Iterator

    from rich.console import Console
    from rich.text import Text

    from toolscore.result import EvaluationResult

__all__ = ["ConsoleReporter", "print_evaluation_summary"]

#: At most this many "Top issues to fix" are listed; the rest are counted.
TOP_ISSUES_LIMIT = 8


def band_color(value: float) -> str:
    """green ≥ 0.9, yellow ≥ 0.7, red otherwise (scores, accuracies, the verdict)."""
    if value >= 0.9:
        return "green"
    if value >= 0.7:
        return "yellow"
    return "red"


def rate_color(value: float) -> str:
    """For rates where lower is better: green < 0.1, yellow < 0.3, red otherwise."""
    if value < 0.1:
        return "green"
    if value < 0.3:
        return "yellow"
    return "red"


def verdict(score: float) -> str:
    """PASS ≥ 0.9, WARN ≥ 0.7, FAIL otherwise."""
    if score >= 0.9:
        return "PASS"
    if score >= 0.7:
        return "WARN"
    return "FAIL"


def assessment(score: float) -> str:
    """The one-sentence verdict of the verbose view's closing panel."""
    if score >= 0.9:
        return "Excellent! Agent is performing very well."
    if score >= 0.7:
        return "Good performance with room for improvement."
    if score >= 0.5:
        return "Moderate performance. Consider reviewing prompts and tool definitions."
    return "Poor performance. Significant improvements needed."


def _pct(value: float) -> Text:
    from rich.text import Text

    return Text(f"{value:.1%}", style=f"bold {band_color(value)}")


def _table(title: str | None = None, *, header: bool = True) -> Any:
    from rich.table import Table

    if not header:
        return Table(show_header=False, box=None, padding=(0, 1))
    return Table(title=title, show_header=True, header_style="bold magenta")


def _header(console: Console) -> None:
    from rich.panel import Panel

    console.print()
    console.print(
        Panel.fit("[bold cyan]Toolscore Evaluation Results[/bold cyan]", border_style="cyan")
    )
    console.print()


def _print_completion(result: EvaluationResult, console: Console) -> None:
    recall = result.required_call_recall
    if recall is None or recall >= 1.0:
        return
    required = len(result.gold_calls)
    completed = round(recall * required)
    console.print(
        f"[bold red]Required calls completed: {completed} of {required}[/bold red] "
        "[dim](missing or failed; not part of the default score)[/dim]"
    )
    console.print()


def _print_top_issues(result: EvaluationResult, console: Console) -> None:
    fixes = fix_list(result)
    if not fixes:
        console.print(
            "[green]No tool-calling issues - the actual calls match the expected spec.[/green]"
        )
        console.print()
        return
    console.print("[bold]Top issues to fix[/bold]")
    for index, item in enumerate(fixes[:TOP_ISSUES_LIMIT], start=1):
        tool = shown_markup(item.tool, one_line=True)
        problem = shown_markup(item.problem, one_line=True)
        console.print(f"  [bold]{index}.[/bold] [cyan]{tool}[/cyan]  {problem}")
        console.print(f"     [dim]-> {shown_markup(item.fix, one_line=True)}[/dim]")
    remaining = len(fixes) - TOP_ISSUES_LIMIT
    if remaining > 0:
        console.print(f"  [dim]... and {remaining} more issue(s).[/dim]")
    console.print()


_SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "dim", "success": "green"}


def _print_findings(result: EvaluationResult, console: Console) -> None:
    found = findings(result)
    if not found:
        return
    console.print("[bold]Behavior and safety[/bold]")
    for severity, message in found:
        style = _SEVERITY_STYLE.get(severity, "dim")
        console.print(
            f"  [{style}]{severity.upper():<7}[/{style}]  {shown_markup(message, one_line=True)}"
        )
    console.print()


def _print_compact(result: EvaluationResult, console: Console) -> None:
    from rich.panel import Panel
    from rich.text import Text

    score = result.score
    table = _table()
    table.add_column("Metric", style="cyan", no_wrap=True)
    table.add_column("Score", justify="right")
    table.add_row("Overall Score", _pct(score))
    table.add_row("Selection Accuracy", _pct(result.selection_accuracy))
    table.add_row("Argument F1", _pct(result.argument_f1))
    table.add_row("Sequence Accuracy", _pct(result.sequence_accuracy))
    console.print(table)
    console.print()
    color = band_color(score)
    console.print(
        Panel.fit(
            Text(f"Grade {result.grade}   {verdict(score)} ({score:.1%})", style=f"bold {color}"),
            border_style=color,
        )
    )
    console.print()
    _print_completion(result, console)
    _print_top_issues(result, console)
    _print_findings(result, console)
    plugin_table = _plugin_metrics_table(result)
    if plugin_table is not None:
        console.print(plugin_table)
        console.print()
    console.print("[dim]Use --verbose for detailed metrics and failure analysis.[/dim]")
    console.print()


def _selection_detail(result: EvaluationResult) -> str:
    gold = [c.tool for c in result.gold_calls]
    trace = [c.tool for c in result.trace_calls]
    total = max(len(gold), len(trace))
    if total == 0:
        return "N/A"
    matches = sum(1 for g, t in zip(gold, trace) if g == t)
    return f"{matches} of {total} correct"


def _core_metrics_table(result: EvaluationResult) -> Any:
    from rich.text import Text

    table = _table("Core Metrics")
    table.add_column("Metric", style="cyan", no_wrap=True)
    table.add_column("Score", justify="right")
    table.add_column("Details", style="dim")
    table.add_row(
        "Invocation Accuracy",
        _pct(as_float(metric(result, "invocation_accuracy"))),
        "Did agent invoke tools when needed?",
    )
    table.add_row("Selection Accuracy", _pct(result.selection_accuracy), _selection_detail(result))
    tc = metric(result, "tool_correctness_metrics", default={})
    table.add_row(
        "Tool Correctness",
        _pct(as_float(metric(result, "tool_correctness_metrics", "tool_correctness"))),
        f"{tc.get('correct_count', 0)} of {tc.get('total_expected', 0)} expected tools called"
        if isinstance(tc, Mapping)
        else "",
    )
    table.add_row(
        "Sequence Accuracy",
        _pct(result.sequence_accuracy),
        f"Edit distance: {metric(result, 'sequence_metrics', 'edit_distance', 0)}",
    )
    precision = as_float(metric(result, "argument_metrics", "precision"))
    recall = as_float(metric(result, "argument_metrics", "recall"))
    table.add_row(
        "Argument F1",
        _pct(result.argument_f1),
        f"Precision: {precision:.1%}, Recall: {recall:.1%}",
    )
    rate = as_float(metric(result, "efficiency_metrics", "redundant_rate"))
    redundant = metric(result, "efficiency_metrics", "redundant_count", 0)
    total = metric(result, "efficiency_metrics", "total_calls", 0)
    table.add_row(
        "Redundant Call Rate",
        Text(f"{rate:.1%}", style=f"bold {rate_color(rate)}"),
        f"Unnecessary calls? ({redundant}/{total})",
    )
    return table


def metric_tips(result: EvaluationResult) -> list[str]:
    """Metric-level tips (selection, tool correctness, arguments, sequence, efficiency)."""
    from toolscore.diff import metric_tips as tips

    return list(tips(result))


def _plugin_metrics_table(result: EvaluationResult) -> Any:
    """The plugin metrics' rows (:mod:`toolscore.reporters.plugin_metrics`), or ``None``."""
    from toolscore.reporters.plugin_metrics import plugin_metric_rows

    rows = plugin_metric_rows(result)
    if not rows:
        return None
    table = _table("Plugin Metrics")
    table.add_column("Metric", style="cyan", no_wrap=True)
    table.add_column("Value", justify="left")
    for row in rows:
        table.add_row(shown(row.label, one_line=True), shown(row.text, one_line=True))
    return table


def _extra_tables(result: EvaluationResult) -> Iterator[Any]:
    """The optional verbose tables, in order; each only when its metric exists.

    The built-in metrics have tables of their own; plugin metrics share one generic table.
    """
    plugin_table = _plugin_metrics_table(result)
    if plugin_table is not None:
        yield plugin_table
    yield from _coverage_tables(result)
    yield from _schema_tables(result)
    yield from _judge_tables(result)
    yield from _side_effect_tables(result)
    yield from _latency_tables(result)


def _coverage_tables(result: EvaluationResult) -> Iterator[Any]:
    from rich.text import Text

    tc = metric(result, "tool_correctness_metrics", default={})
    missing = list(tc.get("missing_tools") or []) if isinstance(tc, Mapping) else []
    extra = list(tc.get("extra_tools") or []) if isinstance(tc, Mapping) else []
    if missing or extra:
        table = _table("Tool Coverage Details")
        table.add_column("Category", style="cyan", no_wrap=True)
        table.add_column("Tools", justify="left")
        if missing:
            table.add_row(
                "Missing", Text(shown(", ".join(map(str, missing)), one_line=True), style="red")
            )
        if extra:
            table.add_row(
                "Extra", Text(shown(", ".join(map(str, extra)), one_line=True), style="yellow")
            )
        yield table


def _schema_tables(result: EvaluationResult) -> Iterator[Any]:
    from rich.text import Text

    schema = metric(result, "schema_metrics", default=None)
    if isinstance(schema, Mapping) and schema:
        table = _table("Schema Validation")
        table.add_column("Metric", style="cyan", no_wrap=True)
        table.add_column("Value", justify="right")
        table.add_column("Description", style="dim")
        table.add_row(
            "Compliance Rate",
            _pct(as_float(schema.get("schema_compliance_rate"))),
            "Arguments match schema requirements",
        )
        table.add_row(
            "Validated Calls",
            str(schema.get("total_validated", 0)),
            "Calls with schema definitions",
        )
        if schema.get("failed_count"):
            table.add_row(
                "Failed Calls",
                Text(str(schema.get("failed_count")), style="bold red"),
                "Validation failures",
            )
            table.add_row(
                "Total Errors",
                Text(str(schema.get("total_errors", 0)), style="bold red"),
                "Schema violations",
            )
        yield table
        details = list(schema.get("error_details") or [])
        if schema.get("total_errors") and details:
            lines = [f"  • [red]{shown_markup(d, one_line=True)}[/red]" for d in details[:10]]
            if len(details) > 10:
                lines.append(f"  [dim]... and {len(details) - 10} more[/dim]")
            yield Text.from_markup(
                "[bold red]Schema Validation Errors:[/bold red]\n" + "\n".join(lines)
            )


def _judge_tables(result: EvaluationResult) -> Iterator[Any]:
    from rich.text import Text

    semantic = metric(result, "semantic_metrics", default=None)
    if isinstance(semantic, Mapping) and semantic:
        table = _table("LLM-as-a-Judge Evaluation")
        table.add_column("Metric", style="cyan", no_wrap=True)
        table.add_column("Value", justify="right")
        table.add_column("Description", style="dim")
        score = semantic.get("semantic_score")
        if semantic.get("error") or not isinstance(score, (int, float)):
            reason = str(semantic.get("error") or "the judge returned no score")
            table.add_row("Status", Text("Error", style="bold red"), shown(reason, one_line=True))
        else:
            table.add_row(
                "Semantic Score", _pct(float(score)), "Semantic equivalence beyond exact matching"
            )
            table.add_row(
                "Model Used",
                shown(semantic.get("model_used", "unknown"), one_line=True),
                "LLM judge model",
            )
            evaluated = min(int(semantic.get("gold_count", 0)), int(semantic.get("trace_count", 0)))
            table.add_row("Evaluated Calls", str(evaluated), "")
        yield table


def _side_effect_tables(result: EvaluationResult) -> Iterator[Any]:
    from rich.text import Text

    side = metric(result, "side_effect_metrics", default=None)
    if isinstance(side, Mapping) and side:
        table = _table("Side-Effect Validation")
        table.add_column("Metric", style="cyan", no_wrap=True)
        table.add_column("Value", justify="right")
        table.add_row("Success Rate", _pct(as_float(side.get("success_rate"), 1.0)))
        # The side-effect metric's own key names; any others would always show 0/0.
        passed = int(side.get("passed_checks", 0) or 0)
        total = int(side.get("total_checks", 0) or 0)
        table.add_row("Validated", f"{passed}/{total}")
        if total - passed > 0:
            table.add_row("Failed", Text(str(total - passed), style="bold red"))
        yield table


def _latency_tables(result: EvaluationResult) -> Iterator[Any]:

    latency = metric(result, "latency_metrics", default=None)
    if isinstance(latency, Mapping) and latency:
        table = _table("Performance Metrics")
        table.add_column("Metric", style="cyan", no_wrap=True)
        table.add_column("Value", justify="right")
        for label, key in (
            ("Total Duration", "total_duration"),
            ("Average Duration", "average_duration"),
            ("Max Duration", "max_duration"),
            ("Min Duration", "min_duration"),
        ):
            table.add_row(label, f"{as_float(latency.get(key)):.3f}s")
        yield table


def _print_verbose(result: EvaluationResult, console: Console, show_explanations: bool) -> None:
    from rich.panel import Panel
    from rich.text import Text

    info = _table(header=False)
    info.add_column(style="dim")
    info.add_column()
    info.add_row("Expected calls:", str(len(result.gold_calls)))
    info.add_row("Actual calls:", str(len(result.trace_calls)))
    console.print(info)
    console.print()
    console.print(_core_metrics_table(result))
    console.print()
    console.print(f"[bold]Grade {result.grade}[/bold]")
    console.print()
    _print_completion(result, console)
    _print_top_issues(result, console)
    _print_findings(result, console)
    if show_explanations:
        tips = metric_tips(result)[:3]
        if tips:
            console.print("[bold cyan]Tips:[/bold cyan]")
            for tip in tips:
                console.print(f"   [cyan]TIP:[/cyan] {shown_markup(tip, one_line=True)}")
            console.print()
    for renderable in _extra_tables(result):
        console.print(renderable)
        console.print()
    score = result.score
    color = band_color(score)
    console.print(
        Panel(
            Text(assessment(score), style=f"bold {color}"),
            title=f"Overall Score: {score:.1%}",
            border_style=color,
            # Full width on a terminal or at a set COLUMNS; as wide as its text off a
            # terminal, where the width has no bound (toolscore.terminal_width).
            expand=console.width < UNWRAPPED_WIDTH,
        )
    )
    console.print()


def print_evaluation_summary(
    result: EvaluationResult,
    console: Console | None = None,
    verbose: bool = False,
    show_explanations: bool = True,
) -> None:
    """Print the evaluation summary: the compact view, or every detail with ``verbose``.

    The compact view shows the score table, the grade and verdict, the required-call line, the
    "Top issues to fix" and the behaviour findings; the verbose view adds the core metrics with
    their details, tips, tool coverage, judge, side-effect and performance tables.
    """
    if console is None:
        from toolscore.terminal_width import make_console

        console = make_console()
    _header(console)
    if verbose:
        _print_verbose(result, console, show_explanations)
    else:
        _print_compact(result, console)


class ConsoleReporter:
    """Renders the terminal summary as plain text (no colours), e.g. for a log file."""

    def __init__(self, width: int = 100) -> None:
        self.width = width

    def render(self, result: EvaluationResult, *, verbose: bool = False) -> str:
        from rich.console import Console as RichConsole

        console = RichConsole(
            file=io.StringIO(),
            width=self.width,
            color_system=None,
            force_terminal=False,
            highlight=False,
            record=True,
        )
        print_evaluation_summary(result, console, verbose=verbose)
        return console.export_text()


@hookimpl
def toolscore_register_reporters() -> Iterator[ReporterSpec]:
    yield ReporterSpec(
        name="console",
        factory=ConsoleReporter,
        summary="terminal summary (compact, or detailed with --verbose)",
        extension=".txt",
    )
