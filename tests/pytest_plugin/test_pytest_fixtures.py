"""The other fixtures: gold/trace dirs, toolscore_eval, toolscore_assert(_tools), and the
fixtures for plugin authors."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import toolscore
from toolscore_pytest.assertions import ToolscoreAssertions

EXPECTED = [
    {"tool": "search_flights", "args": {"origin": "SFO", "destination": "NYC"}},
    {"tool": "book_flight", "args": {"flight_id": "FL-123"}},
]
DRIFTED = [
    {"tool": "search_flights", "args": {"origin": "SFO", "destination": "BOS"}},
    {"tool": "cancel_booking", "args": {"booking_id": "B-9"}},
]


@pytest.mark.toolscore  # registered marker (the suite runs with --strict-markers)
def test_gold_and_trace_dirs_default(toolscore_gold_dir: Path, toolscore_trace_dir: Path) -> None:
    assert toolscore_gold_dir == Path("tests/gold_standards")
    assert toolscore_trace_dir == Path("tests/traces")


def test_toolscore_eval_resolves_relative_paths(pytester: pytest.Pytester) -> None:
    (pytester.path / "gold").mkdir()
    (pytester.path / "traces").mkdir()
    (pytester.path / "gold" / "g.json").write_text(json.dumps(EXPECTED), encoding="utf-8")
    (pytester.path / "traces" / "t.json").write_text(json.dumps(EXPECTED), encoding="utf-8")
    absolute = pytester.path / "traces" / "t.json"
    pytester.makepyfile(
        f"""
def test_eval(toolscore_eval):
    result = toolscore_eval("g.json", "t.json", format="custom")
    assert result.score == 1.0
    assert toolscore_eval("g.json", {str(absolute)!r}).metrics["selection_accuracy"] == 1.0
"""
    )
    pytester.runpytest("--toolscore-gold-dir=gold", "--toolscore-trace-dir=traces").assert_outcomes(
        passed=1
    )


def test_assert_tools_fixture_is_assert_tools(toolscore_assert_tools: Callable[..., Any]) -> None:
    assert toolscore_assert_tools is toolscore.assert_tools
    with pytest.raises(toolscore.ToolScoreAssertionError, match="Expected vs Actual Tool Calls"):
        toolscore_assert_tools(EXPECTED, DRIFTED, min_score=0.9)


def test_assertion_messages(toolscore_assert: ToolscoreAssertions) -> None:
    result = toolscore.evaluate(EXPECTED, DRIFTED)
    checks: list[tuple[Callable[[], Any], str]] = [
        (
            lambda: toolscore_assert.assert_invocation_accuracy(result, 0.9),
            "Invocation accuracy 0.0% below minimum 90.0%",
        ),
        (
            lambda: toolscore_assert.assert_selection_accuracy(result, 0.9),
            "Selection accuracy 50.0% below minimum 90.0%",
        ),
        (
            lambda: toolscore_assert.assert_sequence_accuracy(result, 0.9),
            "Sequence accuracy 50.0% below minimum 90.0%",
        ),
        (
            lambda: toolscore_assert.assert_argument_f1(result, 0.5),
            "Argument F1 score 40.0% below minimum 50.0%",
        ),
        (
            lambda: toolscore_assert.assert_score(EXPECTED, DRIFTED),
            "Composite score 0.470 below minimum 0.900",
        ),
        (
            lambda: toolscore_assert.assert_all_metrics_above(result, 0.45),
            "Metrics below 45.0%: invocation_accuracy=0.0%, argument_f1=40.0%",
        ),
        (lambda: toolscore_assert.assert_selection_accuracy(result, 0.9, msg="custom"), "custom"),
    ]
    for check, message in checks:
        with pytest.raises(AssertionError) as caught:
            check()
        assert str(caught.value) == message
        assert type(caught.value) is AssertionError

    redundant = toolscore.evaluate([{"tool": "a"}], [{"tool": "a"}, {"tool": "a"}])
    toolscore_assert.assert_redundancy_below(redundant, 0.5)  # the bound is inclusive
    with pytest.raises(AssertionError, match=r"^Redundant call rate 50.0% exceeds maximum 10.0%$"):
        toolscore_assert.assert_redundancy_below(redundant, 0.1)
    toolscore_assert.assert_sequence_accuracy(result, 0.5)  # inclusive
    assert toolscore_assert.assert_score(EXPECTED, EXPECTED, min_score=1.0).score == 1.0


PLUGIN_TESTS = """
import toolscore
from toolscore.specs import MetricSpec

class CallCount:
    def compute(self, context):
        return len(context.actual)

class CountPlugin:
    @toolscore.hookimpl
    def toolscore_register_metrics(self):
        yield MetricSpec(name="call_count", factory=CallCount, summary="calls made")

def test_fresh_manager_has_only_builtins(toolscore_plugin_manager):
    from toolscore.plugins import DEFAULT_PLUGINS, get_plugin_manager
    assert get_plugin_manager() is toolscore_plugin_manager
    assert {name for name, _ in toolscore_plugin_manager.list_name_plugin()} <= set(DEFAULT_PLUGINS)
    assert "call_budget" not in toolscore.evaluate([{"tool": "a"}], [{"tool": "a"}]).metrics

def test_registered_plugin_is_used_by_evaluate(register_toolscore_plugin):
    name = register_toolscore_plugin(CountPlugin(), name="counting")
    assert name == "counting"
    result = toolscore.evaluate([{"tool": "a"}], [{"tool": "a"}, {"tool": "b"}])
    assert result.metrics["call_count"] == 2

def test_zz_gone_after_the_test():
    from toolscore.plugins import get_plugin_manager
    assert not get_plugin_manager().has_plugin("counting")
    assert "call_count" not in toolscore.evaluate([{"tool": "a"}], [{"tool": "a"}]).metrics
"""


def test_plugin_author_fixtures(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_plugins=PLUGIN_TESTS)
    pytester.runpytest().assert_outcomes(passed=3)


def test_registering_after_a_first_evaluation_still_counts(register_toolscore_plugin) -> None:  # type: ignore[no-untyped-def]
    from toolscore.specs import MetricSpec

    class Answer:
        def compute(self, context: Any) -> int:
            return 42

    class Plugin:
        @toolscore.hookimpl
        def toolscore_register_metrics(self) -> Any:
            yield MetricSpec(name="answer", factory=Answer, summary="always 42")

    assert "answer" not in toolscore.evaluate([{"tool": "a"}], [{"tool": "a"}]).metrics
    register_toolscore_plugin(Plugin())
    assert toolscore.evaluate([{"tool": "a"}], [{"tool": "a"}]).metrics["answer"] == 42


def test_a_failed_check_reads_as_its_score_line_in_the_short_summary(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "300")  # room for the whole line
    pytester.makepyfile(
        """
        from toolscore import assert_tools

        def test_agent():
            assert_tools(
                [{"tool": "search", "args": {"q": "x", "limit": 5}}],
                [{"tool": "search", "args": {"q": "x", "limit": 50}}],
            )
        """
    )
    result = pytester.runpytest("-rf", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "FAILED test_a_failed_check_reads_as_its_score_line_in_the_short_summary.py::test_agent"
            " - ToolScoreAssertionError: score 0.85 < 0.90 required  ·  selection 1.00  ·  "
            "args 0.50  ·  sequence 1.00",
        ]
    )
    result.stdout.fnmatch_lines(["*Expected vs Actual Tool Calls*"])  # the table is still shown
