"""``toolscore eval GOLD TRACE``: score a trace file against a gold file.

Exit codes: 0 success; 1 a handled error (missing file, invalid data), ``--fail-under`` not met,
or ``--fail-on-violations`` with violations; 2 usage errors.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import attrs
import click

from toolscore.cli.options import (
    JudgeRequest,
    Threshold,
    args_policy_option,
    check_weights,
    fail_under_option,
    forbidden_option,
    judge_options,
    match_from_options,
    match_mode_option,
    metric_option,
    no_side_effects_option,
    report_option,
    tools_file_option,
    trace_format_option,
    weights_option,
)
from toolscore.cli.output import ExitCode, fail, handled_errors
from toolscore.errors import MissingPluginError

if TYPE_CHECKING:
    from toolscore.plugins.manager import ToolscorePluginManager
    from toolscore.result import EvaluationResult

_REPORT_OPTIONS = (
    ("html", "HTML"),
    ("csv", "CSV"),
    ("markdown", "Markdown"),
    ("junit", "JUnit XML"),
)


def _extra_reports(
    paths: tuple[Path | None, ...], reports: tuple[tuple[str, str], ...]
) -> dict[str, Path]:
    """``--html``/``--csv``/``--markdown``/``--junit`` paths, then each ``--report NAME PATH``."""
    extra_reports: dict[str, Path] = {
        name: path for (name, _), path in zip(_REPORT_OPTIONS, paths) if path is not None
    }
    extra_reports.update((name, Path(path)) for name, path in reports)
    return extra_reports


@attrs.frozen
class _Common:
    """What every way of evaluating (several runs, turns, one trace) needs from the command."""

    pm: ToolscorePluginManager
    console: Any
    gold_file: Path
    trace_format: str
    output: Path
    weights: tuple[tuple[str, float], ...]
    match: dict[str, str] | None
    verbose: bool


def _several_runs(
    common: _Common, trace_files: tuple[Path, ...], runs_k: int | None, fail_under: Threshold | None
) -> NoReturn:
    """Several trace files (or ``--k``): one gold file against each run, pass^k; exits."""
    pm, console, verbose = common.pm, common.console, common.verbose
    gold_file, trace_format, output = common.gold_file, common.trace_format, common.output
    weights, match = common.weights, common.match
    from toolscore.cli.runs import evaluate_run_files

    if runs_k is not None and runs_k > len(trace_files):
        raise click.BadParameter(
            f"K={runs_k} exceeds the {len(trace_files)} runs", param_hint="--k"
        )
    with handled_errors(verbose, "Unexpected error: ", expected=((ValueError, "Invalid data: "),)):
        code = evaluate_run_files(
            pm,
            gold_file,
            trace_files,
            trace_format,
            k=runs_k,
            threshold=fail_under.score if fail_under and fail_under.score is not None else 0.9,
            output=output,
            weights=dict(weights) or None,
            match=match,
            console=console,
        )
    sys.exit(code)


def _evaluate_one(
    common: _Common,
    trace_file: Path,
    *,
    no_side_effects: bool,
    forbidden: Path | None,
    judge: JudgeRequest,
    metric_options: tuple[tuple[str, Any], ...],
    tools_file: Path | None,
    extra_reports: dict[str, Path],
    fail_on_violations: bool,
    fail_under: Threshold | None,
    save_baseline: Path | None,
) -> None:
    """One trace file: evaluate it, write the reports, print the summary, save a baseline,
    then apply the exit gates (``--fail-on-violations``, ``--fail-under``)."""
    pm, console, verbose = common.pm, common.console, common.verbose
    gold_file, trace_format, output = common.gold_file, common.trace_format, common.output
    weights, match = common.weights, common.match
    from toolscore.cli.output import warn_judge_error, warn_unreadable_arguments

    eval_errors = (
        (FileNotFoundError, "File not found: "),
        (MissingPluginError, ""),
        (ValueError, "Invalid data: "),
    )
    with handled_errors(
        verbose,
        "Unexpected error: ",
        hint=" (run with -v for the traceback; --no-plugins skips plugins)",
        expected=eval_errors,
    ):
        if verbose:
            console.print(f"> Loading gold standard from: {gold_file}", markup=False)
            console.print(f"> Loading trace from: {trace_file}", markup=False)
            console.print(f"> Format: {trace_format}", markup=False)
        result: EvaluationResult = _evaluate(
            pm,
            gold_file,
            trace_file,
            trace_format,
            no_side_effects,
            forbidden,
            dict(weights) or None,
            judge.setting(),
            dict(metric_options),
            match,
            tools_file,
        )
        junit_options = {
            "fail_on_violations": fail_on_violations,
            **(
                {"min_score": fail_under.score}
                if fail_under and fail_under.score is not None
                else {}
            ),
        }
        _write_reports(pm, result, output, extra_reports, {"junit": junit_options})
        if verbose:
            console.print(f"> JSON report saved to: {output}", markup=False)
            for name, path in extra_reports.items():
                console.print(f"> {_label(name)} report saved to: {path}", markup=False)
        _print_summary(result, console, verbose)
        warn_unreadable_arguments(trace_file, result.trace_calls)
        warn_judge_error(result.metrics)
        if save_baseline is not None:
            from toolscore.baseline import save_baseline as write_baseline

            write_baseline(result, save_baseline, gold_file)
            console.print(f"> Baseline: {save_baseline}", markup=False)
    console.print(f"> JSON report: {output}", markup=False)
    for name, path in extra_reports.items():
        console.print(f"> {_label(name)} report: {path}", markup=False)
    console.print()
    _gates(result, fail_on_violations, fail_under)


@click.command(name="eval")
@click.argument("gold_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument(
    "trace_files",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
)
@trace_format_option
@click.option(
    "--k",
    "runs_k",
    type=click.IntRange(min=1),
    default=None,
    help="Several traces are runs of one case: report pass@K and pass^K (default K = runs).",
)
@match_mode_option(
    "Matching mode (docs/matching.md); default: the gold file's, else plain scoring."
)
@args_policy_option
@tools_file_option
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("toolscore.json"),
    show_default=True,
    help="JSON report path (always written).",
)
@click.option(
    "--html", type=click.Path(dir_okay=False, path_type=Path), help="Also write an HTML report."
)
@click.option(
    "--csv", type=click.Path(dir_okay=False, path_type=Path), help="Also write a CSV report."
)
@click.option(
    "--markdown",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write a Markdown report.",
)
@click.option(
    "--junit",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write a JUnit XML report.",
)
@report_option()
@no_side_effects_option
@judge_options
@click.option(
    "--save-baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a baseline file.",
)
@forbidden_option
@weights_option
@metric_option
@click.option(
    "--fail-on-violations",
    is_flag=True,
    help="Exit 1 when forbidden calls or credentials are found.",
)
@fail_under_option("Exit 1 when the score (0.85 or 85%) or grade (A-F) is below this.")
@click.option(
    "-v", "--verbose", is_flag=True, help="Detailed metrics; tracebacks on unexpected errors."
)
@click.pass_context
def command(
    ctx: click.Context,
    gold_file: Path,
    trace_files: tuple[Path, ...],
    trace_format: str,
    runs_k: int | None,
    match_mode: str | None,
    args_policy: str | None,
    tools_file: Path | None,
    output: Path,
    html: Path | None,
    csv: Path | None,
    markdown: Path | None,
    junit: Path | None,
    reports: tuple[tuple[str, str], ...],
    no_side_effects: bool,
    judge: JudgeRequest,
    save_baseline: Path | None,
    forbidden: Path | None,
    weights: tuple[tuple[str, float], ...],
    metric_options: tuple[tuple[str, Any], ...],
    fail_on_violations: bool,
    fail_under: Threshold | None,
    verbose: bool,
) -> None:
    """Evaluate an agent trace against gold standard."""
    from toolscore.cli.paths import refuse_outputs_onto_inputs

    refuse_outputs_onto_inputs(ctx, [("--report", Path(path)) for _, path in reports])
    from toolscore.cli import plugin_manager_for
    from toolscore.cli.output import stdout_console

    check_weights(ctx, weights)
    pm = plugin_manager_for(ctx)
    console = stdout_console()
    match = match_from_options(match_mode, args_policy)
    common = _Common(pm, console, gold_file, trace_format, output, weights, match, verbose)
    if len(trace_files) > 1 or runs_k is not None:
        _several_runs(common, trace_files, runs_k, fail_under)
    trace_file = trace_files[0]
    extra_reports = _extra_reports((html, csv, markdown, junit), reports)
    turns_result = _turn_by_turn(
        pm,
        gold_file,
        trace_file,
        unsupported=bool(extra_reports) or judge.enabled or save_baseline is not None,
        verbose=verbose,
        console=console,
        trace_format=trace_format,
        output=output,
        weights=dict(weights) or None,
        options=dict(metric_options),
        match=match,
        tools_file=tools_file,
        forbidden_file=forbidden,
    )
    if turns_result is not None:
        _turn_gates(turns_result, fail_on_violations, fail_under)
        return
    _evaluate_one(
        common,
        trace_file,
        no_side_effects=no_side_effects,
        forbidden=forbidden,
        judge=judge,
        metric_options=metric_options,
        tools_file=tools_file,
        extra_reports=extra_reports,
        fail_on_violations=fail_on_violations,
        fail_under=fail_under,
        save_baseline=save_baseline,
    )


def _turn_by_turn(
    pm: Any,
    gold_file: Path,
    trace_file: Path,
    *,
    unsupported: bool,
    verbose: bool,
    console: Any,
    **evaluation: Any,
) -> Any:
    """A gold file with ``turns``: score the conversation turn by turn (cli/turns.py).

    Returns the :class:`~toolscore.turns.TurnsResult`, or ``None`` for a gold file without
    turns. An option that renders one evaluation (``unsupported``) is a usage error (exit 2).
    """
    from toolscore.cli.turns import UNSUPPORTED, evaluate_turn_files, turns_in_gold

    errors = ((FileNotFoundError, "File not found: "), (ValueError, "Invalid data: "))
    with handled_errors(verbose, "Unexpected error: ", expected=errors):
        gold = turns_in_gold(gold_file)
    if gold is None:
        return None
    if unsupported:
        fail(UNSUPPORTED, ExitCode.USAGE)
    with handled_errors(verbose, "Unexpected error: ", expected=errors):
        result = evaluate_turn_files(pm, gold, gold_file, trace_file, console=console, **evaluation)
    console.print(f"> JSON report: {evaluation['output']}", markup=False)
    return result


def _turn_gates(result: Any, fail_on_violations: bool, fail_under: Threshold | None) -> None:
    """The gates of :func:`_gates` on a conversation: violations in any turn, and the
    combined (mean) score and its grade."""
    from toolscore.cli.turns import violation_count

    _gate(violation_count(result), result.score, result.grade, fail_on_violations, fail_under)


def _label(name: str) -> str:
    """``HTML`` for the built-in options' formats, the format name for any other."""
    return dict(_REPORT_OPTIONS).get(name, name)


