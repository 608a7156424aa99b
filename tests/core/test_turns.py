"""``evaluate_turns``: a conversation scored turn by turn, combined by the mean."""

from __future__ import annotations

import importlib.util
import json
from typing import Any

import pytest
import toolscore
from toolscore.turns import evaluate_turns, split_turns

needs_providers = pytest.mark.skipif(
    importlib.util.find_spec("toolscore_providers") is None,
    reason="provider message formats come from toolscore-providers",
)


def _openai_call(call_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(args)},
    }


OPENAI = [
    {"role": "system", "content": "be helpful"},
    {"role": "user", "content": "weather in Paris?"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [_openai_call("1", "weather", {"city": "Paris"})],
    },
    {"role": "tool", "tool_call_id": "1", "content": "sunny"},
    {"role": "assistant", "content": "Sunny."},
    {"role": "user", "content": "book a table there"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [_openai_call("2", "search", {"q": "bistro"})],
    },
    {"role": "tool", "tool_call_id": "2", "content": "found"},
    {"role": "assistant", "content": None, "tool_calls": [_openai_call("3", "book", {"id": 9})]},
    {"role": "tool", "tool_call_id": "3", "content": "booked"},
]

ANTHROPIC = {
    "model": "claude",
    "messages": [
        {"role": "user", "content": "weather in Paris?"},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "t1", "name": "weather", "input": {"city": "Paris"}}
            ],
        },
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "sunny"}],
        },
        {"role": "assistant", "content": [{"type": "text", "text": "Sunny."}]},
        {"role": "user", "content": "book a table there"},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "t2", "name": "search", "input": {"q": "bistro"}},
                {"type": "tool_use", "id": "t3", "name": "book", "input": {"id": 9}},
            ],
        },
    ],
}

TURNS = [
    [{"tool": "weather", "args": {"city": "Paris"}}],
    [{"tool": "search", "args": {"q": "bistro"}}, {"tool": "book", "args": {"id": 9}}],
]


@pytest.mark.parametrize(
    "conversation",
    [OPENAI, {"messages": OPENAI}, ANTHROPIC],
    ids=["openai", "openai-doc", "anthropic"],
)
@needs_providers
def test_user_turns_split_the_calls(conversation: Any) -> None:
    turns = split_turns(conversation)
    assert [[c.tool for c in turn] for turn in turns] == [["weather"], ["search", "book"]]


@needs_providers
def test_tool_results_sent_as_user_messages_are_not_turns() -> None:
    turns = split_turns(ANTHROPIC)
    assert turns[0][0].result is not None  # the tool_result stayed with its call


@needs_providers
def test_each_turn_gets_its_own_score_and_fixes_and_the_total_is_the_mean() -> None:
    wrong = [dict(m) for m in OPENAI]
    wrong[2] = {
        "role": "assistant",
        "content": None,
        "tool_calls": [_openai_call("1", "weather", {"city": "Rome"})],
    }
    result = evaluate_turns(TURNS, wrong)
    first, second = result.turns
    assert second.score == 1.0
    assert (
        first.score
        == toolscore.evaluate(TURNS[0], [{"tool": "weather", "args": {"city": "Rome"}}]).score
    )
    assert result.score == pytest.approx((first.score + second.score) / 2)
    fixes = result.fixes()
    assert fixes[1] == []
    assert "weather" in fixes[0][0].problem
    record = result.to_dict()
    assert record["combined_by"] == "mean"
    assert [t["score"] for t in record["turns"]] == [first.score, 1.0]


@needs_providers
def test_missing_and_extra_turns() -> None:
    missing = evaluate_turns([*TURNS, [{"tool": "pay"}]], OPENAI)
    assert [t.score for t in missing.turns][:2] == [1.0, 1.0]
    assert missing.turns[2].score < 1.0
    extra = evaluate_turns(TURNS[:1], OPENAI)
    assert len(extra.turns) == 2
    assert extra.turns[1].score == 0.0  # calls in a turn that was expected to make none


@needs_providers
def test_gold_document_form_and_per_turn_steps() -> None:
    gold = {"turns": [TURNS[0], [{"any_order": [{"tool": "book"}, {"tool": "search"}]}]]}
    assert evaluate_turns(gold, ANTHROPIC).score == 1.0


def test_a_list_of_per_turn_call_lists_is_taken_as_split() -> None:
    conversation = [[{"tool": "weather", "args": {"city": "Paris"}}], []]
    assert evaluate_turns([TURNS[0], []], conversation).score == 1.0


def test_calls_carrying_turn_indices_are_grouped_by_them() -> None:
    calls = [
        {"tool": "weather", "args": {"city": "Paris"}, "metadata": {"turn": 0}},
        {"tool": "search", "args": {"q": "bistro"}, "metadata": {"turn": 1}},
        {"tool": "book", "args": {"id": 9}, "metadata": {"turn": 1}},
    ]
    assert [[c.tool for c in t] for t in split_turns(calls)] == [["weather"], ["search", "book"]]
    assert toolscore.evaluate_turns(TURNS, calls).score == 1.0


def test_cli_eval_scores_a_turns_gold_turn_by_turn(tmp_path: Any) -> None:
    from click.testing import CliRunner
    from toolscore.cli import cli
    from toolscore.plugins import create_plugin_manager

    (tmp_path / "gold.json").write_text(json.dumps({"turns": TURNS}))
    conversation = [
        [{"tool": "weather", "args": {"city": "Rome"}}],
        [{"tool": "search", "args": {"q": "bistro"}}, {"tool": "book", "args": {"id": 9}}],
    ]
    (tmp_path / "conversation.json").write_text(json.dumps(conversation))
    out = tmp_path / "report.json"
    pm = create_plugin_manager(load_entrypoints=False)
    args = ["eval", str(tmp_path / "gold.json"), str(tmp_path / "conversation.json")]
    result = CliRunner().invoke(cli, [*args, "-o", str(out)], obj={"plugin_manager": pm})
    assert result.exit_code == 0, result.output
    assert "turn 1: score 0.70 (C)" in result.output
    assert "turn 2: score 1.00 (A)" in result.output
    assert "conversation: score 0.85 (B), mean of 2 turns" in result.output
    report = json.loads(out.read_text())["turns"]
    assert [t["score"] for t in report["turns"]] == [0.7, 1.0]


def test_cli_eval_names_a_bad_turns_entry(tmp_path: Any) -> None:
    from click.testing import CliRunner
    from toolscore.cli import cli
    from toolscore.plugins import create_plugin_manager

    (tmp_path / "gold.json").write_text(json.dumps({"turns": [[], {"tool": "a"}]}))
    (tmp_path / "c.json").write_text("[]")
    pm = create_plugin_manager(load_entrypoints=False)
    args = ["eval", str(tmp_path / "gold.json"), str(tmp_path / "c.json")]
    result = CliRunner().invoke(cli, args, obj={"plugin_manager": pm})
    assert result.exit_code != 0
    assert "gold.json: $.turns[1]: expected an array of calls" in result.output
