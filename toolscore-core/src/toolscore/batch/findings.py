"""What went wrong in one evaluation, as finding codes and per-tool counts.

The aggregate report needs, per case, a handful of counters rather than the whole result:
which expected calls failed (per tool) and which kinds of problem occurred. They are read from
what :class:`~toolscore.result.EvaluationResult` exposes: the alignment every metric used, the
trace calls' error flags, the policy violations and the security metric.

Codes: ``missing_call`` (an expected call has no partner), ``wrong_arguments`` (paired, but
some expected argument does not match), ``unexpected_call`` (an actual call has no partner),
``call_error`` (an actual call returned an error), ``forbidden_call`` (a forbidden-rule
violation), ``credential`` (a credential in arguments).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolscore.result import EvaluationResult

FINDING_CODES = (
    "missing_call",
    "wrong_arguments",
    "unexpected_call",
    "call_error",
    "forbidden_call",
    "credential",
)


def summarize(result: EvaluationResult) -> tuple[dict[str, int], dict[str, list[int]]]:
    """``(findings, tools)``: counts per finding code (zeros left out), and per expected tool
    ``[expected calls, failed calls]`` where failed is missing or with wrong arguments."""
    findings: dict[str, int] = {}
    tools: dict[str, list[int]] = {}
    alignment = result.alignment
    gold, trace = result.gold_calls, result.trace_calls
    for index, call in enumerate(gold):
        counts = tools.setdefault(call.tool, [0, 0])
        counts[0] += 1
        partner = alignment.actual_for(index) if alignment is not None else None
        code = None
        if partner is None:
            code = "missing_call"
        elif (
            call.args is not None
            and alignment is not None
            and alignment.correct_for(index) < len(call.args)
        ):
            code = "wrong_arguments"
        if code is not None:
            counts[1] += 1
            findings[code] = findings.get(code, 0) + 1
    unexpected = (
        len(alignment.unmatched_actual) if alignment is not None else max(0, len(trace) - len(gold))
    )
    errors = sum(1 for call in trace if call.is_error)
    violations = len(result.policy_violations)
    security = result.metrics.get("security_metrics") or {}
    credentials = int(security.get("secret_count", 0) or 0)
    for code, count in (
        ("unexpected_call", unexpected),
        ("call_error", errors),
        ("forbidden_call", violations),
        ("credential", credentials),
    ):
        if count:
            findings[code] = count
    return findings, tools
