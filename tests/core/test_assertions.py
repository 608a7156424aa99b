"""assert_tools, the failure message, test_agent(_async) and cases."""

from __future__ import annotations

import asyncio
import os
import pty
import subprocess
import sys
import textwrap
import warnings
from typing import Any

import pytest
import toolscore
from toolscore.assertions import (
    ToolScoreAssertionError,
    assert_tools,
    check_threshold,
    failure_message,
    test_agent,
    test_agent_async,
)
from toolscore.evaluation import evaluate

GOLD = [
    {"tool": "search_flights", "args": {"origin": "SFO", "destination": "NYC"}},
    {"tool": "book_flight", "args": {"flight_id": "FL-123"}},
]
TRACE = [
    {"tool": "search_flights", "args": {"origin": "SFO", "destination": "BOS"}},
    {"tool": "cancel_booking", "args": {"booking_id": "B-9"}},
]

#: The observed-calls table exactly as it renders (the title line is padded to the width).
TITLE = " " * 35 + "Expected vs Actual Tool Calls" + " " * 36
OBSERVED = (
    TITLE
    + """
┏━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃   # ┃ Expected                     ┃ Actual                       ┃ Status                       ┃
┡━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│   1 │ search_flights(origin='SFO', │ search_flights(origin='SFO', │ destination: 'NYC' ≠ 'BOS'   │
│     │ destination='NYC')           │ destination='BOS')           │                              │
├─────┼──────────────────────────────┼──────────────────────────────┼──────────────────────────────┤
│   2 │ book_flight(flight_id='FL-1… │ cancel_booking(booking_id='… │ tool: 'book_flight' ≠        │
│     │                              │                              │ 'cancel_booking'             │
└─────┴──────────────────────────────┴──────────────────────────────┴──────────────────────────────┘
score 0.47 < 0.90 required  ·  selection 0.50  ·  args 0.40  ·  sequence 0.50

Tips:
  • Use --llm-judge flag to catch semantic equivalence
  • Check that your agent has access to all required tools
  • Verify tool names match exactly (case-sensitive)
  • Low recall: Agent is missing required arguments
  • Minor sequence differences - may be acceptable depending on task
  • Consider caching tool results or improving planning
"""
)


def test_observed_failure_message_is_reproduced() -> None:
    with pytest.raises(ToolScoreAssertionError) as info:
        assert_tools(GOLD, TRACE)
    assert str(info.value) == OBSERVED
    assert isinstance(info.value, AssertionError)


def test_missing_and_extra_rows_render() -> None:
    result = evaluate(
        [{"tool": "a"}, {"tool": "b", "args": {}}],
        [{"tool": "a", "args": {"x": 1}}, {"tool": "z"}, {"tool": "y"}],
    )
    text = failure_message(result, 0.9)
    assert "a(…any args…)" in text
    assert "b()" in text
    assert "— EXTRA —" in text
    assert "EXTRA" in text
    assert "\x1b[" not in text


def test_missing_row_and_perfect_row() -> None:
    result = evaluate(
        [{"tool": "a", "args": {"x": 1}}, {"tool": "b"}], [{"tool": "a", "args": {"x": 1}}]
    )
    text = failure_message(result, 1.0)
    assert "✓" in text
    assert "— MISSING —" in text
    assert "MISSING" in text


def test_markup_in_values_is_shown_literally() -> None:
    result = evaluate(
        [{"tool": "a", "args": {"q": "[bold]x[/bold]"}}], [{"tool": "a", "args": {"q": "[red]"}}]
    )
    assert "'[bold]x[/bold]'" in failure_message(result, 1.0)


def test_strict_failure_flags_what_strict_scoring_counted_wrong() -> None:
    gold = [{"tool": "a", "args": {"n": 1, "s": "x"}}]
    trace = [{"tool": "a", "args": {"n": 1.0, "s": "x"}}]
    with pytest.raises(ToolScoreAssertionError) as info:
        assert_tools(gold, trace, min_score=1.0, strict=True)
    assert "n: 1 ≠ 1.0" in str(info.value)
    assert "s: " not in str(info.value)
    assert assert_tools(gold, trace, min_score=1.0).argument_f1 == 1.0  # lenient: correct


def test_perfect_match_passes_min_score_one() -> None:
    result = assert_tools(
        [{"tool": "a", "args": {"x": 1}}], [{"tool": "a", "args": {"x": 1}}], min_score=1.0
    )
    assert result.score == pytest.approx(1.0)


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan")])
def test_min_score_range_is_checked(bad: float) -> None:
    with pytest.raises(ValueError, match=f"^min_score must be between 0.0 and 1.0, got {bad}$"):
        assert_tools([], [], min_score=bad)


def test_check_threshold_none_and_epsilon() -> None:
    result = evaluate([{"tool": "a"}, {"tool": "b"}], [{"tool": "a"}])
    check_threshold(result, None)
    check_threshold(result, result.score + 5e-10)  # within float noise
    with pytest.raises(ToolScoreAssertionError):
        check_threshold(result, min(1.0, result.score + 1e-6))


def test_zero_threshold_always_passes() -> None:
    check_threshold(evaluate([{"tool": "a"}], [{"tool": "b"}]), 0.0)


# -- TTY copy ----------------------------------------------------------------------------------

