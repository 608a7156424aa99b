"""The scorecard on a terminal (rich): header panel, Tools table, token line, top issues.

The header says how much of the server the run could conclude about (and marks the grade
provisional when that is little); the Tools table gives each tool's status. With
``verbose`` the failed and inconclusive happy paths are explained try by try.

Everything the server supplied (its name, tool names, descriptions, answers, notes) is
redacted and its control characters shown as escapes (:func:`toolscore.terminal_text.shown`):
a server must not be able to clear the screen, plant a link or print a forged verdict.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolscore.terminal_text import shown

from toolscore_mcp.grading.scorecard import MCPScorecard, ToolCoverage, ToolSummary
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
from toolscore_mcp.reports.surface import edge_text, report_fixes

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

__all__ = ["print_explained", "print_scorecard", "status_cell"]

MAX_FIXES_SHOWN = 8
GRADE_COLORS = {"A": "bright_green", "B": "green", "C": "yellow", "D": "orange3", "F": "red"}
PRIORITY_COLORS = {0: "red", 1: "red", 2: "yellow", 3: "cyan"}
STATUS_COLORS = {"works": "green", "defect": "bold red", "needs": "yellow", "skipped": "dim"}
VERDICT_COLORS = {"fail": "red", "inconclusive": "yellow"}


def scorecard_title(card: MCPScorecard, default: str = "unknown server") -> str:
    name = card.server.name or default
    return f"{name} {card.server.version}".strip()


def scenarios_cell(summary: ToolSummary) -> str:
    text = f"{summary.passed}/{summary.total}"
    if summary.inconclusive:
        text += f" (+{summary.inconclusive} inconclusive)"
    return text


def status_cell(row: ToolCoverage | None) -> Text:
    """The Tools table's Status cell, coloured by status; empty for a tool not advertised."""
    from rich.text import Text

    if row is None:
        return Text("")
    return Text(status_text(row), style=STATUS_COLORS.get(row.status, "white"))


def _status_cell(row: ToolCoverage | None) -> Text:
    """:func:`status_cell` with the status text made terminal-safe (it can quote the server)."""
    cell = status_cell(row)
    cell.plain = shown(cell.plain, one_line=True)
    return cell


def print_scorecard(
    card: MCPScorecard, console: Console | None = None, *, verbose: bool = False
) -> None:
    """Print the scorecard; at most eight fixes, then how many more there are.

    ``verbose`` adds, after the fixes, each failed or inconclusive happy path with its
    category and every try (arguments sent, the server's answer, the repair made next), so
    a reader can tell a broken tool from one we could not feed.
    """
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text
    from toolscore.terminal_width import make_console

    console = console or make_console()
    color = GRADE_COLORS.get(card.grade, "white")
    header = Text()
    header.append(f"MCP Scorecard: {shown(scorecard_title(card), one_line=True)}\n", style="bold")
    header.append("Grade ", style="dim")
    header.append(card.grade, style=f"bold {color}")
    if card.incomplete:
        header.append(grade_text(card).removeprefix(card.grade), style="bold yellow")
    header.append(f"   Score {card.score:.0%}\n", style="dim")
    header.append(f"{card.coverage_line()}\n", style="yellow" if card.incomplete else "dim")
    for limit in grade_limits(card):
        header.append(f"{shown(limit, one_line=True)}\n", style="yellow")
    header.append(
        f"happy {card.happy_pass_rate:.0%}  |  {edge_text(card)}  |  lint {card.lint_score:.0%}\n",
        style="dim",
    )
    header.append(f"latency {latency_text(card)}", style="dim")
    console.print(Panel(header, border_style=color, expand=False))

    table = Table(title="Tools", header_style="bold magenta", title_style="bold")
    table.add_column("Tool", style="cyan")
    table.add_column("Scenarios", justify="right")
    table.add_column("Avg latency", justify="right")
    table.add_column("Def. tokens", justify="right")
    table.add_column("Status")
    statuses = tool_statuses(card)
    for summary in card.tool_summaries():
        full = summary.total and summary.passed == summary.total
        status = "green" if full or not summary.total else "yellow" if summary.passed else "red"
        table.add_row(
            Text(shown(summary.name, one_line=True)),
            Text(scenarios_cell(summary), style=status),
            f"{summary.avg_latency_ms:.1f} ms",
            str(summary.tokens),
            _status_cell(statuses.get(summary.name)),
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
        console.print(Text(f"Note: {shown(note, one_line=True)}", style="yellow"))

    from toolscore_mcp.reports.surface import print_surface

    print_surface(card, console)
    _print_fixes(card, console)
    if verbose:
        print_evidence(card, console)
        print_explained(card, console)


def _print_fixes(card: MCPScorecard, console: Console) -> None:
    from rich.text import Text

    fixes = report_fixes(card)
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
        line.append(
            shown(fix.tool, one_line=True), style=PRIORITY_COLORS.get(fix.priority, "white")
        )
        line.append(f"  {shown(fix.problem, one_line=True)}")
        console.print(line)
        console.print(Text(f"     -> {shown(fix.fix, one_line=True)}", style="dim"))
    remaining = len(fixes) - MAX_FIXES_SHOWN
    if remaining > 0:
        console.print(Text(f"  ... and {remaining} more issue(s).", style="dim"))


def print_evidence(card: MCPScorecard, console: Console) -> None:
    """What shows each working tool works (its evidence kind and an excerpt)."""
    from rich.text import Text

    rows = [row for row in card.coverage() if row.status == "works"]
    if not rows:
        return
    console.print(Text("\nWhy each working tool counts as working", style="bold"))
    for row in rows:
        line = Text("  ")
        line.append(shown(row.tool, one_line=True), style="cyan")
        line.append("  " + shown(evidence_text(row) or "no evidence recorded", one_line=True))
        console.print(line)


def print_explained(card: MCPScorecard, console: Console) -> None:
    """Each failed or inconclusive happy path: verdict and category, then every try.

    Prints nothing when every happy path passed.
    """
    from rich.text import Text

    results = explained_results(card)
    if not results:
        return
    console.print(Text("\nHappy paths that failed or were inconclusive", style="bold"))
    for result in results:
        line = Text("  ")
        line.append(shown(result.scenario.tool, one_line=True), style="cyan")
        line.append("  ")
        headline = shown(result_headline(result), one_line=True)
        line.append(headline, style=VERDICT_COLORS.get(result.verdict, "white"))
        if result.scenario.description:
            line.append(f"  {shown(result.scenario.description, one_line=True)}", style="dim")
        console.print(line)
        for text in try_lines(result):
            console.print(Text(f"     {shown(text, one_line=True)}", style="dim"))
