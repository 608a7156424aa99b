"""Console, JSON, Markdown and CSV reports, and writing reports through the reporter registry."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pytest
import toolscore
from rich.console import Console
from toolscore.errors import MissingPluginError
from toolscore.matching.matchers import Regex
from toolscore.plugins import create_plugin_manager
from toolscore.reporters import available_reporters, render_report, write_reports
from toolscore.reporters.console import print_evaluation_summary
from toolscore.result import EvaluationResult

SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"

GOLD = [
    {"tool": "search_flights", "args": {"origin": "SFO", "destination": "NYC"}},
    {"tool": "book_flight", "args": {"flight_id": "FL-123"}},
]
TRACE = [
    {"tool": "search_flights", "args": {"origin": "SFO", "destination": "BOS"}},
    {"tool": "cancel_booking", "args": {"booking_id": "B-9", "token": SECRET}, "error": "nope"},
]


@pytest.fixture
def result() -> EvaluationResult:
    return toolscore.evaluate(GOLD, TRACE)


def _console(result: EvaluationResult, *, verbose: bool = False) -> str:
    console = Console(file=io.StringIO(), width=100, color_system=None, record=True)
    print_evaluation_summary(result, console, verbose=verbose)
    return console.export_text()


def test_builtin_formats_are_registered_reporter_plugins() -> None:
    pm = create_plugin_manager(load_entrypoints=False)
    assert {"console", "json", "markdown", "html", "csv", "junit"} <= set(
        available_reporters(plugin_manager=pm)
    )
    owners = {r.name: r.provides.get("reporters", ()) for r in pm.records()}
    assert owners["toolscore.reporters.html"] == ("html",)


def test_console_compact_view(result: EvaluationResult) -> None:
    text = _console(result)
    assert "Toolscore Evaluation Results" in text
    for label in ("Overall Score", "Selection Accuracy", "Argument F1", "Sequence Accuracy"):
        assert label in text
    assert f"Grade {result.grade}   FAIL ({result.score:.1%})" in text
    assert (
        "Required calls completed: 1 of 2 (missing or failed; not part of the default score)"
        in text
    )
    assert "Top issues to fix" in text
    assert "  1. cancel_booking  called `cancel_booking` where `book_flight` was expected" in text
    assert "Behavior and safety" in text
    assert (
        "  ERROR    call 2 cancel_booking passes a credential (github_token) in 'token': ghp_…r8"
        in text
    )
    assert "  WARNING  1 of 2 tool calls failed (cancel_booking)" in text
    assert SECRET not in text
    assert text.rstrip().endswith("Use --verbose for detailed metrics and failure analysis.")


def test_console_verbose_view(result: EvaluationResult) -> None:
    text = _console(result, verbose=True)
    flat = " ".join(text.split())
    assert "Expected calls: 2 Actual calls: 2" in flat
    assert "Core Metrics" in text
    assert "1 of 2 correct" in text
    assert "Did agent invoke tools when needed?" in text
    assert "Precision: " in text
    assert "Tool Coverage Details" in text
    assert "TIP:" in text
    assert "Overall Score: " in text
    assert "Poor performance. Significant improvements needed." in text
    assert "Use --verbose" not in text


def test_console_perfect_run() -> None:
    text = _console(toolscore.evaluate(GOLD, GOLD))
    assert "Grade A   PASS (100.0%)" in text
    assert "No tool-calling issues - the actual calls match the expected spec." in text
    assert "Required calls completed" not in text
    assert "Behavior and safety" not in text


def test_console_lists_at_most_eight_issues() -> None:
    gold = [{"tool": f"t{i}", "args": {"x": i}} for i in range(11)]
    text = _console(toolscore.evaluate(gold, []))
    assert "  8. t7  expected call to `t7` never happened" in text
    assert "  9." not in text
    assert "  ... and 3 more issue(s)." in text


def test_console_reporter_renders_text(result: EvaluationResult) -> None:
    text = render_report("console", result)
    assert "Toolscore Evaluation Results" in text
    assert "\x1b[" not in text


def test_json_report_layout_and_unredacted_calls(result: EvaluationResult) -> None:
    data = json.loads(render_report("json", result))
    assert list(data) == [
        "timestamp",
        "summary",
        "metrics",
        "findings",
        "gold_calls",
        "trace_calls",
    ]
    assert list(data["summary"]) == [
        "gold_calls_count",
        "trace_calls_count",
        "score",
        "grade",
        "weights",
        "required_call_recall",
        "failed_calls",
        "policy_violations",
        "secrets",
    ]
    summary = data["summary"]
    assert summary["score"] == result.score
    assert summary["failed_calls"] == 1
    assert summary["secrets"] == 1
    assert set(summary["weights"]) == {
        "selection_accuracy",
        "argument_f1",
        "sequence_accuracy",
        "redundant_rate",
        "required_call_recall",
    }
    call = data["trace_calls"][1]
    assert call["args"]["token"] == SECRET  # JSON keeps calls as recorded
    assert call["is_error"] is True
    assert call["error"] == "nope"
    assert list(data["gold_calls"][0])[:7] == [
        "tool",
        "args",
        "result",
        "timestamp",
        "duration",
        "cost",
        "metadata",
    ]


def test_json_report_never_crashes_on_values_json_cannot_hold() -> None:
    class Opaque:
        def __repr__(self) -> str:
            return "<Opaque>"

    result = toolscore.evaluate(
        [{"tool": "a", "args": {"id": Regex(r"\d+")}}],
        [
            {
                "tool": "a",
                "args": {"id": "12"},
                "result": {"tags": {"x"}, "obj": Opaque(), "nan": math.nan},
            }
        ],
    )
    data = json.loads(render_report("json", result))
    assert data["gold_calls"][0]["args"] == {"id": "Regex('\\\\d+')"}
    assert data["trace_calls"][0]["result"] == {"tags": ["x"], "obj": "<Opaque>", "nan": "NaN"}


def test_markdown_report(result: EvaluationResult) -> None:
    text = render_report("markdown", result)
    lines = text.splitlines()
    assert lines[0] == "# Toolscore Evaluation Report"
    assert lines[2].startswith("**Generated:** ")
    assert f"- **Score:** {result.score * 100:.1f}% (grade {result.grade})" in lines
    assert "- **Required Calls Completed:** 1 of 2" in lines
    assert "| Metric | Value | Status |" in lines
    assert "| Selection Accuracy | 50.00% | 🔴 Needs Improvement |" in lines
    assert "## 🛡️ Behavior and Safety" in lines
    assert (
        "- 🔴 **error**: call 2 cancel_booking passes a credential (github_token) in 'token': ghp_…r8"
        in lines
    )
    assert "| Failed Calls | 1 |" in lines
    assert "<summary>Click to expand full metrics</summary>" in lines
    assert SECRET not in text  # the whole document is redacted
    assert lines[-1] == "*Generated with [Toolscore](https://github.com/yotambraun/toolscore)*"


def test_markdown_survives_a_failed_judge() -> None:
    result = toolscore.evaluate(GOLD, GOLD)
    result.metrics["semantic_metrics"] = {"error": "no API key", "semantic_score": None}
    text = render_report("markdown", result)
    assert "## 🧠 Semantic Evaluation" in text
    assert "| Semantic Score | n/a (the judge returned no score) |" in text
    assert "| Judge Error | no API key |" in text
    html = render_report("html", result)
    assert "n/a (judge error)" in html
    assert "Error" in render_report("console", result, verbose=True)


def test_csv_report_rows(result: EvaluationResult) -> None:
    rows = list(csv.reader(io.StringIO(render_report("csv", result))))
    assert rows[:5] == [
        ["Category", "Metric", "Value"],
        ["Summary", "Gold Calls Count", "2"],
        ["Summary", "Trace Calls Count", "2"],
        ["", "", ""],
        ["Category", "Metric", "Value"],
    ]
    by_key = {(r[0], r[1]): r[2] for r in rows[5:]}
    assert by_key[("", "selection_accuracy")] == "50.00%"
    assert by_key[("tool_correctness_metrics", "tool_correctness")] == "0.5000"
    assert by_key[("sequence_metrics", "edit_distance")] == "1.0000"
    assert by_key[("tool_correctness_metrics", "missing_tools")] == "book_flight"
    assert SECRET not in "".join(",".join(r) for r in rows)


def test_write_reports_writes_every_file_atomically(
    result: EvaluationResult, tmp_path: Path
) -> None:
    targets = {
        name: tmp_path / "deep" / f"report.{name}"
        for name in ("json", "markdown", "html", "csv", "junit")
    }
    written = write_reports(result, targets)
    assert written == targets
    for path in targets.values():
        assert path.stat().st_size > 0
    assert [p.name for p in (tmp_path / "deep").iterdir() if p.name.endswith(".tmp")] == []


def test_unknown_format_writes_nothing(result: EvaluationResult, tmp_path: Path) -> None:
    with pytest.raises(
        MissingPluginError, match=r"no report format named 'pdf'.*installed formats: .*html"
    ):
        write_reports(result, {"html": tmp_path / "a.html", "pdf": tmp_path / "a.pdf"})
    assert list(tmp_path.iterdir()) == []


def test_eval_command_writes_the_extra_reports(tmp_path: Path) -> None:
    from click.testing import CliRunner
    from toolscore.cli import cli

    gold = tmp_path / "gold.json"
    trace = tmp_path / "trace.json"
    gold.write_text(json.dumps(GOLD), encoding="utf-8")
    trace.write_text(json.dumps(GOLD), encoding="utf-8")
    out = tmp_path / "out"
    run = CliRunner().invoke(
        cli,
        [
            "eval",
            str(gold),
            str(trace),
            "-o",
            str(out / "r.json"),
            "--html",
            str(out / "r.html"),
            "--markdown",
            str(out / "r.md"),
            "--csv",
            str(out / "r.csv"),
            "--junit",
            str(out / "r.xml"),
        ],
    )
    assert run.exit_code == 0, run.output
    assert sorted(p.name for p in out.iterdir()) == ["r.csv", "r.html", "r.json", "r.md", "r.xml"]


def test_every_report_survives_a_plugin_metric_with_odd_values(tmp_path: Path) -> None:
    from toolscore.specs import MetricSpec

    class Odd:
        def compute(self, context: object) -> object:
            return {
                "inf": math.inf,
                "nan": math.nan,
                "set": {3, 1},
                "obj": object(),
                "nested": [{"k": (1, 2)}],
            }

    class OddPlugin:
        @toolscore.hookimpl
        def toolscore_register_metrics(self) -> object:
            yield MetricSpec(name="odd", factory=Odd)

    pm = create_plugin_manager(load_entrypoints=False)
    pm.register(OddPlugin(), name="odd-plugin")
    result = toolscore.evaluate(GOLD, TRACE, plugin_manager=pm)
    assert "odd" in result.metrics
    names = ("console", "json", "markdown", "html", "csv", "junit")
    written = write_reports(result, {n: tmp_path / f"r.{n}" for n in names}, plugin_manager=pm)
    data = json.loads(written["json"].read_text(encoding="utf-8"))
    assert data["metrics"]["odd"]["inf"] == "Infinity"
    assert data["metrics"]["odd"]["set"] == [1, 3]
    assert "odd" in written["csv"].read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["console", "markdown", "html", "csv", "junit"])
def test_a_mismatched_credential_never_leaks_even_truncated(name: str) -> None:
    result = toolscore.evaluate(
        [{"tool": "login", "args": {"token": "expected"}}],
        [{"tool": "login", "args": {"token": SECRET}}],
    )
    options = {"per_call": True} if name == "junit" else None
    text = render_report(name, result, options=options)
    assert SECRET[:12] not in text  # not even the first characters of a cut-short value
