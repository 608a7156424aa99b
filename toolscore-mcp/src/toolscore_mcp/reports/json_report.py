"""The scorecard as JSON (``--report json``): the base scorecard keys plus what we add.

Added keys (readers of the base layout can ignore them): ``server.protocol_version``,
``server.capabilities``, ``server.instructions``, ``server.transport``, per tool
``inconclusive``, per result ``verdict``/``finding``/``argument``/``category``/``needs``/
``evidence``/``setup`` (``[{tool, arguments}]``)/``attempts`` (``[{arguments, detail,
repair}]``), per lint issue ``rule``, ``inconclusive``, ``coverage`` (``line``,
``conclusive``, ``total``, ``provisional`` and per tool ``{tool, status, needs}``), ``latency``
(``p50_ms``, ``p95_ms`` over the ``answered`` calls), ``run`` (restarts, crashes, junk lines) and ``notes``.

``coverage`` is there so a reader of the file can tell a grade resting on most of the tools
from a provisional one resting on a few.
"""

from __future__ import annotations

from typing import Any

from toolscore_mcp.grading.scorecard import MCPScorecard
from toolscore_mcp.model import ScenarioResult

__all__ = ["coverage_to_json", "result_to_json", "scorecard_to_json"]


def coverage_to_json(card: MCPScorecard) -> dict[str, Any]:
    """What the run could conclude: the coverage line, the counts and each tool's status."""
    rows = card.coverage()
    return {
        "line": card.coverage_line(),
        "verified": card.verified_tools,
        "incomplete": card.incomplete,
        "grade_limits": [{"letter": c.letter, "reason": c.reason} for c in card.grade_caps()],
        "conclusive": card.conclusive_tools,
        "total": len(rows),
        "provisional": card.provisional,
        "tools": [
            {
                "tool": row.tool,
                "status": row.status,
                "needs": row.needs,
                "evidence": row.evidence.to_dict() if row.evidence is not None else None,
            }
            for row in rows
        ],
    }


def result_to_json(result: ScenarioResult) -> dict[str, Any]:
    """One scenario result: the base keys, then why it ended so and how it was built."""
    scenario = result.scenario
    return {
        "tool": scenario.tool,
        "kind": scenario.kind,
        "description": scenario.description,
        "arguments": scenario.arguments,
        "ok": result.ok,
        "is_error": result.is_error,
        "duration": result.duration,
        "detail": result.detail,
        "verdict": result.verdict,
        "finding": result.finding,
        "argument": result.argument,
        "category": result.category,
        "needs": result.needs,
        "evidence": dict(scenario.evidence),
        "verified_by": result.evidence.to_dict() if result.evidence is not None else None,
        "setup": [{"tool": call.tool, "arguments": call.arguments} for call in scenario.setup],
        "attempts": [
            {"arguments": attempt.arguments, "detail": attempt.detail, "repair": attempt.repair}
            for attempt in result.attempts
        ],
    }


def scorecard_to_json(card: MCPScorecard) -> dict[str, Any]:
    """The whole scorecard as a JSON-ready dict (``--report json``)."""
    from toolscore_mcp.reports.surface import surface_to_json

    server = card.server
    return {
        "server": {
            "name": server.name,
            "version": server.version,
            "protocol_version": server.protocol_version,
            "transport": server.transport,
            "capabilities": server.capabilities,
            "instructions": server.instructions,
        },
        "grade": card.grade,
        "score": card.score,
        "total_tool_tokens": card.total_tool_tokens,
        "instructions_tokens": card.instructions_tokens,
        "context_tokens": card.context_tokens,
        "scores": {
            "happy_pass_rate": card.happy_pass_rate,
            "edge_resilience_rate": card.edge_resilience_rate,
            "lint_score": card.lint_score,
        },
        "tools": [
            {
                "name": s.name,
                "passed": s.passed,
                "total": s.total,
                "inconclusive": s.inconclusive,
                "avg_latency_ms": s.avg_latency_ms,
                "tokens": s.tokens,
            }
            for s in card.tool_summaries()
        ],
        "results": [result_to_json(r) for r in card.results],
        "lint": [
            {
                "tool": i.tool,
                "severity": i.severity,
                "message": i.message,
                "fix": i.fix,
                "rule": i.rule,
            }
            for i in card.lint
        ],
        "fixes": [
            {"tool": f.tool, "problem": f.problem, "fix": f.fix, "priority": f.priority}
            for f in card.fixes()
        ],
        "inconclusive": card.inconclusive_count,
        "coverage": coverage_to_json(card),
        "latency": {
            **card.latency_percentiles(),
            "answered": sum(1 for r in card.results if r.response is not None),
        },
        "run": {"restarts": card.restarts, "crashes": card.crashes, "junk_lines": card.junk_lines},
        "notes": list(card.notes),
        **surface_to_json(card),
    }
