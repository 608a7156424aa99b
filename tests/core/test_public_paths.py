"""Every documented module path and name keeps working, wherever the code behind it lives.

The paths come from README.md and docs/ (``grep -rn "toolscore\\.[a-z_]*" docs README.md``);
the compatibility paths (thin re-exports of modules that moved) are listed in
docs/architecture.md. A name that moves must stay importable from each path listed here.
"""

from __future__ import annotations

from importlib import import_module

import pytest
import toolscore

#: Module path -> names documented (or re-exported for compatibility) there.
DOCUMENTED: dict[str, tuple[str, ...]] = {
    # compatibility paths: thin re-exports
    "toolscore.core": (
        "EvaluationResult",
        "ToolCall",
        "ToolScoreAssertionError",
        "assert_tools",
        "evaluate",
        "evaluate_trace",
        "load_gold_standard",
        "load_trace",
        "test_agent",
        "test_agent_async",
    ),
    "toolscore.compare": (
        "NO_KEY",
        "count_correct",
        "key_function",
        "lenient_key",
        "match_key",
        "values_match",
    ),
    "toolscore.value_match": (
        "NO_KEY",
        "count_correct",
        "key_function",
        "lenient_key",
        "match_key",
        "values_match",
    ),
    "toolscore.comparison": (
        "COMPARED_METRICS",
        "compare_models",
        "print_comparison_table",
        "save_comparison_report",
    ),
    "toolscore.matchers": (
        "ANY",
        "Approx",
        "Contains",
        "IsType",
        "Matcher",
        "OneOf",
        "Regex",
        "SearchRegex",
        "builtin_json_forms",
        "matcher_from_json",
        "matcher_to_json",
    ),
    "toolscore.alignment": ("Alignment", "align"),
    "toolscore.adapters.base": ("ToolCall",),
    "toolscore.integrations": ("auto_extract", "extract_calls", "from_openai"),
    # the matching package
    "toolscore.matching": (
        "ARGS_MODES",
        "MODES",
        "ArgsRule",
        "MatchSpec",
        "TrajectoryMatch",
        "match_calls",
        "match_trajectory",
        "rule_from_policy",
    ),
    "toolscore.matching.values": ("count_correct", "match_key", "values_match"),
    "toolscore.matching.matchers": ("ANY", "Matcher", "Regex", "matcher_from_json"),
    "toolscore.matching.alignment": ("Alignment", "align"),
    # other documented modules
    "toolscore.batch": ("evaluate_dataset",),
    "toolscore.batch.executors": ("ordered_window",),
    "toolscore.builtin.matchers": ("toolscore_register_matchers",),
    "toolscore.cli": ("cli", "main"),
    "toolscore.console": ("main",),
    "toolscore.context": ("NOT_APPLICABLE", "EvaluationContext"),
    "toolscore.diff": (),
    "toolscore.errors": ("InputError",),
    "toolscore.fileio": ("atomic_write_text",),
    "toolscore.findings": ("findings_for", "register_code"),
    "toolscore.first_party": ("FIRST_PARTY",),
    "toolscore.hookspecs": (),
    "toolscore.limits": (),
    "toolscore.metrics.cost_estimator": (),
    "toolscore.metrics.policy": (),
    "toolscore.model": ("ToolCall",),
    "toolscore.plugins": ("create_plugin_manager", "manager_or_default", "use_plugin_manager"),
    "toolscore.plugins.lazy_builtins": (),
    "toolscore.redaction": (),
    "toolscore.reporters": ("available_reporters", "render_report", "write_reports"),
    "toolscore.snapshots": ("Snapshot", "SnapshotStore", "snapshot_check"),
    "toolscore.specs": ("MetricSpec",),
    "toolscore.terminal_text": (),
}


@pytest.mark.parametrize("module_name", sorted(DOCUMENTED))
def test_documented_module_paths_import(module_name: str) -> None:
    module = import_module(module_name)
    missing = [name for name in DOCUMENTED[module_name] if not hasattr(module, name)]
    assert not missing, f"{module_name} lost {missing}"


@pytest.mark.parametrize("name", sorted(toolscore.__all__))
def test_every_public_name_resolves(name: str) -> None:
    assert getattr(toolscore, name) is not None
    assert name in dir(toolscore)


def test_compatibility_paths_are_the_same_objects() -> None:
    from toolscore import alignment, compare, matchers, value_match
    from toolscore.matching import alignment as new_alignment
    from toolscore.matching import matchers as new_matchers
    from toolscore.matching import values

    assert matchers.Matcher is new_matchers.Matcher is toolscore.Matcher
    assert matchers.ANY is new_matchers.ANY is toolscore.ANY
    assert compare.values_match is value_match.values_match is values.values_match
    assert alignment.align is new_alignment.align
    assert toolscore.match_trajectory is import_module("toolscore.matching").match_trajectory
