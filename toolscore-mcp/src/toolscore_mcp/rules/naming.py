"""Lint rule about tool names: snake_case names select predictably."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from toolscore import hookimpl
from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.lint import LintRuleSpec, ServerText
from toolscore_mcp.model import LintIssue, MCPToolDef

_SNAKE_CASE = lazy_pattern(r"^[a-z][a-z0-9_]*$")
FIX_NAMING = "Rename the tool to snake_case for predictable, consistent tool selection."


def _naming(tool: MCPToolDef, server: ServerText) -> Iterator[LintIssue]:
    if not _SNAKE_CASE.match(tool.name):
        yield LintIssue(
            tool.name, "warning", f"tool name {tool.name!r} is not snake_case", FIX_NAMING
        )


@hookimpl
def toolscore_mcp_register_lint_rules() -> Iterable[LintRuleSpec]:
    yield LintRuleSpec("naming", _naming, order=40, summary="tool name is not snake_case")
