"""Argument policies: how the arguments of an expected call and an actual call are compared.

Used by :func:`toolscore.match_trajectory` and ``evaluate(..., match=...)`` to decide whether
two calls of the same tool are compatible. Values always go through
:func:`toolscore.matching.values.values_match`, so matchers (``Regex``, ``ANY``, the ``$`` JSON forms)
work inside every policy.

Policies (``args=`` and the values of ``args_overrides``):

* ``"exact"`` — the same keys, every value matching (what the default metrics count as "all
  correct").
* ``"ignore"`` — arguments are not compared.
* ``"subset"`` — every actual key is expected, with a matching value (the agent may omit some).
* ``"superset"`` — every expected key is present with a matching value (extra keys are fine).
* a list of dotted key paths (``["destination", "dates.start"]``) — exactly those are
  compared, present or absent: a path both calls lack agrees, a path only one of them has
  does not.
* a callable ``(actual_args, expected_args) -> bool`` — decides alone.
* a mapping ``{"mode": <one of the above>, "ignore": ["request_id", "meta.ts"]}`` — a policy
  plus volatile keys removed from both sides before comparing.

An expected call whose ``args`` is ``None`` ("do not check") is compatible with every actual
call of its tool, whatever the policy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Literal, TypeAlias

import attrs

from toolscore.matching.values import values_match

__all__ = [
    "ARGS_MODES",
    "ArgsMode",
    "ArgsPolicy",
    "ArgsRule",
    "get_path",
    "rule_from_policy",
]

ArgsMode = Literal["exact", "ignore", "subset", "superset"]
#: What ``args=`` and each ``args_overrides`` value may be.
ArgsPolicy: TypeAlias = (
    "ArgsMode | Sequence[str] | Callable[[Mapping[str, Any], Mapping[str, Any]], bool] "
    "| Mapping[str, Any] | ArgsRule"
)
ARGS_MODES: Final = ("exact", "ignore", "subset", "superset")

_MISSING: Final = object()
RuleKind = Literal["exact", "ignore", "subset", "superset", "paths", "callable"]


def get_path(args: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    """The value at a dotted ``path`` inside ``args``, or the private missing marker.

    Each step is a dict key; on a list, a step made of digits is an index.
    """
    node: Any = args
    for step in path:
        if isinstance(node, Mapping):
            if step not in node:
                return _MISSING
            node = node[step]
        elif isinstance(node, (list, tuple)) and step.isdigit() and int(step) < len(node):
            node = node[int(step)]
        else:
            return _MISSING
    return node


def is_missing(value: Any) -> bool:
    """Whether ``value`` is :func:`get_path`'s "no such path" marker."""
    return value is _MISSING


def _drop_path(args: dict[str, Any], path: tuple[str, ...]) -> None:
    """Remove ``path`` from ``args`` (a fresh copy along the way), if present."""
    if len(path) == 1:
        args.pop(path[0], None)
        return
    head = args.get(path[0])
    if isinstance(head, Mapping):
        inner = dict(head)
        _drop_path(inner, path[1:])
        args[path[0]] = inner


