"""``toolscore compare`` and ``toolscore.comparison``: several models against one gold file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import toolscore
from click.testing import CliRunner
from toolscore.cli import cli
from toolscore.model_comparison import compare_models

GOLD = [{"tool": "search", "args": {"q": "x"}}, {"tool": "book", "args": {"id": 1}}]


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    traces = {
        "gold": GOLD,
        "perfect": GOLD,
        "half": GOLD[:1],
        "noisy": [*GOLD, GOLD[1]],
    }
    out = {}
    for name, calls in traces.items():
        out[name] = tmp_path / f"{name}.json"
        out[name].write_text(json.dumps(calls), encoding="utf-8")
    return out


def test_compare_writes_the_report_and_names_the_winner(
    files: dict[str, Path], tmp_path: Path
) -> None:
    report = tmp_path / "out" / "comparison.json"
    code, stdout, stderr = _invoke(
        "compare",
        str(files["gold"]),
        str(files["half"]),
        str(files["perfect"]),
        str(files["noisy"]),
        "-n",
        "model-a",
        "-n",
        "model-b",
        "-n",
        "model-c",
        "-o",
        str(report),
    )
    assert code == 0, stderr
    assert "Model Comparison Results" in stdout
    assert "Overall Winner: model-b (avg score: 100.0%)" in stdout
    data = json.loads(report.read_text(encoding="utf-8"))
    assert list(data) == ["models", "metrics", "rankings", "best_model", "summary"]
    assert data["models"] == ["model-a", "model-b", "model-c"]
    assert list(data["metrics"]) == [
        "invocation_accuracy",
        "selection_accuracy",
        "tool_correctness",
        "sequence_accuracy",
        "argument_f1",
        "redundant_rate",
    ]
    assert data["rankings"]["redundant_rate"][-1] == "model-c"  # ascending: most redundant last
    assert data["best_model"] == {"name": "model-b", "average_score": 1.0}
    assert data["summary"]["total_models"] == 3


def test_default_names_are_file_stems(files: dict[str, Path], tmp_path: Path) -> None:
    report = tmp_path / "c.json"
    code, _, _ = _invoke(
        "compare", str(files["gold"]), str(files["half"]), str(files["perfect"]), "-o", str(report)
    )
    assert code == 0
    assert json.loads(report.read_text(encoding="utf-8"))["models"] == ["half", "perfect"]


def test_errors(files: dict[str, Path], tmp_path: Path) -> None:
    code, _, stderr = _invoke("compare", str(files["gold"]), "-o", str(tmp_path / "x.json"))
    assert (code, stderr.strip()) == (1, "ERROR At least one trace file is required")
    code, _, stderr = _invoke(
        "compare", str(files["gold"]), str(files["half"]), "-n", "a", "-n", "b"
    )
    assert (code, stderr.strip()) == (
        1,
        "ERROR Number of names (2) must match number of trace files (1)",
    )
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    code, _, stderr = _invoke(
        "compare", str(files["gold"]), str(broken), "-o", str(tmp_path / "y.json")
    )
    assert code == 1
    assert stderr.startswith("ERROR Invalid data: ")
    assert not (tmp_path / "y.json").exists()


def test_ties_keep_input_order_and_empty_input() -> None:
    a = toolscore.evaluate(GOLD, GOLD[:1])
    b = toolscore.evaluate(GOLD, GOLD[:1])
    comparison = compare_models({"first": a, "second": b})
    assert comparison["rankings"]["selection_accuracy"] == ["first", "second"]
    assert comparison["best_model"]["name"] == "first"
    assert compare_models({}) == {}
