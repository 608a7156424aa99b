"""Reading verdicts from the shapes models really answer in."""

from __future__ import annotations

import json

import pytest
from toolscore_judge.parsing import AnswerError, Verdict, parse_batch, parse_single

THREE = [
    {"index": 0, "score": 1.0, "explanation": "same"},
    {"index": 1, "score": 0.5, "explanation": "close"},
    {"index": 2, "score": 0.0, "explanation": "different"},
]


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(THREE),
        json.dumps({"verdicts": THREE}),
        json.dumps({"note": "x", "results": THREE}),
        "```json\n" + json.dumps(THREE, indent=2) + "\n```",
        "```\n" + json.dumps({"verdicts": THREE}) + "\n```\n",
        "Here are my verdicts:\n```json\n" + json.dumps(THREE) + "\n```\nHope this helps.",
        "Sure! " + json.dumps({"verdicts": THREE}) + " Let me know.",
        "```json\n" + json.dumps(THREE),  # unterminated fence
    ],
)
def test_fenced_wrapped_and_bare_answers(text: str) -> None:
    assert parse_batch(text, 3) == {
        0: Verdict(1.0, "same"),
        1: Verdict(0.5, "close"),
        2: Verdict(0.0, "different"),
    }


def test_items_are_placed_by_index() -> None:
    shuffled = [THREE[2], THREE[0], THREE[1]]
    assert [v.explanation for _, v in sorted(parse_batch(json.dumps(shuffled), 3).items())] == [
        "same",
        "close",
        "different",
    ]


def test_scores_are_clamped_and_numeric_strings_accepted() -> None:
    text = json.dumps(
        [{"index": 0, "score": 1.7}, {"index": 1, "score": -2}, {"index": 2, "score": "0.25"}]
    )
    verdicts = parse_batch(text, 3)
    assert [verdicts[i].score for i in range(3)] == [1.0, 0.0, 0.25]
    assert verdicts[0].explanation == "No explanation provided"


def test_unusable_items_are_left_for_the_fallback() -> None:
    text = json.dumps(
        [
            {"index": 0, "score": "high"},  # not a number
            {"index": 1, "score": 0.8, "explanation": "ok"},
            {"index": 1, "score": 0.1, "explanation": "duplicate"},  # first wins
            {"index": 7, "score": 1.0},  # out of range
            {"index": 2},  # no score
            "junk",
        ]
    )
    assert parse_batch(text, 3) == {1: Verdict(0.8, "ok")}


def test_items_without_index_count_by_position_only_when_complete() -> None:
    bare = [{"score": 0.9}, {"score": 0.3}]
    assert set(parse_batch(json.dumps(bare), 2)) == {0, 1}
    assert parse_batch(json.dumps(bare), 3) == {}  # a short list cannot be placed safely


@pytest.mark.parametrize(
    "text", ["", "   ", "I cannot judge these.", '{"verdict": "fine"}', "42", "[1, 2"]
)
def test_unusable_answers_raise(text: str) -> None:
    with pytest.raises(AnswerError):
        parse_batch(text, 2)


def test_single_answers() -> None:
    assert parse_single('```json\n{"score": 0.75, "explanation": "e"}\n```') == Verdict(0.75, "e")
    assert parse_single('[{"index": 0, "score": 1}]') == Verdict(1.0, "No explanation provided")
    with pytest.raises(AnswerError, match="no numeric score"):
        parse_single('{"score": null}')
