"""The scorecard as Markdown: ``--report md`` and the GitHub Actions job summary."""

from __future__ import annotations

from toolscore_mcp.reports.console import scenarios_cell, scorecard_title
from toolscore_mcp.scorecard import MCPScorecard

__all__ = ["scorecard_to_markdown"]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def scorecard_to_markdown(card: MCPScorecard) -> str:
    """Grade line, component scores, token cost, Tools table and every fix; ends with a newline."""
    lines = [
        f"# MCP Scorecard: {scorecard_title(card)}",
        "",
        f"**Grade: {card.grade}** &middot; Score {card.score:.0%}",
        "",
        f"- Happy-path pass rate: {card.happy_pass_rate:.0%}",
        f"- Edge-case resilience: {card.edge_resilience_rate:.0%}",
        f"- Lint score: {card.lint_score:.0%} ({card.lint_errors} errors, {card.lint_warnings} warnings)",
        f"- Tool-definition tokens (estimated): ~{card.total_tool_tokens} across {len(card.tools)} tool(s)",
    ]
    if card.instructions:
        lines.append(
            f"- Server instructions (estimated): ~{card.instructions_tokens} tokens "
            f"(~{card.context_tokens} in total, sent with every request)"
        )
    if card.inconclusive_count:
        lines.append(
            f"- Inconclusive scenarios (input the server rejected as invalid): {card.inconclusive_count}"
        )
    lines.extend(f"- Note: {_cell(note)}" for note in card.notes)
    lines += [
        "",
        "## Tools",
        "",
        "| Tool | Scenarios | Avg latency | Def. tokens |",
        "| --- | --- | --- | --- |",
    ]
    for summary in card.tool_summaries():
        lines.append(
            f"| `{_cell(summary.name)}` | {scenarios_cell(summary)} | "
            f"{summary.avg_latency_ms:.1f} ms | {summary.tokens} |"
        )
    lines += ["", "## Top issues to fix", ""]
    fixes = card.fixes()
    if fixes:
        lines.extend(
            f"- **`{_cell(fix.tool)}`** — {_cell(fix.problem)}. _Fix:_ {_cell(fix.fix)}"
            for fix in fixes
        )
    else:
        lines.append("- No issues found — an LLM should be able to use this server cleanly.")
    lines.append("")
    return "\n".join(lines)