def _evaluate(
    pm: Any,
    gold_file: Path,
    trace_file: Path,
    trace_format: str,
    no_side_effects: bool,
    forbidden: Path | None,
    weights: dict[str, float] | None,
    judge: Any,
    options: dict[str, Any],
    match: Any = None,
    tools: Path | None = None,
) -> Any:
    from toolscore.evaluation import evaluate_trace

    rules = None
    if forbidden is not None:
        from toolscore.metrics.policy import load_forbidden_rules

        rules = load_forbidden_rules(forbidden)
    return evaluate_trace(
        gold_file,
        trace_file,
        format=trace_format,
        validate_side_effects=not no_side_effects,
        judge=judge,
        forbidden=rules,
        weights=weights,
        options=options,
        match=match,
        tools=tools,
        plugin_manager=pm,
    )


def _write_reports(
    pm: Any, result: Any, output: Path, extra: dict[str, Path], options: dict[str, dict[str, Any]]
) -> None:
    from toolscore.reporters import write_reports

    write_reports(result, {"json": output, **extra}, plugin_manager=pm, options=options)


def _print_summary(result: Any, console: Any, verbose: bool) -> None:
    from toolscore.reporters.console import print_evaluation_summary

    print_evaluation_summary(result, console, verbose=verbose)


def _gates(result: Any, fail_on_violations: bool, fail_under: Threshold | None) -> None:
    secrets = result.metrics.get("security_metrics", {}).get("secret_count", 0)
    count = len(result.policy_violations) + int(secrets)
    _gate(count, result.score, result.grade, fail_on_violations, fail_under)


def _gate(
    violations: int,
    score: float,
    grade: str,
    fail_on_violations: bool,
    fail_under: Threshold | None,
) -> None:
    """Exit 1 for ``--fail-on-violations`` with violations, or a score below ``--fail-under``."""
    if fail_on_violations and violations > 0:
        fail(f"{violations} forbidden call(s) or credential(s) found (--fail-on-violations)")
    if fail_under is not None:
        message = fail_under.failed_by(score, grade)
        if message is not None:
            click.echo(message, err=True)
            sys.exit(int(ExitCode.ERROR))
