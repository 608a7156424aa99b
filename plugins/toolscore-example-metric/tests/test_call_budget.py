"""The example plugin, tested the way its users see it: installed, through toolscore."""

from __future__ import annotations

import math

import pytest
import toolscore
from toolscore.plugins import create_plugin_manager
from toolscore_example_metric import budget_for


def test_installed_plugin_adds_the_metric_to_every_evaluation() -> None:
    result = toolscore.evaluate(
        [{"tool": "search"}, {"tool": "book"}],
        [
            {"tool": "search", "duration": 0.25},
            {"tool": "search", "duration": 0.5},
            {"tool": "book"},
        ],
    )
    budget = result.metrics["call_budget"]
    assert budget["budget"] == 2
    assert budget["calls"] == 3
    assert budget["over_budget"] == 1
    assert budget["within_budget"] is False
    assert budget["budget_usage"] == 1.5
    assert budget["total_duration"] == 0.75
    assert budget["total_cost"] is None


def test_metric_never_changes_the_score() -> None:
    expected = [{"tool": "a", "args": {"x": 1}}]
    with_plugin = toolscore.evaluate(expected, [{"tool": "a", "args": {"x": 1}}])
    pm = create_plugin_manager(load_entrypoints=False)
    without = toolscore.evaluate(expected, [{"tool": "a", "args": {"x": 1}}], plugin_manager=pm)
    assert "call_budget" not in without.metrics
    assert with_plugin.score == without.score == 1.0


def test_registered_through_the_entry_point() -> None:
    pm = create_plugin_manager()
    record = next(r for r in pm.records() if r.name == "toolscore_example_metric")
    assert record.status == "active"
    assert record.distribution == "toolscore-example-metric"
    assert record.provides == {"metrics": ("call_budget",)}


@pytest.mark.parametrize(
    ("expected", "option", "budget"),
    [(4, None, 4), (4, 6, 6), (4, 1.5, 6), (3, 1.5, 5), (0, None, 0)],
)
def test_budget_rules(expected: int, option: object, budget: int) -> None:
    assert budget_for(expected, option) == budget


def test_no_expected_calls_and_some_actual_calls_is_infinitely_over_budget() -> None:
    result = toolscore.evaluate([], [{"tool": "a"}])
    assert math.isinf(result.metrics["call_budget"]["budget_usage"])


@pytest.mark.parametrize("bad", [-1, "3", True])
def test_invalid_budget_option_is_rejected(bad: object) -> None:
    with pytest.raises(ValueError, match="call_budget must be a non-negative number"):
        budget_for(2, bad)
