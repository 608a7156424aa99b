"""``match_trajectory``: a yes/no verdict on a whole trajectory, under a chosen mode.

Why: a score says "how close"; tests often need "is this acceptable", with the order,
extra calls and volatile arguments treated the way the task allows. Modes:

* ``strict`` — the same calls in the same order (position by position);
* ``unordered`` — the same multiset of calls, any order;
* ``subset`` — every actual call pairs with a distinct expected call (the agent may skip some);
* ``superset`` — every expected call pairs with a distinct actual call (extra calls are fine);
* ``in_order`` — the expected calls happen in this order, other calls allowed between them.

Calls extracted from one assistant message (parallel calls, ``metadata["message"]``) form one
*batch*: ``strict`` and ``in_order`` accept a batch's calls in any order. When both sides carry
message boundaries, ``strict`` also needs the same batches (as many messages, as many calls in
each); when one side does, its batches cut the other side by position. Plain call lists have no
batches: every call is its own.

Whether two calls pair is decided by the tool's argument policy
(:mod:`toolscore.matching.policies`). The pairing for the last three modes is a maximum
bipartite matching (:mod:`toolscore.matching._pairing`), never greedy first-fit.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

import attrs

from toolscore.matching._pairing import pair_tool
from toolscore.matching.policies import ArgsRule, rule_from_policy
from toolscore.model import ToolCall

__all__ = [
    "MESSAGE_KEY",
    "MODES",
    "MatchMode",
    "MatchSpec",
    "TrajectoryMatch",
    "batches",
    "best_candidate",
    "match_calls",
    "match_trajectory",
]

MatchMode = Literal["strict", "unordered", "subset", "superset", "in_order"]
MODES: Final = ("strict", "unordered", "subset", "superset", "in_order")
#: The metadata key an extractor sets on calls read from one message (same value, same message).
MESSAGE_KEY: Final = "message"


@attrs.frozen
class MatchSpec:
    """A mode plus argument policies: what ``match=`` and the gold file's ``match`` hold."""

    mode: MatchMode = "strict"
    args: ArgsRule = attrs.field(factory=ArgsRule)
    overrides: Mapping[str, ArgsRule] = attrs.field(factory=dict)

    @classmethod
    def build(
        cls,
        mode: str = "strict",
        args: Any = "exact",
        args_overrides: Mapping[str, Any] | None = None,
    ) -> MatchSpec:
        """Validate and normalise the user's spelling.

        :raises ValueError: an unknown mode or policy (the message names which).
        """
        if mode not in MODES:
            raise ValueError(f"unknown match mode {mode!r}; use one of {', '.join(MODES)}")
        overrides: dict[str, ArgsRule] = {}
        for tool, policy in (args_overrides or {}).items():
            overrides[str(tool)] = rule_from_policy(policy, where=f"args_overrides[{tool!r}]")
        return cls(mode, rule_from_policy(args), overrides)  # type: ignore[arg-type]

    @classmethod
    def coerce(cls, value: Any) -> MatchSpec:
        """A spec from a :class:`MatchSpec`, a mode name, or a mapping (the gold file form).

        The mapping takes ``mode``, ``args`` and ``args_overrides``.
        """
        if isinstance(value, MatchSpec):
            return value
        if isinstance(value, str):
            return cls.build(value)
        if isinstance(value, Mapping):
            unknown = sorted(set(value) - {"mode", "args", "args_overrides"})
            if unknown:
                raise ValueError(
                    f"match: unknown keys {', '.join(map(str, unknown))} "
                    "(mode, args, args_overrides)"
                )
            return cls.build(
                value.get("mode", "strict"), value.get("args", "exact"), value.get("args_overrides")
            )
        raise TypeError(f"match must be a mode name, a mapping or a MatchSpec, got {value!r}")

    def rule_for(self, tool: str) -> ArgsRule:
        """The argument policy of ``tool``."""
        return self.overrides.get(tool, self.args)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe description (callables shown by name)."""
        return {
            "mode": self.mode,
            "args": _describe(self.args),
            "args_overrides": {tool: _describe(rule) for tool, rule in self.overrides.items()},
        }


def _describe(rule: ArgsRule) -> Any:
    if rule.kind == "paths":
        base: Any = [".".join(p) for p in rule.paths]
    elif rule.kind == "callable":
        base = f"<callable {getattr(rule.func, '__name__', 'function')}>"
    else:
        base = rule.kind
    if rule.ignore:
        return {"mode": base, "ignore": [".".join(p) for p in rule.ignore]}
    return base


@attrs.frozen
class TrajectoryMatch:
    """The verdict: truthy exactly when the trajectories match.

    ``pairs`` lists ``(expected index, actual index)`` of the calls that paired; ``reason``
    says which call failed and why (empty when matched).
    """

    matched: bool
    reason: str
    mode: MatchMode
    pairs: tuple[tuple[int, int], ...] = ()
    unmatched_expected: tuple[int, ...] = ()
    unmatched_actual: tuple[int, ...] = ()
    #: With gold steps: the choices that made the flat list of expected calls matched against.
    choices: tuple[dict[str, Any], ...] = ()

    def __bool__(self) -> bool:
        return self.matched

    def to_dict(self) -> dict[str, Any]:
        """The JSON form reported under ``metrics["trajectory_match"]``."""
        return {
            "matched": self.matched,
            "mode": self.mode,
            "reason": self.reason,
            "pairs": [list(p) for p in self.pairs],
            "unmatched_expected": list(self.unmatched_expected),
            "unmatched_actual": list(self.unmatched_actual),
        } | ({"choices": [dict(c) for c in self.choices]} if self.choices else {})


def match_trajectory(
    expected: Any,
    actual: Any,
    *,
    mode: str | None = None,
    args: Any = None,
    args_overrides: Mapping[str, Any] | None = None,
    strict: bool = False,
) -> TrajectoryMatch:
    """Whether ``actual`` matches ``expected`` under ``mode`` and the argument policies.

    :param expected: what a gold file holds: call dicts (``{"tool", "args"}``; ``$`` matcher
        forms allowed; ``args`` absent means "do not check") and structured steps
        (``optional``, ``repeat``, ``any_order``, ``one_of``), or a gold document
        ``{"calls": [...], "match": {...}}`` whose ``match`` fills in what the keywords leave
        unset; also :class:`~toolscore.model.ToolCall` lists and any payload ``actual``
        accepts. With steps, the verdict is that of the first flat list that matches (the
        best-paired one when none does).
    :param actual: anything :func:`toolscore.evaluate` accepts: call dicts, ToolCalls, raw
        provider responses, message lists, ``{"messages": [...]}``.
    :param mode: ``strict`` (the default), ``unordered``, ``subset``, ``superset`` or
        ``in_order``.
    :param args: ``exact`` (the default), ``ignore``, ``subset``, ``superset``, a list of dotted
        key paths, a callable ``(actual_args, expected_args) -> bool``, or
        ``{"mode": ..., "ignore": [...]}``.
    :param args_overrides: tool name -> policy, for the tools that need another one.
    :param strict: compare values with exact types (as ``evaluate(strict=True)``).
    :raises ValueError: an unknown mode or policy, or a malformed gold step.
    :raises TypeError: ``actual`` (or ``expected``) is not a recognised format.
    """
    from toolscore.expectations.parse import is_structured, parse_steps
    from toolscore.extraction import calls_from_payload
    from toolscore.matching._expected import expected_calls
    from toolscore.plugins import manager_or_default

    pm = manager_or_default(None)
    items, document_match, extracted = _gold_items(expected, pm)
    spec = _spec(mode, args, args_overrides, document_match)
    trace = calls_from_payload(actual, plugin_manager=pm)
    if extracted:  # ToolCalls read from a payload: no steps, no "$" forms to read
        return match_calls(items, trace, spec, strict=strict)
    if is_structured(items):
        return best_candidate(parse_steps(items, plugin_manager=pm), trace, spec, strict=strict)
    return match_calls(expected_calls(items, pm), trace, spec, strict=strict)


def _gold_items(expected: Any, pm: Any) -> tuple[list[Any], Any, bool]:
    """The gold list in ``expected``, its document's ``match`` object (``None`` if none), and
    whether the list is the calls read from a payload (ToolCalls only) rather than gold."""
    from toolscore.expectations.parse import STRUCTURE_KEYS
    from toolscore.extraction import calls_from_payload

    if isinstance(expected, Mapping) and isinstance(expected.get("calls"), list):
        return list(expected["calls"]), expected.get("match"), False
    if _is_gold_list(expected, STRUCTURE_KEYS):
        return list(expected), None, False
    return list(calls_from_payload(expected, plugin_manager=pm)), None, True


def _is_gold_list(expected: Any, structure_keys: frozenset[str]) -> bool:
    """A list of calls and steps (one misspelt step included, so the gold reader can name
    it), as opposed to a list of chat messages, which have roles."""
    if not isinstance(expected, (list, tuple)) or not expected:
        return isinstance(expected, (list, tuple))
    if not all(isinstance(item, (ToolCall, Mapping)) for item in expected):
        return False
    if any(isinstance(item, Mapping) and "role" in item for item in expected):
        return False
    return any(
        isinstance(item, ToolCall) or "tool" in item or bool(structure_keys & set(item))
        for item in expected
    )


#: The spec of each mode given alone (no policies, no document ``match``): built once.
_MODE_SPECS: dict[str, MatchSpec] = {}


def _spec(mode: str | None, args: Any, overrides: Any, document_match: Any) -> MatchSpec:
    if args is None and overrides is None and document_match is None and type(mode) is str:
        found = _MODE_SPECS.get(mode)
        if found is None:
            found = MatchSpec.build(mode)  # raises for an unknown mode: nothing kept
            _MODE_SPECS[mode] = found
        return found
    base = MatchSpec.coerce(document_match) if document_match is not None else MatchSpec()
    given = MatchSpec.build(
        mode if mode is not None else base.mode,
        args if args is not None else "exact",
        overrides,
    )
    return MatchSpec(
        given.mode,
        given.args if args is not None else base.args,
        given.overrides if overrides is not None else base.overrides,
    )


def best_candidate(
    steps: Sequence[Any], trace: Sequence[ToolCall], spec: MatchSpec, *, strict: bool = False
) -> TrajectoryMatch:
    """The verdict of the first flat expansion of ``steps`` that matches ``trace`` under
    ``spec``; when none does, that of the one with the most pairs (the first of equals)."""
    from toolscore.expectations.expand import expansions

    best: TrajectoryMatch | None = None
    for calls, choices in expansions(steps, trace):
        verdict = attrs.evolve(match_calls(calls, trace, spec, strict=strict), choices=choices)
        if verdict.matched:
            return verdict
        if best is None or len(verdict.pairs) > len(best.pairs):
            best = verdict
    assert best is not None  # a sequence of steps has at least one expansion
    return best


def _show(call: ToolCall) -> str:
    if call.args is None:
        return f"{call.tool}(…)"
    inner = ", ".join(f"{k}={v!r}" for k, v in call.args.items())
    text = f"{call.tool}({inner})"
    return text if len(text) <= 80 else text[:79] + "…"


def match_calls(
    gold: Sequence[ToolCall], trace: Sequence[ToolCall], spec: MatchSpec, *, strict: bool = False
) -> TrajectoryMatch:
    """:func:`match_trajectory` on ToolCall lists with a built spec."""
    if spec.mode == "strict":
        return _strict(gold, trace, spec, strict)
    if spec.mode == "in_order":
        return _in_order(gold, trace, spec, strict)
    pairs = pair_calls(gold, trace, spec, strict=strict)
    paired_e = {e for e, _ in pairs}
    paired_a = {a for _, a in pairs}
    free_e = tuple(i for i in range(len(gold)) if i not in paired_e)
    free_a = tuple(j for j in range(len(trace)) if j not in paired_a)
    need_e = spec.mode in ("unordered", "superset")
    need_a = spec.mode in ("unordered", "subset")
    reason = ""
    if need_e and free_e:
        i = free_e[0]
        reason = (
            f"expected call #{i + 1} {_show(gold[i])} has no matching actual call"
            f"{_closest(gold[i], trace, free_a, spec, strict)}"
        )
    elif need_a and free_a:
        j = free_a[0]
        reason = f"actual call #{j + 1} {_show(trace[j])} matches no expected call" + (
            ""
            if any(c.tool == trace[j].tool for c in gold)
            else f" (no {trace[j].tool!r} expected)"
        )
    return TrajectoryMatch(not reason, reason, spec.mode, tuple(pairs), free_e, free_a)


def _closest(
    want: ToolCall,
    trace: Sequence[ToolCall],
    free: Sequence[int],
    spec: MatchSpec,
    strict: bool,
) -> str:
    same = [j for j in free if trace[j].tool == want.tool]
    if not same:
        if any(c.tool == want.tool for c in trace):
            return f" (every {want.tool!r} call is paired with another expected call)"
        return f" (no call to {want.tool!r})"
    j = same[0]
    problem = spec.rule_for(want.tool).problem(want.args, trace[j].args, strict=strict)
    return f" (closest: actual call #{j + 1}: {problem})"


def pair_calls(
    gold: Sequence[ToolCall], trace: Sequence[ToolCall], spec: MatchSpec, *, strict: bool = False
) -> list[tuple[int, int]]:
    """A maximum set of compatible pairs, tool by tool, sorted by expected index."""
    by_tool_e: dict[str, list[tuple[int, ToolCall]]] = defaultdict(list)
    by_tool_a: dict[str, list[tuple[int, ToolCall]]] = defaultdict(list)
    for i, call in enumerate(gold):
        by_tool_e[call.tool].append((i, call))
    for j, call in enumerate(trace):
        by_tool_a[call.tool].append((j, call))
    pairs: list[tuple[int, int]] = []
    for tool, calls in by_tool_e.items():
        others = by_tool_a.get(tool)
        if others:
            pairs.extend(pair_tool(calls, others, spec.rule_for(tool), strict=strict))
    pairs.sort()
    return pairs


def batches(calls: Sequence[ToolCall]) -> list[int] | None:
    """Per call, the number of its batch (calls of one assistant message, consecutive, with the
    same ``metadata["message"]``); ``None`` when no call carries a message index."""
    if not any(MESSAGE_KEY in call.metadata for call in calls):
        return None
    out: list[int] = []
    previous: Any = None
    number = -1
    for call in calls:
        key = call.metadata.get(MESSAGE_KEY)
        if key is None or number < 0 or key != previous:
            number += 1
        out.append(number)
        previous = key
    return out


def _sizes(numbers: Sequence[int]) -> list[int]:
    sizes: list[int] = []
    for index, number in enumerate(numbers):
        if index and number == numbers[index - 1]:
            sizes[-1] += 1
        else:
            sizes.append(1)
    return sizes


def _cut(sizes: Sequence[int], total: int) -> list[int]:
    """``total`` calls cut like ``sizes`` (the last piece shorter; single calls past the end)."""
    out: list[int] = []
    left = total
    for size in sizes:
        if left <= 0:
            break
        out.append(min(size, left))
        left -= out[-1]
    return out + [1] * left


def _starts(sizes: Sequence[int]) -> list[tuple[int, int]]:
    spans = []
    at = 0
    for size in sizes:
        spans.append((at, at + size))
        at += size
    return spans


def _spans(
    gold: Sequence[ToolCall], trace: Sequence[ToolCall]
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The batches of both sides as ``(start, end)`` spans (see the module docstring)."""
    numbers_e, numbers_a = batches(gold), batches(trace)
    sizes_e = _sizes(numbers_e) if numbers_e is not None else None
    sizes_a = _sizes(numbers_a) if numbers_a is not None else None
    if sizes_e is None:
        sizes_e = _cut(sizes_a, len(gold)) if sizes_a is not None else [1] * len(gold)
    if sizes_a is None:
        sizes_a = _cut(sizes_e, len(trace))
    return _starts(sizes_e), _starts(sizes_a)


