"""Metric threshold assertions behind the ``toolscore_assert`` fixture.

Each method raises a plain ``AssertionError`` whose message names the metric, its value and
the bound, e.g. ``Selection accuracy 50.0% below minimum 90.0%``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolscore.result import EvaluationResult


def _metric(result: EvaluationResult, *keys: str) -> float:
    value: Any = result.metrics
    for key in keys:
        value = value[key]
    return float(value)


def _at_least(value: float, threshold: float, label: str, msg: str | None) -> None:
    if not value >= threshold:
        raise AssertionError(
            msg if msg is not None else f"{label} {value:.1%} below minimum {threshold:.1%}"
        )


class ToolscoreAssertions:
    """Threshold checks on an ``EvaluationResult``; every bound is inclusive."""

    @staticmethod
    def assert_invocation_accuracy(
        result: EvaluationResult, threshold: float, msg: str | None = None
    ) -> None:
        _at_least(_metric(result, "invocation_accuracy"), threshold, "Invocation accuracy", msg)

    @staticmethod
    def assert_selection_accuracy(
        result: EvaluationResult, threshold: float, msg: str | None = None
    ) -> None:
        _at_least(_metric(result, "selection_accuracy"), threshold, "Selection accuracy", msg)

    @staticmethod
    def assert_sequence_accuracy(
        result: EvaluationResult, threshold: float, msg: str | None = None
    ) -> None:
        value = _metric(result, "sequence_metrics", "sequence_accuracy")
        _at_least(value, threshold, "Sequence accuracy", msg)

    @staticmethod
    def assert_argument_f1(result: EvaluationResult, min_f1: float, msg: str | None = None) -> None:
        _at_least(_metric(result, "argument_metrics", "f1"), min_f1, "Argument F1 score", msg)

    @staticmethod
    def assert_redundancy_below(
        result: EvaluationResult, max_rate: float, msg: str | None = None
    ) -> None:
        rate = _metric(result, "efficiency_metrics", "redundant_rate")
        if not rate <= max_rate:
            default = f"Redundant call rate {rate:.1%} exceeds maximum {max_rate:.1%}"
            raise AssertionError(msg if msg is not None else default)

    @staticmethod
    def assert_score(
        expected: list[dict[str, Any]],
        actual: Any,
        min_score: float = 0.9,
        weights: dict[str, float] | None = None,
        strict: bool = False,
    ) -> EvaluationResult:
        """Evaluate and require ``score >= min_score`` (no tolerance); returns the result."""
        from toolscore.evaluation import evaluate

        result = evaluate(expected, actual, weights=weights, strict=strict)
        score = result.score
        if not score >= min_score:
            raise AssertionError(f"Composite score {score:.3f} below minimum {min_score:.3f}")
        return result

    @staticmethod
    def assert_all_metrics_above(
        result: EvaluationResult, threshold: float, msg: str | None = None
    ) -> None:
        """Invocation, selection, sequence accuracy and argument F1 must all reach ``threshold``."""
        checked = (
            ("invocation_accuracy", _metric(result, "invocation_accuracy")),
            ("selection_accuracy", _metric(result, "selection_accuracy")),
            ("sequence_accuracy", _metric(result, "sequence_metrics", "sequence_accuracy")),
            ("argument_f1", _metric(result, "argument_metrics", "f1")),
        )
        below = [(name, value) for name, value in checked if value < threshold]
        if below:
            listed = ", ".join(f"{name}={value:.1%}" for name, value in below)
            raise AssertionError(
                msg if msg is not None else f"Metrics below {threshold:.1%}: {listed}"
            )
