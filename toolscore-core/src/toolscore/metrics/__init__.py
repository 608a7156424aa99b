"""The built-in metrics, one plugin module each, and their pure ``calculate_*`` functions.

Every name below is importable from ``toolscore.metrics`` (a public path); each is
resolved on first use, so loading one metric plugin does not import the others.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from toolscore.metrics.arguments import calculate_argument_f1
    from toolscore.metrics.cost_estimator import (
        calculate_cost_savings,
        calculate_llm_cost,
        estimate_tokens,
        estimate_trace_cost,
        format_cost,
    )
    from toolscore.metrics.efficiency import calculate_redundant_call_rate
    from toolscore.metrics.invocation import calculate_invocation_accuracy
    from toolscore.metrics.policy import (
        call_matches_rule,
        check_forbidden_calls,
        load_forbidden_rules,
        rules_from_json,
        validate_rules,
    )
    from toolscore.metrics.required_calls import calculate_required_call_recall
    from toolscore.metrics.security import find_secrets, redact_secrets
    from toolscore.metrics.selection import calculate_selection_accuracy
    from toolscore.metrics.sequence import calculate_edit_distance, levenshtein
    from toolscore.metrics.tool_correctness import (
        calculate_tool_correctness,
        calculate_tool_correctness_with_args,
    )
    from toolscore.metrics.trace_extras import (
        calculate_cost_attribution,
        calculate_latency,
        calculate_side_effect_success_rate,
    )
    from toolscore.metrics.trajectory import (
        calculate_partial_trajectory_accuracy,
        calculate_trajectory_accuracy,
    )
    from toolscore.validators import calculate_schema_validation_metrics

_LAZY: dict[str, str] = {
    "calculate_argument_f1": "toolscore.metrics.arguments",
    "calculate_cost_attribution": "toolscore.metrics.trace_extras",
    "calculate_cost_savings": "toolscore.metrics.cost_estimator",
    "calculate_llm_cost": "toolscore.metrics.cost_estimator",
    "calculate_edit_distance": "toolscore.metrics.sequence",
    "calculate_invocation_accuracy": "toolscore.metrics.invocation",
    "calculate_latency": "toolscore.metrics.trace_extras",
    "calculate_partial_trajectory_accuracy": "toolscore.metrics.trajectory",
    "calculate_redundant_call_rate": "toolscore.metrics.efficiency",
    "calculate_required_call_recall": "toolscore.metrics.required_calls",
    "calculate_schema_validation_metrics": "toolscore.validators",
    "calculate_selection_accuracy": "toolscore.metrics.selection",
    "calculate_side_effect_success_rate": "toolscore.metrics.trace_extras",
    "calculate_tool_correctness": "toolscore.metrics.tool_correctness",
    "calculate_tool_correctness_with_args": "toolscore.metrics.tool_correctness",
    "calculate_trajectory_accuracy": "toolscore.metrics.trajectory",
    "call_matches_rule": "toolscore.metrics.policy",
    "check_forbidden_calls": "toolscore.metrics.policy",
    "estimate_tokens": "toolscore.metrics.cost_estimator",
    "estimate_trace_cost": "toolscore.metrics.cost_estimator",
    "find_secrets": "toolscore.metrics.security",
    "format_cost": "toolscore.metrics.cost_estimator",
    "levenshtein": "toolscore.metrics.sequence",
    "load_forbidden_rules": "toolscore.metrics.policy",
    "redact_secrets": "toolscore.metrics.security",
    "rules_from_json": "toolscore.metrics.policy",
    "validate_rules": "toolscore.metrics.policy",
}

__all__ = [
    "calculate_argument_f1",
    "calculate_cost_attribution",
    "calculate_cost_savings",
    "calculate_edit_distance",
    "calculate_invocation_accuracy",
    "calculate_latency",
    "calculate_llm_cost",
    "calculate_partial_trajectory_accuracy",
    "calculate_redundant_call_rate",
    "calculate_required_call_recall",
    "calculate_schema_validation_metrics",
    "calculate_selection_accuracy",
    "calculate_side_effect_success_rate",
    "calculate_tool_correctness",
    "calculate_tool_correctness_with_args",
    "calculate_trajectory_accuracy",
    "call_matches_rule",
    "check_forbidden_calls",
    "estimate_tokens",
    "estimate_trace_cost",
    "find_secrets",
    "format_cost",
    "levenshtein",
    "load_forbidden_rules",
    "redact_secrets",
    "rules_from_json",
    "validate_rules",
]


def __getattr__(name: str) -> Any:
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'toolscore.metrics' has no attribute {name!r}")
    value = getattr(import_module(module_name), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