def _split(paths: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    out = []
    for path in paths:
        if not isinstance(path, str) or not path:
            raise ValueError(f"a key path must be a non-empty string, got {path!r}")
        out.append(tuple(path.split(".")))
    return tuple(out)


@attrs.frozen
class ArgsRule:
    """One tool's argument policy, normalised; build it with :func:`rule_from_policy`."""

    kind: RuleKind = "exact"
    #: Compared paths (``kind == "paths"``).
    paths: tuple[tuple[str, ...], ...] = ()
    #: Paths removed from both sides before comparing (volatile values).
    ignore: tuple[tuple[str, ...], ...] = ()
    #: The user's comparison (``kind == "callable"``).
    func: Callable[[Mapping[str, Any], Mapping[str, Any]], bool] | None = attrs.field(
        default=None, eq=False
    )

    def clean(self, args: Mapping[str, Any]) -> Mapping[str, Any]:
        """``args`` without the ignored paths (the same object when nothing is ignored)."""
        if not self.ignore:
            return args
        out = dict(args)
        for path in self.ignore:
            _drop_path(out, path)
        return out

    def problem(
        self,
        expected: Mapping[str, Any] | None,
        actual: Mapping[str, Any] | None,
        *,
        strict: bool = False,
    ) -> str | None:
        """Why ``actual`` does not satisfy ``expected`` under this rule, or ``None`` if it does."""
        if expected is None or self.kind == "ignore":
            return None
        want = self.clean(expected)
        got = self.clean(actual if actual is not None else {})
        if self.kind == "callable":
            assert self.func is not None
            return None if self.func(got, want) else "the custom comparison rejected the arguments"
        if self.kind == "paths":
            for path in self.paths:
                value = get_path(want, path)
                seen = get_path(got, path)
                dotted = ".".join(path)
                if value is _MISSING:
                    if seen is _MISSING:
                        continue
                    return f"unexpected argument {dotted!r}"
                if seen is _MISSING:
                    return f"missing argument {dotted!r}"
                if not values_match(value, seen, strict=strict):
                    return f"argument {dotted!r}: expected {value!r}, got {seen!r}"
            return None
        if self.kind in ("exact", "superset"):
            for key, value in want.items():
                if key not in got:
                    return f"missing argument {key!r}"
                if not values_match(value, got[key], strict=strict):
                    return f"argument {key!r}: expected {value!r}, got {got[key]!r}"
            if self.kind == "exact":
                for key in got:
                    if key not in want:
                        return f"unexpected argument {key!r}"
            return None
        # subset: every actual key is expected, with a matching value
        for key, seen in got.items():
            if key not in want:
                return f"unexpected argument {key!r}"
            if not values_match(want[key], seen, strict=strict):
                return f"argument {key!r}: expected {want[key]!r}, got {seen!r}"
        return None

    def accepts(
        self,
        expected: Mapping[str, Any] | None,
        actual: Mapping[str, Any] | None,
        *,
        strict: bool = False,
    ) -> bool:
        """Whether ``actual`` satisfies ``expected`` under this rule."""
        return self.problem(expected, actual, strict=strict) is None


_IGNORE_ALL: Final = ArgsRule("ignore")


def rule_from_policy(policy: Any, *, where: str = "args") -> ArgsRule:
    """Normalise one policy (see the module docstring) into an :class:`ArgsRule`.

    :raises ValueError: an unknown mode or a malformed list of paths, naming ``where``.
    """
    if isinstance(policy, ArgsRule):
        return policy
    if isinstance(policy, str):
        if policy not in ARGS_MODES:
            raise ValueError(
                f"{where}: unknown argument policy {policy!r}; use one of "
                f"{', '.join(ARGS_MODES)}, a list of key paths or a callable"
            )
        return _IGNORE_ALL if policy == "ignore" else ArgsRule(policy)  # type: ignore[arg-type]
    if callable(policy):
        return ArgsRule("callable", func=policy)
    if isinstance(policy, Mapping):
        unknown = sorted(set(policy) - {"mode", "ignore"})
        if unknown:
            raise ValueError(f"{where}: unknown keys {', '.join(map(str, unknown))} (mode, ignore)")
        base = rule_from_policy(policy.get("mode", "exact"), where=where)
        ignore = policy.get("ignore", ())
        if isinstance(ignore, str) or not isinstance(ignore, Sequence):
            raise ValueError(f"{where}.ignore: expected a list of key paths, got {ignore!r}")
        return attrs.evolve(base, ignore=base.ignore + _split(ignore))
    if isinstance(policy, Sequence):
        return ArgsRule("paths", paths=_split(policy))
    raise ValueError(
        f"{where}: an argument policy is a mode name, a list of key paths, a mapping or a "
        f"callable, got {policy!r}"
    )
