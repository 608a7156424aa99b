"""``efficiency_metrics``: redundant, identical and failed calls, and blind retries.

* ``redundant_count``: per tool, the actual calls beyond the expected count (an unexpected
  tool counts fully).
* ``identical_count``: calls that repeat an earlier call exactly. A call's signature is its
  tool plus its arguments as sorted-key JSON (``None`` and ``{}`` alike; values JSON cannot
  encode as their ``str``).
* ``error_count``: failed calls; ``retry_after_error_count``: calls that repeat, unchanged,
  the call just before them that failed.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolscore._markers import hookimpl
from toolscore.specs import MetricSpec

if TYPE_CHECKING:
    from toolscore.context import EvaluationContext
    from toolscore.model import ToolCall

_ENCODER = json.JSONEncoder(sort_keys=True, default=str)
_NO_ARGS: Hashable = ("o", frozenset())


class _NeedsJSON(Exception):
    """A value whose JSON text is the only safe signature."""


def _json_key(value: Any) -> Hashable:
    """A hashable value equal for two plain values exactly when their JSON texts are equal."""
    kind = type(value)
    if kind is str or value is None:
        return value  # type: ignore[no-any-return]
    if kind is bool:
        return ("b", value)
    if kind is int:
        return ("i", value)
    if kind is float:
        return ("f", repr(value))
    if kind is dict:
        items = []
        for key, item in value.items():
            if type(key) is not str:
                raise _NeedsJSON
            items.append((key, _json_key(item)))
        return ("o", frozenset(items))
    if kind is list or kind is tuple:
        return ("a", tuple(_json_key(item) for item in value))
    raise _NeedsJSON


def _signatures(trace_calls: Sequence[ToolCall]) -> list[Hashable]:
    """Each call's ``(tool, arguments)`` signature, comparable as its JSON text would be."""
    try:
        return [
            (call.tool, _json_key(call.args) if call.args else _NO_ARGS) for call in trace_calls
        ]
    except _NeedsJSON:
        pass
    out: list[Hashable] = []
    for call in trace_calls:
        args: Mapping[str, Any] = call.args or {}
        try:
            text = _ENCODER.encode(args if isinstance(args, dict) else dict(args))
        except (TypeError, ValueError):  # mixed key types, circular values
            text = repr(args)
        out.append((call.tool, text))
    return out


def calculate_redundant_call_rate(
    gold_calls: Sequence[ToolCall], trace_calls: Sequence[ToolCall]
) -> dict[str, int | float]:
    """Redundancy, repetition and failure counts and rates over the actual calls (§2.4)."""
    total = len(trace_calls)
    if not total:
        return {
            "redundant_count": 0,
            "total_calls": 0,
            "redundant_rate": 0.0,
            "identical_count": 0,
            "identical_rate": 0.0,
            "error_count": 0,
            "error_rate": 0.0,
            "retry_after_error_count": 0,
        }
    expected = Counter(call.tool for call in gold_calls)
    actual = Counter(call.tool for call in trace_calls)
    redundant = sum(max(0, n - expected.get(tool, 0)) for tool, n in actual.items())
    signatures = _signatures(trace_calls)
    identical = total - len(set(signatures))
    failed = [call.is_error for call in trace_calls]
    errors = sum(failed)
    retries = sum(
        1 for k in range(1, total) if failed[k - 1] and signatures[k - 1] == signatures[k]
    )
    return {
        "redundant_count": redundant,
        "total_calls": total,
        "redundant_rate": redundant / total,
        "identical_count": identical,
        "identical_rate": identical / total,
        "error_count": errors,
        "error_rate": errors / total,
        "retry_after_error_count": retries,
    }


class EfficiencyMetrics:
    """The metric object registered for ``efficiency_metrics``."""

    def compute(self, context: EvaluationContext) -> dict[str, int | float]:
        return calculate_redundant_call_rate(context.expected, context.actual)


@hookimpl
def toolscore_register_metrics() -> Iterator[MetricSpec]:
    yield MetricSpec(
        name="efficiency_metrics",
        factory=EfficiencyMetrics,
        summary="redundant, identical and failed calls, and retries after a failure",
        order=70,
    )
