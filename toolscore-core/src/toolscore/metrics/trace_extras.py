"""Metrics that only ``evaluate_trace`` computes: schema, latency, cost and side effects.

Each is absent from ``evaluate()`` results, and absent from trace results when it has nothing
to say: ``schema_metrics`` when no actual call had a schema, ``latency_metrics`` and
``cost_metrics`` when the totals are zero. ``side_effect_metrics`` is present whenever side
effects are validated, even with zero checks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolscore._markers import hookimpl
from toolscore.context import NOT_APPLICABLE
from toolscore.specs import MetricSpec

if TYPE_CHECKING:
    from toolscore.context import EvaluationContext
    from toolscore.matching.alignment import Alignment
    from toolscore.model import ToolCall


def calculate_latency(trace_calls: Sequence[ToolCall]) -> dict[str, float]:
    """Total, average, max and min ``duration`` over the calls that have one (seconds)."""
    durations = [call.duration for call in trace_calls if call.duration is not None]
    if not durations:
        return {
            "total_duration": 0.0,
            "average_duration": 0.0,
            "max_duration": 0.0,
            "min_duration": 0.0,
        }
    total = sum(durations)
    return {
        "total_duration": total,
        "average_duration": total / len(durations),
        "max_duration": max(durations),
        "min_duration": min(durations),
    }


def calculate_cost_attribution(trace_calls: Sequence[ToolCall]) -> dict[str, Any]:
    """Total and average ``cost`` over the calls that have one, and the sum per tool (USD)."""
    costs = [call.cost for call in trace_calls if call.cost is not None]
    total = sum(costs) if costs else 0.0
    by_tool: dict[str, float] = {}
    for call in trace_calls:
        if call.cost is not None:
            by_tool[call.tool] = by_tool.get(call.tool, 0.0) + call.cost
    return {
        "total_cost": total,
        "average_cost": total / len(costs) if costs else 0.0,
        "cost_by_tool": by_tool,
    }


def calculate_side_effect_success_rate(
    gold_calls: Sequence[ToolCall],
    trace_calls: Sequence[ToolCall],
    validators: Mapping[str, Callable[[ToolCall, Any], bool]] | None = None,
    alignment: Alignment | None = None,
) -> dict[str, Any]:
    """Run each gold call's ``side_effects`` checks against its paired actual call.

    Uses the evaluation's alignment (lenient), so a missing or reordered call never shifts
    which actual call is checked.
    """
    validators = validators or {}
    if alignment is None:
        from toolscore.matching.alignment import align

        alignment = align(gold_calls, trace_calls)
    total = passed_count = 0
    details: list[dict[str, Any]] = []
    for index, gold in enumerate(gold_calls):
        checks = gold.metadata.get("side_effects") or {}
        if not checks:
            continue
        partner = alignment.actual_for(index)
        for check, expected in checks.items():
            total += 1
            if partner is None:
                passed, reason = False, "Tool call not found in trace"
            elif check in validators:
                try:
                    passed = bool(validators[check](trace_calls[partner], expected))
                    reason = "Validator passed" if passed else "Validator failed"
                except Exception as exc:
                    passed, reason = False, f"Validator error: {exc}"
            else:
                passed, reason = False, "No validator available"
            passed_count += passed
            details.append({"tool": gold.tool, "check": check, "passed": passed, "reason": reason})
    return {
        "total_checks": total,
        "passed_checks": passed_count,
        "success_rate": passed_count / total if total else 1.0,
        "details": details,
    }


class SchemaMetrics:
    """``schema_metrics``: only from files, and only when some call had a schema."""

    def compute(self, context: EvaluationContext) -> Any:
        if context.mode != "trace":
            return NOT_APPLICABLE
        from toolscore.validators import calculate_schema_validation_metrics

        metrics = calculate_schema_validation_metrics(context.expected, context.actual)
        return metrics if metrics["total_validated"] > 0 else NOT_APPLICABLE


class LatencyMetrics:
    """``latency_metrics``: only from files, and only when the total duration is positive."""

    def compute(self, context: EvaluationContext) -> Any:
        if context.mode != "trace":
            return NOT_APPLICABLE
        metrics = calculate_latency(context.actual)
        return metrics if metrics["total_duration"] > 0 else NOT_APPLICABLE


class CostMetrics:
    """``cost_metrics``: only from files, and only when the total cost is positive."""

    def compute(self, context: EvaluationContext) -> Any:
        if context.mode != "trace":
            return NOT_APPLICABLE
        metrics = calculate_cost_attribution(context.actual)
        total = metrics["total_cost"]
        return metrics if isinstance(total, (int, float)) and total > 0 else NOT_APPLICABLE


class SideEffectMetrics:
    """``side_effect_metrics``: from files when side effects are validated."""

    def compute(self, context: EvaluationContext) -> Any:
        if context.mode != "trace" or not context.validate_side_effects:
            return NOT_APPLICABLE
        from toolscore.validators import default_side_effect_validators

        return calculate_side_effect_success_rate(
            context.expected,
            context.actual,
            default_side_effect_validators(),
            alignment=context.alignment,
        )


@hookimpl
def toolscore_register_metrics() -> Iterator[MetricSpec]:
    yield MetricSpec(
        name="schema_metrics",
        factory=SchemaMetrics,
        summary="actual arguments checked against the gold file's argument schemas",
        order=110,
    )
    yield MetricSpec(
        name="latency_metrics",
        factory=LatencyMetrics,
        summary="total, average, max and min call duration",
        order=120,
    )
    yield MetricSpec(
        name="cost_metrics",
        factory=CostMetrics,
        summary="total and average call cost, and cost per tool",
        order=130,
    )
    yield MetricSpec(
        name="side_effect_metrics",
        factory=SideEffectMetrics,
        summary="side-effect checks (http_ok, file_exists, sql_rows) of the gold file",
        order=140,
    )