def _strict(
    gold: Sequence[ToolCall], trace: Sequence[ToolCall], spec: MatchSpec, strict: bool
) -> TrajectoryMatch:
    spans_e, spans_a = _spans(gold, trace)
    pairs: list[tuple[int, int]] = []
    reason = ""
    for (e0, e1), (a0, a1) in zip(spans_e, spans_a):
        if e1 - e0 == 1 and a1 - a0 == 1:
            want, got = gold[e0], trace[a0]
            if want.tool != got.tool:
                reason = reason or (f"call #{e0 + 1}: expected {want.tool!r}, got {got.tool!r}")
                continue
            problem = spec.rule_for(want.tool).problem(want.args, got.args, strict=strict)
            if problem is not None:
                reason = reason or f"call #{e0 + 1} {want.tool}: {problem}"
                continue
            pairs.append((e0, a0))
            continue
        inside = pair_calls(gold[e0:e1], trace[a0:a1], spec, strict=strict)
        pairs.extend((e0 + e, a0 + a) for e, a in inside)
        if reason:
            continue
        if e1 - e0 != a1 - a0:
            reason = (
                f"actual calls #{a0 + 1}-#{a1} were made in one message: expected "
                f"{e1 - e0} call(s) there ({', '.join(c.tool for c in gold[e0:e1])}), got "
                f"{a1 - a0} ({', '.join(c.tool for c in trace[a0:a1])})"
                if a1 - a0 > 1
                else f"expected calls #{e0 + 1}-#{e1} were made in one message: expected "
                f"{e1 - e0} call(s) there, got {a1 - a0} ({trace[a0].tool})"
            )
        elif len(inside) < e1 - e0:
            free = sorted(set(range(e1 - e0)) - {e for e, _ in inside})[0]
            reason = (
                f"expected call #{e0 + free + 1} {_show(gold[e0 + free])} has no matching call "
                f"among actual calls #{a0 + 1}-#{a1} (one message, any order)"
            )
    if not reason and len(spans_e) != len(spans_a):
        if len(spans_e) > len(spans_a):
            n = spans_e[len(spans_a)][0]
            reason = f"expected call #{n + 1} {_show(gold[n])} never happened"
        else:
            n = spans_a[len(spans_e)][0]
            reason = f"actual call #{n + 1} {_show(trace[n])} is extra"
    paired_e = {e for e, _ in pairs}
    paired_a = {a for _, a in pairs}
    free_e = tuple(i for i in range(len(gold)) if i not in paired_e)
    free_a = tuple(j for j in range(len(trace)) if j not in paired_a)
    return TrajectoryMatch(not reason, reason, "strict", tuple(pairs), free_e, free_a)


