"""``toolscore compare GOLD TRACE... -n NAME...``: several models' traces side by side.

Exit codes: 0 compared; 1 no trace, a name count that does not match, or any error while
loading or evaluating; 2 usage errors.
"""

from __future__ import annotations

from pathlib import Path

import click

from toolscore.cli.options import (
    metric_option,
    progress_verbose_option,
    report_option,
    trace_format_option,
)
from toolscore.cli.output import fail, handled_errors, warn_unreadable_arguments


@click.command(name="compare")
@click.argument("gold_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument(
    "trace_files", nargs=-1, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "-n",
    "--names",
    multiple=True,
    help="Model names, in the order of the trace files (default: the file names).",
)
@trace_format_option
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("comparison.json"),
    show_default=True,
    help="Comparison report (JSON) to write.",
)
@report_option("toolscore-compare")
@metric_option
@progress_verbose_option
@click.pass_context
def command(
    ctx: click.Context,
    gold_file: Path,
    trace_files: tuple[Path, ...],
    names: tuple[str, ...],
    trace_format: str,
    output: Path,
    reports: tuple[tuple[str, str], ...],
    metric_options: tuple[tuple[str, object], ...],
    verbose: bool,
) -> None:
    """Compare multiple model traces against gold standard.

    Evaluates each trace against GOLD_FILE and prints one column per model with the best
    model per metric and the overall winner.

    Example:

        toolscore compare gold.json gpt4.json claude.json -n gpt-4 -n claude -o comparison.json
    """
    from toolscore.cli.paths import refuse_outputs_onto_inputs

    refuse_outputs_onto_inputs(ctx, [("--report", Path(path)) for _, path in reports])
    model_names = _model_names(trace_files, names)

    from rich.markup import escape

    from toolscore.cli import plugin_manager_for
    from toolscore.cli.output import stdout_console
    from toolscore.model_comparison import (
        compare_models,
        print_comparison_table,
        save_comparison_report,
    )

    console = stdout_console()
    with handled_errors(verbose, "Comparison failed: "):
        pm = plugin_manager_for(ctx)
        from toolscore.evaluation import evaluate_trace

        if verbose:
            console.print(f"> Loading gold standard from: {gold_file}", markup=False)
            console.print(f"> Comparing {len(trace_files)} models", markup=False)
        results = {}
        for name, trace in zip(model_names, trace_files):
            if verbose:
                console.print(f"> Evaluating {name}...", markup=False)
            results[name] = evaluate_trace(
                gold_file,
                trace,
                format=trace_format,
                validate_side_effects=False,
                judge=False,
                options=dict(metric_options),
                plugin_manager=pm,
            )
            warn_unreadable_arguments(trace, results[name].trace_calls)
            if reports:
                from toolscore.reporters import write_reports

                targets = {fmt: _per_model(Path(path), name) for fmt, path in reports}
                write_reports(results[name], targets, plugin_manager=pm)
        comparison = compare_models(results)
        print_comparison_table(comparison, console)
        path = save_comparison_report(comparison, output)
    console.print(f"[dim]>[/dim] Comparison report: [cyan]{escape(str(path))}[/cyan]")
    console.print()
    console.print("[bold]Next steps:[/bold]")
    console.print("  • Check the winner and see where other models fell short")
    console.print("  • Run individual evals with [cyan]--verbose[/cyan] for details")
    console.print("  • Use [cyan]--llm-judge[/cyan] if tool names differ semantically")
    console.print()


def _model_names(trace_files: tuple[Path, ...], names: tuple[str, ...]) -> list[str]:
    """One unique name per trace: the ``-n`` names, else the file stems."""
    if not trace_files:
        fail("At least one trace file is required")
    if names and len(names) != len(trace_files):
        fail(
            f"Number of names ({len(names)}) must match number of trace files ({len(trace_files)})"
        )
    model_names = list(names) if names else [path.stem for path in trace_files]
    if len(set(model_names)) != len(model_names):
        duplicates = sorted({n for n in model_names if model_names.count(n) > 1})
        fail(
            f"Model names must be unique; use -n to name them (duplicated: {', '.join(duplicates)})"
        )
    return model_names


def _per_model(path: Path, model: str) -> Path:
    """``report.tap`` → ``report-<model>.tap``: one report file per compared model."""
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in model)
    return path.with_name(f"{path.stem}-{safe}{path.suffix}")
