"""What went wrong in one evaluation, as finding codes and per-tool counts.

The aggregate report needs, per case, a handful of counters rather than the whole result:
which expected calls failed (per tool) and which kinds of problem occurred. They are read from
what :class:`~toolscore.result.EvaluationResult` exposes: the alignment every metric used, the
trace calls' error flags, the policy violations and the security metric.

Codes: ``missing_call`` (an expected call has no partner), ``wrong_arguments`` (paired, but
some expected argument does not match), ``unexpected_call`` (an actual call has no partner),
``call_error`` (an actual call returned an error), ``forbidden_call`` (a forbidden-rule
violation), ``credential`` (a credential in arguments), ``judge_error`` (the LLM judge gave
no verdict: no API key, an HTTP error).
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
    "judge_error",
)


def summarize(result: EvaluationResult) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """``(findings, tools)``: counts per finding code (zeros left out), and per expected tool
    ``{"expected": calls, "failed": calls}`` where failed is missing or with wrong arguments.

    Both are in the shape the result line stores, so they are serialized as they are. This
    runs once per case next to the evaluation, so it is written for speed: one pass over the
    expected calls for the counts, then only the pairs and the unpaired calls for failures.
    """
    findings: dict[str, int] = {}
    tools: dict[str, dict[str, int]] = {}
    alignment = result.alignment
    gold, trace = result.gold_calls, result.trace_calls
    for call in gold:
        counts = tools.get(call.tool)
        if counts is None:
            tools[call.tool] = {"expected": 1, "failed": 0}
        else:
            counts["expected"] += 1
    wrong = 0
    if alignment is not None:
        pairs = alignment.pairs
        missing = len(gold) - len(pairs)
        if missing:
            matched = {e for e, _a in pairs}
            for index, call in enumerate(gold):
                if index not in matched:
                    tools[call.tool]["failed"] += 1
        for (e, _a), correct in zip(pairs, alignment.correct):
            args = gold[e].args
            if args is not None and correct < len(args):
                wrong += 1
                tools[gold[e].tool]["failed"] += 1
        unexpected = len(trace) - len(pairs)
    else:  # nothing paired
        missing = len(gold)
        for counts in tools.values():
            counts["failed"] = counts["expected"]
        unexpected = max(0, len(trace) - len(gold))
    if missing:
        findings["missing_call"] = missing
    if wrong:
        findings["wrong_arguments"] = wrong
    if unexpected:
        findings["unexpected_call"] = unexpected
    errors = 0
    for call in trace:
        if call.is_error:
            errors += 1
    if errors:
        findings["call_error"] = errors
    metrics = result.metrics
    policy = metrics.get("policy_metrics")
    if policy:
        violations = len(policy.get("violations", ()))
        if violations:
            findings["forbidden_call"] = violations
    security = metrics.get("security_metrics")
    if security:
        credentials = int(security.get("secret_count", 0) or 0)
        if credentials:
            findings["credential"] = credentials
    semantic = metrics.get("semantic_metrics")
    if semantic and semantic.get("error"):
        findings["judge_error"] = 1
    return findings, tools
