"""Expected-vs-actual rows, the agent-side fix list, findings and tips."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from toolscore.diff import (
    FixSuggestion,
    arg_problems,
    behavior_findings,
    build_eval_fix_list,
    diff_rows,
    format_call,
    metric_tips,
)
from toolscore.evaluation import evaluate
from toolscore.matching.matchers import ANY, Regex
from toolscore.model import ToolCall


def call(tool: str, args: dict[str, Any] | None = None, **fields: Any) -> ToolCall:
    return ToolCall(tool=tool, args=args, **fields)


# -- rendering -------------------------------------------------------------------------------


def test_format_call_shows_unchecked_empty_and_truncated_args() -> None:
    assert format_call(call("search")) == "search(…any args…)"
    assert format_call(call("ping", {})) == "ping()"
    assert format_call(call("s", {"q": "x", "n": 2})) == "s(q='x', n=2)"
    long = "y" * 60
    assert format_call(call("s", {"q": long})) == f"s(q={repr(long)[:40]}…)"


def test_arg_problems_order_and_text() -> None:
    lines = arg_problems({"b": 1, "a": "x", "gone": 1}, {"a": "y", "b": 1, "new": 2})
    assert lines == ["a: 'x' ≠ 'y'", "missing: gone", "unexpected: new"]


def test_arg_problems_use_the_shared_comparison() -> None:
    # What argument_f1 counts as correct never shows a diff line (docs/compat.md#one-comparison).
    assert arg_problems({"city": "NYC", "n": 1}, {"city": " NYC", "n": 1.0}) == []
    assert arg_problems({"n": 1}, {"n": 1.0}, strict=True) == ["n: 1 ≠ 1.0"]
    assert arg_problems({"id": Regex(r"FL-\d+"), "x": ANY}, {"id": "FL-9", "x": None}) == []


def test_lenient_match_shows_no_problem_and_scores_full() -> None:
    expected = [{"tool": "s", "args": {"city": "NYC"}}]
    result = evaluate(expected, [{"tool": "s", "args": {"city": " NYC"}}])
    assert result.argument_f1 == 1.0
    assert [row.status for row in diff_rows(result.gold_calls, result.trace_calls)] == ["match"]
    assert build_eval_fix_list(result.gold_calls, result.trace_calls) == []


# -- rows ------------------------------------------------------------------------------------


def test_rows_align_by_tool_name() -> None:
    gold = [call("a", {"x": 1}), call("b"), call("c", {}), call("d")]
    trace = [call("a", {"x": 2}), call("c", {}), call("e"), call("z")]
    rows = diff_rows(gold, trace)
    summary = [
        (
            r.number,
            r.expected.tool if r.expected else None,
            r.actual.tool if r.actual else None,
            r.status,
            r.problems,
        )
        for r in rows
    ]
    assert summary == [
        (1, "a", "a", "mismatch", ("x: 1 ≠ 2",)),
        (2, "b", None, "missing", ()),
        (3, "c", "c", "match", ()),
        (4, "d", "e", "wrong_tool", ("tool: 'd' ≠ 'e'",)),
        (5, None, "z", "extra", ()),
    ]


def test_unchecked_args_are_never_a_mismatch() -> None:
    (row,) = diff_rows([call("a")], [call("a", {"anything": 1})])
    assert row.status == "match"


# -- fix list --------------------------------------------------------------------------------


def test_fix_list_priorities_and_texts() -> None:
    gold = [
        call("search", {"city": "NYC"}),
        call("book", {"id": "1"}),
        call("confirm"),
        call("pay"),
    ]
    trace = [call("search", {"city": "BOS", "extra": 1}), call("cancel"), call("pay"), call("log")]
    fixes = build_eval_fix_list(gold, trace)
    assert fixes == [
        FixSuggestion(
            "confirm",
            "expected call to `confirm` never happened",
            "Ensure the agent has this tool available and is prompted to use it for this task.",
            0,
        ),
        FixSuggestion(
            "cancel",
            "called `cancel` where `book` was expected",
            "Adjust the prompt or tool descriptions so the agent picks `book` here.",
            1,
        ),
        FixSuggestion(
            "search",
            "`search` called with unexpected arguments (city: 'NYC' != 'BOS'; unexpected: extra)",
            "Align the arguments with what's expected, or relax the spec with a matcher like "
            "ANY/Regex if the value may vary.",
            2,
        ),
        FixSuggestion(
            "log",
            "unexpected extra call to `log`",
            "Remove the redundant call, or add it to the expected spec if it is intended.",
            3,
        ),
    ]
    assert fixes == sorted(fixes, key=lambda f: f.priority)


def test_fix_list_is_ascii_and_truncates_with_dots() -> None:
    (fix,) = build_eval_fix_list([call("s", {"q": "x" * 50})], [call("s", {"q": "y"})])
    assert fix.problem.isascii()
    assert "..." in fix.problem


def test_fix_suggestion_is_frozen() -> None:
    fix = FixSuggestion("t", "p", "f", 1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        fix.priority = 0  # type: ignore[misc]


# -- findings --------------------------------------------------------------------------------


def test_findings_from_a_real_evaluation() -> None:
    result = evaluate(
        [{"tool": "deploy"}],
        [
            {"tool": "deploy", "args": {"env": "prod"}, "error": "timeout"},
            {"tool": "deploy", "args": {"env": "prod"}, "error": "timeout"},
            {"tool": "shell", "args": {"cmd": "rm -rf /"}},
            {"tool": "gh", "args": {"token": "ghp_abcdefghijklmnopqrstuvwxyz0123456789"}},
        ],
        forbidden=[{"tool": "shell", "reason": "no shell"}],
    )
    findings = behavior_findings(result)
    assert findings[0] == ("error", "call 3 shell matches forbidden rule 1: no shell")
    assert findings[1][0] == "error"
    assert findings[1][1].startswith("call 4 gh passes a credential (github_token) in 'token': ")
    assert ("warning", "2 of 4 tool calls failed (deploy x2)") in findings
    assert findings[-1] == ("warning", "1 call repeats a failed call with the same arguments")


def test_no_findings_for_a_clean_run() -> None:
    assert behavior_findings(evaluate([{"tool": "a"}], [{"tool": "a"}])) == []


# -- tips ------------------------------------------------------------------------------------


def test_similar_name_tip_replaces_the_generic_one() -> None:
    result = evaluate([{"tool": "get_weather"}], [{"tool": "fetch_weather"}])
    tips = metric_tips(result)
    assert (
        tips[0]
        == "'get_weather' might be equivalent to 'fetch_weather' - use --llm-judge to verify"
    )
    assert "Use --llm-judge flag to catch semantic equivalence" not in tips
    assert "Check that your agent has access to all required tools" in tips
    assert "Verify tool names match exactly (case-sensitive)" in tips


def test_no_tips_for_a_perfect_match() -> None:
    assert (
        metric_tips(evaluate([{"tool": "a", "args": {"x": 1}}], [{"tool": "a", "args": {"x": 1}}]))
        == []
    )


def test_sequence_tips_depend_on_edit_distance() -> None:
    minor = evaluate([{"tool": "a"}, {"tool": "b"}, {"tool": "c"}], [{"tool": "a"}, {"tool": "c"}])
    assert "Minor sequence differences - may be acceptable depending on task" in metric_tips(minor)
    major = evaluate([{"tool": "a"}, {"tool": "b"}], [{"tool": "x"}, {"tool": "y"}])
    assert "Sequence is significantly different - review agent's planning logic" in metric_tips(
        major
    )
