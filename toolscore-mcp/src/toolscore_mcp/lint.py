"""Lint what an MCP server advertises: the rule registry and the runner.

Every rule, built-in or third-party, is registered through the
``toolscore_mcp_register_lint_rules`` hook (see :mod:`toolscore_mcp.hookspecs`). Per-tool rules
run tool by tool in ``order``; server-wide rules (dangling references, tool poisoning) run
after them. The result is the scorecard's issue list; its messages and fixes are stable text,
since reports and fix lists quote them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

import attrs

from toolscore_mcp.model import LintIssue, MCPToolDef
from toolscore_mcp.registry import BUILTIN_RULE_MODULES, ensure_mcp_hooks, gather_specs

__all__ = [
    "BUILTIN_RULE_MODULES",
    "LintIssue",
    "LintRuleSpec",
    "ServerText",
    "collect_lint_rules",
    "ensure_mcp_hooks",
    "lint_rules_by_plugin",
    "lint_tools",
]


@attrs.frozen
class ServerText:
    """Everything a server-wide rule may look at."""

    tools: tuple[MCPToolDef, ...]
    instructions: str | None = None


@attrs.frozen
class LintRuleSpec:
    """One lint rule.

    ``check(tool, server)`` for ``scope="tool"``, ``check(server)`` for ``scope="server"``;
    both yield :class:`LintIssue`. ``order`` places the rule among the others (built-ins use
    10..90 for tool rules, 100 and 200 for server rules).
    """

    name: str
    check: Callable[..., Iterable[LintIssue]]
    scope: Literal["tool", "server"] = "tool"
    order: int = 1000
    summary: str = ""


def collect_lint_rules(pm: Any = None) -> list[LintRuleSpec]:
    """Every registered rule, tool rules first, each group by ``order`` then name.

    A plugin whose hook raises or returns something other than a ``LintRuleSpec`` is skipped
    with a warning on stderr; a second rule with an existing name is skipped the same way.
    """
    rules, _, problems = _gather_rules(pm)
    for problem in problems:
        print(f"toolscore: {problem}", file=sys.stderr)
    return sorted(rules.values(), key=lambda r: (r.scope != "tool", r.order, r.name))


def lint_rules_by_plugin(pm: Any = None) -> dict[str, list[str]]:
    """``{plugin name: rule names}`` of the registered rules (for ``toolscore plugins list``).

    Built-in rules are listed under ``toolscore_mcp``, the plugin that ships them.
    """
    _, owners, _ = _gather_rules(pm)
    out: dict[str, list[str]] = {}
    for rule, plugin in owners.items():
        owner = "toolscore_mcp" if plugin in BUILTIN_RULE_MODULES else plugin
        out.setdefault(owner, []).append(rule)
    return out


def _gather_rules(pm: Any) -> tuple[dict[str, LintRuleSpec], dict[str, str], list[str]]:
    """Rules by name, their plugins by rule name, and what had to be skipped (one line each)."""
    if pm is None:
        from toolscore.plugins import get_plugin_manager

        pm = get_plugin_manager()
    ensure_mcp_hooks(pm)
    return gather_specs(pm, "toolscore_mcp_register_lint_rules", LintRuleSpec, "lint rule")


def lint_tools(
    tools: Sequence[MCPToolDef],
    instructions: str | None = None,
    *,
    rules: Sequence[LintRuleSpec] | None = None,
    pm: Any = None,
) -> list[LintIssue]:
    """Lint ``tools`` (and the server ``instructions``) with every registered rule.

    Issues come tool by tool, then the server-wide ones; each carries its rule's name.
    """
    active = list(rules) if rules is not None else collect_lint_rules(pm)
    server = ServerText(tuple(tools), instructions)
    issues: list[LintIssue] = []
    tool_rules = [r for r in active if r.scope == "tool"]
    for tool in tools:
        for rule in tool_rules:
            issues.extend(_tagged(rule, rule.check(tool, server)))
    for rule in active:
        if rule.scope == "server":
            issues.extend(_tagged(rule, rule.check(server)))
    return issues


def _tagged(rule: LintRuleSpec, issues: Iterable[LintIssue]) -> list[LintIssue]:
    return [issue if issue.rule else attrs.evolve(issue, rule=rule.name) for issue in issues]
