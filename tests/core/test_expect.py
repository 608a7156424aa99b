"""The fluent expect() API: every method, and the error each one raises on a failed expectation."""

from __future__ import annotations

import asyncio
import re
import warnings
from typing import Any

import pytest
import toolscore
from toolscore import ANY, Regex, ToolScoreAssertionError, expect
from toolscore.expect import Expectation

FLIGHT = [
    {"tool": "search_flights", "args": {"origin": "SFO", "destination": "NYC"}},
    {"tool": "book_flight", "args": {"flight_id": "FL-123"}},
]


def agent(prompt: str) -> list[dict[str, Any]]:
    return [dict(call) for call in FLIGHT] if "NYC" in prompt else []


def test_readme_example_passes() -> None:
    result = (
        expect(agent)
        .on("book me a flight to NYC")
        .calls("search_flights", origin=ANY, destination="NYC")
        .then_calls("book_flight", flight_id=Regex(r"FL-\d+"))
        .does_not_call("cancel_booking")
        .with_score(0.9)
        .run()
    )
    assert result.score == pytest.approx(1.0)
    assert "policy_metrics" not in result.metrics  # rules are not passed to evaluate()


def test_chain_methods_return_the_same_expectation() -> None:
    e = expect([])
    assert isinstance(e, Expectation)
    assert toolscore.Expectation is Expectation
    for step in (
        e.calls("a"),
        e.then_calls("b", x=1),
        e.does_not_call("c"),
        e.with_score(0.5),
        e.with_weights(selection_accuracy=1.0),
        e.with_strict_args(),
    ):
        assert step is e


def test_calls_without_kwargs_does_not_check_arguments() -> None:
    result = expect([{"tool": "a", "args": {"anything": 1}}]).calls("a").with_score(1.0).run()
    assert result.gold_calls[0].args is None
    assert result.argument_f1 == 1.0


def test_below_score_raises_the_diff_message() -> None:
    with pytest.raises(ToolScoreAssertionError, match="Expected vs Actual Tool Calls"):
        expect(FLIGHT).calls("search_flights", destination="BOS").calls("pay").run()


def test_with_score_is_validated_at_run_time() -> None:
    e = expect(FLIGHT).calls("search_flights").with_score(1.5)
    with pytest.raises(ValueError, match=r"^min_score must be between 0.0 and 1.0, got 1.5$"):
        e.run()


def test_with_weights_and_strict_args_reach_evaluate() -> None:
    lenient = expect([{"tool": "a", "args": {"n": 1.0}}]).calls("a", n=1).with_score(1.0).run()
    assert lenient.argument_f1 == 1.0
    with pytest.raises(ToolScoreAssertionError):
        expect([{"tool": "a", "args": {"n": 1.0}}]).calls("a", n=1).with_strict_args().with_score(
            1.0
        ).run()
    # Only redundant_rate keeps a weight: the wrong arguments no longer lower the score.
    weighted = (
        expect([{"tool": "a", "args": {"n": 2}}])
        .calls("a", n=1)
        .with_weights(selection_accuracy=0.0, argument_f1=0.0, sequence_accuracy=0.0)
        .with_score(1.0)
        .run()
    )
    assert weighted.argument_f1 == 0.0
    assert weighted.score == pytest.approx(1.0)


# -- forbidden calls -------------------------------------------------------------------------


def test_forbidden_call_message() -> None:
    actual = [
        {"tool": "search", "args": {"q": "x"}},
        {"tool": "shell", "args": {"cmd": "rm -rf /"}},
        {"tool": "shell", "args": {"cmd": "ls"}},
        {"tool": "delete"},
    ]
    with pytest.raises(ToolScoreAssertionError) as info:
        expect(actual).calls("search").does_not_call("shell").does_not_call("delete").run()
    assert str(info.value).startswith(
        "Forbidden tool(s) were called: 'shell', 'delete'\n"
        "Forbidden calls: shell({'cmd': 'rm -rf /'}); shell({'cmd': 'ls'}); delete({})\n"
        "Actual calls: ['search', 'shell', 'shell', 'delete']\n\n"
    )
    assert "score 0." in str(info.value)  # the three extra calls lower the score too


def test_forbidden_only_message_is_the_forbidden_calls() -> None:
    with pytest.raises(ToolScoreAssertionError) as info:
        expect([{"tool": "shell", "args": {"cmd": "ls"}}]).does_not_call("shell").run()
    assert str(info.value) == (
        "Forbidden tool(s) were called: 'shell'\n"
        "Forbidden calls: shell({'cmd': 'ls'})\n"
        "Actual calls: ['shell']"
    )


