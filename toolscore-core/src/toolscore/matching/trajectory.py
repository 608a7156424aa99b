"""``match_trajectory``: a yes/no verdict on a whole trajectory, under a chosen mode.

Why: a score says "how close"; tests often need "is this acceptable", with the order,
extra calls and volatile arguments treated the way the task allows. Modes:

* ``strict`` — the same calls in the same order (position by position);
* ``unordered`` — the same multiset of calls, any order;
* ``subset`` — every actual call pairs with a distinct expected call (the agent may skip some);
* ``superset`` — every expected call pairs with a distinct actual call (extra calls are fine).

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

__all__ = ["MODES", "MatchMode", "MatchSpec", "TrajectoryMatch", "match_calls", "match_trajectory"]

MatchMode = Literal["strict", "unordered", "subset", "superset"]
MODES: Final = ("strict", "unordered", "subset", "superset")


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
        }


def match_trajectory(
    expected: Sequence[Any],
    actual: Any,
    *,
    mode: str = "strict",
    args: Any = "exact",
    args_overrides: Mapping[str, Any] | None = None,
    strict: bool = False,
) -> TrajectoryMatch:
    """Whether ``actual`` matches ``expected`` under ``mode`` and the argument policies.

    :param expected: call dicts (``{"tool", "args"}``; ``$`` matcher forms allowed) or
        :class:`~toolscore.model.ToolCall`; ``args`` absent means "do not check".
    :param actual: call dicts, ToolCalls, or any response an extractor recognises.
    :param mode: ``strict``, ``unordered``, ``subset`` or ``superset``.
    :param args: ``exact``, ``ignore``, ``subset``, ``superset``, a list of dotted key paths,
        a callable ``(actual_args, expected_args) -> bool``, or ``{"mode": ..., "ignore": [...]}``.
    :param args_overrides: tool name -> policy, for the tools that need another one.
    :param strict: compare values with exact types (as ``evaluate(strict=True)``).
    :raises ValueError: an unknown mode or policy.
    """
    from toolscore.matching._expected import expected_calls

    spec = MatchSpec.build(mode, args, args_overrides)
    gold = expected_calls(expected)
    trace = _actual_calls(actual)
    return match_calls(gold, trace, spec, strict=strict)


def _actual_calls(actual: Any) -> list[ToolCall]:
    if isinstance(actual, list) and all(isinstance(c, (dict, ToolCall)) for c in actual):
        from toolscore.model import calls_from_dicts

        return calls_from_dicts(actual)
    from toolscore.integrations import extract_calls

    return extract_calls(actual)


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


def _strict(
    gold: Sequence[ToolCall], trace: Sequence[ToolCall], spec: MatchSpec, strict: bool
) -> TrajectoryMatch:
    pairs: list[tuple[int, int]] = []
    reason = ""
    for i, (want, got) in enumerate(zip(gold, trace)):
        if want.tool != got.tool:
            reason = reason or (f"call #{i + 1}: expected {want.tool!r}, got {got.tool!r}")
            continue
        problem = spec.rule_for(want.tool).problem(want.args, got.args, strict=strict)
        if problem is not None:
            reason = reason or f"call #{i + 1} {want.tool}: {problem}"
            continue
        pairs.append((i, i))
    if not reason and len(gold) != len(trace):
        n = min(len(gold), len(trace))
        if len(gold) > len(trace):
            reason = f"expected call #{n + 1} {_show(gold[n])} never happened"
        else:
            reason = f"actual call #{n + 1} {_show(trace[n])} is extra"
    paired_e = {e for e, _ in pairs}
    free_e = tuple(i for i in range(len(gold)) if i not in paired_e)
    free_a = tuple(j for j in range(len(trace)) if j not in paired_e)
    return TrajectoryMatch(not reason, reason, "strict", tuple(pairs), free_e, free_a)