def _in_order(
    gold: Sequence[ToolCall], trace: Sequence[ToolCall], spec: MatchSpec, strict: bool
) -> TrajectoryMatch:
    """Expected calls as an ordered subsequence of the actual batches.

    Each batch, in order, takes the longest run of the next expected calls it can pair in full
    (any order inside the batch). Taking the longest run is never worse: whatever a later
    batch could take of a shorter run's rest, it can take of the longer run's rest.
    """
    numbers = batches(trace)
    spans_a = _starts(_sizes(numbers) if numbers is not None else [1] * len(trace))
    pairs: list[tuple[int, int]] = []
    at = 0
    last = -1
    for a0, a1 in spans_a:
        if at == len(gold):
            break
        for size in range(min(len(gold) - at, a1 - a0), 0, -1):
            inside = pair_calls(gold[at : at + size], trace[a0:a1], spec, strict=strict)
            if len(inside) == size:
                pairs.extend((at + e, a0 + a) for e, a in inside)
                at += size
                last = a1 - 1
                break
    reason = ""
    if at < len(gold):
        want = gold[at]
        after = f" after actual call #{last + 1}" if last >= 0 else ""
        hint = "" if any(c.tool == want.tool for c in trace) else f" (no call to {want.tool!r})"
        reason = f"expected call #{at + 1} {_show(want)} has no matching actual call{after}{hint}"
    paired_a = {a for _, a in pairs}
    free_e = tuple(range(at, len(gold)))
    free_a = tuple(j for j in range(len(trace)) if j not in paired_a)
    return TrajectoryMatch(not reason, reason, "in_order", tuple(sorted(pairs)), free_e, free_a)
