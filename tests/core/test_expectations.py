"""Gold expectations beyond a flat list: optional, repeat, any_order, one_of."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
import toolscore
from toolscore.errors import InputError
from toolscore.expectations import AnyOrder, OneOf, OptionalStep, Repeat, parse_steps
from toolscore.model import ToolCall

TOOLS = ["a", "b", "c"]


def test_the_json_forms_read_into_typed_steps() -> None:
    steps = parse_steps(
        [
            {"tool": "a", "args": {"x": 1}},
            {"optional": {"tool": "b"}},
            {"repeat": {"tool": "c"}, "min": 0, "max": 2},
            {"any_order": [{"tool": "a"}, {"tool": "b"}]},
            {"one_of": {"mail": [{"tool": "m"}], "sms": [{"tool": "s"}]}},
            {"one_of": [[{"tool": "m"}], []]},
        ]
    )
    assert isinstance(steps[0], ToolCall)
    assert steps[0].args == {"x": 1}
    assert isinstance(steps[1], OptionalStep)
    assert steps[2] == Repeat(steps[2].step, 0, 2)
    assert isinstance(steps[3], AnyOrder)
    assert isinstance(steps[4], OneOf)
    assert steps[4].names == ("mail", "sms")
    assert isinstance(steps[5], OneOf)
    assert steps[5].names == ("1", "2")


@pytest.mark.parametrize(
    ("item", "message"),
    [
        (
            {"optional": {"tool": ""}},
            r"\$\.calls\[1\]\.optional\.tool: expected a non-empty tool name",
        ),
        ({"repeat": {"tool": "a"}, "min": -1}, r"\$\.calls\[1\]\.min: expected an integer >= 0"),
        (
            {"repeat": {"tool": "a"}, "min": 2, "max": 1},
            r"\$\.calls\[1\]\.max: expected an integer",
        ),
        ({"one_of": [[{"tool": "a"}]]}, r"\$\.calls\[1\]\.one_of: expected at least two"),
        ({"one_of": {"x": [3], "y": []}}, r"\$\.calls\[1\]\.one_of\.x\[0\]: expected a call"),
        ({"any_order": []}, r"\$\.calls\[1\]\.any_order: expected at least one step"),
        (
            {"optional": {"tool": "a"}, "any_order": []},
            r'\$\.calls\[1\]: expected one step per object, got "optional", "any_order"',
        ),
        (
            {"optional": {"tool": "a"}, "min": 1},
            r'\$\.calls\[1\]: unexpected key "min" in a "optional" step; its keys are "optional"',
        ),
    ],
)
def test_a_bad_step_is_one_line_naming_file_and_json_path(
    tmp_path: Path, item: dict[str, Any], message: str
) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps({"calls": [{"tool": "a"}, item]}))
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps([{"tool": "a", "args": {}}]))
    with pytest.raises(InputError, match="gold.json: " + message) as info:
        toolscore.evaluate_trace(gold, trace)
    assert "\n" not in str(info.value)


def test_one_of_scores_the_best_alternative_and_the_report_names_it() -> None:
    gold = [
        {"tool": "find_user", "args": {"name": "ann"}},
        {
            "one_of": {
                "email": [{"tool": "send_email", "args": {"to": "ann"}}],
                "sms": [{"tool": "lookup_phone"}, {"tool": "send_sms"}],
            }
        },
    ]
    actual = [
        {"tool": "find_user", "args": {"name": "ann"}},
        {"tool": "lookup_phone", "args": {}},
        {"tool": "send_sms", "args": {"text": "hi"}},
    ]
    result = toolscore.evaluate(gold, actual)
    assert result.score == 1.0
    assert result.metrics["expectations"]["one_of"] == ["sms"]
    flat = toolscore.evaluate([gold[0], {"tool": "lookup_phone"}, {"tool": "send_sms"}], actual)
    assert result.metrics["selection_accuracy"] == flat.metrics["selection_accuracy"]


def test_plain_lists_have_no_expectations_metric() -> None:
    result = toolscore.evaluate([{"tool": "a"}], [{"tool": "a", "args": {}}])
    assert "expectations" not in result.metrics


def test_a_structured_gold_file_is_scored_through_evaluate_trace(tmp_path: Path) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(
        json.dumps(
            {
                "calls": [
                    {"tool": "login"},
                    {
                        "repeat": {"tool": "poll", "args": {"job": {"$regex": "j-.*"}}},
                        "min": 1,
                        "max": 4,
                    },
                    {"optional": {"tool": "log"}},
                ]
            }
        )
    )
    trace = tmp_path / "trace.json"
    trace.write_text(
        json.dumps(
            [
                {"tool": "login", "args": {}},
                {"tool": "poll", "args": {"job": "j-1"}},
                {"tool": "poll", "args": {"job": "j-1"}},
            ]
        )
    )
    result = toolscore.evaluate_trace(gold, trace)
    assert result.score == 1.0
    choices = result.metrics["expectations"]["choices"]
    assert {"path": "$.calls[1]", "count": 2} in choices
    assert {"path": "$.calls[2]", "optional": "skipped"} in choices


def test_too_many_alternatives_is_an_error_that_says_so() -> None:
    gold = [{"repeat": {"any_order": [{"tool": t} for t in "abcde"]}, "min": 0, "max": 3}]
    with pytest.raises(ValueError, match=r"expand to .* alternatives"):
        toolscore.evaluate(gold, [{"tool": "a", "args": {}}])


# -- against brute force ------------------------------------------------------------------------


def _all_flat(items: list[Any], actual_len: int) -> list[list[dict[str, Any]]]:
    """Every flat list a structured gold allows (an independent, naive enumerator)."""
    out: list[list[dict[str, Any]]] = [[]]
    for item in items:
        options = _item_flat(item, actual_len)
        out = [prefix + option for prefix in out for option in options]
    return out


def _item_flat(item: dict[str, Any], actual_len: int) -> list[list[dict[str, Any]]]:
    if "tool" in item:
        return [[item]]
    if "optional" in item:
        return [[], *_item_flat(item["optional"], actual_len)]
    if "repeat" in item:
        high = item.get("max", actual_len)
        inner = _item_flat(item["repeat"], actual_len)
        out: list[list[dict[str, Any]]] = []
        for count in range(item.get("min", 1), high + 1):
            for combo in itertools.product(inner, repeat=count):
                out.append([c for part in combo for c in part])
        return out
    if "any_order" in item:
        out = []
        for order in itertools.permutations(item["any_order"]):
            out += _all_flat(list(order), actual_len)
        return out
    return [flat for alt in item["one_of"] for flat in _all_flat(alt, actual_len)]


def _random_call(rng: random.Random) -> dict[str, Any]:
    return {"tool": rng.choice(TOOLS), "args": {"x": rng.randint(0, 1)}}


def _random_item(rng: random.Random, depth: int = 0) -> dict[str, Any]:
    kind = rng.choice(
        ["call", "call", "optional", "repeat", "any_order", "one_of"] if depth < 2 else ["call"]
    )
    if kind == "call":
        return _random_call(rng)
    if kind == "optional":
        return {"optional": _random_item(rng, depth + 1)}
    if kind == "repeat":
        low = rng.randint(0, 1)
        return {"repeat": _random_call(rng), "min": low, "max": max(1, low + rng.randint(0, 2))}
    if kind == "any_order":
        return {"any_order": [_random_item(rng, depth + 1) for _ in range(rng.randint(2, 3))]}
    return {
        "one_of": [
            [_random_item(rng, depth + 1) for _ in range(rng.randint(0, 2))] for _ in range(2)
        ]
    }


@pytest.mark.parametrize("seed", range(60))
def test_the_chosen_expansion_scores_as_the_best_of_all_expansions(seed: int) -> None:
    rng = random.Random(seed)
    gold = [_random_item(rng) for _ in range(rng.randint(1, 3))]
    actual = [_random_call(rng) for _ in range(rng.randint(0, 4))]
    best = max(toolscore.evaluate(flat, actual).score for flat in _all_flat(gold, len(actual)))
    assert toolscore.evaluate(gold, actual).score == pytest.approx(best)


@pytest.mark.parametrize("seed", range(30))
def test_an_unbounded_repeat_tried_up_to_the_actual_count_loses_nothing(seed: int) -> None:
    rng = random.Random(1000 + seed)
    gold = [_random_call(rng), {"repeat": _random_call(rng), "min": rng.randint(0, 1)}]
    actual = [_random_call(rng) for _ in range(rng.randint(0, 5))]
    best = max(toolscore.evaluate(flat, actual).score for flat in _all_flat(gold, len(actual)))
    assert toolscore.evaluate(gold, actual).score == pytest.approx(best)
