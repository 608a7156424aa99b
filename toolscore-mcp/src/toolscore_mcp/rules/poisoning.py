"""Lint rule: tool poisoning, text meant for the model and hidden from the user.

Looks at tool names, descriptions, schema descriptions and the server instructions for
invisible Unicode (tag characters, bidi controls, other format characters) and for the
published directive patterns ("do not tell the user", "ignore previous instructions",
``<IMPORTANT>`` blocks). At most one issue per owner and kind.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator

from toolscore import hookimpl
from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.lint import LintRuleSpec, ServerText
from toolscore_mcp.model import LintIssue, Severity
from toolscore_mcp.rules.text import model_texts

FIX_HIDDEN = (
    "Remove the hidden characters. If they were not added on purpose, the text was copied "
    "from a source that injected them; treat the server as compromised until reviewed."
)
FIX_INVISIBLE = (
    "Remove zero-width and direction marks unless the text needs them (they are normal in "
    "Persian, Hebrew, Arabic and Indic scripts)."
)
FIX_DIRECTIVE = (
    "Describe what the tool does and what it needs. Instructions to the model that the user "
    "cannot see are the pattern of a tool-poisoning attack."
)

_TAG_LOW, _TAG_HIGH = 0xE0000, 0xE007F
_BIDI = frozenset([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
#: England / Scotland / Wales flags: black flag + tag letters + cancel tag; visible, legitimate.
_SUBDIVISION_FLAG = lazy_pattern("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")

_USER = r"(?:the\s+)?user"
_HIDE_FROM_USER = lazy_pattern(
    "|".join(
        (
            rf"\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|notify|alert|warn)\s+{_USER}",
            r"\b(?:do\s+not|don'?t|never)\s+(?:tell|mention|reveal|disclose|show)\s+"
            r"(?:this|that|it|anything|any\s+of\s+this)\b[^.\n]{0,80}\buser",
            rf"\bwithout\s+(?:telling|informing|notifying|alerting)\s+{_USER}",
            rf"\b(?:hide|conceal)\s+(?:this|that|it)\s+from\s+{_USER}",
            r"\buser\s+(?:should|must)\s+(?:not|never)\s+(?:know|see|notice|be\s+told)\b",
        )
    ),
    re.IGNORECASE,
)
_IGNORE_INSTRUCTIONS = lazy_pattern(
    r"\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:the\s+)?"
    r"(?:previous|prior|above|earlier|other)\s+(?:instructions|rules|prompts?)\b",
    re.IGNORECASE,
)
_INSTRUCTION_BLOCK = lazy_pattern(r"<\s*/?\s*(?:important|system|instructions?)\s*>", re.IGNORECASE)

#: (rule id, pattern, severity, message)
_DIRECTIVES: tuple[tuple[str, re.Pattern[str], Severity, str], ...] = (
    (
        "hide-from-user",
        _HIDE_FROM_USER,
        "error",
        "tells the model to hide something from the user: a tool-poisoning instruction pattern",
    ),
    (
        "ignore-instructions",
        _IGNORE_INSTRUCTIONS,
        "error",
        "tells the model to ignore its other instructions: a tool-poisoning instruction pattern",
    ),
    (
        "instruction-block",
        _INSTRUCTION_BLOCK,
        "warning",
        "contains an <IMPORTANT>-style instruction block, a pattern used to hide instructions",
    ),
)


def _classify(text: str) -> tuple[int, bool, list[str]]:
    """(tag character count, any bidi control, sorted code points of other Cf characters)."""
    tags = 0
    bidi = False
    invisible: set[str] = set()
    for char in _SUBDIVISION_FLAG.sub("", text):
        code = ord(char)
        if _TAG_LOW <= code <= _TAG_HIGH:
            tags += 1
        elif code in _BIDI:
            bidi = True
        elif unicodedata.category(char) == "Cf":
            invisible.add(f"U+{code:04X}")
    return tags, bidi, sorted(invisible)


def _poisoning(server: ServerText) -> Iterator[LintIssue]:
    seen: set[tuple[str, str]] = set()

    def once(owner: str, kind: str) -> bool:
        if (owner, kind) in seen:
            return False
        seen.add((owner, kind))
        return True

    pieces = [(tool.name, tool.name) for tool in server.tools]
    pieces.extend(model_texts(server))
    for owner, text in pieces:
        tags, bidi, invisible = _classify(text)
        if tags and once(owner, "tags"):
            yield LintIssue(
                owner,
                "error",
                f"contains {tags} hidden Unicode tag characters (invisible text the model reads)",
                FIX_HIDDEN,
                rule="hidden-unicode-tags",
            )
        if bidi and once(owner, "bidi"):
            yield LintIssue(
                owner,
                "error",
                "contains bidirectional control characters (text displays differently than it is stored)",
                FIX_HIDDEN,
                rule="bidi-controls",
            )
        if invisible and once(owner, "invisible"):
            yield LintIssue(
                owner,
                "warning",
                f"contains invisible format characters ({', '.join(invisible)})",
                FIX_INVISIBLE,
                rule="invisible-characters",
            )
        for rule_id, pattern, severity, message in _DIRECTIVES:
            if pattern.search(text) and once(owner, rule_id):
                yield LintIssue(owner, severity, message, FIX_DIRECTIVE, rule=rule_id)


@hookimpl
def toolscore_mcp_register_lint_rules() -> Iterable[LintRuleSpec]:
    yield LintRuleSpec(
        "tool-poisoning",
        _poisoning,
        scope="server",
        order=200,
        summary="hidden Unicode and concealment or override directives",
    )
