"""What went wrong, in words: the expected-vs-actual rows, the fix list, findings and tips.

Everything here is plain data and text; rendering (rich tables, Markdown, HTML) belongs to the
callers. The rows align the two tool-name sequences with difflib (autojunk off), so the failure
table and the "Top issues to fix" list line calls up the same way. Argument problems
are judged by :func:`toolscore.matching.values.values_match`, the same comparison the argument metric
uses, so a call that counts as argument-correct never shows a diff line.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import attrs

from toolscore.input_checks import argument_problem

if TYPE_CHECKING:
    from toolscore.model import ToolCall
    from toolscore.result import EvaluationResult

__all__ = [
    "DiffRow",
    "FixSuggestion",
    "arg_problems",
    "behavior_findings",
    "build_eval_fix_list",
    "diff_rows",
    "format_call",
    "metric_tips",
    "tips",
]

#: Longest rendering of one argument value before it is cut with ``…``.
MAX_VALUE_LENGTH = 40

RowStatus = Literal["match", "mismatch", "wrong_tool", "missing", "extra"]

_FIX_MISSING = "Ensure the agent has this tool available and is prompted to use it for this task."
_FIX_ARGS = (
    "Align the arguments with what's expected, or relax the spec with a matcher like "
    "ANY/Regex if the value may vary."
)
_FIX_EXTRA = "Remove the redundant call, or add it to the expected spec if it is intended."
_FIX_UNPARSED = (
    "The model wrote malformed arguments: look for a truncated response (max_tokens) or "
    "turn on the provider's strict/structured tool calling."
)


@attrs.frozen
class FixSuggestion:
    """One ranked, actionable item of a "Top issues to fix" list; lower priority = more urgent."""

    tool: str
    problem: str
    fix: str
    priority: int


@attrs.frozen
class DiffRow:
    """One row of the expected-vs-actual comparison.

    ``problems`` holds the argument problem lines of a ``mismatch`` row
    (``destination: 'NYC' ≠ 'BOS'``, ``missing: k``, ``unexpected: k``).
    """

    number: int
    expected: ToolCall | None
    actual: ToolCall | None
    status: RowStatus
    problems: tuple[str, ...] = ()


# -- rendering values ------------------------------------------------------------------------


def _truncate(text: str, limit: int = MAX_VALUE_LENGTH) -> str:
    # Redact before cutting: a credential cut short no longer matches its pattern and would
    # otherwise leak all but its last characters into failure messages and reports.
    from toolscore.redaction import redact

    text = redact(text)
    return text if len(text) <= limit else text[:limit] + "…"


def format_call(call: ToolCall) -> str:
    """``tool(k='v', ...)``; ``tool(…any args…)`` when arguments are not checked."""
    if call.args is None:
        return f"{call.tool}(…any args…)"
    inner = ", ".join(f"{key}={_truncate(repr(value))}" for key, value in call.args.items())
    return f"{call.tool}({inner})"


def arg_problems(
    expected: Mapping[str, Any], actual: Mapping[str, Any], *, strict: bool = False
) -> list[str]:
    """Argument problem lines: value mismatches, then missing, then unexpected keys, each sorted.

    A value counts as matching exactly when :func:`~toolscore.matching.values.values_match` says so.
    """
    from toolscore.matching.values import values_match

    common = sorted(set(expected) & set(actual), key=str)
    lines = [
        f"{key}: {_truncate(repr(expected[key]))} ≠ {_truncate(repr(actual[key]))}"
        for key in common
        if not values_match(expected[key], actual[key], strict=strict)
    ]
    lines.extend(f"missing: {key}" for key in sorted(set(expected) - set(actual), key=str))
    lines.extend(f"unexpected: {key}" for key in sorted(set(actual) - set(expected), key=str))
    return lines


def _call_problems(expected: ToolCall, actual: ToolCall, strict: bool) -> tuple[str, ...]:
    if expected.args is None:
        return ()
    return tuple(arg_problems(expected.args, actual.actual_args, strict=strict))


# -- alignment rows --------------------------------------------------------------------------


def _opcodes(
    gold: Sequence[ToolCall], trace: Sequence[ToolCall]
) -> list[tuple[str, int, int, int, int]]:
    matcher = difflib.SequenceMatcher(
        None, [c.tool for c in gold], [c.tool for c in trace], autojunk=False
    )
    return list(matcher.get_opcodes())


def diff_rows(
    gold: Sequence[ToolCall], trace: Sequence[ToolCall], *, strict: bool = False
) -> list[DiffRow]:
    """Align expected and actual calls by tool name and classify every row."""
    rows: list[DiffRow] = []

    def add(expected: ToolCall | None, actual: ToolCall | None) -> None:
        number = len(rows) + 1
        if expected is None:
            rows.append(DiffRow(number, None, actual, "extra"))
        elif actual is None:
            rows.append(DiffRow(number, expected, None, "missing"))
        elif expected.tool != actual.tool:
            rows.append(
                DiffRow(
                    number,
                    expected,
                    actual,
                    "wrong_tool",
                    (f"tool: {expected.tool!r} ≠ {actual.tool!r}",),
                )
            )
        else:
            problems = _call_problems(expected, actual, strict)
            rows.append(
                DiffRow(number, expected, actual, "mismatch" if problems else "match", problems)
            )

    for tag, i1, i2, j1, j2 in _opcodes(gold, trace):
        paired = min(i2 - i1, j2 - j1) if tag in ("equal", "replace") else 0
        for offset in range(paired):
            add(gold[i1 + offset], trace[j1 + offset])
        for gi in range(i1 + paired, i2):
            add(gold[gi], None)
        for tj in range(j1 + paired, j2):
            add(None, trace[tj])
    return rows


# -- fix list --------------------------------------------------------------------------------


def _ascii(text: str) -> str:
    return text.replace("≠", "!=").replace("…", "...")


def build_eval_fix_list(
    gold: Sequence[ToolCall], trace: Sequence[ToolCall], *, strict: bool = False
) -> list[FixSuggestion]:
    """The agent-side "Top issues to fix" list, most urgent first.

    Missing calls (0), a wrong tool at a position (1, named after the actual tool), argument
    mismatches on calls whose arguments are checked (2, in ASCII), extra calls (3).
    """
    suggestions: list[FixSuggestion] = []
    for row in diff_rows(gold, trace, strict=strict):
        if row.status == "missing" and row.expected is not None:
            tool = row.expected.tool
            suggestions.append(
                FixSuggestion(tool, f"expected call to `{tool}` never happened", _FIX_MISSING, 0)
            )
        elif row.status == "wrong_tool" and row.expected is not None and row.actual is not None:
            want, got = row.expected.tool, row.actual.tool
            suggestions.append(
                FixSuggestion(
                    got,
                    f"called `{got}` where `{want}` was expected",
                    f"Adjust the prompt or tool descriptions so the agent picks `{want}` here.",
                    1,
                )
            )
        elif row.status == "mismatch" and row.expected is not None:
            tool = row.expected.tool
            problem = argument_problem(row.actual) if row.actual is not None else None
            if problem is not None:
                suggestions.append(
                    FixSuggestion(
                        tool,
                        f"`{tool}` was sent arguments that could not be read ({problem})",
                        _FIX_UNPARSED,
                        2,
                    )
                )
                continue
            detail = _ascii("; ".join(row.problems))
            suggestions.append(
                FixSuggestion(
                    tool, f"`{tool}` called with unexpected arguments ({detail})", _FIX_ARGS, 2
                )
            )
        elif row.status == "extra" and row.actual is not None:
            tool = row.actual.tool
            suggestions.append(
                FixSuggestion(tool, f"unexpected extra call to `{tool}`", _FIX_EXTRA, 3)
            )
    suggestions.sort(key=lambda s: s.priority)
    return suggestions


# -- findings --------------------------------------------------------------------------------


def behavior_findings(result: EvaluationResult) -> list[tuple[str, str]]:
    """Behaviour and safety findings as ``(severity, message)``, errors first."""
    metrics = result.metrics
    findings: list[tuple[str, str]] = []
    for violation in (metrics.get("policy_metrics") or {}).get("violations", []):
        reason = f": {violation['reason']}" if violation.get("reason") else ""
        findings.append(
            (
                "error",
                f"call {violation['index'] + 1} {violation['tool']} matches forbidden rule "
                f"{violation['rule'] + 1}{reason}",
            )
        )
    for secret in (metrics.get("security_metrics") or {}).get("secrets", []):
        findings.append(
            (
                "error",
                f"call {secret['index'] + 1} {secret['tool']} passes a credential "
                f"({secret['kind']}) in '{secret['path']}': {secret['preview']}",
            )
        )
    efficiency = metrics.get("efficiency_metrics") or {}
    error_count = efficiency.get("error_count", 0)
    if error_count:
        failed = Counter(call.tool for call in result.trace_calls if call.is_error)
        listed = ", ".join(
            f"{tool} x{count}" if count > 1 else tool for tool, count in failed.most_common()
        )
        total = efficiency.get("total_calls", len(result.trace_calls))
        findings.append(("warning", f"{error_count} of {total} tool calls failed ({listed})"))
    retries = efficiency.get("retry_after_error_count", 0)
    if retries:
        noun = "call repeats" if retries == 1 else "calls repeat"
        findings.append(("warning", f"{retries} {noun} a failed call with the same arguments"))
    return findings


# -- tips ------------------------------------------------------------------------------------


def _ordered_unique(names: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(names))


def _similar(name: str, candidates: Sequence[str], threshold: float) -> str | None:
    """The candidate most like ``name`` (case-insensitive ratio >= threshold); ties keep order."""
    best: tuple[float, str] | None = None
    for candidate in candidates:
        ratio = difflib.SequenceMatcher(None, name.lower(), candidate.lower()).ratio()
        if ratio >= threshold and (best is None or ratio > best[0]):
            best = (ratio, candidate)
    return best[1] if best else None


def _selection_tips(gold_tools: list[str], trace_tools: list[str]) -> list[str]:
    positional = len(gold_tools) != len(trace_tools) or any(
        g != t for g, t in zip(gold_tools, trace_tools)
    )
    trace_set = set(trace_tools)
    gold_set = set(gold_tools)
    extra = [t for t in _ordered_unique(trace_tools) if t not in gold_set]
    out = []
    for missing in (g for g in _ordered_unique(gold_tools) if g not in trace_set):
        similar = _similar(missing, extra, 0.5)
        if similar is not None:
            out.append(
                f"'{missing}' might be equivalent to '{similar}' - use --llm-judge to verify"
            )
    if positional and not out:
        out.append("Use --llm-judge flag to catch semantic equivalence")
    return out


def metric_tips(result: EvaluationResult) -> list[str]:
    """Unique tips in the order selection, tool correctness, arguments, sequence, efficiency."""
    metrics = result.metrics
    gold_tools = [c.tool for c in result.gold_calls]
    trace_tools = [c.tool for c in result.trace_calls]
    out = _selection_tips(gold_tools, trace_tools)
    if set(gold_tools) - set(trace_tools):
        out.append("Check that your agent has access to all required tools")
        out.append("Verify tool names match exactly (case-sensitive)")
    arguments = metrics.get("argument_metrics") or {}
    if arguments:
        precision = arguments.get("precision", 0.0)
        recall = arguments.get("recall", 0.0)
        if precision < recall:
            out.append("Low precision: Agent is passing extra/wrong arguments")
        if recall < precision:
            out.append("Low recall: Agent is missing required arguments")
    sequence = metrics.get("sequence_metrics") or {}
    edit_distance = sequence.get("edit_distance", 0)
    if sequence and edit_distance > 0:
        if edit_distance > len(gold_tools) // 2:
            out.append("Sequence is significantly different - review agent's planning logic")
        else:
            out.append("Minor sequence differences - may be acceptable depending on task")
    if (metrics.get("efficiency_metrics") or {}).get("redundant_count", 0) > 0:
        out.append("Consider caching tool results or improving planning")
    return _ordered_unique(out)


#: The name the failure message uses.
tips = metric_tips
