"""The plugin as its users meet it: installed, found through its entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from toolscore.plugins import create_plugin_manager, get_plugin_manager
from toolscore_example_values import PRIORITY, SOURCE
from toolscore_mcp.synthesis import collect_value_providers


def test_plugins_list_shows_the_provider() -> None:
    proc = subprocess.run(
        [str(Path(sys.executable).parent / "toolscore"), "plugins", "list", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    plugins = {p["name"]: p for p in json.loads(proc.stdout)["plugins"]}
    plugin = plugins["toolscore_example_values"]
    assert plugin["status"] == "active", plugin["error"]
    assert plugin["distribution"] == "toolscore-example-values"
    assert "toolscore_mcp_register_value_providers" in plugin["hooks"]
    assert plugin["provides"] == {"mcp_value_providers": ["finance"]}


def test_registered_through_the_entry_point() -> None:
    pm = create_plugin_manager()
    record = next(r for r in pm.records() if r.name == "toolscore_example_values")
    assert record.status == "active"
    assert record.distribution == "toolscore-example-values"
    assert record.provides == {"mcp_value_providers": ("finance",)}


def test_finance_is_asked_between_harvested_and_meaning() -> None:
    providers, problems = collect_value_providers(get_plugin_manager())
    assert not problems
    names = [spec.name for spec in providers]
    assert names.index("harvested") < names.index(SOURCE) < names.index("meaning")
    finance = providers[names.index(SOURCE)]
    assert finance.priority == PRIORITY == 62
    assert finance.summary


def test_absent_when_plugins_are_off() -> None:
    providers, _ = collect_value_providers(create_plugin_manager(load_entrypoints=False))
    names = [spec.name for spec in providers]
    assert "meaning" in names
    assert SOURCE not in names
