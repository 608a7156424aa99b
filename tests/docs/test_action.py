"""The composite GitHub Action (``action.yml``): its interface, and its step scripts run for real.

GitHub itself cannot run here, so the test plays the runner's part for the steps that matter:
it gives each step the environment its ``env:`` block maps from the inputs, runs the step's bash
script with ``GITHUB_OUTPUT`` / ``GITHUB_STEP_SUMMARY`` files and the workspace's ``toolscore``,
and reads back what the step reported.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[2]
ACTION = ROOT / "action.yml"
BIN = Path(sys.executable).parent

#: The inputs and outputs the action has always offered; workflows written for it use them.
SPEC_INPUTS = {
    "gold-file",
    "trace-file",
    "threshold",
    "format",
    "forbidden-file",
    "fail-on-violations",
    "mcp-command",
    "mcp-fail-under",
    "regression-threshold",
}
SPEC_OUTPUTS = {"score", "grade", "required-call-recall", "violations", "passed"}

GOLD = [
    {"tool": "search", "args": {"q": "paris"}},
    {"tool": "book", "args": {"hotel": "H1"}},
]


@pytest.fixture(scope="module")
def action() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    return data


def _step(action: dict[str, Any], step_id: str) -> dict[str, Any]:
    for step in action["runs"]["steps"]:
        if step.get("id") == step_id:
            return step  # type: ignore[no-any-return]
    raise AssertionError(f"no step {step_id!r}")


_EXPR = re.compile(r"^\$\{\{\s*(.+?)\s*\}\}$")


def _run_step(
    action: dict[str, Any],
    step_id: str,
    inputs: dict[str, str],
    tmp_path: Path,
    outputs: dict[str, dict[str, str]] | None = None,
) -> tuple[int, dict[str, str], str]:
    """Run one step's script like the runner would; return (exit code, outputs, summary)."""
    step = _step(action, step_id)
    values = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    values.update(inputs)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    for key, raw in (step.get("env") or {}).items():
        expr = _EXPR.match(str(raw))
        assert expr, f"{step_id}: env {key} is not a single expression"
        ref = expr.group(1)
        if ref.startswith("inputs."):
            env[key] = str(values[ref.removeprefix("inputs.")])
        else:  # steps.<id>.outputs.<name> / steps.<id>.outcome
            parts = ref.split(".")
            assert parts[0] == "steps", ref
            recorded = (outputs or {}).get(parts[1])
            if parts[2] == "outcome":
                env[key] = "skipped" if recorded is None else "success"
            else:
                env[key] = "" if recorded is None else recorded.get(parts[3], "")
    out_file = tmp_path / f"{step_id}.out"
    summary = tmp_path / "summary.md"
    out_file.write_text("", encoding="utf-8")
    summary.touch()
    env.update(
        GITHUB_OUTPUT=str(out_file),
        GITHUB_STEP_SUMMARY=str(summary),
        GITHUB_ACTION_PATH=str(ROOT),
        TOOLSCORE_BIN=str(BIN / "toolscore"),
        TOOLSCORE_PYTHON=sys.executable,
        PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}",
    )
    proc = subprocess.run(
        ["bash", "-c", step["run"]],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    recorded_outputs = dict(
        line.split("=", 1)
        for line in out_file.read_text(encoding="utf-8").splitlines()
        if "=" in line
    )
    return proc.returncode, recorded_outputs, summary.read_text(encoding="utf-8")


def test_interface_matches_spec(action: dict[str, Any]) -> None:
    assert action["runs"]["using"] == "composite"
    assert set(action["inputs"]) >= SPEC_INPUTS
    assert set(action["outputs"]) >= SPEC_OUTPUTS
    assert {"mcp-score", "mcp-grade", "regression-passed"} <= set(action["outputs"])
    for name, spec in action["inputs"].items():
        assert spec.get("description"), name
        assert spec.get("required") is False, name
    for name, spec in action["outputs"].items():
        assert spec["value"].startswith("${{ steps."), name


def test_steps_use_uv_and_never_interpolate_inputs_into_scripts(action: dict[str, Any]) -> None:
    steps = action["runs"]["steps"]
    assert any("setup-uv" in step.get("uses", "") for step in steps)
    install = _step(action, "install")
    assert "uv sync" in install["run"]
    assert "--frozen" in install["run"]
    for step in steps:
        if "run" in step:
            assert step["shell"] == "bash"
            # inputs reach scripts through env only: no ${{ }} expression inside a script
            assert "${{" not in step["run"], step.get("id")


def test_scripts_are_valid_bash(action: dict[str, Any], tmp_path: Path) -> None:
    for step in action["runs"]["steps"]:
        if "run" in step:
            proc = subprocess.run(
                ["bash", "-n", "-c", step["run"]], capture_output=True, text=True, check=False
            )
            assert proc.returncode == 0, (step.get("id"), proc.stderr)


def _files(tmp_path: Path, trace: list[dict[str, Any]]) -> tuple[Path, Path]:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps(GOLD), encoding="utf-8")
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    return gold, path


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed to run the step scripts")
def test_evaluation_step_sets_outputs_summary_and_reports(
    action: dict[str, Any], tmp_path: Path
) -> None:
    gold, trace = _files(tmp_path, GOLD)
    code, outputs, summary = _run_step(
        action,
        "evaluate",
        {"gold-file": str(gold), "trace-file": str(trace), "threshold": "0.9"},
        tmp_path,
    )
    assert code == 0
    assert outputs["exit-code"] == "0"
    assert outputs["score"] == "1.0000"
    assert outputs["grade"] == "A"
    assert outputs["required-call-recall"] == "1.0000"
    assert outputs["violations"] == "0"
    assert "# Toolscore Evaluation Report" in summary
    reports = tmp_path / "toolscore-reports"
    for name in ("toolscore.json", "toolscore.md", "toolscore.html", "junit.xml"):
        assert (reports / name).is_file(), name
    gate_code, gate_out, _ = _run_step(action, "gate", {}, tmp_path, {"evaluate": outputs})
    assert gate_code == 0
    assert gate_out["passed"] == "true"


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed to run the step scripts")
def test_threshold_and_safety_gate_fail_the_job(action: dict[str, Any], tmp_path: Path) -> None:
    bad = [
        {
            "tool": "search",
            "args": {"q": "paris", "token": "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"},
        },
    ]
    gold, trace = _files(tmp_path, bad)
    code, outputs, summary = _run_step(
        action,
        "evaluate",
        {"gold-file": str(gold), "trace-file": str(trace), "threshold": "B"},
        tmp_path,
    )
    assert code == 0  # the step reports; the gate decides
    assert outputs["exit-code"] == "1"
    assert outputs["violations"] == "1"
    assert float(outputs["score"]) < 0.8
    assert "ghp_A1b2C3d4" not in summary  # the job summary is redacted
    gate_code, gate_out, _ = _run_step(action, "gate", {}, tmp_path, {"evaluate": outputs})
    assert gate_code == 1
    assert gate_out["passed"] == "false"


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed to run the step scripts")
def test_regression_step(action: dict[str, Any], tmp_path: Path) -> None:
    gold, trace = _files(tmp_path, GOLD)
    baseline = tmp_path / "baseline.json"
    subprocess.run(
        [
            str(BIN / "toolscore"),
            "eval",
            str(gold),
            str(trace),
            "-o",
            str(tmp_path / "r.json"),
            "--save-baseline",
            str(baseline),
        ],
        check=True,
        capture_output=True,
        cwd=tmp_path,
    )
    worse = tmp_path / "worse.json"
    worse.write_text(json.dumps(GOLD[:1]), encoding="utf-8")
    inputs = {"gold-file": str(gold), "baseline-file": str(baseline)}
    code, outputs, _ = _run_step(
        action, "regression", {**inputs, "trace-file": str(trace)}, tmp_path
    )
    assert (code, outputs["passed"], outputs["exit-code"]) == (0, "true", "0")
    code, outputs, _ = _run_step(
        action, "regression", {**inputs, "trace-file": str(worse)}, tmp_path
    )
    assert (code, outputs["passed"], outputs["exit-code"]) == (0, "false", "1")
    gate_code, _, _ = _run_step(action, "gate", {}, tmp_path, {"regression": outputs})
    assert gate_code == 1


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed to run the step scripts")
def test_gate_with_nothing_to_check_fails(action: dict[str, Any], tmp_path: Path) -> None:
    code, outputs, _ = _run_step(action, "gate", {}, tmp_path, {})
    assert code == 1
    assert outputs["passed"] == "false"


