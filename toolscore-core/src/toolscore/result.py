"""The result of an evaluation: metrics, the composite score, the letter grade, the record.

``score`` is the weighted sum::

    w_sel·selection_accuracy + w_arg·argument_f1 + w_seq·sequence_accuracy
    + w_red·(1 − redundant_rate) + w_rcr·(required_call_recall, or 1.0 when None)

summed exactly (``math.fsum``) and rounded to 12 decimals, so a perfect match scores exactly
1.0 and float noise never drops a grade.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

if TYPE_CHECKING:
    from toolscore.matching.alignment import Alignment
    from toolscore.model import ToolCall

__all__ = [
    "DEFAULT_WEIGHTS",
    "GRADE_BANDS",
    "GRADE_ORDER",
    "RECORD_SCHEMA_VERSION",
    "EvaluationResult",
    "letter_grade",
    "normalize_weights",
    "validate_weights",
]

#: Weights of the composite score; ``required_call_recall`` is opt-in.
DEFAULT_WEIGHTS: Final[Mapping[str, float]] = {
    "selection_accuracy": 0.4,
    "argument_f1": 0.3,
    "sequence_accuracy": 0.2,
    "redundant_rate": 0.1,
    "required_call_recall": 0.0,
}
_DEFAULT_KEYS: Final = frozenset(DEFAULT_WEIGHTS)
#: What a missing metric reads as (shared, never written: the score reads it many times).
_NO_VALUES: Final[Mapping[str, Any]] = {}
#: Version of the :meth:`EvaluationResult.to_dict` layout.
RECORD_SCHEMA_VERSION: Final = "2"
#: Grades from best to worst.
GRADE_ORDER: Final = ("A", "B", "C", "D", "F")
#: (lowest score, grade), best first; anything lower is an F.
GRADE_BANDS: Final = ((0.9, "A"), (0.8, "B"), (0.7, "C"), (0.6, "D"))
#: Decimals kept by :attr:`EvaluationResult.score` and :func:`letter_grade`.
SCORE_DECIMALS: Final = 12


def letter_grade(score: float) -> str:
    """A (≥ 0.9), B (≥ 0.8), C (≥ 0.7), D (≥ 0.6), else F.

    The score is rounded to 12 decimals first, so ``0.7999999999999999`` grades B.
    """
    rounded = round(score, SCORE_DECIMALS)
    for threshold, grade in GRADE_BANDS:
        if rounded >= threshold:
            return grade
    return "F"


def _format_keys(keys: set[str]) -> str:
    return "{" + ", ".join(repr(k) for k in sorted(keys)) + "}"


def validate_weights(weights: Mapping[str, Any], metric_names: Iterable[str] = ()) -> None:
    """Reject unknown keys and negative or non-finite values, as ``ValueError``.

    ``metric_names`` are the installed metrics' names: a plugin metric that returns a number
    may be weighted by its name, like the built-in score components.
    """
    valid = set(DEFAULT_WEIGHTS) | set(metric_names)
    unknown = set(weights) - valid
    if unknown:
        raise ValueError(
            f"Unknown weight keys: {_format_keys(unknown)}. Valid keys: {_format_keys(valid)}"
        )
    for key, value in weights.items():
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ValueError(f"Weight for '{key}' must be a finite number, got {value}")
        if value < 0:
            raise ValueError(f"Weight for '{key}' must be non-negative, got {value}")


def normalize_weights(
    weights: Mapping[str, Any] | None, metric_names: Iterable[str] = ()
) -> dict[str, float] | None:
    """Merge ``weights`` over the defaults and divide each by the sum; ``None`` stays ``None``.

    :param metric_names: installed metrics that may be weighted besides the defaults.
    :raises ValueError: an unknown key, a negative or non-finite value, or a zero sum.
    """
    if weights is None:
        return None
    validate_weights(weights, metric_names)
    merged = {**DEFAULT_WEIGHTS, **weights}
    total = sum(merged.values())
    if total == 0.0:
        raise ValueError(
            "Weights sum to zero after merging with defaults; at least one weight must be positive."
        )
    return {key: value / total for key, value in merged.items()}


def record_value(value: Any) -> Any:
    """``value`` with mappings as dicts (string keys), sequences as lists, and every other
    leaf that is not None/bool/int/float/str as its ``repr`` (matchers → ``"Regex('a')"``)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Mapping):
        return {str(key): record_value(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [record_value(item) for item in value]
    return repr(value)


class EvaluationResult:
    """What ``evaluate()`` and ``evaluate_trace()`` return.

    ``metrics`` maps each metric's name to its value, in the order they were computed;
    ``gold_calls``/``trace_calls`` are the expected and actual calls; ``weights`` the
    normalized weights of the score; ``alignment`` the pairing every metric used.
    """

    DEFAULT_WEIGHTS: ClassVar[Mapping[str, float]] = DEFAULT_WEIGHTS
    RECORD_SCHEMA_VERSION: ClassVar[str] = RECORD_SCHEMA_VERSION

    def __init__(
        self,
        metrics: dict[str, Any] | None = None,
        gold_calls: Sequence[ToolCall] | None = None,
        trace_calls: Sequence[ToolCall] | None = None,
        weights: Mapping[str, float] | None = None,
        alignment: Alignment | None = None,
    ) -> None:
        self.metrics: dict[str, Any] = metrics if metrics is not None else {}
        self.gold_calls: list[ToolCall] = list(gold_calls or ())
        self.trace_calls: list[ToolCall] = list(trace_calls or ())
        self.weights: dict[str, float] = dict(weights if weights is not None else DEFAULT_WEIGHTS)
        self.alignment = alignment
        #: The plugin metrics of this evaluation and their specs (how reports render them);
        #: empty for a result read back from a file, where every unknown key is a plugin's.
        self.plugin_metrics: dict[str, Any] = {}

    @property
    def _weights(self) -> dict[str, float]:
        """An older name for :attr:`weights`, kept for code that still reads it."""
        return self.weights

    @_weights.setter
    def _weights(self, value: Mapping[str, float]) -> None:
        self.weights = dict(value)

    def __repr__(self) -> str:
        return (
            f"<EvaluationResult score={self.score!r} grade={self.grade!r} "
            f"expected={len(self.gold_calls)} actual={len(self.trace_calls)}>"
        )

    # -- the headline numbers -------------------------------------------------------------------

    @property
    def selection_accuracy(self) -> float:
        """Share of actual calls that use an expected tool (0.0 when not computed)."""
        return float(self.metrics.get("selection_accuracy", 0.0))

    @property
    def argument_f1(self) -> float:
        """F1 of the arguments of paired calls."""
        return float(self.metrics.get("argument_metrics", _NO_VALUES).get("f1", 0.0))

    @property
    def sequence_accuracy(self) -> float:
        """1 − normalized edit distance of the tool-name sequences."""
        return float(self.metrics.get("sequence_metrics", _NO_VALUES).get("sequence_accuracy", 0.0))

    @property
    def required_call_recall(self) -> float | None:
        """Share of expected calls made without failing; ``None`` when nothing was expected."""
        value = self.metrics.get("required_call_recall")
        return None if value is None else float(value)

    @property
    def policy_violations(self) -> list[dict[str, Any]]:
        """Calls that matched a forbidden rule (empty when no rules were given)."""
        policy = self.metrics.get("policy_metrics") or {}
        violations: list[dict[str, Any]] = policy.get("violations", [])
        return violations

    @property
    def score(self) -> float:
        """The weighted composite score in [0, 1], rounded to 12 decimals."""
        w = self.weights
        redundant = float(
            self.metrics.get("efficiency_metrics", _NO_VALUES).get("redundant_rate", 0.0)
        )
        recall = self.required_call_recall
        composite = math.fsum(
            (
                w.get("selection_accuracy", 0.0) * self.selection_accuracy,
                w.get("argument_f1", 0.0) * self.argument_f1,
                w.get("sequence_accuracy", 0.0) * self.sequence_accuracy,
                w.get("redundant_rate", 0.0) * (1.0 - redundant),
                w.get("required_call_recall", 0.0) * (1.0 if recall is None else recall),
                *self._plugin_terms(),
            )
        )
        return round(min(1.0, max(0.0, composite)), SCORE_DECIMALS)

    def _plugin_terms(self) -> list[float]:
        """``weight × value`` of each weighted metric beyond the defaults (plugin metrics).

        A weighted metric that is missing from this evaluation, or whose value is not a
        finite number in [0, 1], adds 0: its share of the weights is lost, as for any zero
        component.
        """
        terms: list[float] = []
        if self.weights.keys() <= _DEFAULT_KEYS:  # the usual case: no plugin metric weighted
            return terms
        for key, weight in self.weights.items():
            if key in DEFAULT_WEIGHTS or not weight:
                continue
            value = self.metrics.get(key)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            if math.isfinite(value) and 0.0 <= value <= 1.0:
                terms.append(weight * float(value))
        return terms

    @property
    def grade(self) -> str:
        """Letter grade ``"A"`` … ``"F"`` of :attr:`score`."""
        return letter_grade(self.score)

    # -- the record -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The complete, JSON-safe record of the evaluation (layout version ``"2"``).

        Keys in order: ``schema_version``, ``score``, ``grade``, ``weights``,
        ``required_call_recall``, ``metrics``, ``calls`` (``expected``: tool and args;
        ``actual``: tool, args, result, is_error, error, duration, cost),
        ``gold_calls_count``, ``trace_calls_count``. Values JSON cannot hold (matchers,
        arbitrary result objects) are stored as their ``repr``; credentials are kept as
        recorded.
        """
        score = self.score
        record = {
            "schema_version": self.RECORD_SCHEMA_VERSION,
            "score": score,
            "grade": letter_grade(score),
            "weights": dict(self.weights),
            "required_call_recall": self.required_call_recall,
            "metrics": self.metrics,
            "calls": {
                "expected": [{"tool": c.tool, "args": c.args} for c in self.gold_calls],
                "actual": [
                    {
                        "tool": c.tool,
                        "args": c.args,
                        "result": c.result,
                        "is_error": c.is_error,
                        "error": c.error,
                        "duration": c.duration,
                        "cost": c.cost,
                    }
                    for c in self.trace_calls
                ],
            },
            "gold_calls_count": len(self.gold_calls),
            "trace_calls_count": len(self.trace_calls),
        }
        safe: dict[str, Any] = record_value(record)
        return safe
