"""Fixtures shared by the core tests."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from toolscore.plugins import create_plugin_manager, reset_plugin_manager
from toolscore.plugins.manager import ToolscorePluginManager


def pytest_configure(config: pytest.Config) -> None:
    # ``pytest_plugins`` is only allowed in the root conftest; load pytester by hand.
    if not config.pluginmanager.has_plugin("pytester"):
        config.pluginmanager.import_plugin("pytester")


@pytest.fixture
def builtin_pm() -> ToolscorePluginManager:
    """A fresh plugin manager with only core's built-ins (no installed distributions)."""
    return create_plugin_manager(load_entrypoints=False)


@pytest.fixture
def only_builtins(builtin_pm: ToolscorePluginManager) -> Iterator[ToolscorePluginManager]:
    """Make the built-ins-only manager the process-wide one for the duration of a test."""
    reset_plugin_manager(builtin_pm)
    try:
        yield builtin_pm
    finally:
        reset_plugin_manager(None)


@pytest.fixture
def write_json(tmp_path: Path) -> Callable[..., Path]:
    """Write a JSON document (or raw text) to a file in tmp_path and return its path."""

    def write(data: Any, name: str = "data.json", *, raw: bool = False) -> Path:
        path = tmp_path / name
        path.write_text(data if raw else json.dumps(data), encoding="utf-8")
        return path

    return write
