"""README's "Pick what you need" agrees with docs/install.md, and its first commands exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
INSTALL = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start : end if end != -1 else None]


def test_pick_what_you_need_names_the_distributions_install_md_installs() -> None:
    pick = _section(README, "## Pick what you need")
    readme_rows = [line.split("|")[1] for line in pick.splitlines() if line.startswith("| `")]
    readme = {cell.strip().strip("`") for cell in readme_rows}
    install_rows = [
        line.split("|")[2]
        for line in INSTALL.splitlines()
        if re.match(r"\| .* \| `toolscore", line)
    ]
    install = {name for cell in install_rows for name in cell.strip().strip("`").split()}
    assert readme == install, (readme, install)
    assert readme == {
        "toolscore",
        "toolscore-core",
        "toolscore-providers",
        "toolscore-mcp",
        "toolscore-pytest",
        "toolscore-judge",
    }
    assert "docs/install.md" in pick


def test_the_opening_commands_exist() -> None:
    assert "uv run toolscore demo" in README
    assert "uv run toolscore demo" in INSTALL
    noxfile = (ROOT / "noxfile.py").read_text(encoding="utf-8")
    assert "uv run nox" in README
    for session in ("install", "lint", "typecheck", "integration"):
        assert f"def {session}(" in noxfile, session
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "nox" in pyproject  # `uv run nox` needs nox in the workspace's dev dependencies
