"""Wording shared by the console and Markdown reports for what a run could conclude.

A grade only means something when the run could actually verify the tools, so both
reports say how many tools were verified, mark the grade incomplete when fewer than half
were, say what holds the letter down, label each tool's status with its evidence, and explain each failed or inconclusive happy path with the
tries made and the repairs between them. Keeping the wording here keeps the two reports
saying the same thing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from toolscore_mcp.grading.scorecard import MCPScorecard, ToolCoverage
from toolscore_mcp.model import ScenarioResult

__all__ = [
    "ARGUMENTS_LIMIT",
    "evidence_text",
    "explained_results",
    "format_arguments",
    "grade_limits",
    "grade_text",
    "latency_text",
    "result_headline",
    "status_text",
    "tool_statuses",
    "try_lines",
]

#: Arguments longer than this (as compact JSON) are cut, so one huge value cannot flood a report.
ARGUMENTS_LIMIT = 160


def grade_text(card: MCPScorecard) -> str:
    """The grade letter, marked incomplete when fewer than half the tools were verified.

    Used wherever the grade is printed, so a reader never sees a bare letter for a run
    that mostly could not verify the tools (``C (incomplete: verified 3 of 14 tools)``).
    """
    if not card.incomplete:
        return card.grade
    return f"{card.grade} (incomplete: verified {card.verified_tools} of {len(card.tools)} tools)"


def grade_limits(card: MCPScorecard) -> list[str]:
    """Why the letter is below what the score alone gives: one line per cap that bites."""
    from toolscore_mcp.grading.scorecard import GRADE_ORDER, letter_grade

    by_score = GRADE_ORDER.index(letter_grade(card.score))
    return [
        f"at best {cap.letter}: {cap.reason}"
        for cap in card.grade_caps()
        if GRADE_ORDER.index(cap.letter) > by_score
    ]


def evidence_text(row: ToolCoverage) -> str:
    """``contrast: with a missing 'id' it answered: ...`` for a working tool, else ""."""
    if row.evidence is None:
        return ""
    return f"{row.evidence.kind}: {row.evidence.excerpt}"


def latency_text(card: MCPScorecard) -> str:
    """``p50 12.0 ms, p95 40.0 ms``, or ``n/a`` when no call got an answer.

    Percentiles of zero would read as "instant", so a run with no answered calls says so.
    """
    if not any(result.response is not None for result in card.results):
        return "n/a (no answered calls)"
    latency = card.latency_percentiles()
    return f"p50 {latency['p50_ms']:.1f} ms, p95 {latency['p95_ms']:.1f} ms"


def status_text(row: ToolCoverage) -> str:
    """One tool's status cell: ``works``, ``DEFECT``, ``needs network``, ``skipped: reason``.

    ``DEFECT`` is upper-case so it stands out in a table that is mostly ``works``.
    """
    if row.status == "defect":
        return "DEFECT"
    if row.status == "needs":
        if row.needs == "evidence":
            return "unverified"
        return f"needs {row.needs or 'valid input'}"
    if row.status == "skipped":
        return f"skipped: {row.needs}" if row.needs else "skipped"
    return row.status


def tool_statuses(card: MCPScorecard) -> dict[str, ToolCoverage]:
    """Coverage rows by tool name, for the Status column of the Tools tables.

    Tools that only appear in results (not advertised) have no row; callers show an empty
    cell for them.
    """
    return {row.tool: row for row in card.coverage()}


def explained_results(card: MCPScorecard) -> list[ScenarioResult]:
    """The happy-path results a reader needs explained: every ``fail`` and ``inconclusive``.

    These are the calls that decide whether a tool counts as a defect or as unproven, so
    the reports show why each ended as it did, in run order.
    """
    return [
        result
        for result in card.results
        if result.scenario.kind == "happy" and result.verdict in ("fail", "inconclusive")
    ]


def format_arguments(arguments: Mapping[str, Any], limit: int = ARGUMENTS_LIMIT) -> str:
    """Arguments as compact JSON on one line, redacted, cut at ``limit`` characters.

    Values that JSON cannot encode are shown with ``repr`` rather than failing the report.
    Redaction comes before the cut: a credential cut short would no longer be recognised.
    """
    from toolscore.redaction import redact

    text = json.dumps(dict(arguments), ensure_ascii=False, default=repr, separators=(", ", ": "))
    text = redact(text)
    text = " ".join(text.split("\n"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def result_headline(result: ScenarioResult) -> str:
    """``fail (defect, crash)`` / ``inconclusive (environment; needs network)``.

    The verdict, then why: the category (defect, rejected-input, environment), the finding
    when it says more than "failure", and what an unproven call lacked.
    """
    reasons: list[str] = []
    if result.category:
        reasons.append(result.category)
    if result.finding and result.finding not in ("failure", "inconclusive", result.category):
        reasons.append(result.finding)
    text: str = result.verdict
    if reasons:
        text += f" ({', '.join(reasons)}"
        text += f"; needs {result.needs})" if result.needs else ")"
    elif result.needs:
        text += f" (needs {result.needs})"
    return text


def try_lines(result: ScenarioResult) -> list[str]:
    """Each try of a scenario: what was sent, what the server said, what was repaired next.

    Earlier tries come from ``attempts``
    (``try 1: {...} -> rejected: Expected HH:MM; repaired: time -> '14:30'``); the last line
    is the call the verdict rests on, with its outcome.
    """
    lines: list[str] = []
    for number, attempt in enumerate(result.attempts, start=1):
        line = f"try {number}: {format_arguments(attempt.arguments)} -> rejected: {attempt.detail}"
        if attempt.repair:
            line += f"; repaired: {attempt.repair}"
        lines.append(line)
    final = len(result.attempts) + 1
    outcome = result.detail or "no detail"
    lines.append(
        f"try {final}: {format_arguments(result.scenario.arguments)} -> {result.verdict}: {outcome}"
    )
    return lines