def test_a_forbidden_call_does_not_hide_a_wrong_argument() -> None:
    actual = [
        {"tool": "search_flights", "args": {"destination": "BOS"}},
        {"tool": "delete_account", "args": {}},
    ]
    with pytest.raises(ToolScoreAssertionError) as info:
        expect(actual).calls("search_flights", destination="NYC").does_not_call(
            "delete_account"
        ).run()
    message = str(info.value)
    assert message.startswith("Forbidden tool(s) were called: 'delete_account'")
    assert "destination: 'NYC' ≠ 'BOS'" in message
    assert "EXTRA" in message
    assert " < 0.90 required" in message


def test_a_forbidden_call_shows_wrong_arguments_even_when_the_score_passes() -> None:
    actual = [
        {"tool": "search", "args": {"q": "paris"}},
        {"tool": "book", "args": {"hotel": "H", "nights": 2}},
        {"tool": "pay", "args": {"amount": 10}},
        {"tool": "log", "args": {}},
    ]
    with pytest.raises(ToolScoreAssertionError) as info:
        expect(actual).calls("search", q="paris").then_calls(
            "book", hotel="H", nights=3
        ).then_calls("pay", amount=10).does_not_call("log").with_score(0.1).run()
    message = str(info.value)
    assert message.startswith("Forbidden tool(s) were called: 'log'")
    assert "nights: 3 ≠ 2" in message
    assert " ≥ 0.10 required" in message


def test_no_problem_no_failure_with_forbidden_rules() -> None:
    result = expect([{"tool": "a", "args": {"x": 1}}]).calls("a", x=1).does_not_call("b").run()
    assert result.score == 1.0


def test_forbidden_args_narrow_the_rule() -> None:
    actual = [{"tool": "shell", "args": {"cmd": "ls -la"}}]
    result = expect(actual).does_not_call("shell", cmd=Regex(r".*rm -rf.*")).run()
    assert result.score == 0.0  # forbidden-only: evaluate([], actual), no score check
    with pytest.raises(ToolScoreAssertionError, match="Forbidden tool"):
        expect(actual).does_not_call("shell", cmd=Regex(r"ls.*")).run()


def test_forbidden_check_runs_before_the_score_check() -> None:
    with pytest.raises(ToolScoreAssertionError, match=r"^Forbidden tool"):
        expect([{"tool": "x"}]).calls("a").does_not_call("x").run()


# -- errors ----------------------------------------------------------------------------------


def test_no_expectations() -> None:
    with pytest.raises(ValueError) as info:
        expect(agent).on("x").run()
    assert str(info.value) == (
        "no expectations declared — call .calls(), .then_calls(), or .does_not_call() before .run()."
    )
    with pytest.raises(ValueError, match=re.escape("before .run_async().")):
        asyncio.run(expect(agent).on("x").run_async())


def test_callable_without_prompt() -> None:
    with pytest.raises(ValueError) as info:
        expect(agent).calls("a").run()
    assert str(info.value) == (
        "expect() was given a callable subject but no prompt was set. "
        "Call .on(prompt) before .run()."
    )


def test_prompt_for_a_result_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"non-callable subject"):
        expect(FLIGHT).on("x").calls("a").run()
    with pytest.raises(TypeError, match=r"non-callable subject"):
        asyncio.run(expect({"calls": []}).on("x").calls("a").run_async())


def test_async_subject_in_run() -> None:
    async def async_agent(prompt: str) -> list[Any]:  # pragma: no cover - never awaited
        return []

    with pytest.raises(TypeError) as info:
        expect(async_agent).on("x").calls("a").run()
    assert str(info.value) == (
        "subject is an async function — use `expect(...).run_async()` instead."
    )

    async def produce() -> list[Any]:  # pragma: no cover - closed, never run
        return []

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(TypeError) as info:
            expect(lambda p: produce()).on("x").calls("a").run()
    assert str(info.value) == "subject is async — use `expect(...).run_async()` instead."


def test_run_async_accepts_async_and_sync_agents() -> None:
    async def async_agent(prompt: str) -> list[dict[str, Any]]:
        await asyncio.sleep(0)
        return agent(prompt)

    for subject in (async_agent, agent):
        result = asyncio.run(
            expect(subject)
            .on("to NYC")
            .calls("search_flights")
            .then_calls("book_flight")
            .run_async()
        )
        assert result.selection_accuracy == 1.0


def test_responses_go_through_extraction() -> None:
    result = expect({"calls": FLIGHT}).calls("search_flights").calls("book_flight").run()
    assert [c.tool for c in result.trace_calls] == ["search_flights", "book_flight"]
    with pytest.raises(TypeError, match="Cannot auto-detect provider format from int"):
        expect(5).calls("a").run()


def test_importing_the_expect_module_first_keeps_toolscore_expect_the_function() -> None:
    import subprocess
    import sys

    code = (
        "import toolscore.expect\n"
        "from toolscore.expect import Expectation\n"
        "import toolscore\n"
        "from toolscore import expect\n"
        "assert expect is toolscore.expect and callable(expect), expect\n"
        "result = expect([{'tool': 'a', 'args': {}}]).calls('a').run()\n"
        "print(type(result).__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
