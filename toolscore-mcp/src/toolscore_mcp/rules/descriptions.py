"""Lint rules about tool descriptions and definition size: what the model reads to choose."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from toolscore import hookimpl

from toolscore_mcp.grading.tokens import tool_definition_tokens
from toolscore_mcp.lint import LintRuleSpec, ServerText
from toolscore_mcp.model import LintIssue, MCPToolDef

MIN_DESCRIPTION_LENGTH = 10
LARGE_DEFINITION_TOKENS = 200

FIX_DESCRIPTION = (
    "Describe what the tool does and when to use it - models choose tools by their description."
)
FIX_LARGE_DEFINITION = (
    "Trim the description and tighten the schema (or split the tool); large definitions "
    "consume context on every request."
)


def _missing(tool: MCPToolDef, server: ServerText) -> Iterator[LintIssue]:
    if not tool.description.strip():
        yield LintIssue(tool.name, "warning", "missing description", FIX_DESCRIPTION)


def _short(tool: MCPToolDef, server: ServerText) -> Iterator[LintIssue]:
    stripped = tool.description.strip()
    if stripped and len(stripped) < MIN_DESCRIPTION_LENGTH:
        yield LintIssue(
            tool.name,
            "warning",
            f"description is very short (< {MIN_DESCRIPTION_LENGTH} chars)",
            FIX_DESCRIPTION,
        )


def _large(tool: MCPToolDef, server: ServerText) -> Iterator[LintIssue]:
    tokens = tool_definition_tokens(tool)
    if tokens > LARGE_DEFINITION_TOKENS:
        yield LintIssue(
            tool.name,
            "warning",
            f"large tool definition (~{tokens} estimated tokens)",
            FIX_LARGE_DEFINITION,
        )


@hookimpl
def toolscore_mcp_register_lint_rules() -> Iterable[LintRuleSpec]:
    yield LintRuleSpec("no-description", _missing, order=10, summary="tool has no description")
    yield LintRuleSpec(
        "short-description", _short, order=20, summary="description under 10 characters"
    )
    yield LintRuleSpec(
        "large-definition", _large, order=30, summary="definition over 200 estimated tokens"
    )
