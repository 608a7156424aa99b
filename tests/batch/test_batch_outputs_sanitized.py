"""Ids and tool names come from the dataset: every eval-batch output shows them escaped for
its format, with credentials redacted, and text that cannot be encoded never ends a run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
HOSTILE_ID = f"\x1b[2J\x1b]8;;http://x\x07<script>alert(1)</script>{TOKEN}\u202e"
HOSTILE_TOOL = "\x1b[31mred|pipe<b>"


def _run(tmp_path: Path, records: list[dict[str, object]]) -> subprocess.CompletedProcess[str]:
    dataset = tmp_path / "cases.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "toolscore", "eval-batch", "cases.jsonl", "-w", "1",
         "--markdown", "r.md", "--html", "r.html", "--json", "r.json"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
        encoding="utf-8", errors="backslashreplace",
        env={k: v for k, v in os.environ.items() if k != "COLUMNS"},  # one row per case
    )  # fmt: skip


def test_ids_and_tool_names_are_escaped_and_redacted_in_every_report(tmp_path: Path) -> None:
    done = _run(
        tmp_path,
        [
            {
                "id": HOSTILE_ID,
                "expected": [{"tool": HOSTILE_TOOL, "args": {}}],
                "actual": [{"tool": "other", "args": {}}],
            }
        ],
    )
    assert done.returncode == 0, done.stderr
    markdown = (tmp_path / "r.md").read_text(encoding="utf-8")
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    report = (tmp_path / "r.json").read_text(encoding="utf-8")
    for text in (done.stdout, markdown, page):
        assert "\x1b" not in text
        assert "\u202e" not in text
        assert "\x07" not in text
        assert "\\x1b" in text  # shown, not dropped
    for text in (markdown, page):
        assert "<script>" not in text
        assert "red|pipe<b>" not in text
        assert "&lt;b&gt;" in text
    for text in (done.stdout, markdown, page, report):
        assert TOKEN not in text
        assert "[REDACTED github_token" in text
    assert "red\\|pipe" in markdown  # a pipe cannot end the table cell


def test_a_lone_surrogate_in_an_id_or_tool_name_is_escaped_not_fatal(tmp_path: Path) -> None:
    dataset_lines = [
        '{"id": "e\\ud800", "expected": [{"tool": "a"}], "actual": [{"tool": "a"}]}',
        '{"id": "ok", "expected": [{"tool": "a\\udfff"}], "actual": [{"tool": "b"}]}',
    ]
    (tmp_path / "cases.jsonl").write_text("\n".join(dataset_lines) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "toolscore", "eval-batch", "cases.jsonl", "-w", "1",
         "--markdown", "r.md", "--html", "r.html", "--json", "r.json", "--worst", "5"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "2 cases" in done.stdout
    assert "e\\ud800" in done.stdout
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert {case["id"] for case in report["worst"]} == {"e\ud800", "ok"}
    assert "a\\udfff" in (tmp_path / "r.html").read_text(encoding="utf-8")
    results = (tmp_path / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["id"] for line in results] == ["e\ud800", "ok"]
