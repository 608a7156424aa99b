"""Plugin distributions use only toolscore's public names.

Every distribution other than toolscore-core (and the example plugins) is a plugin like any
third party's: it imports ``toolscore.hookimpl``/``toolscore.hookspec`` and other public
modules, never a private ``toolscore._*`` module, so that core may move its internals freely.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGIN_SOURCES = sorted(
    src
    for src in [*ROOT.glob("toolscore-*/src"), *ROOT.glob("plugins/*/src")]
    if src.parent.name != "toolscore-core"
)


def _private_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module]
            if node.module == "toolscore":
                modules += [f"toolscore.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            modules = [f"{node.value.id}.{node.attr}"] if node.value.id == "toolscore" else []
        else:
            continue
        for module in modules:
            parts = module.split(".")
            private = parts[0] == "toolscore" and any(p.startswith("_") for p in parts[1:2])
            if private and not module.startswith("toolscore.__"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {module}")
    return found


def test_every_plugin_distribution_is_scanned() -> None:
    names = {src.parent.name for src in PLUGIN_SOURCES}
    assert {"toolscore-mcp", "toolscore-judge", "toolscore-pytest", "toolscore-providers"} <= names
    assert "toolscore-example-metric" in names


@pytest.mark.parametrize("src", PLUGIN_SOURCES, ids=lambda src: src.parent.name)
def test_no_plugin_distribution_imports_a_private_toolscore_module(src: Path) -> None:
    offenders = [hit for path in sorted(src.rglob("*.py")) for hit in _private_imports(path)]
    assert offenders == [], "private toolscore names used outside core:\n" + "\n".join(offenders)


def test_the_markers_are_public() -> None:
    import toolscore

    assert "hookimpl" in toolscore.__all__
    assert "hookspec" in toolscore.__all__
    assert toolscore.hookspec.project_name == toolscore.hookimpl.project_name == "toolscore"
