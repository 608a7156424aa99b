"""The tool-surface sections every report carries: protocol revision, conformance, how bad
input was answered, provider compatibility, token budget, and changes from the lock file.

One module renders them for the console, Markdown and JSON, so the three never disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolscore_mcp.checks.provider_compat import PROVIDERS, incompatible_count
from toolscore_mcp.checks.results import edge_outcome, edge_outcome_counts
from toolscore_mcp.grading.scorecard import MCPScorecard
from toolscore_mcp.model import FixSuggestion

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "FIX_COMPATIBILITY",
    "compatibility_fixes",
    "edge_text",
    "print_surface",
    "report_fixes",
    "surface_markdown",
    "surface_to_json",
]

FIX_COMPATIBILITY = (
    "Rename the tool or simplify its input schema to the provider's rules (see Provider "
    "compatibility): a client that hands this server's tools to that provider's model fails."
)

_STATUS = {"pass": "pass", "fail": "FAIL", "not-applicable": "n/a", "not-run": "not run"}
_TOP_TOOLS = 5


def _edge_line(card: MCPScorecard) -> str:
    counts = edge_outcome_counts(card.results)
    return (
        f"{counts['is-error']} isError results, {counts['protocol-error']} protocol errors, "
        f"{counts['accepted']} silently accepted, {counts['crash']} crashes"
    )


def edge_text(card: MCPScorecard) -> str:
    """``edge 100%``, saying how many bad inputs were accepted silently when any were.

    A server that answers bad input without ``isError`` keeps its edge score (the call did
    not crash), but the rate alone would read as full resilience.
    """
    text = f"edge {card.edge_resilience_rate:.0%}"
    counts = edge_outcome_counts(card.results)
    accepted, total = counts["accepted"], sum(counts.values())
    if accepted:
        text += f" ({accepted} of {total} bad inputs accepted silently)"
    return text


def compatibility_fixes(card: MCPScorecard) -> list[FixSuggestion]:
    """One issue per provider whose function calling refuses every tool (last in the list):
    the server cannot be used with that provider at all. Partial refusals are listed in the
    provider compatibility section; as issues they would stand under nearly every server,
    since the providers' schema rules contradict each other."""
    rows = card.compatibility()
    fixes = []
    for provider, refused in incompatible_count(rows).items():
        if not refused or refused != len(rows):
            continue
        first = next(row for row in rows if not row.accepted(provider))
        if refused == len(rows):
            who = "every tool" if refused > 1 else first.tool
        else:
            who = first.tool if refused == 1 else f"{refused} of {len(rows)} tools"
        reason = first.problems[provider][0]
        if who != first.tool:
            reason = f"{first.tool}: {reason}"
        problem = f"refused by {provider} function calling ({reason})"
        fixes.append(FixSuggestion(who, problem, FIX_COMPATIBILITY, 3))
    return fixes


def report_fixes(card: MCPScorecard) -> list[FixSuggestion]:
    """The issues a report lists: the scorecard's ranked fixes, then provider refusals."""
    return [*card.fixes(), *compatibility_fixes(card)]


def _lock_line(card: MCPScorecard) -> str:
    changes = card.lock_changes or ()
    kinds = {
        kind: sum(1 for c in changes if c.kind == kind)
        for kind in ("breaking", "risky", "compatible")
    }
    return ", ".join(f"{n} {kind}" for kind, n in kinds.items())


