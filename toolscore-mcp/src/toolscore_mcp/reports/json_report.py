"""The scorecard as JSON (``--report json``): the reference keys plus what we add.

Added keys (readers of the reference layout can ignore them): ``server.protocol_version``,
``server.capabilities``, ``server.instructions``, ``server.transport``, per tool
``inconclusive``, per result ``verdict``/``finding``/``argument``, per lint issue ``rule``,
``inconclusive``, ``run`` (restarts, crashes, junk lines) and ``notes``.
"""

from __future__ import annotations

from typing import Any

from toolscore_mcp.scorecard import MCPScorecard

__all__ = ["scorecard_to_json"]


def scorecard_to_json(card: MCPScorecard) -> dict[str, Any]:
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
        "results": [
            {
                "tool": r.scenario.tool,
                "kind": r.scenario.kind,
                "description": r.scenario.description,
                "arguments": r.scenario.arguments,
                "ok": r.ok,
                "is_error": r.is_error,
                "duration": r.duration,
                "detail": r.detail,
                "verdict": r.verdict,
                "finding": r.finding,
                "argument": r.argument,
            }
            for r in card.results
        ],
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
        "run": {"restarts": card.restarts, "crashes": card.crashes, "junk_lines": card.junk_lines},
        "notes": list(card.notes),
    }
