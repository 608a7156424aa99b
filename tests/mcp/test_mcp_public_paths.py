"""The import paths the docs and plugins use keep working, whatever the package layout.

``docs/plugins/*.md``, ``docs/mcp*.md`` and ``plugins/toolscore-example-values`` name these
modules and names; a move inside toolscore_mcp must keep them importable (as the real
module or a re-export of it).
"""

from __future__ import annotations

import importlib
import importlib.util
from importlib.metadata import entry_points

import pytest

DOCUMENTED: dict[str, tuple[str, ...]] = {
    "toolscore_mcp.hookspecs": (
        "toolscore_mcp_extra_scenarios",
        "toolscore_mcp_register_conformance_checks",
        "toolscore_mcp_register_lint_rules",
        "toolscore_mcp_register_value_providers",
    ),
    "toolscore_mcp.lint": (
        "BUILTIN_RULE_MODULES",
        "LintIssue",
        "LintRuleSpec",
        "ServerText",
        "collect_lint_rules",
        "ensure_mcp_hooks",
        "lint_rules_by_plugin",
        "lint_tools",
    ),
    "toolscore_mcp.conformance": (
        "BUILTIN_CHECK_MODULES",
        "ConformanceCheckSpec",
        "ConformanceContext",
        "ConformanceFinding",
        "ConformanceOutcome",
        "NotApplicable",
        "collect_conformance_checks",
        "run_conformance",
    ),
    "toolscore_mcp.providers": (
        "Candidate",
        "Parameter",
        "SandboxLike",
        "SynthesisContext",
        "ValueProviderSpec",
        "name_tokens",
    ),
    "toolscore_mcp.model": (
        "Attempt",
        "FixSuggestion",
        "LintIssue",
        "MCPToolDef",
        "MCPToolResult",
        "Scenario",
        "ScenarioResult",
        "ServerDetails",
        "SetupCall",
    ),
    "toolscore_mcp.synthesis": ("ArgumentSet", "ToolSynthesizer", "collect_value_providers"),
    "toolscore_mcp.plugin": (
        "toolscore_add_hookspecs",
        "toolscore_describe_provided",
        "toolscore_register_commands",
    ),
}


@pytest.mark.parametrize("module_name", sorted(DOCUMENTED))
def test_every_documented_name_imports_from_its_documented_module(module_name: str) -> None:
    module = importlib.import_module(module_name)
    missing = [name for name in DOCUMENTED[module_name] if not hasattr(module, name)]
    assert missing == []


def test_the_entry_point_names_the_plugin_module() -> None:
    (point,) = [p for p in entry_points(group="toolscore") if p.name == "toolscore_mcp"]
    assert point.value == "toolscore_mcp.plugin"
    assert point.load() is importlib.import_module("toolscore_mcp.plugin")


def test_the_re_export_modules_hand_out_the_same_objects() -> None:
    from toolscore_mcp import providers, synthesis
    from toolscore_mcp.values import providers as real_providers
    from toolscore_mcp.values import synthesizer as real_synthesizer

    assert providers.ValueProviderSpec is real_providers.ValueProviderSpec
    assert synthesis.ToolSynthesizer is real_synthesizer.ToolSynthesizer


def test_the_sample_server_still_runs_as_a_module() -> None:
    assert importlib.util.find_spec("toolscore_mcp.sample_server") is not None
