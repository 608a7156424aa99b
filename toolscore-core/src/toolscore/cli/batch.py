"""``toolscore eval-batch DATASET``: score a whole dataset, in parallel, resumably.

The command is a thin shell over :func:`toolscore.batch.evaluate_dataset`: it turns options
into arguments, prints bad records as they come (one line each, on stderr), shows progress,
writes the aggregate reports and applies ``--fail-under`` to the mean score.

The gold options are those of ``toolscore eval`` (``--weight``, ``--match``/``--args``,
``--tools``, ``--forbidden``, ``--option``, ``--no-side-effects``, ``--llm-judge`` and the
``--llm-*`` options, off by default) and apply to every case; a gold/ + traces/ pair is scored
as ``toolscore eval GOLD TRACE`` would score it.

Exit codes: 0 success (bad records skipped are reported, not fatal); 1 a handled error, a bad
record with ``--fail-fast``, forbidden calls or credentials with ``--fail-on-violations``, or
``--fail-under`` not met; 2 usage errors.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from toolscore.cli.options import (
    JudgeRequest,
    Threshold,
    args_policy_option,
    fail_under_option,
    forbidden_option,
    judge_options,
    match_from_options,
    match_mode_option,
    metric_option,
    no_side_effects_option,
    tools_file_option,
    trace_format_option,
    weights_option,
)
from toolscore.cli.output import ExitCode, fail, handled_errors, warnings_as_lines
from toolscore.errors import MissingPluginError


@click.command(name="eval-batch")
@click.argument("dataset", type=click.Path(exists=True, path_type=Path))
@click.option(
    "--gold",
    "gold_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Folder of <trace id>.json gold files: DATASET is then OTLP exports.",
)
@trace_format_option
@match_mode_option("Matching mode for every case (docs/matching.md); default: plain scoring.")
@args_policy_option
@tools_file_option
@click.option(
    "-o",
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("results.jsonl"),
    show_default=True,
    help="Per-case results, one JSON line per case (appended a batch at a time).",
)
@click.option("--resume", is_flag=True, help="Skip the case ids already in --out.")
@click.option(
    "--overwrite",
    is_flag=True,
    help="Replace an existing --out (without it, or --resume, an existing one is refused).",
)
@click.option("--fail-fast", is_flag=True, help="Stop at the first bad record (default: skip it).")
@click.option(
    "-w",
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Parallel workers (default: one per CPU; 1 runs in this process).",
)
@click.option(
    "--executor",
    default="local",
    show_default=True,
    help="Executor plugin: local, or dask (toolscore-dask), ...",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="Cluster scheduler address for --executor dask (default: a LocalCluster for the run).",
)
@click.option(
    "--batch-size",
    type=click.IntRange(min=1),
    default=None,
    help="Cases per work unit [default: the executor's: 128 for local, 1024 for dask].",
)
@click.option(
    "--baseline",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="An earlier --out file: report the cases whose score dropped.",
)
@click.option(
    "--json",
    "json_report",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("toolscore-batch.json"),
    show_default=True,
    help="Aggregate JSON report path (always written).",
)
@click.option(
    "--markdown", type=click.Path(dir_okay=False, path_type=Path), help="Also write Markdown."
)
@click.option("--html", type=click.Path(dir_okay=False, path_type=Path), help="Also write HTML.")
@click.option(
    "--worst", type=click.IntRange(min=0), default=10, show_default=True, help="Worst cases listed."
)
@forbidden_option
@weights_option
@metric_option
@no_side_effects_option
@judge_options
@click.option(
    "--fail-on-violations",
    is_flag=True,
    help="Exit 1 when forbidden calls or credentials are found in any case.",
)
@fail_under_option("Exit 1 when the mean score (0.85 or 85%) or its grade (A-F) is below this.")
@click.option("-v", "--verbose", is_flag=True, help="Tracebacks on unexpected errors.")
@click.pass_context
def command(
    ctx: click.Context,
    dataset: Path,
    gold_dir: Path | None,
    trace_format: str,
    match_mode: str | None,
    args_policy: str | None,
    tools_file: Path | None,
    out: Path,
    resume: bool,
    overwrite: bool,
    fail_fast: bool,
    workers: int | None,
    executor: str,
    scheduler: str | None,
    batch_size: int | None,
    baseline: Path | None,
    json_report: Path,
    markdown: Path | None,
    html: Path | None,
    worst: int,
    forbidden: Path | None,
    weights: tuple[tuple[str, float], ...],
    metric_options: tuple[tuple[str, Any], ...],
    no_side_effects: bool,
    judge: JudgeRequest,
    fail_on_violations: bool,
    fail_under: Threshold | None,
    verbose: bool,
) -> None:
    """Evaluate a dataset of cases (JSONL, gold/ + traces/, or OTLP) in parallel."""
    from toolscore.batch import evaluate_dataset
    from toolscore.batch.progress import Progress
    from toolscore.batch.records import CaseError
    from toolscore.cli import plugin_manager_for

    _check_outputs(ctx, out, resume=resume, overwrite=overwrite)
    pm = plugin_manager_for(ctx)
    with (
        handled_errors(verbose, "Unexpected error: ", expected=_EXPECTED_ERRORS),
        warnings_as_lines(),
    ):
        rules = _forbidden_rules(pm, forbidden)
        match = match_from_options(match_mode, args_policy)
        tools = _tools(tools_file)

        def report(error: CaseError) -> None:
            progress.note_bad_record()  # the Progress made below, before any record is read
            click.echo(f"bad record: {error.message}", err=True)

        run = evaluate_dataset(
            dataset,
            workers=workers,
            executor=executor,
            scheduler=scheduler,
            out=out,
            resume=resume,
            baseline=baseline,
            fail_fast=fail_fast,
            batch_size=batch_size,
            format=trace_format,
            weights=dict(weights) or None,
            forbidden=rules,
            match=match,
            tools=tools,
            options=dict(metric_options) or None,
            gold_dir=gold_dir,
            validate_side_effects=not no_side_effects,
            judge=judge.setting(),
            worst=worst,
            on_error=report,
            plugin_manager=pm,
        )
        progress = Progress(run.dataset.count() if sys.stderr.isatty() else None)
        aggregate = _finish_run(run, progress, dataset, out)
        _write_reports(aggregate, json_report, markdown, html)
    _report_run(aggregate, out, (json_report, markdown, html), fail_on_violations, fail_under)


_EXPECTED_ERRORS = (
    (FileNotFoundError, "File not found: "),
    (MissingPluginError, ""),
    (ValueError, "Invalid data: "),
)


def _check_outputs(ctx: click.Context, out: Path, *, resume: bool, overwrite: bool) -> None:
    """Before any work: no output onto an input, and no silent replacement of ``--out``."""
    from toolscore.cli.paths import refuse_outputs_onto_inputs

    refuse_outputs_onto_inputs(ctx)
    if not resume and not overwrite and _holds_results(out):
        fail(
            f"{out} already holds results: --resume continues that run, --overwrite replaces it",
            ExitCode.USAGE,
        )


def _finish_run(run: Any, progress: Any, dataset: Path, out: Path) -> Any:
    """Score every case; on Ctrl-C, stop the workers and say how to resume (exit 130)."""
    try:
        return run.finish(progress=progress.advance)
    except KeyboardInterrupt:
        run.close()
        progress.close()
        _interrupted(dataset, out)
    finally:
        progress.close()


def _forbidden_rules(pm: Any, forbidden: Path | None) -> list[dict[str, Any]] | None:
    """The ``--forbidden`` rules file, read with the matchers of ``pm``."""
    if forbidden is None:
        return None
    from toolscore.metrics.policy import load_forbidden_rules

    return load_forbidden_rules(forbidden, registry=pm.get_matchers())


def _tools(tools_file: Path | None) -> Any:
    """The ``--tools`` definitions, or ``None``."""
    if tools_file is None:
        return None
    from toolscore.tool_schemas import read_tools_file

    return read_tools_file(tools_file)


def _report_run(
    aggregate: Any,
    out: Path,
    reports: tuple[Path, Path | None, Path | None],
    fail_on_violations: bool,
    fail_under: Threshold | None,
) -> None:
    """Print the summary and where the reports went, warn about unjudged cases, then apply
    the exit gates (``--fail-on-violations``, ``--fail-under``)."""
    from toolscore.batch.report import print_summary
    from toolscore.cli.output import stdout_console

    json_report, markdown, html = reports
    console = stdout_console()
    print_summary(aggregate, console)
    console.print(f"> Results: {out}", markup=False)
    for label, path in (("JSON", json_report), ("Markdown", markdown), ("HTML", html)):
        if path is not None:
            console.print(f"> {label} report: {path}", markup=False)
    unjudged = sum(f.count for f in aggregate.findings if f.code == "judge_error")
    if unjudged:
        click.echo(
            f"Warning: LLM judge gave no verdict on {unjudged} case(s); "
            f"semantic_metrics.error in {out} says why",
            err=True,
        )
    if fail_on_violations:
        violations = sum(
            f.count for f in aggregate.findings if f.code in ("forbidden_call", "credential")
        )
        if violations:
            fail(f"{violations} forbidden call(s) or credential(s) found (--fail-on-violations)")
    if fail_under is not None and aggregate.cases:
        message = fail_under.failed_by(aggregate.mean, aggregate.grade)
        if message is not None:
            click.echo(message, err=True)
            sys.exit(int(ExitCode.ERROR))


def _holds_results(out: Path) -> bool:
    """Whether ``out`` is a regular file with something in it (a device or FIFO is not)."""
    try:
        return out.is_file() and out.stat().st_size > 0
    except OSError:
        return False


def resume_command(dataset: Path, out: Path) -> str:
    """The command line that continues this run: the one typed, with ``--resume``."""
    import shlex

    argv = sys.argv[1:]
    if "eval-batch" not in argv:  # called in-process (tests, embedders): the essentials
        argv = ["eval-batch", str(dataset), "--out", str(out)]
    argv = [arg for arg in argv if arg != "--overwrite"]
    if "--resume" not in argv:
        argv.append("--resume")
    return shlex.join(["toolscore", *argv])


def _interrupted(dataset: Path, out: Path) -> NoReturn:
    """Ctrl-C: say what is saved and how to go on, then exit 130 as shells expect."""
    from toolscore.batch.results_file import read_results

    try:
        done = sum(1 for _ in read_results(out))
    except (OSError, ValueError):
        done = 0
    click.echo(f"\nInterrupted: {done} case result(s) are saved in {out}.", err=True)
    click.echo(f"Continue with: {resume_command(dataset, out)}", err=True)
    sys.exit(int(ExitCode.INTERRUPTED))


def _write_reports(
    aggregate: object, json_path: Path, markdown: Path | None, html: Path | None
) -> None:
    from toolscore.batch.aggregate import Aggregate
    from toolscore.batch.html import render_batch_html
    from toolscore.batch.report import render_batch_json, render_batch_markdown
    from toolscore.fileio import atomic_write_text

    assert isinstance(aggregate, Aggregate)
    atomic_write_text(json_path, render_batch_json(aggregate))
    if markdown is not None:
        atomic_write_text(markdown, render_batch_markdown(aggregate))
    if html is not None:
        atomic_write_text(html, render_batch_html(aggregate))
