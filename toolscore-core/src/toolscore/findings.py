"""Findings with stable codes: what went wrong, machine-readably.

Why: reports said "`book` called with unexpected arguments"; CI rules, dashboards and the
pytest plugin need a code that does not change with the wording. Every finding carries one
of the codes in :data:`CODES` (or one a plugin registered with :func:`register_code`), plus
the tool, the call indexes and the argument concerned.

Plugins add codes with :func:`register_code` (from their ``register`` hook or module import)
and report findings by returning, in their metric's value, a ``"findings"`` list of
``{"code", "message", "severity"?, "tool"?}`` mappings; :func:`findings_for` collects them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

import attrs

from toolscore.matching.matchers import Matcher
from toolscore.matching.values import values_match

if TYPE_CHECKING:
    from toolscore.result import EvaluationResult

__all__ = ["CODES", "Finding", "findings_for", "register_code"]

#: Built-in codes and what each means. Stable: renaming one is a breaking change.
CODES: Final[dict[str, str]] = {
    "wrong_tool": "another tool was called where this one was expected",
    "missing_call": "an expected call never happened",
    "extra_call": "a call that was not expected",
    "wrong_order": "the expected calls happened, in another order",
    "missing_arg": "an expected argument was not passed",
    "extra_arg": "an argument that was not expected",
    "wrong_value": "an argument has another value",
    "type_mismatch": "an argument has a value of another type",
    "malformed_args": "the arguments could not be read (invalid JSON)",
    "schema_violation": "the arguments break the tool's input schema",
    "forbidden_call": "a call matching a forbidden-call rule",
    "error_result": "the tool call failed",
    "credential_in_args": "a credential passed in an argument",
    "trajectory_mismatch": "the trajectory does not match under the chosen mode",
}
_PLUGIN_CODES: dict[str, str] = {}


def register_code(code: str, summary: str) -> None:
    """Add a finding code for a plugin's findings.

    :raises ValueError: the code is not lower_snake_case, or is taken with another summary.
    """
    if not code or not code.replace("_", "").isalnum() or code.lower() != code:
        raise ValueError(f"a finding code is lower_snake_case, got {code!r}")
    known = CODES.get(code) or _PLUGIN_CODES.get(code)
    if known is not None and known != summary:
        raise ValueError(f"finding code {code!r} is already registered ({known!r})")
    _PLUGIN_CODES[code] = summary


def known_codes() -> dict[str, str]:
    """Every code: built-in ones, then those plugins registered."""
    return {**CODES, **_PLUGIN_CODES}


@attrs.frozen
class Finding:
    """One problem, with a stable code."""

    code: str
    message: str
    severity: str = "error"
    tool: str | None = None
    expected_index: int | None = None
    actual_index: int | None = None
    argument: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (keys with no value left out)."""
        return {k: v for k, v in attrs.asdict(self).items() if v is not None}


def _argument_findings(
    tool: str, want: Mapping[str, Any], got: Mapping[str, Any], e: int, a: int, strict: bool
) -> list[Finding]:
    out: list[Finding] = []
    for key in sorted(set(want) | set(got), key=str):
        name = str(key)
        if key not in got:
            text = f"{tool}: argument {key!r} missing"
            out.append(Finding("missing_arg", text, "error", tool, e, a, name))
        elif key not in want:
            text = f"{tool}: unexpected argument {key!r}"
            out.append(Finding("extra_arg", text, "error", tool, e, a, name))
        elif not values_match(want[key], got[key], strict=strict):
            expected, actual = want[key], got[key]
            numbers = (int, float)
            same_kind = isinstance(expected, Matcher) or (
                type(expected) is type(actual)
                or (isinstance(expected, numbers) and isinstance(actual, numbers) and not strict)
            )
            code = "wrong_value" if same_kind else "type_mismatch"
            text = f"{tool}: {key!r} expected {expected!r}, got {actual!r}"
            out.append(Finding(code, text, "error", tool, e, a, name))
    return out


