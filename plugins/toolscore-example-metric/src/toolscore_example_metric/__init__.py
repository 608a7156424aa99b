"""An example third-party toolscore plugin: the ``call_budget`` metric.

Agents that reach the right answer with twice the tool calls cost twice as much. This metric
compares the number of actual calls with a budget: by default the number of expected calls,
or ``options["call_budget"]`` when the caller passes one (an int, or a float factor such as
``1.5`` meaning "50% more calls than expected"). It never changes the composite score; it adds
``metrics["call_budget"]``::

    {"budget": 2, "calls": 3, "over_budget": 1, "within_budget": False,
     "budget_usage": 1.5, "total_duration": 0.42, "total_cost": None}

Install it next to toolscore-core and it appears in ``toolscore plugins list`` and in every
``evaluate(...).metrics``; nothing else is needed. The entry point lives in ``pyproject.toml``::

    [project.entry-points.toolscore]
    toolscore_example_metric = "toolscore_example_metric"
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import toolscore
from toolscore.specs import MetricSpec

if TYPE_CHECKING:
    from toolscore.context import EvaluationContext

__all__ = ["CallBudget", "budget_for", "toolscore_register_metrics"]


def budget_for(expected_count: int, option: Any = None) -> int:
    """The call budget: ``option`` as an absolute int, as a factor when a float, else expected."""
    if option is None:
        return expected_count
    if isinstance(option, bool) or not isinstance(option, (int, float)) or option < 0:
        raise ValueError(f"call_budget must be a non-negative number, got {option!r}")
    if isinstance(option, float):
        return math.ceil(expected_count * option)
    return option


def _total(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return math.fsum(known) if known else None


class CallBudget:
    """Counts actual calls against the budget; also totals duration and cost where recorded."""

    def compute(self, context: EvaluationContext) -> dict[str, Any]:
        budget = budget_for(len(context.expected), context.options.get("call_budget"))
        calls = len(context.actual)
        return {
            "budget": budget,
            "calls": calls,
            "over_budget": max(0, calls - budget),
            "within_budget": calls <= budget,
            "budget_usage": (calls / budget) if budget else (0.0 if calls == 0 else math.inf),
            "total_duration": _total([c.duration for c in context.actual]),
            "total_cost": _total([c.cost for c in context.actual]),
        }


@toolscore.hookimpl
def toolscore_register_metrics() -> Iterator[MetricSpec]:
    yield MetricSpec(
        name="call_budget",
        factory=CallBudget,
        summary="actual tool calls against a call budget (default: the expected count)",
        order=500,
    )
