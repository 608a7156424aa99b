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
    # expected index -> correct arguments of its pair (absent: unpaired)
    paired: dict[int, int] = (
        {e: c for (e, _a), c in zip(alignment.pairs, alignment.correct)} if alignment else {}
    )
    missing = wrong = 0
    for index, call in enumerate(gold):
        counts = tools.get(call.tool)
        if counts is None:
            counts = tools[call.tool] = [0, 0]
        counts[0] += 1
        correct = paired.get(index)
        if correct is None:
            missing += 1
            counts[1] += 1
        elif call.args is not None and correct < len(call.args):
            wrong += 1
            counts[1] += 1
    if missing:
        findings["missing_call"] = missing
    if wrong:
        findings["wrong_arguments"] = wrong
    unexpected = (
        len(trace) - len(paired) if alignment is not None else max(0, len(trace) - len(gold))
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
