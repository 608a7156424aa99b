"""A plugin whose ``toolscore_mcp_extra_scenarios`` raises is skipped; the run goes on.

The harness calls the hook through the plugin host's ``call_each``, so one broken plugin
neither stops ``mcp test`` nor hides the scenarios other plugins add.
"""

from __future__ import annotations

import pytest
import toolscore
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore_mcp.client.target import ServerTarget
from toolscore_mcp.grading.harness import TestOptions, grade_server, run_sync
from toolscore_mcp.model import MCPToolDef, Scenario


class RaisingPlugin:
    @toolscore.hookimpl
    def toolscore_mcp_extra_scenarios(self, tool: MCPToolDef) -> list[Scenario]:
        raise RuntimeError("extra scenarios exploded")


class AddingPlugin:
    @toolscore.hookimpl
    def toolscore_mcp_extra_scenarios(self, tool: MCPToolDef) -> list[Scenario]:
        return [Scenario(tool.name, {}, "edge", "added by a working plugin")]


def test_a_raising_extra_scenarios_plugin_is_skipped_and_the_run_goes_on(
    sample_cmd: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    import toolscore_mcp.plugin

    pm = ToolscorePluginManager()
    pm.register(toolscore_mcp.plugin, name="toolscore_mcp")
    pm.register(AddingPlugin(), name="adding-plugin")
    pm.register(RaisingPlugin(), name="raising-plugin")

    target = ServerTarget(command=tuple(sample_cmd))
    card = run_sync(lambda: grade_server(target, TestOptions(), pm=pm))

    added = [r for r in card.results if r.scenario.description == "added by a working plugin"]
    assert added  # the working plugin's scenarios ran
    assert "raising-plugin" in capsys.readouterr().err
