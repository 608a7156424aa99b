"""The scorecard on a terminal (rich): header panel, Tools table, token line, top issues."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolscore_mcp.scorecard import MCPScorecard, ToolSummary

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["print_scorecard"]

MAX_FIXES_SHOWN = 8
GRADE_COLORS = {"A": "bright_green", "B": "green", "C": "yellow", "D": "orange3", "F": "red"}
PRIORITY_COLORS = {0: "red", 1: "red", 2: "yellow", 3: "cyan"}


def scorecard_title(card: MCPScorecard, default: str = "unknown server") -> str:
    name = card.server.name or default
    return f"{name} {card.server.version}".strip()


def scenarios_cell(summary: ToolSummary) -> str:
    text = f"{summary.passed}/{summary.total}"
    if summary.inconclusive:
        text += f" (+{summary.inconclusive} inconclusive)"
    return text


def print_scorecard(card: MCPScorecard, console: Console | None = None) -> None:
    """Print the scorecard; at most eight fixes, then how many more there are."""
    from rich.console import Console
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    console = console or Console()
    color = GRADE_COLORS.get(card.grade, "white")
    header = Text()
    header.append(f"MCP Scorecard: {scorecard_title(card)}\n", style="bold")
    header.append("Grade ", style="dim")
    header.append(card.grade, style=f"bold {color}")
    header.append(f"   Score {card.score:.0%}\n", style="dim")
    header.append(
        f"happy {card.happy_pass_rate:.0%}  |  edge {card.edge_resilience_rate:.0%}  |  "
        f"lint {card.lint_score:.0%}",
        style="dim",
    )
    console.print(Panel(header, border_style=color, expand=False))

    table = Table(title="Tools", header_style="bold magenta", title_style="bold")
    table.add_column("Tool", style="cyan")
    table.add_column("Scenarios", justify="right")
    table.add_column("Avg latency", justify="right")
    table.add_column("Def. tokens", justify="right")
    for summary in card.tool_summaries():
        full = summary.total and summary.passed == summary.total
        status = "green" if full or not summary.total else "yellow" if summary.passed else "red"
        table.add_row(
            Text(summary.name),
            Text(scenarios_cell(summary), style=status),
            f"{summary.avg_latency_ms:.1f} ms",
            str(summary.tokens),
        )
    console.print(table)
    console.print(
        Text(
            f"Tool definitions cost ~{card.total_tool_tokens} estimated tokens of context "
            f"across {len(card.tools)} tool(s).",
            style="dim",
        )
    )
    if card.instructions:
        console.print(
            Text(
                f"Server instructions add ~{card.instructions_tokens} tokens "
                f"(~{card.context_tokens} in total, sent with every request).",
                style="dim",
            )
        )
    for note in card.notes:
        console.print(Text(f"Note: {note}", style="yellow"))

    fixes = card.fixes()
    if not fixes:
        console.print(
            Text(
                "\nNo issues found - an LLM should be able to use this server cleanly.",
                style="green",
            )
        )
        return
    console.print(Text("\nTop issues to fix", style="bold"))
    for index, fix in enumerate(fixes[:MAX_FIXES_SHOWN], start=1):
        line = Text("  ")
        line.append(f"{index}.", style="bold")
        line.append(" ")
        line.append(fix.tool, style=PRIORITY_COLORS.get(fix.priority, "white"))
        line.append(f"  {fix.problem}")
        console.print(line)
        console.print(Text(f"     -> {fix.fix}", style="dim"))
    remaining = len(fixes) - MAX_FIXES_SHOWN
    if remaining > 0:
        console.print(Text(f"  ... and {remaining} more issue(s).", style="dim"))
