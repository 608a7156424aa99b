"""``evaluate(..., match=...)``: make the score's metrics follow a matching mode.

Why a rewrite of the inputs rather than new metrics: the score's metrics (selection,
argument F1, sequence, redundancy) keep their definitions and their numbers with default
options; a mode only changes *what they are shown*:

1. calls are paired by the mode's maximum matching (:func:`pair_calls`); leftover calls of
   the same tool are then paired by the usual alignment, as wrong-value attempts;
2. ``superset`` and ``in_order`` drop actual calls left unpaired (extra calls are allowed,
   so they lower neither selection accuracy nor redundancy); ``subset`` drops expected calls
   left unpaired (the agent may skip them);
3. ``unordered``, ``subset`` and ``superset`` list the actual calls in the order of their
   expected partners (order does not matter), unpaired ones last; ``strict`` and ``in_order``
   keep the actual order, except that the calls of one batch (one message's parallel calls)
   follow their partners' order;
4. each pair's arguments are projected through its tool's policy: ``superset`` keeps only the
   expected keys of the actual call, ``subset`` only the actual keys of the expected call,
   ``ignore`` (or a callable that accepts) makes the pair a "don't check" one, key paths keep
   only those paths (on both sides), ignored keys are removed from both sides.

A trajectory that matches under the mode therefore scores 1.0; one that does not keeps the
penalties of what is really wrong. The verdict itself is reported as
``metrics["trajectory_match"]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from toolscore.matching.alignment import align
from toolscore.matching.policies import ArgsRule, get_path, is_missing
from toolscore.matching.trajectory import (
    MatchSpec,
    TrajectoryMatch,
    batches,
    match_calls,
    pair_calls,
)
from toolscore.model import ToolCall

__all__ = ["apply_match"]


def apply_match(
    gold: Sequence[ToolCall], trace: Sequence[ToolCall], spec: MatchSpec, *, strict: bool
) -> tuple[list[ToolCall], list[ToolCall], TrajectoryMatch]:
    """The expected and actual calls as the metrics should see them, and the verdict."""
    verdict = match_calls(gold, trace, spec, strict=strict)
    pairs = (
        list(verdict.pairs)
        if spec.mode != "strict"
        else pair_calls(gold, trace, spec, strict=strict)
    )
    drops_extra = spec.mode in ("superset", "in_order")
    taken_e = {e for e, _ in pairs}
    taken_a = {a for _, a in pairs}
    free_e = [i for i in range(len(gold)) if i not in taken_e]
    free_a = [j for j in range(len(trace)) if j not in taken_a]
    if free_e and free_a:
        attempts = align([gold[i] for i in free_e], [trace[j] for j in free_a], strict=strict)
        pairs.extend((free_e[e], free_a[a]) for e, a in attempts.pairs)
    partner_of_e = dict(pairs)
    partner_of_a = {a: e for e, a in pairs}

    new_gold: dict[int, ToolCall] = {}
    new_trace: dict[int, ToolCall] = {}
    for i, call in enumerate(gold):
        rule = spec.rule_for(call.tool)
        j = partner_of_e.get(i)
        if j is None:
            if spec.mode == "subset":
                continue
            new_gold[i] = _with_args(call, _alone(rule, call.args))
            continue
        want, got = _project(rule, call.args, trace[j].actual_args, strict)
        new_gold[i] = _with_args(call, want)
        new_trace[j] = _with_args(trace[j], got)
    for j, call in enumerate(trace):
        if j in new_trace:
            continue
        if drops_extra and j not in partner_of_a:
            continue
        rule = spec.rule_for(call.tool)
        new_trace[j] = _with_args(call, dict(rule.clean(call.actual_args)))

    gold_out = [new_gold[i] for i in sorted(new_gold)]
    if spec.mode in ("strict", "in_order"):
        # Order matters: the actual order is kept, but a batch (one message's parallel calls)
        # is listed in its expected partners' order, as the verdict paired them.
        batch = batches(trace) or list(range(len(trace)))
        partner = {a: e for e, a in verdict.pairs}
        order = sorted(new_trace, key=lambda j: (batch[j], partner.get(j, len(gold) + j)))
    else:
        end = len(gold)
        order = sorted(new_trace, key=lambda j: (partner_of_a.get(j, end + j), j))
    return gold_out, [new_trace[j] for j in order], verdict


def _with_args(call: ToolCall, args: Mapping[str, Any] | None) -> ToolCall:
    if args is call.args:
        return call
    return attrs.evolve(call, args=args)


def _alone(rule: ArgsRule, args: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """An unpaired expected call's arguments as its policy reads them."""
    if args is None or rule.kind == "ignore":
        return None
    if rule.kind == "paths":
        return _paths(rule, args)
    return dict(rule.clean(args))


def _paths(rule: ArgsRule, args: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for path in rule.paths:
        value = get_path(args, path)
        if not is_missing(value):
            out[".".join(path)] = value
    return out


def _project(
    rule: ArgsRule,
    want: Mapping[str, Any] | None,
    got: Mapping[str, Any],
    strict: bool,
) -> tuple[Mapping[str, Any] | None, Mapping[str, Any]]:
    if want is None or rule.kind == "ignore":
        return None, got
    if rule.kind == "callable":
        if rule.accepts(want, got, strict=strict):
            return None, got
        return dict(rule.clean(want)), dict(rule.clean(got))
    if rule.kind == "paths":
        return _paths(rule, want), _paths(rule, got)
    clean_want, clean_got = rule.clean(want), rule.clean(got)
    if rule.kind == "superset":
        return dict(clean_want), {k: v for k, v in clean_got.items() if k in clean_want}
    if rule.kind == "subset":
        return {k: v for k, v in clean_want.items() if k in clean_got}, dict(clean_got)
    return dict(clean_want), dict(clean_got)
