"""Distributions install on their own: core alone evaluates plain lists; core + mcp works."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("uv") is None, reason="needs uv to build fresh venvs")

SCRIPT = """
import json, toolscore
result = toolscore.evaluate([{"tool": "search", "args": {"q": "x"}}], [{"tool": "search", "args": {"q": "x"}}])
print(json.dumps({"score": result.score, "grade": result.grade}))
try:
    toolscore.from_openai({"choices": []})
except Exception as exc:
    print(type(exc).__name__ + ": " + str(exc))
"""


def fresh_venv(tmp_path: Path, *distributions: str) -> Path:
    venv = tmp_path / "venv"
    subprocess.run(["uv", "venv", "--quiet", "--python", sys.executable, str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [
            "uv",
            "pip",
            "install",
            "--quiet",
            "--python",
            str(python),
            *(str(ROOT / d) for d in distributions),
        ],
        check=True,
    )
    return venv


def test_core_alone_evaluates_plain_lists_and_names_the_missing_distribution(
    tmp_path: Path,
) -> None:
    venv = fresh_venv(tmp_path, "toolscore-core")
    out = subprocess.run(
        [venv / "bin" / "python", "-c", SCRIPT], capture_output=True, text=True, check=True
    )
    first, second = out.stdout.strip().splitlines()
    assert first == '{"score": 1.0, "grade": "A"}'
    assert "MissingPluginError" in second
    assert "toolscore-providers" in second
    listing = subprocess.run(
        [venv / "bin" / "toolscore", "plugins", "list"], capture_output=True, text=True
    )
    assert listing.returncode == 0
    assert "No plugins installed" in listing.stdout
    missing = subprocess.run(
        [venv / "bin" / "toolscore", "mcp", "--help"], capture_output=True, text=True
    )
    assert missing.returncode == 2
    assert "provided by the toolscore-mcp distribution" in missing.stderr
    assert "pip install toolscore-mcp" in missing.stderr


def test_core_plus_mcp_gives_the_mcp_commands(tmp_path: Path) -> None:
    venv = fresh_venv(tmp_path, "toolscore-core", "toolscore-mcp")
    listing = subprocess.run(
        [venv / "bin" / "toolscore", "plugins", "list", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert '"toolscore_mcp"' in listing.stdout
    help_text = subprocess.run(
        [venv / "bin" / "toolscore", "mcp", "--help"], capture_output=True, text=True
    )
    assert help_text.returncode == 0, help_text.stderr
    assert "test" in help_text.stdout
    assert "lint" in help_text.stdout
