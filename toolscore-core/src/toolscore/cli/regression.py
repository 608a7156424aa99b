"""``toolscore regression BASELINE TRACE -g GOLD``: fail CI when a trace got worse than a baseline.

Exit codes: **0** no regression, **1** regression detected, **2** any error (missing or invalid
file, bad option), so a CI step can tell "the agent got worse" from "the check is broken".
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from toolscore.cli.options import (
    metric_option,
    progress_verbose_option,
    report_option,
    trace_format_option,
)
from toolscore.cli.output import ExitCode, handled_errors, warn_unreadable_arguments

#: Exit code when a metric regressed.
EXIT_REGRESSION = 1
#: Exit code for every error, including click's usage errors.
EXIT_ERROR = 2


@click.command(name="regression")
@click.argument("baseline_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("trace_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "-g",
    "--gold-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    required=True,
    help="Gold standard file the baseline was made with.",
)
@click.option(
    "-t",
    "--threshold",
    type=click.FloatRange(min=0.0),
    default=0.05,
    show_default=True,
    help="Largest allowed drop per metric, in score units (0.05 = 5 points).",
)
@trace_format_option
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write the comparison as JSON.",
)
@report_option("toolscore-regression")
@metric_option
@progress_verbose_option
@click.pass_context
def command(
    ctx: click.Context,
    baseline_file: Path,
    trace_file: Path,
    gold_file: Path,
    threshold: float,
    trace_format: str,
    output: Path | None,
    reports: tuple[tuple[str, str], ...],
    metric_options: tuple[tuple[str, object], ...],
    verbose: bool,
) -> None:
    """Compare agent trace against a saved baseline.

    Re-evaluates TRACE_FILE against the gold file and compares each metric with BASELINE_FILE
    (written by `toolscore eval ... --save-baseline`). Exit code 0 when nothing regressed, 1 on
    a regression, 2 on any error.

    Example:

        toolscore eval gold.json trace.json --save-baseline baseline.json

        toolscore regression baseline.json new_trace.json -g gold.json -t 0.10
    """
    from toolscore.cli.paths import refuse_outputs_onto_inputs

    refuse_outputs_onto_inputs(ctx, [("--report", Path(path)) for _, path in reports])
    from rich.markup import escape

    from toolscore.baseline import compare_to_baseline, load_baseline, print_comparison_result
    from toolscore.cli import plugin_manager_for
    from toolscore.cli.output import stdout_console

    console = stdout_console()
    with handled_errors(verbose, "Regression check failed: ", code=ExitCode(EXIT_ERROR)):
        pm = plugin_manager_for(ctx)
        if verbose:
            console.print(f"> Loading baseline from: {baseline_file}", markup=False)
            console.print(f"> Loading trace from: {trace_file}", markup=False)
            console.print(f"> Threshold: {threshold:.0%}", markup=False)
        baseline = load_baseline(baseline_file)
        from toolscore.evaluation import evaluate_trace

        result = evaluate_trace(
            gold_file,
            trace_file,
            format=trace_format,
            validate_side_effects=False,
            judge=False,
            options=dict(metric_options),
            plugin_manager=pm,
        )
        if reports:
            from toolscore.reporters import write_reports

            write_reports(result, dict(reports), plugin_manager=pm)
        warn_unreadable_arguments(trace_file, result.trace_calls)
        comparison = compare_to_baseline(result, baseline, threshold, gold_file)
        print_comparison_result(comparison, console)
        if output is not None:
            from toolscore.fileio import atomic_write_json

            atomic_write_json(output, comparison.to_dict())
            console.print(f"[dim]>[/dim] Comparison report: [cyan]{escape(str(output))}[/cyan]")
            console.print()
    sys.exit(0 if comparison.passed else EXIT_REGRESSION)


__all__ = ["EXIT_ERROR", "EXIT_REGRESSION", "command"]
