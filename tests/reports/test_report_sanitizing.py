"""Reports of a hostile trace: no credential, no terminal escape, no spreadsheet formula.

Each test runs the real ``toolscore eval`` command in a subprocess on files holding a tool
name with an OpenAI project key and a clear-screen sequence, and a private key in arguments.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from toolscore.reporters.csv import flatten_metrics

KEY = "sk-proj-" + "AbCdEfGhIjKlMnOpQrStUvWxYz_-AbCdEfGhIjKl"
HOSTILE_TOOL = f"deploy\x1b[2J\x1b[H {KEY}"
PEM_BODY = "MIIEowIBAAKCAQEA7bq98Zk2Jx4mS1fZq3Lk9"
PEM = f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n-----END RSA PRIVATE KEY-----"
FORMULA = "=cmd|' /C calc'!A0"


def run_eval(tmp_path: Path, gold: object, trace: object, *args: str) -> str:
    (tmp_path / "gold.json").write_text(json.dumps(gold), encoding="utf-8")
    (tmp_path / "trace.json").write_text(json.dumps(trace), encoding="utf-8")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolscore",
            "--no-plugins",
            "eval",
            str(tmp_path / "gold.json"),
            str(tmp_path / "trace.json"),
            "-o",
            str(tmp_path / "r.json"),
            *args,
        ],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "COLUMNS": "200"},
        timeout=120,
        check=False,
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result.stdout


@pytest.mark.parametrize("verbose", [False, True], ids=["compact", "verbose"])
def test_console_hides_a_key_in_a_tool_name_and_shows_its_escapes(
    tmp_path: Path, verbose: bool
) -> None:
    gold = [{"tool": "deploy", "args": {"env": "prod"}}]
    trace = [{"tool": HOSTILE_TOOL, "args": {"env": "prod", "key": PEM}}]
    out = run_eval(tmp_path, gold, trace, *(["-v"] if verbose else []))
    assert "Top issues to fix" in out
    assert "\x1b" not in out
    assert KEY not in out
    assert PEM_BODY not in out
    assert "deploy\\x1b[2J\\x1b[H [REDACTED openai_api_key: sk-p…Kl]" in out.replace("\n", "")


def test_rich_markup_in_a_tool_name_is_printed_as_text(tmp_path: Path) -> None:
    gold = [{"tool": "deploy", "args": {}}]
    trace = [{"tool": "[bold]PASS[/bold]", "args": {}}]
    out = run_eval(tmp_path, gold, trace)
    assert "[bold]PASS[/bold]" in out


def test_html_markdown_and_junit_hide_a_whole_private_key(tmp_path: Path) -> None:
    gold = [{"tool": "deploy", "args": {"env": "prod"}}]
    trace = [{"tool": "deploy", "args": {"env": "prod", "key": PEM, "pw": "password=Hunter2!x"}}]
    run_eval(
        tmp_path,
        gold,
        trace,
        "--html",
        str(tmp_path / "r.html"),
        "--markdown",
        str(tmp_path / "r.md"),
        "--junit",
        str(tmp_path / "r.xml"),
    )
    for name in ("r.html", "r.md", "r.xml"):
        text = (tmp_path / name).read_text(encoding="utf-8")
        assert PEM_BODY not in text, name
        assert "Hunter2!x" not in text, name


def test_csv_neutralizes_formula_cells_from_data(tmp_path: Path) -> None:
    gold = [{"tool": "search", "args": {}}]
    trace = [{"tool": FORMULA, "args": {}}, {"tool": f"@SUM(A1) {KEY}", "args": {}}]
    run_eval(tmp_path, gold, trace, "--csv", str(tmp_path / "r.csv"))
    rows = list(csv.reader(io.StringIO((tmp_path / "r.csv").read_text(encoding="utf-8"))))
    for cell in (cell for row in rows for cell in row):
        assert not cell.startswith(("=", "@", "+", "\t", "\r")), cell
        assert KEY not in cell
    called = {row[1]: row[2] for row in rows if row[0] == "tool_correctness_metrics"}
    assert called["called_tools"].startswith("'" + FORMULA)  # quoted, not dropped


def test_csv_keeps_our_negative_numbers_as_numbers() -> None:
    rows = list(flatten_metrics({"delta": -0.5, "count": -3, "note": "-2+3", "ok": False}))
    assert rows == [
        ("", "delta", "-0.5000"),
        ("", "count", "-3"),
        ("", "note", "'-2+3"),
        ("", "ok", "False"),
    ]
