"""Lint findings and failing scenarios as SARIF 2.1.0, for GitHub code scanning.

Each rule that fired becomes a ``reportingDescriptor``; each issue a ``result`` whose logical
location is the tool (or ``<instructions>``). The artifact is the config file or tools file
when there is one; without a file the server itself is a logical location (kind ``module``),
not a made-up file path.

:func:`lint_to_sarif` covers ``mcp lint`` (what the server advertises).
:func:`scorecard_to_sarif` covers ``mcp test``: the same lint results plus one result per
scenario that did not pass cleanly, so code scanning shows the tools that fail on valid
input (``error``), mishandle bad input or report errors as success (``warning``), and the
ones the run could not judge (``note``, with what they needed) - a clean SARIF log from a
run that could not call half the tools would otherwise read as "nothing wrong".

Every string in the log is redacted (:func:`toolscore.redaction.redact_strings`): code scanning
results are shown to everyone with read access, and messages quote the server's answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolscore_mcp.conformance import ConformanceFinding
from toolscore_mcp.grading.scorecard import (
    FIX_EDGE,
    FIX_ERROR_AS_SUCCESS,
    FIX_HAPPY,
    FIX_OUTPUT_SCHEMA,
    MCPScorecard,
)
from toolscore_mcp.model import LintIssue, ScenarioResult
from toolscore_mcp.reports.coverage import result_headline

__all__ = ["SCENARIO_RULES", "lint_to_sarif", "scenario_rule", "scorecard_to_sarif"]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVELS = {"error": "error", "warning": "warning"}

FIX_INCONCLUSIVE = (
    "Give the run what the tool needs (network, credentials, a binary, prior state) or a "
    "scenario file with known-good arguments, so its behaviour can be judged."
)
FIX_EXPECTATION = "Make the tool return what the scenario file expects, or correct the expectation."

#: ``ruleId`` -> (short description, help text) for the scenario findings.
SCENARIO_RULES: dict[str, tuple[str, str]] = {
    "scenario/defect": ("The tool fails a call through the server's own fault.", FIX_HAPPY),
    "scenario/crash": ("The server exited while handling a tool call.", FIX_EDGE),
    "scenario/timeout": ("A tool call got no answer before the timeout.", FIX_EDGE),
    "scenario/transport": ("The connection failed during a tool call.", FIX_EDGE),
    "scenario/error-as-success": (
        "A failure was returned as a successful result (isError is false).",
        FIX_ERROR_AS_SUCCESS,
    ),
    "scenario/output-schema": (
        "structuredContent does not validate against the declared outputSchema.",
        FIX_OUTPUT_SCHEMA,
    ),
    "scenario/expectation": (
        "The result does not meet the scenario file's expectation.",
        FIX_EXPECTATION,
    ),
    "scenario/inconclusive": (
        "The run could not tell whether the tool works (input rejected or environment missing).",
        FIX_INCONCLUSIVE,
    ),
}
_FINDING_RULES = frozenset(
    {"crash", "timeout", "transport", "error-as-success", "output-schema", "expectation"}
)
#: Findings reported even on a call whose verdict is ``pass``.
_PASSING_FINDINGS = frozenset({"error-as-success", "output-schema"})


def _location(uri: str | None, server_name: str, tool: str) -> dict[str, Any]:
    """Where a result is: the tool (a ``function``) inside the server.

    With a file (``--config`` or a tools file) the file is the physical location; without one
    the server is named as a logical location of kind ``module``, never as a made-up file.
    """
    server = server_name or "server"
    logical: list[dict[str, Any]] = [
        {"name": tool, "fullyQualifiedName": f"{server}/{tool}", "kind": "function"}
    ]
    if uri is None:
        logical.append({"name": server, "fullyQualifiedName": server, "kind": "module"})
        return {"logicalLocations": logical}
    return {"physicalLocation": {"artifactLocation": {"uri": uri}}, "logicalLocations": logical}


def _lint_rule_ids(issues: Sequence[LintIssue]) -> list[str]:
    return list(dict.fromkeys(issue.rule or "mcp-lint" for issue in issues))


def _lint_rules(issues: Sequence[LintIssue], rule_ids: Sequence[str]) -> list[dict[str, Any]]:
    """One descriptor per lint rule, described by the first issue it raised."""
    first_issue = {
        rule_id: next(i for i in issues if (i.rule or "mcp-lint") == rule_id)
        for rule_id in rule_ids
    }
    return [
        {
            "id": rule_id,
            "name": rule_id,
            "shortDescription": {"text": first_issue[rule_id].message},
            "help": {"text": first_issue[rule_id].fix or first_issue[rule_id].message},
            "defaultConfiguration": {"level": _LEVELS.get(first_issue[rule_id].severity, "note")},
        }
        for rule_id in rule_ids
    ]


def _lint_results(
    issues: Sequence[LintIssue], rule_ids: Sequence[str], uri: str | None, server_name: str
) -> list[dict[str, Any]]:
    return [
        {
            "ruleId": issue.rule or "mcp-lint",
            "ruleIndex": rule_ids.index(issue.rule or "mcp-lint"),
            "level": _LEVELS.get(issue.severity, "note"),
            "message": {
                "text": f"{issue.tool}: {issue.message}. Fix: {issue.fix}"
                if issue.fix
                else f"{issue.tool}: {issue.message}"
            },
            "locations": [_location(uri, server_name, issue.tool)],
            "partialFingerprints": {
                "toolscoreIssue/v1": f"{issue.rule}:{issue.tool}:{issue.message}"
            },
        }
        for issue in issues
    ]


def _log(
    rules: list[dict[str, Any]],
    results: list[dict[str, Any]],
    version: str,
    properties: dict[str, Any] | None = None,
) -> dict[str, Any]:
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "toolscore-mcp",
                "version": version or "0",
                "informationUri": "https://pypi.org/project/toolscore-mcp/",
                "rules": rules,
            }
        },
        "results": results,
    }
    if properties:
        run["properties"] = properties
    from toolscore.redaction import redact_strings

    log: dict[str, Any] = redact_strings(
        {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    )
    return log


def lint_to_sarif(
    issues: Sequence[LintIssue],
    *,
    server_name: str = "",
    artifact: str | None = None,
    version: str = "",
) -> dict[str, Any]:
    """A SARIF log with one run of the ``toolscore-mcp`` driver, lint issues only."""
    rule_ids = _lint_rule_ids(issues)
    uri = artifact or None
    return _log(
        _lint_rules(issues, rule_ids),
        _lint_results(issues, rule_ids, uri, server_name),
        version,
    )


def scenario_rule(result: ScenarioResult) -> str | None:
    """The ``ruleId`` a scenario result is reported under, or None when it is clean.

    Inconclusive calls share one rule; failures are named by what went wrong (crash,
    timeout, ...), falling back to ``scenario/defect``; a passing call is reported only when
    it still carries a finding (error reported as success, output breaking its schema).
    """
    if result.verdict == "inconclusive":
        return "scenario/inconclusive"
    if result.verdict == "pass" and result.finding not in _PASSING_FINDINGS:
        return None
    if result.finding in _FINDING_RULES:
        return f"scenario/{result.finding}"
    return "scenario/defect"


def _scenario_level(result: ScenarioResult) -> str:
    """``error`` for a failed happy path, ``warning`` for bad-input and error-as-success
    findings (and findings on passing calls), ``note`` for what could not be judged."""
    if result.verdict == "inconclusive":
        return "note"
    if result.finding == "error-as-success" or result.verdict == "pass":
        return "warning"
    return "error" if result.scenario.kind == "happy" else "warning"


def _scenario_message(result: ScenarioResult) -> str:
    tool = result.scenario.tool
    if result.verdict == "inconclusive":
        what = "could not be judged"
    elif result.finding == "error-as-success":
        what = "reports an error as a successful result"
    elif result.scenario.kind == "happy":
        what = "fails on valid input"
    else:
        what = "mishandles bad input"
    text = f"{tool}: {what} [{result_headline(result)}]"
    if result.scenario.description:
        text += f" in '{result.scenario.description}'"
    text += f": {result.detail or 'no detail'}"
    if result.attempts:
        text += f" (after {len(result.attempts) + 1} tries, repairing the arguments each time)"
    return text


def _scenario_result(
    result: ScenarioResult, rule_id: str, rule_index: int, uri: str | None, server_name: str
) -> dict[str, Any]:
    scenario = result.scenario
    properties = {
        "tool": scenario.tool,
        "kind": scenario.kind,
        "verdict": result.verdict,
        "finding": result.finding,
        "category": result.category,
        "needs": result.needs,
        "argument": result.argument,
        "attempts": len(result.attempts),
        "verified_by": result.evidence.to_dict() if result.evidence is not None else None,
    }
    return {
        "ruleId": rule_id,
        "ruleIndex": rule_index,
        "level": _scenario_level(result),
        "message": {"text": _scenario_message(result)},
        "locations": [_location(uri, server_name, scenario.tool)],
        "partialFingerprints": {
            "toolscoreScenario/v1": f"{rule_id}:{scenario.tool}:{scenario.kind}:"
            f"{scenario.description}"
        },
        "properties": {key: value for key, value in properties.items() if value is not None},
    }


def scorecard_to_sarif(
    card: MCPScorecard, artifact: str | None = None, *, version: str = ""
) -> dict[str, Any]:
    """SARIF for ``mcp test``: the lint issues, every scenario that did not pass cleanly, then
    the failed conformance checks' findings (``conformance/<check>``).

    Rules are listed lint first, then the scenario rules that fired, in first-seen order.
    The run's ``properties`` carry the grade and coverage, so a provisional grade is visible
    to whoever reads the log.
    """
    server_name = card.server.name
    uri = artifact or None
    lint_ids = _lint_rule_ids(card.lint)
    rules = _lint_rules(card.lint, lint_ids)
    results = _lint_results(card.lint, lint_ids, uri, server_name)
    indexes: dict[str, int] = {}
    for result in card.results:
        rule_id = scenario_rule(result)
        if rule_id is None:
            continue
        if rule_id not in indexes:
            indexes[rule_id] = len(rules)
            description, help_text = SCENARIO_RULES[rule_id]
            level = "note" if rule_id == "scenario/inconclusive" else "error"
            rules.append(
                {
                    "id": rule_id,
                    "name": rule_id,
                    "shortDescription": {"text": description},
                    "help": {"text": help_text},
                    "defaultConfiguration": {"level": level},
                }
            )
        results.append(_scenario_result(result, rule_id, indexes[rule_id], uri, server_name))
    for outcome in card.conformance:
        if outcome.status != "fail":
            continue
        rule_id = f"conformance/{outcome.rule}"
        if rule_id not in indexes:
            indexes[rule_id] = len(rules)
            rules.append(
                {
                    "id": rule_id,
                    "name": outcome.rule,
                    "shortDescription": {"text": outcome.summary or outcome.rule},
                    "defaultConfiguration": {"level": "warning"},
                }
            )
        for finding in outcome.findings:
            results.append(
                _conformance_result(finding, rule_id, indexes[rule_id], uri, server_name)
            )
    properties = {
        "grade": card.grade,
        "score": card.score,
        "provisional": card.provisional,
        "incomplete": card.incomplete,
        "verified": card.verified_tools,
        "coverage": card.coverage_line(),
    }
    if card.server.protocol_version:
        properties["protocolVersion"] = card.server.protocol_version
    return _log(rules, results, version, properties)


def _conformance_result(
    finding: ConformanceFinding, rule_id: str, rule_index: int, uri: str | None, server_name: str
) -> dict[str, Any]:
    """One conformance finding (not part of the score: a warning unless it is an error)."""
    text = finding.message if not finding.fix else f"{finding.message} Fix: {finding.fix}"
    return {
        "ruleId": rule_id,
        "ruleIndex": rule_index,
        "level": "error" if finding.severity == "error" else "warning",
        "message": {"text": text},
        "locations": [_location(uri, server_name, finding.tool)],
        "partialFingerprints": {
            "toolscoreConformance/v1": f"{rule_id}:{finding.tool}:{finding.message}"
        },
    }
