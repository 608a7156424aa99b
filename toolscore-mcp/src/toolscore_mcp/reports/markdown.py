"""The scorecard as Markdown: ``--report md`` and the GitHub Actions job summary.

Besides the base layout it says what the run could conclude: the coverage line under
the grade (which is marked provisional when few tools gave conclusive evidence), call latency,
each tool's status, and - always, since a job summary has no verbose switch - every failed or
inconclusive happy path with its category and each try. The text is redacted and control
characters from the server are shown as escapes: job summaries are read by everyone on the
repository, and the file may be printed on a terminal.
"""

from __future__ import annotations

from toolscore_mcp.grading.scorecard import MCPScorecard
from toolscore_mcp.reports.console import scenarios_cell, scorecard_title
from toolscore_mcp.reports.coverage import (
    evidence_text,
    explained_results,
    grade_limits,
    grade_text,
    latency_text,
    result_headline,
    status_text,
    tool_statuses,
    try_lines,
)
from toolscore_mcp.reports.surface import edge_text

__all__ = ["scorecard_to_markdown"]

EXPLAINED_HEADING = "## Happy paths that failed or were inconclusive"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _code(text: str) -> str:
    """``text`` as an inline code span that survives backticks inside it."""
    text = text.replace("\n", " ")
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _explained(card: MCPScorecard) -> list[str]:
    """The section on failed and inconclusive happy paths; no lines when there are none."""
    results = explained_results(card)
    if not results:
        return []
    lines = ["", EXPLAINED_HEADING, ""]
    for result in results:
        head = f"- **{_code(result.scenario.tool)}** — {result_headline(result)}"
        if result.scenario.description:
            head += f": {_cell(result.scenario.description)}"
        lines.append(head)
        lines.extend(f"  - {_code(text)}" for text in try_lines(result))
    return lines


def scorecard_to_markdown(card: MCPScorecard) -> str:
    """Grade line, coverage, component scores, token cost, Tools table, every fix, then the
    failed and inconclusive happy paths; ends with a newline."""
    lines = [
        f"# MCP Scorecard: {scorecard_title(card)}",
        "",
        f"**Grade: {grade_text(card)}** &middot; Score {card.score:.0%}",
        "",
        f"Coverage: {card.coverage_line()}",
        *(f"\n{_cell(limit.capitalize())}" for limit in grade_limits(card)),
        "",
        f"- Happy-path pass rate: {card.happy_pass_rate:.0%}",
        f"- Edge-case resilience: {edge_text(card).removeprefix('edge ')}",
        f"- Lint score: {card.lint_score:.0%} ({card.lint_errors} errors, {card.lint_warnings} warnings)",
        f"- Tool-definition tokens (estimated): ~{card.total_tool_tokens} across {len(card.tools)} tool(s)",
        f"- Call latency: {latency_text(card)}",
    ]
    if card.instructions:
        lines.append(
            f"- Server instructions (estimated): ~{card.instructions_tokens} tokens "
            f"(~{card.context_tokens} in total, sent with every request)"
        )
    if card.inconclusive_count:
        lines.append(
            f"- Inconclusive scenarios (input the server rejected, or something the run lacked): {card.inconclusive_count}"
        )
    lines.extend(f"- Note: {_cell(note)}" for note in card.notes)
    lines += [
        "",
        "## Tools",
        "",
        "| Tool | Scenarios | Avg latency | Def. tokens | Status | Evidence |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    statuses = tool_statuses(card)
    for summary in card.tool_summaries():
        row = statuses.get(summary.name)
        status = _cell(status_text(row)) if row is not None else ""
        proof = _cell(evidence_text(row)) if row is not None else ""
        lines.append(
            f"| `{_cell(summary.name)}` | {scenarios_cell(summary)} | "
            f"{summary.avg_latency_ms:.1f} ms | {summary.tokens} | {status} | {proof} |"
        )
    lines += ["", "## Top issues to fix", ""]
    from toolscore_mcp.reports.surface import report_fixes

    fixes = report_fixes(card)
    if fixes:
        lines.extend(
            f"- **`{_cell(fix.tool)}`** — {_cell(fix.problem)}. _Fix:_ {_cell(fix.fix)}"
            for fix in fixes
        )
    else:
        lines.append("- No issues found — an LLM should be able to use this server cleanly.")
    lines += _explained(card)
    from toolscore_mcp.reports.surface import surface_markdown

    lines += surface_markdown(card)
    lines.append("")
    from toolscore.redaction import redact
    from toolscore.terminal_text import visible

    return visible(redact("\n".join(lines)))
