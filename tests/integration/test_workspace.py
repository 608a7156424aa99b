"""The workspace's default environment (``uv sync``, ``uv run``) holds the first-party
distributions only: the example plugins are outsiders' projects that their own tests install,
so a README command never prints an example plugin's metric the user did not ask for."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[2]
FIRST_PARTY = {
    "toolscore",
    "toolscore-core",
    "toolscore-providers",
    "toolscore-mcp",
    "toolscore-pytest",
    "toolscore-judge",
}
EXAMPLE_PLUGINS = {
    tomllib.loads(p.read_text())["project"]["name"] for p in ROOT.glob("plugins/*/pyproject.toml")
}


def test_there_are_example_plugins_to_keep_out() -> None:
    assert len(EXAMPLE_PLUGINS) >= 3


def test_no_example_plugin_is_in_the_default_environment() -> None:
    root = tomllib.loads((ROOT / "pyproject.toml").read_text())
    dev = {str(req).split(">")[0].split("=")[0].strip() for req in root["dependency-groups"]["dev"]}
    assert not dev & EXAMPLE_PLUGINS
    assert not set(root["tool"]["uv"].get("sources", {})) & EXAMPLE_PLUGINS
    assert all(not m.startswith("plugins") for m in root["tool"]["uv"]["workspace"]["members"])


def test_the_lock_holds_first_party_projects_only() -> None:
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    editable = {
        package["name"]
        for package in lock["package"]
        if "editable" in package.get("source", {}) or "virtual" in package.get("source", {})
    }
    assert editable == FIRST_PARTY


def test_example_plugins_install_as_outsiders_do() -> None:
    """No workspace-only source: ``pip install ./plugins/<name>`` resolves toolscore-core from
    an index or a wheel folder, as it would for anyone."""
    for path in ROOT.glob("plugins/*/pyproject.toml"):
        assert "sources" not in tomllib.loads(path.read_text()).get("tool", {}).get("uv", {}), path
