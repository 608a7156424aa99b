"""Pieces every evaluation report shares: summary numbers, findings, redaction, JSON safety.

Reports read an :class:`~toolscore.result.EvaluationResult` only through these helpers and the
result's documented attributes, so that every format shows the same numbers and the same
findings. Heavy or optional modules (the diff, the credential scanner) are imported on use.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolscore.diff import FixSuggestion
    from toolscore.model import ToolCall
    from toolscore.result import EvaluationResult

__all__ = [
    "as_float",
    "call_record",
    "compact_json",
    "findings",
    "fix_list",
    "generated_at",
    "json_safe",
    "metric",
    "redact",
    "required_completed",
    "summary",
    "weights_of",
]


def json_safe(value: Any) -> Any:
    """Return ``value`` with everything JSON cannot hold replaced, recursively.

    Dict keys become strings; tuples, lists and sets become lists (sets sorted by their repr,
    so the output is stable); non-finite floats become the strings ``"NaN"``, ``"Infinity"``
    and ``"-Infinity"``; ``ToolCall`` objects become their dict form; anything else that is not
    None/bool/int/float/str becomes its ``repr`` (so a matcher reads ``Regex('a')``, as in
    ``to_dict()``). Used by the JSON report and by capture files, which must never crash on a
    value an agent returned.
    """
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        if math.isnan(value):
            return "NaN"
        return "Infinity" if value > 0 else "-Infinity"
    if isinstance(value, Mapping):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return [json_safe(v) for v in sorted(value, key=repr)]
    from toolscore.model import ToolCall

    if isinstance(value, ToolCall):
        return json_safe(value.to_dict())
    return repr(value)


def redact(text: str) -> str:
    """Replace every credential in ``text`` with ``[REDACTED <kind>: <preview>]``.

    Human-facing reports (console issues, Markdown, HTML, CSV, JUnit) go through this; the JSON
    report keeps calls as recorded. The rules are :mod:`toolscore.redaction`'s.
    """
    from toolscore.redaction import redact as redact_text

    return redact_text(text)


def findings(result: EvaluationResult) -> list[tuple[str, str]]:
    """The behaviour and safety findings (:func:`toolscore.diff.behavior_findings`), as
    ``(severity, message)`` pairs."""
    from toolscore.diff import behavior_findings

    return [(str(severity), str(message)) for severity, message in behavior_findings(result)]


def fix_list(result: EvaluationResult) -> list[FixSuggestion]:
    """The agent-side "Top issues to fix", most important first."""
    from toolscore.diff import build_eval_fix_list

    fixes = list(build_eval_fix_list(result.gold_calls, result.trace_calls))
    if "schema_validity" in result.metrics:  # only when tool definitions were given
        from toolscore.tool_schemas import schema_fixes

        fixes += schema_fixes(result.metrics["schema_validity"])
        fixes.sort(key=lambda fix: fix.priority)
    return fixes


def metric(result: EvaluationResult, group: str, key: str | None = None, default: Any = 0.0) -> Any:
    """``metrics[group]`` or ``metrics[group][key]``, with ``default`` for anything absent."""
    value = result.metrics.get(group)
    if key is None:
        return default if value is None else value
    if not isinstance(value, Mapping):
        return default
    found = value.get(key)
    return default if found is None else found


def as_float(value: Any, default: float = 0.0) -> float:
    """A number for display; ``None``, strings and other odd values read as ``default``."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)):
        return float(value)
    return default


def weights_of(result: EvaluationResult) -> dict[str, float]:
    """The (normalized) weights the score was computed with."""
    weights = getattr(result, "weights", None)
    if weights is None:
        weights = getattr(result, "_weights", None) or {}
    return {str(k): float(v) for k, v in dict(weights).items()}


def required_completed(result: EvaluationResult) -> int | None:
    """How many required calls completed: ``round(recall × len(gold))``, or ``None``."""
    recall = result.required_call_recall
    if recall is None:
        return None
    return round(float(recall) * len(result.gold_calls))


def summary(result: EvaluationResult) -> dict[str, Any]:
    """The ``summary`` block of the JSON report, in the documented key order."""
    security = result.metrics.get("security_metrics")
    secrets = security.get("secret_count", 0) if isinstance(security, Mapping) else 0
    return {
        "gold_calls_count": len(result.gold_calls),
        "trace_calls_count": len(result.trace_calls),
        "score": result.score,
        "grade": result.grade,
        "weights": weights_of(result),
        "required_call_recall": result.required_call_recall,
        "failed_calls": metric(result, "efficiency_metrics", "error_count", 0),
        "policy_violations": len(result.policy_violations),
        "secrets": secrets,
    }


def call_record(call: ToolCall) -> dict[str, Any]:
    """One call as the JSON report lists it: the base keys, then error details."""
    from toolscore.model import own_metadata

    record: dict[str, Any] = {
        "tool": call.tool,
        "args": None if call.args is None else dict(call.args),
        "result": call.result,
        "timestamp": call.timestamp,
        "duration": call.duration,
        "cost": call.cost,
        "metadata": own_metadata(call),
    }
    if call.is_error:
        record["is_error"] = True
        record["error"] = call.error
    if call.id is not None:
        record["id"] = call.id
    return record


def generated_at(*, utc: bool = False) -> datetime:
    """When the report was generated: now, or ``SOURCE_DATE_EPOCH`` for reproducible builds.

    Local naive time by default (the layout report readers parse); ``utc=True`` gives an aware UTC
    time for formats that want a zone.
    """
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        moment = datetime.fromtimestamp(int(epoch), tz=timezone.utc)
    else:
        moment = datetime.now(timezone.utc)
    if utc:
        return moment
    return moment.astimezone().replace(tzinfo=None)


#: Long argument values are cut to this many characters in tables.
MAX_VALUE_CHARS = 400


def compact_json(value: Any) -> str:
    """``value`` as one line of JSON (JSON-safe, redacted), cut to :data:`MAX_VALUE_CHARS`.

    Redaction comes first: a credential cut short would no longer be recognised.
    """
    text = redact(json.dumps(json_safe(value), ensure_ascii=False, sort_keys=False))
    if len(text) > MAX_VALUE_CHARS:
        text = text[: MAX_VALUE_CHARS - 1] + "…"
    return text
