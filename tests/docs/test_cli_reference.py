"""docs/cli.md is generated from every command's --help and must not drift from the code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "generate_cli_reference.py"


def test_cli_reference_is_current() -> None:
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, (
        "docs/cli.md is stale; run `python docs/generate_cli_reference.py`\n" + proc.stdout[-4000:]
    )


def test_every_core_command_is_documented() -> None:
    from toolscore.builtin.commands import BUILTIN_COMMANDS

    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for name in BUILTIN_COMMANDS:
        assert f"## toolscore {name}\n" in text, name


def test_check_mode_detects_drift(tmp_path: Path) -> None:
    stale = tmp_path / "cli.md"
    stale.write_text("# CLI reference\n\nold\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--check", "--output", str(stale)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 1
    assert "out of date" in proc.stderr
    assert "+## toolscore eval" in proc.stdout
