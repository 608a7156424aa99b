"""`toolscore eval` and `toolscore validate` through the real click CLI, with core's built-ins only."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from toolscore.cli import cli
from toolscore.plugins import create_plugin_manager

GOLD = [
    {"tool": "get_weather", "args": {"city": "NYC"}},
    {"tool": "send_email", "args": {"to": "u"}},
]
TRACE = {
    "calls": [
        {"tool": "get_weather", "args": {"city": "New York"}},
        {"tool": "send_email", "args": {"to": "u"}},
    ]
}


def write(path: Path, data: Any) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def run(args: list[str], cwd: Path) -> Result:
    """Invoke the CLI in ``cwd`` with a plugin manager holding core's built-ins only."""
    pm = create_plugin_manager(load_entrypoints=False)
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(cli, args, obj={"plugin_manager": pm})
    finally:
        os.chdir(old)


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    return write(tmp_path / "gold.json", GOLD), write(tmp_path / "trace.json", TRACE)


def test_eval_writes_the_json_report_and_prints_the_summary(
    files: tuple[Path, Path], tmp_path: Path
) -> None:
    gold, trace = files
    result = run(["eval", str(gold), str(trace), "-o", "out/report.json"], tmp_path)
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["summary"]["score"] == pytest.approx(0.85)
    assert report["summary"]["grade"] == "B"
    assert "> JSON report: out/report.json" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("threshold", "code"), [("0.85", 0), ("0.9", 1), ("B", 0), ("A", 1), ("85%", 0), ("90%", 1)]
)
def test_fail_under_gates_on_score_or_grade(
    files: tuple[Path, Path], tmp_path: Path, threshold: str, code: int
) -> None:
    gold, trace = files
    result = run(["eval", str(gold), str(trace), "--fail-under", threshold], tmp_path)
    assert result.exit_code == code, result.output
    if code:
        assert "below the required" in result.output


def test_fail_under_rejects_nonsense(files: tuple[Path, Path], tmp_path: Path) -> None:
    gold, trace = files
    result = run(["eval", str(gold), str(trace), "--fail-under", "1.5"], tmp_path)
    assert result.exit_code == 2
    assert "expected a score between 0 and 1" in result.output


def test_missing_file_is_a_usage_error(files: tuple[Path, Path], tmp_path: Path) -> None:
    gold, _ = files
    result = run(["eval", str(gold), str(tmp_path / "nope.json")], tmp_path)
    assert result.exit_code == 2
    assert "does not exist" in result.output


def test_invalid_json_names_the_file_and_position(tmp_path: Path, files: tuple[Path, Path]) -> None:
    _, trace = files
    bad = write(tmp_path / "bad.json", '[{"tool": "a",}]')
    result = run(["eval", str(bad), str(trace), "-o", "r.json"], tmp_path)
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert lines[0].startswith("ERROR Invalid data:")
    assert "bad.json" in lines[0]
    assert "Traceback" not in result.output
    assert not (tmp_path / "r.json").exists()


def test_gold_item_without_tool_names_the_json_path(
    tmp_path: Path, files: tuple[Path, Path]
) -> None:
    _, trace = files
    gold = write(tmp_path / "gold.json", [{"tool": "a"}, {"args": {"x": 1}}])
    result = run(["eval", str(gold), str(trace)], tmp_path)
    assert result.exit_code == 1
    assert "gold.json" in result.output
    assert "$[1]" in result.output


def test_weight_option_parsing(files: tuple[Path, Path], tmp_path: Path) -> None:
    gold, trace = files
    bad = run(["eval", str(gold), str(trace), "--weight", "argument_f1"], tmp_path)
    assert bad.exit_code == 2
    assert "expected NAME=VALUE, got 'argument_f1'" in bad.output
    unknown = run(["eval", str(gold), str(trace), "--weight", "speed=1"], tmp_path)
    assert unknown.exit_code == 2  # a usage error, as the README promises
    assert "Unknown weight keys" in unknown.output
    ok = run(
        ["eval", str(gold), str(trace), "--weight", "argument_f1=1.0", "-o", "w.json"], tmp_path
    )
    assert ok.exit_code == 0, ok.output
    weights = json.loads((tmp_path / "w.json").read_text())["summary"]["weights"]
    assert weights["argument_f1"] == pytest.approx(0.5882, abs=1e-4)


def test_malformed_rule_file_is_one_line_naming_it(
    files: tuple[Path, Path], tmp_path: Path
) -> None:
    gold, trace = files
    rules = write(tmp_path / "rules.json", [{"tool": ""}])
    result = run(["eval", str(gold), str(trace), "--forbidden", str(rules)], tmp_path)
    assert result.exit_code == 1
    assert "rules.json" in result.output or "forbidden rule 0" in result.output
    assert "Traceback" not in result.output


