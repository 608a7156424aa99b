"""``@pytest.mark.toolscore_repeat`` and the ``toolscore_runs`` fixture, through pytester."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "pytest.md"

# A fake agent that is right on some calls only: the repetition number picks its answer.
AGENT = """
import itertools
import pytest

GOLD = [{"tool": "search", "args": {"q": "paris"}}]
_answers = itertools.cycle(ANSWERS)

def agent():
    return [{"tool": "search", "args": {"q": next(_answers)}}]
"""


def _suite(pytester: pytest.Pytester, answers: list[str], body: str) -> None:
    pytester.makepyfile(test_agent=AGENT.replace("ANSWERS", repr(answers)) + body)


def test_all_runs_pass_so_the_test_passes(pytester: pytest.Pytester) -> None:
    _suite(
        pytester,
        ["paris"],
        """
calls = []

@pytest.mark.toolscore_repeat(n=4, k=2)
def test_agent(toolscore_runs):
    calls.append(1)
    toolscore_runs.evaluate(GOLD, agent())

def test_body_ran_four_times():
    assert len(calls) == 4
""",
    )
    pytester.runpytest("-p", "no:randomly").assert_outcomes(passed=2)


def test_pass_hat_k_under_the_gate_fails_with_each_run_named(pytester: pytest.Pytester) -> None:
    # 3 of 4 runs pass: pass^2 = C(3,2)/C(4,2) = 0.5
    _suite(
        pytester,
        ["paris", "paris", "rome", "paris"],
        """
@pytest.mark.toolscore_repeat(n=4, k=2, gate=0.6)
def test_agent(toolscore_runs):
    toolscore_runs.evaluate(GOLD, agent())
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*3/4 runs passed; pass^2 = 0.5000 (< gate 0.6), pass@2 = 1.0000*",
            "*run 3: score 0.70 (threshold 0.9)*",
        ]
    )


def test_pass_hat_k_at_the_gate_passes(pytester: pytest.Pytester) -> None:
    _suite(
        pytester,
        ["paris", "paris", "rome", "paris"],
        """
@pytest.mark.toolscore_repeat(n=4, k=2, gate=0.5)
def test_agent(toolscore_runs):
    toolscore_runs.evaluate(GOLD, agent())
""",
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_default_gate_needs_every_run_and_an_assertion_fails_a_run(
    pytester: pytest.Pytester,
) -> None:
    _suite(
        pytester,
        ["paris", "paris", "rome"],
        """
@pytest.mark.toolscore_repeat(n=3)
def test_agent():
    assert agent()[0]["args"]["q"] == "paris", "wrong city"
""",
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*2/3 runs passed; pass^3 = 0.0000*", "*run 3: AssertionError: wrong city*"]
    )


def test_a_returned_result_is_recorded(pytester: pytest.Pytester) -> None:
    _suite(
        pytester,
        ["rome"],
        """
import toolscore

@pytest.mark.toolscore_repeat(n=2, threshold=0.7)
def test_agent():
    return toolscore.evaluate(GOLD, agent())  # scores 0.70: passes at 0.7
""",
    )
    pytester.runpytest("-W", "error").assert_outcomes(passed=1)


def test_bad_marker_arguments_are_one_line_errors(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
import pytest

@pytest.mark.toolscore_repeat(n=2, k=3)
def test_x():
    pass
"""
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*toolscore_repeat: k must be an integer between 1 and n=2, got 3*"]
    )


def test_skip_inside_a_repetition_skips_the_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
import pytest

@pytest.mark.toolscore_repeat(n=3)
def test_x():
    pytest.skip("no model")
"""
    )
    pytester.runpytest().assert_outcomes(skipped=1)


def test_the_docs_example_runs(pytester: pytest.Pytester) -> None:
    text = DOC.read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(# test_reliability\.py.*?)```", text, flags=re.S)
    pytester.makepyfile(test_reliability=code)
    pytester.runpytest().assert_outcomes(passed=1)