def findings_for(result: EvaluationResult, *, strict: bool = False) -> list[Finding]:
    """Every finding of an evaluation, call by call, then behaviour findings."""
    from toolscore.diff import diff_rows
    from toolscore.input_checks import argument_problem

    gold, trace = result.gold_calls, result.trace_calls
    out: list[Finding] = []
    reordered = [c.tool for c in gold] != [c.tool for c in trace] and Counter(
        c.tool for c in gold
    ) == Counter(c.tool for c in trace)
    if reordered:
        out.append(
            Finding(
                "wrong_order",
                "the expected tools were called in another order: "
                f"expected {[c.tool for c in gold]}, got {[c.tool for c in trace]}",
            )
        )
    gold_pos = {id(c): i for i, c in enumerate(gold)}
    trace_pos = {id(c): j for j, c in enumerate(trace)}
    for row in diff_rows(gold, trace, strict=strict):
        e = gold_pos.get(id(row.expected)) if row.expected is not None else None
        a = trace_pos.get(id(row.actual)) if row.actual is not None else None
        if row.status == "missing" and row.expected is not None and not reordered:
            tool = row.expected.tool
            out.append(
                Finding(
                    "missing_call", f"expected call to {tool!r} never happened", "error", tool, e
                )
            )
        elif row.status == "extra" and row.actual is not None and not reordered:
            tool = row.actual.tool
            out.append(
                Finding("extra_call", f"unexpected call to {tool!r}", "warning", tool, None, a)
            )
        elif row.status == "wrong_tool" and row.expected is not None and row.actual is not None:
            out.append(
                Finding(
                    "wrong_tool",
                    f"called {row.actual.tool!r} where {row.expected.tool!r} was expected",
                    "error",
                    row.actual.tool,
                    e,
                    a,
                )
            )
        elif row.status == "mismatch" and row.expected is not None and row.actual is not None:
            tool = row.expected.tool
            problem = argument_problem(row.actual)
            if problem is not None:
                out.append(Finding("malformed_args", f"{tool}: {problem}", "error", tool, e, a))
            elif row.expected.args is not None and e is not None and a is not None:
                out += _argument_findings(
                    tool, row.expected.args, row.actual.actual_args, e, a, strict
                )
    out += _behaviour(result)
    return out


def _behaviour(result: EvaluationResult) -> list[Finding]:
    metrics = result.metrics
    out: list[Finding] = []
    for j, call in enumerate(result.trace_calls):
        if call.is_error:
            text = f"{call.tool} failed" + (f": {call.error}" if call.error else "")
            out.append(Finding("error_result", text, "warning", call.tool, None, j))
    for v in (metrics.get("policy_metrics") or {}).get("violations", []):
        out.append(
            Finding(
                "forbidden_call",
                f"call {v['index'] + 1} {v['tool']} matches forbidden rule {v['rule'] + 1}",
                "error",
                v["tool"],
                None,
                v["index"],
            )
        )
    for s in (metrics.get("security_metrics") or {}).get("secrets", []):
        out.append(
            Finding(
                "credential_in_args",
                f"{s['tool']} passes a credential ({s['kind']}) in {s['path']!r}",
                "error",
                s["tool"],
                None,
                s["index"],
                s["path"],
            )
        )
    verdict = metrics.get("trajectory_match")
    if isinstance(verdict, Mapping) and not verdict.get("matched", True):
        out.append(Finding("trajectory_mismatch", str(verdict.get("reason", ""))))
    codes = known_codes()
    for name, value in metrics.items():
        if not isinstance(value, Mapping) or name == "trajectory_match":
            continue
        for item in value.get("findings", []) or []:
            if isinstance(item, Mapping) and item.get("code") in codes:
                out.append(
                    Finding(
                        str(item["code"]),
                        str(item.get("message", codes[item["code"]])),
                        str(item.get("severity", "error")),
                        item.get("tool"),
                        item.get("expected_index"),
                        item.get("actual_index"),
                        item.get("argument"),
                    )
                )
    return out
