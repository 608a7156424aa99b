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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolscore._markers import hookimpl
from toolscore.context import summarize
from toolscore.specs import MetricSpec

if TYPE_CHECKING:
    from toolscore.context import CallSummary, EvaluationContext
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


#: Types whose JSON text only a value of the same type can produce (``default=str`` turns
#: any other object into a JSON string, which could equal a ``str`` value's text).
_PLAIN_TYPES = frozenset({str, int, float, bool, type(None), dict, list})


def _rough_keys(trace_calls: Sequence[ToolCall]) -> list[tuple[Any, ...]]:
    """Per call, a key that two calls with equal signatures always share: the tool, the
    number of arguments and the set of top-level string values; ``(tool, None)`` for
    arguments that are not a plain dict of plain values.

    Why: encoding every call's arguments as sorted-key JSON is most of this metric's cost,
    and in a long trace almost every call has a string (a query, a path) that no other call
    of its tool has. These keys cost about half as much as the JSON text.
    """
    is_plain = _PLAIN_TYPES.issuperset
    keys: list[tuple[Any, ...]] = []
    for call in trace_calls:
        args = call.args if call.args is not None else {}
        values = args.values() if type(args) is dict else None
        if values is not None and is_plain(map(type, values)):
            strings = frozenset([value for value in values if type(value) is str])
            keys.append((call.tool, len(values), strings))
        else:
            keys.append((call.tool, None))
    return keys


def _candidates(trace_calls: Sequence[ToolCall], repeated: set[str]) -> set[int]:
    """Positions of the calls that might equal another call and so need a real signature:
    those sharing their rough key, and all calls of a tool that has calls without one.

    Only calls of a tool in ``repeated`` (made more than once) can equal another call, so
    only they are keyed (in a short trace most tools are called once).
    """
    if not repeated:
        return set()
    # A call of a tool made once can equal no other call: only the others get a key.
    positions = [p for p, call in enumerate(trace_calls) if call.tool in repeated]
    keys = _rough_keys([trace_calls[p] for p in positions])
    counts: dict[tuple[Any, ...], int] = {}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    unplain = {key[0] for key in counts if key[1] is None}
    return {
        position
        for position, key in zip(positions, keys)
        if counts[key] > 1 or (unplain and key[0] in unplain)
    }


def _signatures(trace_calls: Sequence[ToolCall], repeated: set[str]) -> list[tuple[str, str | int]]:
    """Each call's ``(tool, arguments as sorted-key JSON)``; ``None`` and ``{}`` alike.

    Calls that cannot equal another call (see :func:`_candidates`) get a unique stand-in
    instead of their JSON text: their position, an int, which no text equals.
    """
    needed = _candidates(trace_calls, repeated)
    if not needed:
        return [(call.tool, position) for position, call in enumerate(trace_calls)]
    texts = dict(zip(needed, _texts(trace_calls, needed)))
    return [(call.tool, texts.get(position, position)) for position, call in enumerate(trace_calls)]


def _texts(trace_calls: Sequence[ToolCall], positions: Iterable[int]) -> list[str]:
    """The sorted-key JSON text of the arguments of the calls at ``positions`` (``repr``
    of those JSON cannot encode: mixed key types, circular values)."""
    encode = _encoder()
    out: list[str] = []
    for position in positions:
        args: Mapping[str, Any] = trace_calls[position].args or {}
        try:
            text = encode(args if isinstance(args, dict) else dict(args))
        except (TypeError, ValueError, RecursionError):
            encode = _encoder()  # a failed call may leave markers behind
            text = repr(args)
        out.append(text)
    return out


def _identical(trace_calls: Sequence[ToolCall], groups: Iterable[list[int]]) -> int:
    """How many calls repeat an earlier call of their tool exactly, given the positions of
    the calls of each tool made more than once (the others repeat nothing).

    The same count as ``len(calls) - len(set(signatures))`` with :func:`_signatures`: within a
    tool, only the calls :func:`_candidates` would key are encoded and compared.
    """
    identical = 0
    for positions in groups:
        keys = _rough_keys([trace_calls[p] for p in positions])
        counts: dict[tuple[Any, ...], int] = {}
        for key in keys:
            if key[1] is None:  # arguments without a rough key: compare them all
                needed = positions
                break
            counts[key] = counts.get(key, 0) + 1
        else:
            if len(counts) == len(keys):
                continue  # every call of the tool has a key of its own
            needed = [p for p, key in zip(positions, keys) if counts[key] > 1]
        identical += len(needed) - len(set(_texts(trace_calls, needed)))
    return identical


def calculate_redundant_call_rate(
    gold_calls: Sequence[ToolCall], trace_calls: Sequence[ToolCall]
) -> dict[str, int | float]:
    """Redundancy, repetition and failure counts and rates over the actual calls.

    A call is redundant when its tool is called more often than the gold expects; identical
    when its tool and arguments repeat an earlier call; a retry when it repeats the failed call
    right before it. Every rate is over the number of actual calls.
    """
    return _rates(trace_calls, summarize(gold_calls, trace_calls))


def _rates(trace_calls: Sequence[ToolCall], summary: CallSummary) -> dict[str, int | float]:
    """:func:`calculate_redundant_call_rate` with the tools counted in ``summary``."""
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
    expected = summary.expected_counts
    redundant = 0
    repeated: list[list[int]] = []
    for tool, positions in summary.actual_positions.items():
        made = len(positions)
        extra = made - expected.get(tool, 0)
        if extra > 0:
            redundant += extra
        if made > 1:
            repeated.append(positions)
    errors = summary.error_count
    retries = 0
    if errors:  # retries compare each call with the one before: every signature is needed
        signatures = _signatures(trace_calls, {summary.actual_tools[p[0]] for p in repeated})
        identical = total - len(set(signatures))
        failed = [call.is_error for call in trace_calls]
        retries = sum(
            1 for k in range(1, total) if failed[k - 1] and signatures[k - 1] == signatures[k]
        )
    else:
        identical = _identical(trace_calls, repeated)
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
        return _rates(context.actual, context.summary)


@hookimpl
def toolscore_register_metrics() -> Iterator[MetricSpec]:
    yield MetricSpec(
        name="efficiency_metrics",
        factory=EfficiencyMetrics,
        summary="redundant, identical and failed calls, and retries after a failure",
        order=70,
    )
