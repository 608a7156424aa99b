"""Forbidden-call policies: calls an agent must never make (``policy_metrics``).

A rule names a tool and, optionally, argument values (plain values or matchers). A call
violates a rule when the tool is the same and every listed argument is present and matches
under :func:`toolscore.matching.values.values_match` (lenient). A rule without ``args`` forbids every
call to that tool. Violations are reported; they never change the score.

Rules as Python::

    [{"tool": "run_shell", "args": {"command": Contains("rm -rf")}, "reason": "destructive"},
     {"tool": "delete_repository"}]

and as JSON (``toolscore eval --forbidden rules.json``), where ``{"$regex": ...}`` searches
anywhere in the value (lists are joined with spaces), and ``$contains``, ``$one_of``, ``$any``,
``$approx`` and ``$type`` work as in gold files::

    [{"tool": "run_shell", "args": {"command": {"$regex": "rm -rf"}}, "reason": "destructive"}]
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolscore._markers import hookimpl
from toolscore.context import NOT_APPLICABLE
from toolscore.metrics.security import find_secrets, redact_secrets
from toolscore.specs import MetricSpec

if TYPE_CHECKING:
    from toolscore.context import EvaluationContext
    from toolscore.model import ToolCall

__all__ = [
    "call_matches_rule",
    "check_forbidden_calls",
    "find_secrets",
    "load_forbidden_rules",
    "redact_secrets",
    "rules_from_json",
    "validate_rules",
]


def validate_rules(rules: Any) -> None:
    """Reject rules that cannot be applied, with a message that names the rule and the problem.

    :raises TypeError: ``forbidden must be a list of rule dicts``.
    :raises ValueError: ``forbidden rule 2 needs a non-empty 'tool' string: {...}`` or
        ``forbidden rule 2 'args' must be a dict: {...}``.
    """
    if not isinstance(rules, list):
        raise TypeError("forbidden must be a list of rule dicts")
    for position, rule in enumerate(rules):
        if not isinstance(rule, dict) or not isinstance(rule.get("tool"), str) or not rule["tool"]:
            raise ValueError(f"forbidden rule {position} needs a non-empty 'tool' string: {rule!r}")
        if rule.get("args") is not None and not isinstance(rule["args"], dict):
            raise ValueError(f"forbidden rule {position} 'args' must be a dict: {rule!r}")


def rules_from_json(data: Any, *, registry: Any = None) -> list[dict[str, Any]]:
    """Rules from JSON data, with the ``$`` forms of argument values turned into matchers.

    ``{"$regex": pattern}`` finds the pattern anywhere (``re.search``; list values are joined
    with spaces); the other forms are those of :func:`toolscore.matching.matchers.matcher_from_json`.
    Any other value is compared as written.

    :raises TypeError: ``data`` is not a list.
    :raises ValueError: a malformed rule or operator (``$regex needs a pattern string, got 5``).
    """
    from toolscore.matching.matchers import matcher_from_json

    validate_rules(data)
    rules: list[dict[str, Any]] = []
    for rule in data:
        converted = dict(rule)
        if rule.get("args"):
            converted["args"] = {
                key: matcher_from_json(value, registry=registry, rule_file=True)
                for key, value in rule["args"].items()
            }
        rules.append(converted)
    return rules


def load_forbidden_rules(path: str | Path, *, registry: Any = None) -> list[dict[str, Any]]:
    """Read forbidden rules from a JSON file (see :func:`rules_from_json`).

    :raises toolscore.errors.InputError: a missing or invalid file, or a malformed rule; the
        one-line message names the file and the JSON path (``rules.json: $[1].args.cmd: ...``).
    """
    from toolscore.errors import InputError
    from toolscore.loading import read_json

    name = str(path)
    data = read_json(path, what="Forbidden rules file")
    if not isinstance(data, list):
        raise InputError(
            f"expected a JSON array of rule objects, got {type(data).__name__}",
            source=name,
            path="$",
        )
    from toolscore.matching.matchers import matcher_from_json

    rules: list[dict[str, Any]] = []
    for position, rule in enumerate(data):
        try:
            validate_rules([rule])
        except ValueError as exc:
            message = str(exc).replace("forbidden rule 0", f"forbidden rule {position}", 1)
            raise InputError(message, source=name, path=f"$[{position}]") from None
        converted = dict(rule)
        if rule.get("args"):
            converted["args"] = {}
            for key, value in rule["args"].items():
                try:
                    converted["args"][key] = matcher_from_json(
                        value, registry=registry, rule_file=True
                    )
                except (ValueError, TypeError, re.error) as exc:
                    where = f"$[{position}].args.{key}"
                    raise InputError(f"invalid matcher: {exc}", source=name, path=where) from None
        rules.append(converted)
    return rules


def call_matches_rule(
    call_tool: str, call_args: Mapping[str, Any] | None, rule: Mapping[str, Any]
) -> bool:
    """Whether one call (tool name and arguments) matches one rule."""
    if call_tool != rule["tool"]:
        return False
    from toolscore.matching.values import values_match

    got = call_args or {}
    for key, want in (rule.get("args") or {}).items():
        if key not in got or not values_match(want, got[key]):
            return False
    return True


def check_forbidden_calls(
    trace_calls: Sequence[ToolCall], rules: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """``violation_count``, ``rule_count`` and one violation per offending call.

    Each violation holds the call's ``index``, ``tool`` and ``args`` (``{}`` when none), the
    index of the first matching ``rule`` and its ``reason`` (or ``None``).
    """
    validate_rules(rules)
    by_tool: dict[str, list[int]] = {}
    for position, rule in enumerate(rules):
        by_tool.setdefault(rule["tool"], []).append(position)
    violations: list[dict[str, Any]] = []
    for index, call in enumerate(trace_calls):
        for position in by_tool.get(call.tool, ()):
            rule = rules[position]
            if call_matches_rule(call.tool, call.args, rule):
                violations.append(
                    {
                        "index": index,
                        "tool": call.tool,
                        "args": call.args or {},
                        "rule": position,
                        "reason": rule.get("reason"),
                    }
                )
                break
    return {"violation_count": len(violations), "rule_count": len(rules), "violations": violations}


class PolicyMetrics:
    """The metric object registered for ``policy_metrics``; absent when no rules were given."""

    def compute(self, context: EvaluationContext) -> Any:
        if context.forbidden is None:
            return NOT_APPLICABLE
        return check_forbidden_calls(context.actual, context.forbidden)


@hookimpl
def toolscore_register_metrics() -> Iterator[MetricSpec]:
    yield MetricSpec(
        name="policy_metrics",
        factory=PolicyMetrics,
        summary="calls that match a forbidden-call rule",
        order=100,
    )
