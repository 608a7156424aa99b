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

__all__ = [
    "diff_to_json",
    "diff_to_markdown",
    "diff_to_sarif",
    "diff_to_text",
    "json_for_terminal",
]

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


def _text(value: str) -> str:
    """Server-provided text for the console: redacted, control and bidi characters shown."""
    from toolscore.terminal_text import shown

    return shown(value, one_line=True)


def _md(value: str) -> str:
    """Server-provided text for a Markdown table cell: redacted, control characters shown as
    escapes, HTML and table syntax escaped."""
    from html import escape

    return escape(_text(value)).replace("\\", "\\\\").replace("|", "\\|")


def _md_code(value: str) -> str:
    """Server-provided text as an inline code span in a table cell (backticks inside it
    lengthen the fence; a pipe is escaped, as tables need even inside code)."""
    text = _text(value)
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}".replace("|", "\\|")


#: Characters json.dumps(ensure_ascii=False) leaves raw that a terminal obeys or cannot encode
#: (C1 controls, bidi and invisible characters, lone surrogates); in JSON they only occur
#: inside strings, where the ``\uXXXX`` escape means the same character.
_JSON_ESCAPES = {
    code: f"\\u{code:04x}"
    for code in (
        *range(0x7F, 0xA0),
        0x061C,
        0x200B,
        0x200E,
        0x200F,
        *range(0x202A, 0x202F),
        *range(0x2066, 0x206A),
        0x2028,
        0x2029,
        0xFEFF,
        *range(0xD800, 0xE000),
    )
}


def json_for_terminal(document: Any) -> str:
    """``document`` as indented JSON that reads back the same and is safe to print: non-ASCII
    text stays readable, but controls, bidi characters and lone surrogates are escaped."""
    import json

    return json.dumps(document, indent=2, ensure_ascii=False).translate(_JSON_ESCAPES) + "\n"


def _counts(changes: Sequence[SurfaceChange]) -> dict[str, int]:
    return {kind: sum(1 for c in changes if c.kind == kind) for kind in KIND_ORDER}


def diff_to_text(changes: Sequence[SurfaceChange]) -> str:
    if not changes:
        return "No changes: the tool surface matches the lock file.\n"
    counts = _counts(changes)
    lines = [", ".join(f"{n} {kind}" for kind, n in counts.items()) + " change(s)"]
    for c in changes:
        lines.append(f"{c.kind.upper():<10} {_text(c.tool)}: {_text(c.message)}")
        if c.detail:
            lines.append(f"           {_text(c.detail)}")
    return "\n".join(lines) + "\n"


def diff_to_markdown(changes: Sequence[SurfaceChange]) -> str:
    lines = ["# Tool surface changes", ""]
    if not changes:
        return "\n".join([*lines, "No changes: the tool surface matches the lock file.", ""])
    lines += ["| Kind | Tool | Change | Word diff |", "| --- | --- | --- | --- |"]
    for c in changes:
        detail = _md_code(c.detail) if c.detail else ""
        cells = [c.kind, _md_code(c.tool), _md(c.message), detail]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join([*lines, ""])


def diff_to_json(changes: Sequence[SurfaceChange]) -> dict[str, Any]:
    return {
        "counts": _counts(changes),
        "changes": [c.to_dict() for c in changes],
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