_TTY_SCRIPT = textwrap.dedent(
    """
    import toolscore
    try:
        toolscore.assert_tools([{"tool": "a", "args": {"x": 1}}], [{"tool": "b"}])
    except toolscore.ToolScoreAssertionError as exc:
        print("plain-has-ansi", "\\x1b[" in str(exc))
    """
)


def test_coloured_copy_goes_to_a_terminal_stderr() -> None:
    main, secondary = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _TTY_SCRIPT],
            stdout=subprocess.PIPE,
            stderr=secondary,
            text=True,
            timeout=60,
            env={**os.environ, "TERM": "xterm"},
        )
        os.close(secondary)
        secondary = -1
        chunks = []
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        if secondary != -1:
            os.close(secondary)
        os.close(main)
    err = b"".join(chunks).decode("utf-8", "replace")
    assert proc.stdout.strip() == "plain-has-ansi False"
    assert "\x1b[" in err
    assert "Expected vs Actual Tool Calls" in err


def test_no_coloured_copy_when_stderr_is_not_a_terminal() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _TTY_SCRIPT], capture_output=True, text=True, timeout=60
    )
    assert proc.stdout.strip() == "plain-has-ansi False"
    assert proc.stderr == ""


# -- test_agent ------------------------------------------------------------------------------


def test_test_agent_calls_the_agent_and_extracts() -> None:
    seen = []

    def agent(prompt: str) -> list[dict[str, Any]]:
        seen.append(prompt)
        return [{"tool": "search", "args": {"q": prompt}}]

    result = test_agent(agent, "hi", [{"tool": "search", "args": {"q": "hi"}}], min_score=1.0)
    assert seen == ["hi"]
    assert result.selection_accuracy == 1.0


def test_test_agent_validates_min_score_before_running_the_agent() -> None:
    calls = []
    with pytest.raises(ValueError, match="min_score must be between"):
        test_agent(lambda p: calls.append(p), "x", [], min_score=2)
    assert calls == []


def test_test_agent_rejects_async_agents() -> None:
    async def agent(prompt: str) -> list[Any]:  # pragma: no cover - never awaited
        return []

    message = "agent is async — use `await toolscore.test_agent_async(...)` instead."
    with pytest.raises(TypeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        test_agent(agent, "x", [])


def test_test_agent_closes_a_returned_coroutine() -> None:
    async def produce() -> list[Any]:  # pragma: no cover - closed, never run
        return []

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an un-awaited coroutine would warn
        with pytest.raises(TypeError, match="agent is async"):
            test_agent(lambda p: produce(), "x", [])


def test_test_agent_below_threshold_raises_with_the_diff() -> None:
    with pytest.raises(ToolScoreAssertionError, match="Expected vs Actual Tool Calls"):
        test_agent(lambda p: [{"tool": "b"}], "x", [{"tool": "a"}], min_score=0.9)


def test_test_agent_async_awaits_async_and_accepts_sync() -> None:
    async def agent(prompt: str) -> list[dict[str, Any]]:
        await asyncio.sleep(0)
        return [{"tool": "a", "args": {"p": prompt}}]

    result = asyncio.run(
        test_agent_async(agent, "q", [{"tool": "a", "args": {"p": "q"}}], min_score=1.0)
    )
    assert result.argument_f1 == 1.0
    result = asyncio.run(test_agent_async(lambda p: [{"tool": "a"}], "q", [{"tool": "a"}]))
    assert result.selection_accuracy == 1.0
    with pytest.raises(ValueError, match="min_score"):
        asyncio.run(test_agent_async(lambda p: [], "q", [], min_score=-1))


def test_helpers_are_not_collected_by_pytest(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        from toolscore import test_agent, test_agent_async

        def test_real():
            assert test_agent(lambda p: [{"tool": "a"}], "x", [{"tool": "a"}]).score > 0.99
        """
    )
    result = pytester.runpytest_inprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_cases_parametrizes_by_first_dict_keys(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import toolscore

        @toolscore.cases([
            {"input": "weather NYC", "expected": [{"tool": "get_weather"}]},
            {"input": "time", "expected": [{"tool": "get_time"}]},
        ])
        def test_agent_case(input, expected):
            assert toolscore.evaluate(expected, expected).score > 0.99

        @toolscore.cases([{"x": 2}, {"x": 3, "q": 7}], id_key="q")
        def test_other(x):
            assert x in (2, 3)
        """
    )
    result = pytester.runpytest_inprocess("-v", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(
        [
            "*test_agent_case?weather NYC? PASSED*",
            "*test_agent_case?time? PASSED*",
            "*test_other?0? PASSED*",  # no id_key: the index
            "*test_other?7? PASSED*",  # the second case's q
        ]
    )


def test_cases_need_every_key_of_the_first_case() -> None:
    with pytest.raises(KeyError, match="q"):
        toolscore.cases([{"q": 1, "x": 2}, {"x": 3}])


def test_public_names() -> None:
    assert toolscore.ToolScoreAssertionError is ToolScoreAssertionError
    assert toolscore.assert_tools is assert_tools
    assert test_agent.__test__ is False  # type: ignore[attr-defined]
    assert test_agent_async.__test__ is False  # type: ignore[attr-defined]
