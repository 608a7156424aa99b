"""Choosing the flat gold to score, for ``evaluate()`` and ``evaluate_trace()``.

A plain gold list passes straight through, at the cost of one look at its
items. A structured one is expanded (:mod:`toolscore.expectations.expand`) and each candidate
is scored with the same metrics, weights and strictness as the final evaluation; the winner is
returned with ``metrics["expectations"]``, which names the choices (``one_of`` alternative,
optional calls included or skipped, repeat counts, group orders).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from toolscore.expectations.model import Step
from toolscore.expectations.parse import is_structured, parse_steps
from toolscore.scoring import score_calls

if TYPE_CHECKING:
    from toolscore.matching.trajectory import MatchSpec
    from toolscore.model import ToolCall
    from toolscore.plugins.manager import ToolscorePluginManager

__all__ = ["GoldSteps", "choose_gold", "read_gold_steps"]


@attrs.frozen
class GoldSteps:
    """A structured gold file's steps and the JSON path of their array (for choices' paths)."""

    steps: tuple[Step, ...]
    path: str = "$"


def choose_gold(
    steps_or_items: Any,
    trace_calls: Sequence[ToolCall],
    pm: ToolscorePluginManager,
    *,
    strict: bool,
    weights: Mapping[str, float] | None,
    match: MatchSpec | None = None,
) -> tuple[list[ToolCall], dict[str, Any]]:
    """The best flat gold for ``trace_calls`` and the ``expectations`` metric value.

    With a ``match`` spec, a flat list that matches under it beats any that does not, and
    candidates are scored as ``evaluate(match=...)`` scores them; so an ``any_order`` group
    (or any other step) is honoured in every mode, ``strict`` included.
    """
    from toolscore.expectations.expand import best_expansion

    gold = (
        steps_or_items
        if isinstance(steps_or_items, GoldSteps)
        else GoldSteps(parse_steps(steps_or_items, plugin_manager=pm))
    )

    def score(calls: Sequence[ToolCall]) -> float:
        if match is None:
            result = score_calls(pm, calls, trace_calls, weights=weights, strict=strict)
            return float(result.score)
        from toolscore.matching._apply import apply_match

        gold, trace, verdict = apply_match(calls, trace_calls, match, strict=strict)
        result = score_calls(pm, gold, trace, weights=weights, strict=strict)
        # Scores lie in [0, 1]: a matching candidate (2 + score) beats every other one.
        return float(result.score) + (2.0 if verdict.matched else 0.0)

    calls, choices, count = best_expansion(gold.steps, trace_calls, score, gold.path)
    chosen = [c["one_of"] for c in choices if "one_of" in c]
    return calls, {
        "one_of": chosen,
        "choices": choices,
        "candidates": count,
        "expected_calls": [call.tool for call in calls],
    }


def read_gold_steps(gold_file: str | Path, pm: ToolscorePluginManager) -> GoldSteps | None:
    """A structured gold file's steps, or ``None`` for a plain one (read by the usual loader).

    :raises toolscore.errors.InputError: ``<file>: <json path>: <what was expected>``.
    """
    from toolscore.loading import read_document

    data, _ = read_document(gold_file, what="Gold standard file")
    items = data.get("calls") if isinstance(data, Mapping) else data
    if not is_structured(items):
        return None
    prefix = "$.calls" if isinstance(data, Mapping) else "$"
    return GoldSteps(
        parse_steps(items, plugin_manager=pm, source=str(gold_file), path=prefix), prefix
    )
