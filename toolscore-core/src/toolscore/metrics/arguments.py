"""``argument_metrics``: precision, recall and F1 of the arguments, over the shared alignment.

Each expected call is compared with the actual call the alignment paired it with (same tool,
best argument match), never re-paired here. An expected call with ``args=None`` is not
checked; a pair with no expected and no actual arguments is a vacuous match; extra actual
calls never lower precision.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from toolscore._markers import hookimpl
from toolscore.specs import MetricSpec

if TYPE_CHECKING:
    from toolscore.context import EvaluationContext
    from toolscore.matching.alignment import Alignment
    from toolscore.model import ToolCall


def calculate_argument_f1(
    gold_calls: Sequence[ToolCall],
    trace_calls: Sequence[ToolCall],
    strict: bool = False,
    alignment: Alignment | None = None,
) -> dict[str, float]:
    """``{"precision", "recall", "f1"}`` of the arguments of paired calls.

    :param strict: strict value comparison (exact types), as in :mod:`toolscore.matching.values`.
    :param alignment: the evaluation's alignment; computed here when not given.
    """
    if not gold_calls and not trace_calls:
        return {"precision": 1.0, "recall": 1.0, "f1": 1.0}
    if not gold_calls or not trace_calls:
        return {"precision": 0.0, "recall": 0.0, "f1": 0.0}
    if alignment is None:
        from toolscore.matching.alignment import align

        alignment = align(gold_calls, trace_calls, strict=strict)
    total_correct = total_actual = vacuous = 0
    # Every checked expected call's arguments count toward recall, paired or not ...
    total_expected = sum([len(gold.args) for gold in gold_calls if gold.args is not None])
    # ... and each pair adds what it got right and what the actual call passed.
    for (expected_index, actual_index), correct in zip(alignment.pairs, alignment.correct):
        gold_args = gold_calls[expected_index].args
        if gold_args is None:
            vacuous += 1
            continue
        trace_args = trace_calls[actual_index].args
        actual = len(trace_args) if trace_args else 0
        total_correct += correct
        total_actual += actual
        if actual == 0 and not gold_args:
            vacuous += 1
    if total_expected == 0 and total_actual == 0 and vacuous > 0:
        return {"precision": 1.0, "recall": 1.0, "f1": 1.0}
    precision = total_correct / total_actual if total_actual > 0 else 0.0
    recall = total_correct / total_expected if total_expected > 0 else 0.0
    f1 = 2 * (precision * recall) / (precision + recall) if precision + recall > 0 else 0.0
    return {"precision": precision, "recall": recall, "f1": f1}


class ArgumentMetrics:
    """The metric object registered for ``argument_metrics``."""

    def compute(self, context: EvaluationContext) -> dict[str, float]:
        return calculate_argument_f1(
            context.expected, context.actual, strict=context.strict, alignment=context.alignment
        )


@hookimpl
def toolscore_register_metrics() -> Iterator[MetricSpec]:
    yield MetricSpec(
        name="argument_metrics",
        factory=ArgumentMetrics,
        summary="precision, recall and F1 of the arguments of paired calls",
        order=60,
    )
