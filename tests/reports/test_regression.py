"""Baselines and ``toolscore regression``: exit 0 pass, 1 regression, 2 error, through the real CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import toolscore
from toolscore.baseline import (
    Baseline,
    compare_to_baseline,
    extract_metrics,
    load_baseline,
    save_baseline,
)
from toolscore.errors import InputError

TOOLSCORE = str(Path(sys.executable).parent / "toolscore")

GOLD = [
    {"tool": "search", "args": {"q": "paris"}},
    {"tool": "book", "args": {"hotel": "H1"}},
    {"tool": "pay", "args": {"amount": 120}},
]


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [TOOLSCORE, *args], capture_output=True, text=True, cwd=cwd, timeout=120, check=False
    )


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {
        "gold": GOLD,
        "same": GOLD,
        "worse": [*GOLD[:1], {"tool": "cancel", "args": {}}],
        "slightly": [GOLD[0], GOLD[1], {"tool": "pay", "args": {"amount": 121}}],
    }
    out = {}
    for name, calls in paths.items():
        out[name] = tmp_path / f"{name}.json"
        out[name].write_text(json.dumps(calls), encoding="utf-8")
    return out


@pytest.fixture
def baseline(files: dict[str, Path], tmp_path: Path) -> Path:
    path = tmp_path / "baselines" / "base.json"
    run = _run(
        "eval",
        str(files["gold"]),
        str(files["same"]),
        "-o",
        str(tmp_path / "r.json"),
        "--save-baseline",
        str(path),
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert "> Baseline: " in run.stdout
    assert path.is_file()
    return path


def test_baseline_file_layout(baseline: Path) -> None:
    data = json.loads(baseline.read_text(encoding="utf-8"))
    assert list(data) == ["version", "created_at", "gold_file_hash", "metrics", "metadata"]
    assert data["version"] == toolscore.__version__
    assert len(data["gold_file_hash"]) == 32
    assert list(data["metrics"]) == [
        "invocation_accuracy",
        "selection_accuracy",
        "tool_correctness",
        "sequence_accuracy",
        "argument_f1",
        "argument_precision",
        "argument_recall",
        "redundant_rate",
    ]
    assert data["metadata"] == {"gold_calls_count": 3, "trace_calls_count": 3}


def test_exit_0_when_nothing_regressed(
    files: dict[str, Path], baseline: Path, tmp_path: Path
) -> None:
    report = tmp_path / "out" / "cmp.json"
    run = _run(
        "regression",
        str(baseline),
        str(files["same"]),
        "-g",
        str(files["gold"]),
        "-o",
        str(report),
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "PASS: No significant changes (threshold: 5%)" in run.stdout
    assert "Regression Analysis" in run.stdout
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["passed"] is True
    assert data["regression_count"] == 0
    assert list(data["items"][0]) == [
        "metric_name",
        "baseline_value",
        "current_value",
        "delta",
        "delta_percent",
        "threshold",
        "status",
    ]


def test_exit_1_on_a_regression(files: dict[str, Path], baseline: Path, tmp_path: Path) -> None:
    run = _run(
        "regression", str(baseline), str(files["worse"]), "-g", str(files["gold"]), cwd=tmp_path
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "FAIL: " in run.stdout
    assert "regression(s) detected (threshold: 5%)" in run.stdout
    assert "REGRESSION" in run.stdout


def test_threshold_decides(files: dict[str, Path], baseline: Path, tmp_path: Path) -> None:
    args = ("regression", str(baseline), str(files["slightly"]), "-g", str(files["gold"]))
    assert _run(*args, cwd=tmp_path).returncode == 1
    assert _run(*args, "-t", "0.5", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "Invalid data: "),
        ('{"version": "1"}', "Invalid data: Invalid baseline file format: "),
        (
            '{"metrics": {"selection_accuracy": "high"}}',
            "$.metrics.selection_accuracy: expected a finite number",
        ),
        ("[1, 2]", "Invalid baseline file format"),
    ],
)
def test_exit_2_on_a_bad_baseline(
    files: dict[str, Path], tmp_path: Path, content: str, message: str
) -> None:
    from click.testing import CliRunner
    from toolscore.cli import cli

    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    run = CliRunner().invoke(
        cli, ["regression", str(bad), str(files["same"]), "-g", str(files["gold"])]
    )
    assert run.exit_code == 2
    assert message in run.stderr
    assert "Traceback" not in run.output
    assert len(run.stderr.strip().splitlines()) == 1


def test_exit_2_on_missing_files_and_bad_traces(
    files: dict[str, Path], baseline: Path, tmp_path: Path
) -> None:
    missing = _run(
        "regression",
        str(baseline),
        str(tmp_path / "nope.json"),
        "-g",
        str(files["gold"]),
        cwd=tmp_path,
    )
    assert missing.returncode == 2
    no_gold = _run("regression", str(baseline), str(files["same"]), cwd=tmp_path)
    assert no_gold.returncode == 2
    broken = tmp_path / "broken.json"
    broken.write_text("[{", encoding="utf-8")
    bad_trace = _run(
        "regression", str(baseline), str(broken), "-g", str(files["gold"]), cwd=tmp_path
    )
    assert bad_trace.returncode == 2
    assert bad_trace.stderr.startswith("ERROR Invalid data: ")


def test_comparison_rules() -> None:
    perfect = toolscore.evaluate(GOLD, GOLD)
    base = Baseline.from_dict(
        {
            "created_at": "t0",
            "metrics": {"selection_accuracy": 0.9, "redundant_rate": 0.0, "custom": 0.5},
        }
    )
    comparison = compare_to_baseline(perfect, base, threshold=0.05)
    statuses = {i.metric_name: i.status for i in comparison.items}
    # selection went up by 0.1 (improvement); the unknown metric reads as 0 (regression, higher is better)
    assert statuses == {
        "selection_accuracy": "improvement",
        "redundant_rate": "stable",
        "custom": "regression",
    }
    assert comparison.items[0].metric_name == "custom"  # regressions first
    assert comparison.summary == "FAIL: 1 regression(s) detected (threshold: 5%)"
    worse_rate = Baseline.from_dict({"metrics": {"redundant_rate": 0.0}})
    redundant = toolscore.evaluate([{"tool": "a"}], [{"tool": "a"}, {"tool": "a"}])
    assert compare_to_baseline(redundant, worse_rate).regressions[0].metric_name == "redundant_rate"
    edge = Baseline.from_dict({"metrics": {"selection_accuracy": 0.75}})
    # a change of exactly the threshold is stable: the boundaries are strict
    assert compare_to_baseline(perfect, edge, threshold=0.25).items[0].status == "stable"


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    result = toolscore.evaluate(GOLD, GOLD[:2])
    path = save_baseline(result, tmp_path / "a" / "b.json")
    loaded = load_baseline(path)
    assert dict(loaded.metrics) == extract_metrics(result)
    assert loaded.gold_file_hash == ""
    with pytest.raises(FileNotFoundError):
        load_baseline(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("[]", encoding="utf-8")
    with pytest.raises(InputError, match="Invalid baseline file format"):
        load_baseline(tmp_path / "bad.json")