def surface_to_json(card: MCPScorecard) -> dict[str, Any]:
    """The sections as JSON-ready data (keys added to ``--report json``)."""
    report = card.budget_report()
    rows = card.compatibility()
    data: dict[str, Any] = {
        "protocol_version": card.server.protocol_version,
        "conformance": [
            {
                "rule": o.rule,
                "status": o.status,
                "summary": o.summary,
                "note": o.note,
                "findings": [
                    {"tool": f.tool, "severity": f.severity, "message": f.message, "fix": f.fix}
                    for f in o.findings
                ],
            }
            for o in card.conformance
        ],
        "bad_input": {
            **edge_outcome_counts(card.results),
            "by_call": [
                {
                    "tool": r.scenario.tool,
                    "case": r.scenario.description,
                    "outcome": edge_outcome(r),
                }
                for r in card.results
                if r.scenario.kind == "edge"
            ],
        },
        "compatibility": {
            "providers": list(PROVIDERS),
            "refused": incompatible_count(rows),
            "tools": [
                {"tool": row.tool, **{p: list(problems) for p, problems in row.problems.items()}}
                for row in rows
            ],
        },
        "budget": {
            "total_tokens": report.total_tokens,
            "instructions_tokens": report.instructions_tokens,
            "tool_count": report.tool_count,
            "per_tool": dict(report.per_tool),
            "near_duplicates": [
                {"tools": [a, b], "similarity": ratio} for a, b, ratio in report.duplicates
            ],
            "limits": {
                "tokens": report.budget.tokens,
                "max_tools": report.budget.max_tools,
                "preset": report.budget.preset,
                "source": report.budget.source,
            },
            "breaches": report.breaches(),
        },
    }
    if card.lock_changes is not None:
        data["lock_changes"] = [c.to_dict() for c in card.lock_changes]
    return data


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def surface_markdown(card: MCPScorecard) -> list[str]:
    """Markdown lines of the sections (appended to the scorecard)."""
    report = card.budget_report()
    lines = ["", "## Protocol conformance", ""]
    lines.append(f"Negotiated protocol: `{card.server.protocol_version or 'unknown'}`")
    lines += ["", "| Check | Status | Findings |", "| --- | --- | --- |"]
    for o in card.conformance:
        found = "; ".join(f"`{_cell(f.tool)}`: {_cell(f.message)}" for f in o.findings)
        lines.append(f"| `{o.rule}` | {_STATUS[o.status]} | {found or _cell(o.note)} |")
    fixes = {o.rule: o.findings[0].fix for o in card.conformance if o.findings}
    lines.extend(f"- _Fix for `{rule}`:_ {_cell(fix)}" for rule, fix in fixes.items())
    lines += ["", f"Bad input answered with: {_edge_line(card)}."]
    lines += ["", "## Provider compatibility", ""]
    lines += ["| Tool | " + " | ".join(PROVIDERS) + " |", "| --- |" + " --- |" * len(PROVIDERS)]
    for row in card.compatibility():
        cells = [
            "ok" if row.accepted(p) else "refused: " + _cell(row.problems[p][0]) for p in PROVIDERS
        ]
        lines.append(f"| `{_cell(row.tool)}` | " + " | ".join(cells) + " |")
    lines += ["", "## Token budget", ""]
    lines.append(
        f"~{report.total_tokens} tokens in total ({report.tool_count} tools, instructions "
        f"~{report.instructions_tokens})."
    )
    top = ", ".join(f"`{_cell(n)}` ~{t}" for n, t in report.per_tool[:_TOP_TOOLS])
    if top:
        lines.append(f"Largest definitions: {top}.")
    for a, b, ratio in report.duplicates:
        lines.append(
            f"- Near-duplicate descriptions: `{_cell(a)}` and `{_cell(b)}` ({ratio:.0%} alike)"
        )
    lines.extend(f"- **Over budget:** {_cell(breach)}" for breach in report.breaches())
    if card.lock_changes is not None:
        lines += ["", "## Changes from the lock file", "", f"{_lock_line(card) or 'no changes'}."]
        for c in card.lock_changes:
            diff = f" — `{_cell(c.detail)}`" if c.detail else ""
            lines.append(f"- **{c.kind}** `{_cell(c.tool)}`: {_cell(c.message)}{diff}")
    return lines


def print_surface(card: MCPScorecard, console: Console) -> None:
    """The sections on the console: failures in full, passes as one line."""
    from rich.text import Text
    from toolscore.terminal_text import shown

    report = card.budget_report()
    version = card.server.protocol_version or "unknown"
    by_status: dict[str, list[str]] = {}
    for o in card.conformance:
        by_status.setdefault(o.status, []).append(o.rule)
    line = Text(f"Protocol {version}. Conformance: ", style="bold")
    line.append(
        ", ".join(f"{len(rules)} {_STATUS[s]}" for s, rules in by_status.items()) or "not checked",
        style="",
    )
    console.print(line)
    for o in card.conformance:
        if o.status == "fail":
            for f in o.findings:
                console.print(
                    Text(
                        f"  {o.rule}: {shown(f.tool, one_line=True)}: {shown(f.message)}",
                        style="red" if f.severity == "error" else "yellow",
                    )
                )
            console.print(Text(f"    fix: {o.findings[0].fix}", style="dim"))
        elif o.status != "pass":
            console.print(Text(f"  {o.rule}: {_STATUS[o.status]} ({o.note})", style="dim"))
    console.print(Text(f"Bad input answered with: {_edge_line(card)}.", style="dim"))
    rows = card.compatibility()
    refused = incompatible_count(rows)
    console.print(
        Text(
            "Provider compatibility: "
            + ", ".join(f"{p} accepts {len(rows) - n}/{len(rows)}" for p, n in refused.items()),
            style="dim",
        )
    )
    for row in rows:
        for provider in PROVIDERS:
            if not row.accepted(provider):
                console.print(
                    Text(
                        f"  {provider} refuses {shown(row.tool, one_line=True)}: "
                        f"{shown(row.problems[provider][0])}",
                        style="dim",
                    )
                )
    console.print(
        Text(
            f"Token budget: ~{report.total_tokens} tokens, {report.tool_count} tools.", style="dim"
        )
    )
    for a, b, ratio in report.duplicates:
        console.print(
            Text(f"  near-duplicate descriptions: {a} / {b} ({ratio:.0%})", style="yellow")
        )
    for breach in report.breaches():
        console.print(Text(f"Over budget: {breach}", style="red"))
    if card.lock_changes is not None:
        console.print(Text(f"Changes from the lock file: {_lock_line(card)}", style="bold"))
        for c in card.lock_changes:
            style = {"breaking": "red", "risky": "yellow"}.get(c.kind, "dim")
            console.print(
                Text(f"  {c.kind} {shown(c.tool, one_line=True)}: {shown(c.message)}", style=style)
            )
            if c.detail:
                console.print(Text(f"    {shown(c.detail)}", style="dim"))
