"""DeepEval's ToolCorrectnessMetric test cases, translated to ``match_trajectory``.

DeepEval scores a test case from 0 to 1; "passes" below means a score of 1.0. Its three
settings map onto our modes:

* the default (``tools_called`` may hold more than ``expected_tools``, any order): ``superset``;
* ``should_consider_ordering=True`` (weighted LCS over ``expected_tools``; extra calls allowed):
  ``in_order``;
* ``should_exact_match=True`` (the same list): ``strict``.

``evaluation_params`` with ``INPUT_PARAMETERS`` compares arguments (``exact``), without it they
are not compared (``ignore``). The 14 cases: the 9 of its tool-correctness case list
(``tests/needs_revamp/test_metrics/test_tool_correctness.py``, evaluated with TOOL,
INPUT_PARAMETERS and OUTPUT), its 2 empty-``expected_tools`` tests and its 3 ordering-reason
tests. 12 agree; the 2 that differ are listed in docs/matching.md ("Compared with agentevals
and DeepEval") and pinned here.
"""

from __future__ import annotations

from typing import Any

import pytest
from toolscore import match_trajectory


def _call(name: str, output: str | None = None, **args: Any) -> dict[str, Any]:
    call: dict[str, Any] = {"tool": name, "args": args}
    if output is not None:
        call["result"] = output
    return call


T1 = _call("tool1", "x", a=1, b=2)
T2 = _call("tool2", "y", c=3)

# (name, expected, actual, mode, args policy, DeepEval passes, toolscore matches)
CASES: list[tuple[str, list[dict[str, Any]], list[dict[str, Any]], str, str, bool, bool]] = [
    ("exact_match", [_call("tool1", "x", a=1, b=4, c=2)], [_call("tool1", "x", a=1, b=2, c=2)],
     "superset", "exact", False, False),
    ("tool_name_mismatch", [T1], [_call("tool2", "x", a=1, b=2)], "superset", "exact",
     False, False),
    ("input_parameter_mismatch", [T1], [_call("tool1", "x", a=2, b=2)], "superset", "exact",
     False, False),
    # DeepEval's OUTPUT parameter compares the tools' outputs; matching compares calls only
    ("output_mismatch", [T1], [_call("tool1", "y", a=1, b=2)], "superset", "exact", False, True),
    ("extra_tools_called", [T1], [T1, T2], "superset", "exact", True, True),
    ("missing_tools", [T1], [], "superset", "exact", False, False),
    ("correct_ordering", [T1, T2], [T1, T2], "superset", "exact", True, True),
    ("out_of_order_tools", [T1, T2], [T2, T1], "superset", "exact", True, True),
    ("missing_and_out_of_order", [T1, T2], [T2], "superset", "exact", False, False),
    ("empty_expected_and_called", [], [], "superset", "ignore", True, True),
    # DeepEval fails any call when none is expected; superset accepts extra calls, so also
    # these (strict or unordered say "no calls", see the test below)
    ("empty_expected_nonempty_called", [], [_call("search")], "superset", "ignore", False, True),
    ("reordered_repeated_tool",
     [_call("WebSearch"), _call("ToolQuery"), _call("WebSearch")],
     [_call("WebSearch"), _call("WebSearch"), _call("ToolQuery")], "in_order", "ignore",
     False, False),
    ("out_of_order_tool", [_call("A"), _call("B")], [_call("B"), _call("A")], "in_order",
     "ignore", False, False),
    ("correct_ordering_repeated", [_call("A"), _call("B"), _call("A")],
     [_call("A"), _call("B"), _call("A")], "in_order", "ignore", True, True),
]  # fmt: skip

DIFFERENT = {"output_mismatch", "empty_expected_nonempty_called"}


def test_fourteen_cases_and_two_documented_differences() -> None:
    assert len(CASES) == 14
    assert {c[0] for c in CASES if c[5] != c[6]} == DIFFERENT


@pytest.mark.parametrize(
    ("name", "expected", "actual", "mode", "policy", "theirs", "ours"),
    CASES,
    ids=[c[0] for c in CASES],
)
def test_deepeval_case(
    name: str,
    expected: list[dict[str, Any]],
    actual: list[dict[str, Any]],
    mode: str,
    policy: str,
    theirs: bool,
    ours: bool,
) -> None:
    assert bool(match_trajectory(expected, actual, mode=mode, args=policy)) is ours
    assert (ours == theirs) is (name not in DIFFERENT)


def test_no_calls_expected_is_said_with_strict_or_unordered() -> None:
    for mode in ("strict", "unordered"):
        assert not match_trajectory([], [_call("search")], mode=mode)


def test_ordering_allows_extra_calls_between() -> None:
    """DeepEval's ordering score is 1.0 when the expected calls are a subsequence."""
    actual = [_call("A"), _call("log"), _call("B"), _call("log"), _call("A")]
    expected = [_call("A"), _call("B"), _call("A")]
    assert match_trajectory(expected, actual, mode="in_order", args="ignore")
    assert not match_trajectory(expected, actual, mode="strict", args="ignore")


def test_exact_match_setting_is_strict() -> None:
    assert match_trajectory([T1, T2], [T1, T2], mode="strict")
    assert not match_trajectory([T1, T2], [T2, T1], mode="strict")
    assert not match_trajectory([T1], [T1, T2], mode="strict")
