"""All first-party distributions move in lockstep and pin each other exactly."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import toolscore

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[2]
FIRST_PARTY = [
    "toolscore-core",
    "toolscore-providers",
    "toolscore-mcp",
    "toolscore-pytest",
    "toolscore-judge",
]


def project(folder: str) -> dict[str, object]:
    data = tomllib.loads((ROOT / folder / "pyproject.toml").read_text())
    return data["project"]  # type: ignore[no-any-return]


def test_every_first_party_distribution_has_the_core_version() -> None:
    versions = {folder: project(folder)["version"] for folder in [".", *FIRST_PARTY]}
    assert set(versions.values()) == {toolscore.__version__}, versions


@pytest.mark.parametrize("folder", [".", *FIRST_PARTY[1:]])
def test_first_party_dependencies_are_pinned_exactly(folder: str) -> None:
    deps = [d for d in project(folder)["dependencies"] if str(d).startswith("toolscore")]  # type: ignore[attr-defined]
    assert deps
    for dep in deps:
        assert dep.endswith(f"=={toolscore.__version__}"), dep