def test_fail_on_violations_counts_forbidden_calls_and_credentials(tmp_path: Path) -> None:
    gold = write(tmp_path / "gold.json", [{"tool": "deploy"}])
    trace = write(
        tmp_path / "trace.json",
        {
            "calls": [
                {"tool": "deploy", "args": {"token": "ghp_" + "a1B2" * 9}},
                {"tool": "run_shell", "args": {"cmd": "rm -rf /"}},
            ]
        },
    )
    rules = write(
        tmp_path / "rules.json", [{"tool": "run_shell", "args": {"cmd": {"$regex": "rm -rf"}}}]
    )
    result = run(
        ["eval", str(gold), str(trace), "--forbidden", str(rules), "--fail-on-violations"], tmp_path
    )
    assert result.exit_code == 1
    assert "2 forbidden call(s) or credential(s) found (--fail-on-violations)" in result.output
    report = json.loads((tmp_path / "toolscore.json").read_text())
    assert report["summary"]["policy_violations"] == 1
    assert report["summary"]["secrets"] == 1


def test_validate_reports_format_and_count(files: tuple[Path, Path], tmp_path: Path) -> None:
    _, trace = files
    result = run(["validate", str(trace)], tmp_path)
    assert result.exit_code == 0, result.output
    assert "Valid trace file" in result.output
    assert "Total calls: 2" in result.output
    assert "First tool: get_weather" in result.output


def test_validate_invalid_file(tmp_path: Path) -> None:
    bad = write(tmp_path / "t.json", "{not json")
    result = run(["validate", str(bad)], tmp_path)
    assert result.exit_code == 1
    assert "Invalid trace file" in result.output
    assert "t.json" in result.output


def test_unknown_format_lists_the_available_ones(files: tuple[Path, Path], tmp_path: Path) -> None:
    gold, trace = files
    result = run(["eval", str(gold), str(trace), "-f", "nosuch"], tmp_path)
    assert result.exit_code == 2  # a usage error
    assert "Unsupported format: nosuch" in result.output


def test_openai_format_without_providers_says_what_to_install(
    files: tuple[Path, Path], tmp_path: Path
) -> None:
    gold, trace = files
    result = run(["eval", str(gold), str(trace), "-f", "openai"], tmp_path)
    assert result.exit_code == 2  # a usage error, naming what to install
    assert "toolscore-providers" in result.output


def test_extra_reports_are_written_and_junit_follows_fail_under(
    files: tuple[Path, Path], tmp_path: Path
) -> None:
    gold, trace = files
    args = ["eval", str(gold), str(trace), "--fail-under", "0.9", "-v"]
    for option, name in (
        ("--html", "r.html"),
        ("--csv", "r.csv"),
        ("--markdown", "r.md"),
        ("--junit", "r.xml"),
    ):
        args += [option, f"reports/{name}"]
    result = run(args, tmp_path)
    assert result.exit_code == 1  # 0.85 < 0.9
    for name in ("r.html", "r.csv", "r.md", "r.xml"):
        assert (tmp_path / "reports" / name).stat().st_size > 0
    assert "> HTML report saved to: reports/r.html" in result.output
    assert "> JUnit XML report: reports/r.xml" in result.output
    junit = (tmp_path / "reports" / "r.xml").read_text()
    assert 'failures="1"' in junit


def test_python_dash_m_toolscore_runs_the_same_command() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "toolscore", "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    assert done.stdout.startswith("toolscore, version ")


UNREADABLE = {
    "calls": [
        {"tool": "get_weather", "args": {"city": "NYC"}},
        {
            "tool": "send_email",
            "args": {"raw": '{"to": "u'},
            "metadata": {"args_parse_error": "invalid JSON arguments: Unterminated string"},
        },
    ]
}


def test_arguments_that_could_not_be_read_are_reported_not_hidden(tmp_path: Path) -> None:
    gold = write(tmp_path / "gold.json", GOLD)
    trace = write(tmp_path / "trace.json", UNREADABLE)
    result = run(["eval", str(gold), str(trace)], tmp_path)
    assert result.exit_code == 0, result.output
    warning = (
        f"Warning: {trace}: call 2 (send_email): arguments could not be read "
        "(invalid JSON arguments: Unterminated string); scored as the raw text"
    )
    assert warning in result.stderr.replace("\n", " ").replace("  ", " ")
    assert "`send_email` was sent arguments that could not be read" in result.stdout
    compared = run(["compare", str(gold), str(trace), str(trace), "-n", "a", "-n", "b"], tmp_path)
    assert compared.exit_code == 0, compared.output
    assert compared.stderr.count("call 2 (send_email): arguments could not be read") == 2
    checked = run(["validate", str(trace)], tmp_path)
    assert checked.exit_code == 0
    assert "Warning: call 2 (send_email): arguments could not be read" in checked.stdout.replace(
        "\n", " "
    )
