"""A tool-surface diff (:mod:`toolscore_mcp.surface.diff`) as text, Markdown, JSON or SARIF.

In SARIF each change is a result whose ``partialFingerprints`` hold the change's stable
fingerprint (tool, kind of change, where), so GitHub code scanning keeps one alert per
change across runs and closes it once the lock file is updated. Breaking changes are
``error``, risky ones ``warning``, compatible ones ``note``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolscore_mcp.surface.diff import KIND_ORDER, SurfaceChange

__all__ = ["diff_to_json", "diff_to_markdown", "diff_to_sarif", "diff_to_text"]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT_KEY = "toolscoreSurfaceChange/v1"
_LEVELS = {"breaking": "error", "risky": "warning", "compatible": "note"}
_HELP = {
    "breaking": "A call that worked against the reviewed surface can fail now. Restore the "
    "old behaviour or release it as a breaking change, then run 'toolscore mcp lock'.",
    "risky": "What the model is told changed. Read the change (descriptions can carry "
    "injected instructions), then run 'toolscore mcp lock' to approve it.",
    "compatible": "A compatible change. Run 'toolscore mcp lock' to record it as reviewed.",
}


def _counts(changes: Sequence[SurfaceChange]) -> dict[str, int]:
    return {kind: sum(1 for c in changes if c.kind == kind) for kind in KIND_ORDER}


def diff_to_text(changes: Sequence[SurfaceChange]) -> str:
    if not changes:
        return "No changes: the tool surface matches the lock file.\n"
    counts = _counts(changes)
    lines = [", ".join(f"{n} {kind}" for kind, n in counts.items()) + " change(s)"]
    for c in changes:
        lines.append(f"{c.kind.upper():<10} {c.tool}: {c.message}")
        if c.detail:
            lines.append(f"           {c.detail}")
    return "\n".join(lines) + "\n"


def diff_to_markdown(changes: Sequence[SurfaceChange]) -> str:
    lines = ["# Tool surface changes", ""]
    if not changes:
        return "\n".join([*lines, "No changes: the tool surface matches the lock file.", ""])
    lines += ["| Kind | Tool | Change | Word diff |", "| --- | --- | --- | --- |"]
    for c in changes:
        detail = f"`{c.detail}`" if c.detail else ""
        cells = [c.kind, f"`{c.tool}`", c.message, detail]
        lines.append("| " + " | ".join(x.replace("|", "\\|") for x in cells) + " |")
    return "\n".join([*lines, ""])


def diff_to_json(changes: Sequence[SurfaceChange]) -> dict[str, Any]:
    return {
        "counts": _counts(changes),
        "changes": [
            {
                "tool": c.tool,
                "kind": c.kind,
                "code": c.code,
                "message": c.message,
                "path": c.path,
                "word_diff": c.detail,
                "fingerprint": c.fingerprint,
            }
            for c in changes
        ],
    }


def diff_to_sarif(
    changes: Sequence[SurfaceChange], *, artifact: str, version: str = ""
) -> dict[str, Any]:
    """A SARIF 2.1.0 log; ``artifact`` is the lock file the changes are measured against."""
    from toolscore.redaction import redact

    codes = sorted({(c.code, c.kind) for c in changes})
    rules = [
        {
            "id": f"surface/{code}",
            "shortDescription": {"text": code.replace("-", " ")},
            "help": {"text": _HELP[kind]},
            "defaultConfiguration": {"level": _LEVELS[kind]},
        }
        for code, kind in codes
    ]
    results = [
        {
            "ruleId": f"surface/{c.code}",
            "level": _LEVELS[c.kind],
            "message": {
                "text": redact(f"{c.tool}: {c.message}" + (f" ({c.detail})" if c.detail else ""))
            },
            "locations": [
                {
                    "physicalLocation": {"artifactLocation": {"uri": artifact}},
                    "logicalLocations": [
                        {"name": c.tool, "fullyQualifiedName": f"{c.tool}/{c.path}"}
                    ],
                }
            ],
            "partialFingerprints": {FINGERPRINT_KEY: c.fingerprint},
        }
        for c in changes
    ]
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "toolscore",
                        "version": version,
                        "informationUri": "https://pypi.org/project/toolscore-mcp/",
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    return log
