"""EvaluationResult: score, grade, weights and the v2 record; a perfect score is exactly 1.0
(docs/compat.md#perfect-score)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from toolscore.evaluation import evaluate
from toolscore.matching.matchers import Regex
from toolscore.plugins import create_plugin_manager
from toolscore.result import (
    DEFAULT_WEIGHTS,
    GRADE_ORDER,
    RECORD_SCHEMA_VERSION,
    EvaluationResult,
    letter_grade,
    normalize_weights,
)


@pytest.mark.parametrize(
    ("score", "grade"),
    [
        (1.0, "A"),
        (0.9, "A"),
        (0.8999999999, "B"),
        (0.8, "B"),
        (0.7999999999999999, "B"),  # float noise no longer drops a grade
        (0.79, "C"),
        (0.7, "C"),
        (0.6, "D"),
        (0.5999, "F"),
        (0.0, "F"),
    ],
)
def test_letter_grades(score: float, grade: str) -> None:
    assert letter_grade(score) == grade
    assert GRADE_ORDER == ("A", "B", "C", "D", "F")


def test_an_empty_result_scores_the_redundancy_weight_only() -> None:
    result = EvaluationResult()
    assert result.score == 0.1
    assert result.grade == "F"
    assert result.required_call_recall is None
    assert result.policy_violations == []
    assert result.weights == dict(DEFAULT_WEIGHTS)
    assert result._weights == result.weights


def test_score_is_the_weighted_sum_rounded_to_twelve_places() -> None:
    result = EvaluationResult(
        metrics={
            "selection_accuracy": 1.0,
            "argument_metrics": {"f1": 2 / 3},
            "sequence_metrics": {"sequence_accuracy": 0.5},
            "efficiency_metrics": {"redundant_rate": 0.0},
            "required_call_recall": 0.5,
        }
    )
    naive = 0.4 * 1.0 + 0.3 * (2 / 3) + 0.2 * 0.5 + 0.1 * 1.0 + 0.0 * 0.5
    assert naive == 0.7999999999999999  # a naive sum: grade C (docs/compat.md#perfect-score)
    assert result.score == 0.8
    assert result.grade == "B"
    perfect = EvaluationResult(
        metrics={
            "selection_accuracy": 1.0,
            "argument_metrics": {"f1": 1.0},
            "sequence_metrics": {"sequence_accuracy": 1.0},
            "efficiency_metrics": {"redundant_rate": 0.0},
        }
    )
    assert perfect.score == 1.0


def test_weights_are_merged_and_normalized() -> None:
    assert normalize_weights(None) is None
    weights = normalize_weights({"argument_f1": 1.0})
    assert weights is not None
    assert list(weights) == list(DEFAULT_WEIGHTS)
    assert weights["selection_accuracy"] == pytest.approx(0.2353, abs=1e-4)
    assert weights["argument_f1"] == pytest.approx(0.5882, abs=1e-4)
    assert weights["sequence_accuracy"] == pytest.approx(0.1176, abs=1e-4)
    assert weights["redundant_rate"] == pytest.approx(0.0588, abs=1e-4)
    assert weights["required_call_recall"] == 0.0
    recall = normalize_weights({"required_call_recall": 0.3})
    assert recall is not None
    assert recall["selection_accuracy"] == pytest.approx(0.4 / 1.3)
    assert recall["required_call_recall"] == pytest.approx(0.3 / 1.3)
    assert math.isclose(sum(recall.values()), 1.0)


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        (
            {"speed": 1.0, "argument_f1": 1.0},
            "Unknown weight keys: {'speed'}. Valid keys: {'argument_f1', 'redundant_rate', "
            "'required_call_recall', 'selection_accuracy', 'sequence_accuracy'}",
        ),
        (
            {"argument_f1": float("nan")},
            "Weight for 'argument_f1' must be a finite number, got nan",
        ),
        ({"argument_f1": "high"}, "Weight for 'argument_f1' must be a finite number, got high"),
        ({"argument_f1": -1}, "Weight for 'argument_f1' must be non-negative, got -1"),
        (
            dict.fromkeys(DEFAULT_WEIGHTS, 0.0),
            "Weights sum to zero after merging with defaults; at least one weight must be positive.",
        ),
    ],
)
def test_bad_weights_raise_the_references_messages(weights: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as raised:
        normalize_weights(weights)
    assert str(raised.value) == message


def test_to_dict_is_the_v2_record_and_json_safe() -> None:
    pm = create_plugin_manager(load_entrypoints=False)
    result = evaluate(
        [{"tool": "s", "args": {"q": Regex("a.*")}}, {"tool": "t"}],
        [
            {
                "tool": "s",
                "args": {"q": "abc", "k": (1, 2)},
                "result": {"rows": {1, 2}},
                "error": "boom",
                "duration": 0.5,
                "cost": 0.01,
            },
            {"tool": "t", "error": True},
        ],
        weights={"argument_f1": 1.0},
        plugin_manager=pm,
    )
    record = result.to_dict()
    assert list(record) == [
        "schema_version",
        "score",
        "grade",
        "weights",
        "required_call_recall",
        "metrics",
        "calls",
        "gold_calls_count",
        "trace_calls_count",
    ]
    assert record["schema_version"] == RECORD_SCHEMA_VERSION == "2"
    assert record["score"] == result.score
    assert record["weights"]["argument_f1"] == pytest.approx(1 / 1.7)
    assert record["required_call_recall"] == 0.0  # both calls failed
    assert record["calls"]["expected"] == [
        {"tool": "s", "args": {"q": "Regex('a.*')"}},
        {"tool": "t", "args": None},
    ]
    assert record["calls"]["actual"][0] == {
        "tool": "s",
        "args": {"q": "abc", "k": [1, 2]},
        "result": {"rows": "{1, 2}"},
        "is_error": True,
        "error": "boom",
        "duration": 0.5,
        "cost": 0.01,
    }
    assert record["calls"]["actual"][1]["error"] is None  # a bool error has no message
    assert record["calls"]["actual"][1]["is_error"] is True
    assert record["gold_calls_count"] == 2
    assert record["trace_calls_count"] == 2
    assert json.loads(json.dumps(record)) == record


def test_convenience_properties_read_the_metrics() -> None:
    pm = create_plugin_manager(load_entrypoints=False)
    result = evaluate(
        [{"tool": "a", "args": {"x": 1}}],
        [{"tool": "a", "args": {"x": 1}}, {"tool": "rm"}],
        forbidden=[{"tool": "rm", "reason": "never"}],
        plugin_manager=pm,
    )
    assert result.selection_accuracy == 0.5
    assert result.argument_f1 == 1.0
    assert result.sequence_accuracy == 0.5
    assert result.required_call_recall == 1.0
    assert result.policy_violations == [
        {"index": 1, "tool": "rm", "args": {}, "rule": 0, "reason": "never"}
    ]
    assert "score=" in repr(result)


def test_evaluate_leaves_the_garbage_collector_as_it_found_it() -> None:
    import gc

    calls = [{"tool": "search", "args": {"q": "x"}}]
    assert gc.isenabled()
    evaluate(calls, calls)
    assert gc.isenabled()
    with pytest.raises(ValueError):
        evaluate(calls, calls, weights={"no_such_metric": 1.0})
    assert gc.isenabled()  # also after an error inside the evaluation
    gc.disable()
    try:
        evaluate(calls, calls)
        assert not gc.isenabled()  # a caller that disabled it keeps it disabled
    finally:
        gc.enable()
