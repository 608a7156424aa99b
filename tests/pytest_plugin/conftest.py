"""Shared fixtures for the toolscore-pytest tests: pytester, a clean environment, helpers."""

from __future__ import annotations

import contextlib
import importlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

# pytester's in-process runs drop every module first imported during a run. Importing what
# those runs use here keeps it loaded once for the whole suite (hypothesis's pytest plugin
# alone would re-import hypothesis, about a second, at the end of every run).
for _module in (
    "hypothesis",
    "rich.console",
    "rich.table",
    "toolscore.assertions",
    "toolscore.evaluation",
    "toolscore.snapshots",
    "toolscore_providers",
):
    with contextlib.suppress(ImportError):  # optional in a partial install
        importlib.import_module(_module)


def pytest_configure(config: pytest.Config) -> None:
    # ``pytest_plugins`` is only allowed in the root conftest; load pytester by hand.
    if not config.pluginmanager.has_plugin("pytester"):
        config.pluginmanager.import_plugin("pytester")


@pytest.fixture(autouse=True)
def _local_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts outside CI and without a pending update request."""
    for name in ("CI", "TOOLSCORE_RECORD_UPDATE", "TOOLSCORE_RECORD"):
        monkeypatch.delenv(name, raising=False)


class Helpers:
    """Small helpers the tests share (a fixture, so no test imports conftest)."""

    @staticmethod
    def cli(args: Sequence[str], input: str | None = None) -> Result:
        """Run the real ``toolscore`` command group in-process."""
        from toolscore.cli import cli

        return CliRunner().invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)

    @staticmethod
    def files(root: Path) -> list[Path]:
        return sorted(root.glob("*.json")) if root.is_dir() else []

    @staticmethod
    def read_all(root: Path) -> list[dict[str, Any]]:
        return [json.loads(p.read_text(encoding="utf-8")) for p in Helpers.files(root)]


@pytest.fixture
def helpers() -> type[Helpers]:
    return Helpers
