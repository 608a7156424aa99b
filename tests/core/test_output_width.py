"""Command output is never folded off a terminal, and ``COLUMNS`` is honoured when set."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

GOLD = [{"tool": "search", "args": {"q": "paris"}}, {"tool": "book", "args": {"id": 7}}]
BAD = [{"tool": "search", "args": {"q": "rome"}}, {"tool": "book", "args": {"id": 7}}]


def _long_folder(tmp_path: Path) -> Path:
    """A folder whose path alone is wider than 80 columns, with a gold file and three runs."""
    folder = tmp_path / ("deep-" * 12) / ("nested-" * 6)
    folder.mkdir(parents=True)
    (folder / "gold.json").write_text(json.dumps(GOLD))
    for name, calls in (("r1", GOLD), ("r2", BAD), ("r3", GOLD)):
        (folder / f"{name}.json").write_text(json.dumps(calls))
    return folder


def _runs_args(folder: Path) -> list[str]:
    return [
        "eval",
        str(folder / "gold.json"),
        *(str(folder / f"{n}.json") for n in ("r1", "r2", "r3")),
        "--k",
        "2",
        "-o",
        str(folder / "runs.json"),
    ]


def _lines_longer_than_80(output: str) -> list[str]:
    return [line for line in output.splitlines() if len(line) > 80]


def test_piped_output_keeps_each_line_whole(tmp_path: Path) -> None:
    folder = _long_folder(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    done = subprocess.run(
        [sys.executable, "-m", "toolscore", *_runs_args(folder)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert f"Case {folder / 'gold.json'}: 2/3 runs pass" in done.stdout
    assert f"> JSON report: {folder / 'runs.json'}" in done.stdout
    assert _lines_longer_than_80(done.stdout)


def test_under_a_test_runner_the_output_is_not_folded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolscore.cli import cli

    monkeypatch.delenv("COLUMNS", raising=False)
    folder = _long_folder(tmp_path)
    done = CliRunner().invoke(cli, _runs_args(folder))
    assert done.exit_code == 0, done.output
    assert f"{folder / 'gold.json'}: 2/3 runs pass" in done.output


def test_columns_is_honoured_when_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from toolscore.cli import cli

    monkeypatch.setenv("COLUMNS", "60")
    folder = _long_folder(tmp_path)
    done = CliRunner().invoke(cli, _runs_args(folder))
    assert done.exit_code == 0, done.output
    assert max(len(line) for line in done.output.splitlines()) <= 60


def test_evaluation_summary_off_a_terminal_is_as_wide_as_its_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The console report's panels fit their text rather than a 10,000-column page."""
    from toolscore.cli import cli

    monkeypatch.delenv("COLUMNS", raising=False)
    folder = _long_folder(tmp_path)
    done = CliRunner().invoke(cli, ["eval", str(folder / "gold.json"), str(folder / "r2.json")])
    assert "Overall Score" in done.output
    assert max(len(line) for line in done.output.splitlines()) < 400
