"""A starter scenario file from what a test run learned (``mcp test --save-scenarios``).

The argument sets that passed, with their setup calls, sandbox paths written back as
``{sandbox}`` placeholders, and a skip reason for tools no call could pass.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, Final

from toolscore_mcp.model import MCPToolDef, ScenarioResult, SetupCall
from toolscore_mcp.scenarios.file_model import one_line_excerpt

__all__ = ["starter_from_run"]

#: At most this many passing argument sets per tool go into a starter file.
_STARTER_MAX_CALLS: Final = 3


def _restore(value: Any, placeholders: Sequence[tuple[str, str]]) -> Any:
    """Put ``{sandbox}``-style placeholders back in place of the values they stood for."""
    if isinstance(value, str):
        for placeholder, actual in placeholders:
            value = value.replace(actual, placeholder)
        return value
    if isinstance(value, dict):
        return {k: _restore(v, placeholders) for k, v in value.items()}
    if isinstance(value, list):
        return [_restore(v, placeholders) for v in value]
    return copy.deepcopy(value)


def append_unique(items: list[Any], item: Any) -> None:
    if item not in items:
        items.append(item)


def _setup_entry(step: SetupCall, placeholders: Sequence[tuple[str, str]]) -> dict[str, Any]:
    return {"tool": step.tool, "arguments": _restore(step.arguments, placeholders)}


def _skip_reason(failures: Sequence[ScenarioResult]) -> str:
    """Why a tool had no passing call, from the first failure, for the author to edit."""
    if not failures:
        return "no happy-path call passed in this run"
    first = failures[0]
    detail = one_line_excerpt(first.detail) or "failed"
    if first.needs:
        return f"needs {first.needs}: {detail}"
    if first.category:
        return f"{first.category}: {detail}"
    return detail


def _starter_entry(
    results: Sequence[ScenarioResult], placeholders: Sequence[tuple[str, str]]
) -> dict[str, Any]:
    happy = [r for r in results if r.scenario.kind == "happy"]
    arguments: list[dict[str, Any]] = []
    setup: list[dict[str, Any]] = []
    for result in happy:
        if result.verdict != "pass" or len(arguments) >= _STARTER_MAX_CALLS:
            continue
        args = _restore(result.scenario.arguments, placeholders)
        if args in arguments:
            continue
        arguments.append(args)
        for step in result.scenario.setup:
            append_unique(setup, _setup_entry(step, placeholders))
    if not arguments:
        failures = [r for r in happy if r.verdict == "fail"] or happy
        return {"skip": _skip_reason(failures)}
    return {"setup": setup, "arguments": arguments} if setup else {"arguments": arguments}


def starter_from_run(
    tools: Sequence[MCPToolDef],
    results: Sequence[ScenarioResult],
    *,
    placeholders: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The scenario document a test run learned, for ``mcp test --save-scenarios FILE``.

    Per tool, in advertised order: up to three distinct passing happy-path argument sets
    and their setup calls; a tool with none gets a ``skip`` carrying the first failure
    (``needs network: ...``), so the author sees what to fix or pin. ``placeholders`` maps
    ``"{sandbox}"``-style names to the values the run substituted; those values are turned
    back into the placeholders, so the file works on the next run's sandbox.
    """
    pairs = sorted((placeholders or {}).items(), key=lambda item: -len(item[1]))
    restore = [(name, actual) for name, actual in pairs if actual]
    by_tool: dict[str, list[ScenarioResult]] = {}
    for result in results:
        by_tool.setdefault(result.scenario.tool, []).append(result)
    entries = {tool.name: _starter_entry(by_tool.get(tool.name, []), restore) for tool in tools}
    return {"version": 1, "tools": entries}
