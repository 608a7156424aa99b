"""Snapshot listings never let a recorded name or call drive the terminal or leak a key.

A snapshot file is data (an agent's calls, a name taken from a test id or typed by a person),
so ``toolscore snapshots list|show`` and ``approve`` print it redacted, with control
characters shown as escapes and rich markup kept as text.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from toolscore.snapshots import Snapshot, SnapshotStore
from toolscore_pytest.unused import report_lines

KEY = "sk-proj-" + "AbCdEfGhIjKlMnOpQrStUvWxYz_-AbCdEfGhIjKl"
NAME = f"test_x\x1b[2J\x1b[H[bold]ok[/bold]\u202e {KEY}"
FORBIDDEN = ("\x1b", "\x07", "\u202e")


def toolscore(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscore", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "COLUMNS": "300"},
        timeout=120,
        check=False,
    )


def save_hostile(tmp_path: Path) -> Path:
    folder = tmp_path / "snaps"
    SnapshotStore(folder).save(
        Snapshot(
            name=NAME,
            calls=[
                {
                    "tool": "deploy\x1b]8;;https://evil.example/\x07x\x1b]8;;\x07",
                    "args": {"password": "Hunter2!x", "note": "bell\x07"},
                }
            ],
            source="trace\x1b[31m",
        )
    )
    return folder


def assert_safe(output: str) -> None:
    for char in FORBIDDEN:
        assert char not in output, f"{char!r} got through"
    assert KEY not in output
    assert "Hunter2!x" not in output


def test_snapshots_list_shows_a_hostile_name_as_text(tmp_path: Path) -> None:
    result = toolscore("snapshots", "list", "--dir", str(save_hostile(tmp_path)))
    assert result.returncode == 0, result.stderr
    assert_safe(result.stdout)
    flat = "".join(line.strip(" │┃") for line in result.stdout.splitlines())
    assert "test_x\\x1b[2J\\x1b[H[bold]ok[/bold]\\u202e" in flat


def test_snapshots_show_prints_calls_redacted_and_escape_free(tmp_path: Path) -> None:
    result = toolscore("snapshots", "show", NAME, "--dir", str(save_hostile(tmp_path)))
    assert result.returncode == 0, result.stderr
    assert_safe(result.stdout)
    assert "deploy\\x1b]8;;https://evil.example/" in result.stdout
    assert '"password": "[REDACTED secret_assignment]"' in result.stdout


def test_approve_prints_the_name_escaped(tmp_path: Path) -> None:
    result = toolscore("approve", NAME, "--dir", str(save_hostile(tmp_path)))
    assert result.returncode == 0, result.stderr
    assert_safe(result.stdout)


def test_unused_snapshot_lines_are_escape_free(tmp_path: Path) -> None:
    lines = report_lines([(tmp_path / "x.json", NAME)], "warn", tmp_path)
    assert_safe("\n".join(lines))


def test_the_assertion_table_shows_a_hostile_tool_name_escaped(pytester: pytest.Pytester) -> None:
    """The drift table of a failing snapshot prints tool names and argument keys from the data
    with their control characters shown, never obeyed."""
    pytester.makepyfile(
        test_hostile="""
import json
from pathlib import Path

import pytest

def test_calls(toolscore_snapshot):
    toolscore_snapshot(json.loads(Path(__file__).with_name("agent.json").read_text()))
"""
    )
    first = [{"tool": "wipe\x1b[2J\x1b]8;;http://x\x07", "args": {"k\x1b[31m": 1}}]
    (pytester.path / "agent.json").write_text(json.dumps(first), encoding="utf-8")
    pytester.runpytest("--toolscore-update")
    (pytester.path / "agent.json").write_text(json.dumps([{"tool": "b", "args": {}}]))
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    assert "\x1b[2J" not in text
    assert "\x07" not in text
    assert "wipe\\x1b[2J" in text
