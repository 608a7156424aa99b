"""Lint findings as SARIF 2.1.0, for GitHub code scanning.

Each rule that fired becomes a ``reportingDescriptor``; each issue a ``result`` whose logical
location is the tool (or ``<instructions>``). The artifact is the server: the config file
or tools file when there is one, else a ``mcp-server/<name>`` URI.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolscore_mcp.model import LintIssue

__all__ = ["lint_to_sarif"]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVELS = {"error": "error", "warning": "warning"}


def lint_to_sarif(
    issues: Sequence[LintIssue],
    *,
    server_name: str = "",
    artifact: str | None = None,
    version: str = "",
) -> dict[str, Any]:
    """A SARIF log with one run of the ``toolscore-mcp`` driver."""
    rule_ids: list[str] = []
    for issue in issues:
        rule_id = issue.rule or "mcp-lint"
        if rule_id not in rule_ids:
            rule_ids.append(rule_id)
    first_issue = {
        rule_id: next(i for i in issues if (i.rule or "mcp-lint") == rule_id)
        for rule_id in rule_ids
    }
    uri = artifact or f"mcp-server/{server_name or 'server'}"
    results = [
        {
            "ruleId": issue.rule or "mcp-lint",
            "ruleIndex": rule_ids.index(issue.rule or "mcp-lint"),
            "level": _LEVELS.get(issue.severity, "note"),
            "message": {
                "text": f"{issue.tool}: {issue.message}. Fix: {issue.fix}"
                if issue.fix
                else f"{issue.tool}: {issue.message}"
            },
            "locations": [
                {
                    "physicalLocation": {"artifactLocation": {"uri": uri}},
                    "logicalLocations": [
                        {
                            "name": issue.tool,
                            "fullyQualifiedName": f"{server_name or 'server'}/{issue.tool}",
                            "kind": "function",
                        }
                    ],
                }
            ],
            "partialFingerprints": {
                "toolscoreIssue/v1": f"{issue.rule}:{issue.tool}:{issue.message}"
            },
        }
        for issue in issues
    ]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "toolscore-mcp",
                        "version": version or "0",
                        "informationUri": "https://pypi.org/project/toolscore-mcp/",
                        "rules": [
                            {
                                "id": rule_id,
                                "name": rule_id,
                                "shortDescription": {"text": first_issue[rule_id].message},
                                "help": {
                                    "text": first_issue[rule_id].fix or first_issue[rule_id].message
                                },
                                "defaultConfiguration": {
                                    "level": _LEVELS.get(first_issue[rule_id].severity, "note")
                                },
                            }
                            for rule_id in rule_ids
                        ],
                    }
                },
                "results": results,
            }
        ],
    }