def test_workflow_example_uses_the_action_inputs(action: dict[str, Any]) -> None:
    text = (ROOT / "docs" / "github-action.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, flags=re.S)
    assert blocks, "docs/github-action.md has no yaml workflow example"
    used: set[str] = set()
    for block in blocks:
        workflow = yaml.safe_load(block)
        for job in workflow["jobs"].values():
            for step in job["steps"]:
                if "toolscore" in str(step.get("uses", "")) and "with" in step:
                    used |= set(step["with"])
    assert used, "no example step uses the action"
    assert used <= set(action["inputs"]), used - set(action["inputs"])


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is needed to run the step scripts")
@pytest.mark.parametrize(("fail_under", "code"), [("C", "0"), ("A", "1")])
def test_mcp_step_grades_the_sample_server(
    action: dict[str, Any], tmp_path: Path, fail_under: str, code: str
) -> None:
    sample = pytest.importorskip("toolscore_mcp.sample_server")
    command = f"{sys.executable} {Path(sample.__file__).resolve()}"
    step_code, outputs, summary = _run_step(
        action, "mcp", {"mcp-command": command, "mcp-fail-under": fail_under}, tmp_path
    )
    assert step_code == 0
    assert outputs["exit-code"] == code
    assert outputs["grade"] == "B"
    assert 0.8 <= float(outputs["score"]) < 0.9
    assert "# MCP Scorecard: notes-server" in summary
    assert (tmp_path / "toolscore-reports" / "mcp-scorecard.json").is_file()
    gate_code, gate_out, _ = _run_step(action, "gate", {}, tmp_path, {"mcp": outputs})
    assert gate_out["passed"] == ("true" if code == "0" else "false")
    assert gate_code == int(code)
