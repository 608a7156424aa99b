"""``toolscore eval GOLD RUN1 RUN2 ... [--k K]``: one case run several times.

Why its own module: the single-trace path of ``eval`` writes the full reports; several runs of
one case are summarised instead (passing runs, pass@k, pass^k, flakiness, the calls that
differ between runs), and the JSON report holds that summary.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

__all__ = ["evaluate_run_files"]


def evaluate_run_files(
    pm: Any,
    gold_file: Path,
    trace_files: tuple[Path, ...],
    trace_format: str,
    *,
    k: int | None,
    threshold: float,
    output: Path,
    weights: dict[str, float] | None,
    match: Any,
    console: Any,
) -> int:
    """Score every run, print and write the summary; the exit code (1 when pass^k < 1... is not
    a failure by itself: the code is 1 only when no run passed)."""
    from toolscore.evaluation import evaluate
    from toolscore.fileio import atomic_write_json
    from toolscore.loading import load_gold_standard, load_trace
    from toolscore.matching._gold import load_match
    from toolscore.runs import summarise

    gold = load_gold_standard(gold_file, plugin_manager=pm)
    spec = match if match is not None else load_match(gold_file)
    results = [
        evaluate(
            list(gold),
            load_trace(path, format=trace_format, plugin_manager=pm),
            weights=weights,
            match=spec,
            plugin_manager=pm,
        )
        for path in trace_files
    ]
    summary = summarise(results, k=k if k is not None else len(results), threshold=threshold)
    record = {"case": str(gold_file), "traces": [str(p) for p in trace_files], **summary.to_dict()}
    atomic_write_json(output, {"cases": [record]})
    console.print(
        f"Case {gold_file}: {summary.passed}/{summary.n} runs pass (score >= {threshold})",
        markup=False,
    )
    for number, (path, result, ok) in enumerate(zip(trace_files, results, summary.outcomes), 1):
        mark = "pass" if ok else "FAIL"
        console.print(
            f"  run {number} {path}: {result.score:.3f} ({result.grade}) {mark}", markup=False
        )
    console.print(
        f"  pass@{summary.k} = {summary.pass_at_k:.4f}   pass^{summary.k} = {summary.pass_hat_k:.4f}"
        + ("   FLAKY" if summary.flaky else ""),
        markup=False,
    )
    for diff in summary.differences:
        variants = "; ".join(
            f"{v['call'] or '(no call)'} in run {', '.join(map(str, v['runs']))}"
            for v in diff["variants"]
        )
        console.print(f"  call #{diff['position']} differs: {variants}", markup=False)
    console.print(f"> JSON report: {output}", markup=False)
    sys.stdout.flush()
    return 0 if summary.passed else 1
