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
import json.encoder
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolscore._markers import hookimpl
from toolscore.specs import MetricSpec

if TYPE_CHECKING:
    from toolscore.context import EvaluationContext
    from toolscore.model import ToolCall

_ENCODER = json.JSONEncoder(sort_keys=True, default=str)
#: CPython's C encoder, called directly: the same text without per-call setup (or None).
_c_make_encoder: Any = getattr(json.encoder, "c_make_encoder", None)


def _encoder() -> Callable[[Any], str]:
    """``json.dumps(value, sort_keys=True, default=str)``, as fast as the interpreter allows.

    CPython's C encoder is built once and reused (``json.dumps`` builds one per call); its
    circular-reference markers are empty again after each successful call.
    """
    if _c_make_encoder is None:  # pragma: no cover - other interpreters
        return _ENCODER.encode
    make = _c_make_encoder(
        {}, str, json.encoder.encode_basestring_ascii, None, ": ", ", ", True, False, True
    )

    def encode(value: Any) -> str:
        return "".join(make(value, 0))

    return encode


def _signatures(trace_calls: Sequence[ToolCall], repeated: set[str]) -> list[tuple[str, str]]:
    """Each call's ``(tool, arguments as sorted-key JSON)``; ``None`` and ``{}`` alike.

    Only calls of a tool in ``repeated`` can equal another call, so only those are encoded.
    """
    encode = _encoder() if repeated else None
    out: list[tuple[str, str]] = []
    for position, call in enumerate(trace_calls):
        if encode is None or call.tool not in repeated:
            out.append((call.tool, f"#{position}"))  # unique: never equal to another call
            continue
        args: Mapping[str, Any] = call.args or {}
        try:
            text = encode(args if isinstance(args, dict) else dict(args))
        except (TypeError, ValueError, RecursionError):  # mixed key types, circular values
            encode = _encoder()  # a failed call may leave markers behind
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
    expected: dict[str, int] = {}
    for call in gold_calls:
        expected[call.tool] = expected.get(call.tool, 0) + 1
    actual: dict[str, int] = {}
    for call in trace_calls:
        actual[call.tool] = actual.get(call.tool, 0) + 1
    redundant = sum(max(0, n - expected.get(tool, 0)) for tool, n in actual.items())
    signatures = _signatures(trace_calls, {tool for tool, n in actual.items() if n > 1})
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
