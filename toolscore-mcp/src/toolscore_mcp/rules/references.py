"""Lint rule: text that sends the model to a tool this server does not expose.

A renamed or feature-flagged tool leaves descriptions pointing at nothing; the model follows
the advice and fails. Precision first: only phrasing that clearly names a tool counts, and a
name that exists anywhere in the server (tool, parameter, allowed value) is never reported.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator

from toolscore import hookimpl
from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.lint import LintRuleSpec, ServerText
from toolscore_mcp.model import LintIssue
from toolscore_mcp.rules.text import model_texts, schema_names

FIX_REFERENCE = "Point the text at a tool this server exposes, or remove the reference."

_NAME = r"[A-Za-z][\w.-]*"
_Q = "[`'\"]"
#: (a) a verb, optional "the", then a quoted name: "use the 'x'", "call `x`".
_VERB_QUOTED = lazy_pattern(
    rf"\b(?:use|call|invoke|run|try)\s+(?:the\s+)?{_Q}(?P<name>{_NAME}){_Q}", re.IGNORECASE
)
#: (b) a quoted name followed by the word tool: "the 'x' tool".
_QUOTED_TOOL = lazy_pattern(rf"{_Q}(?P<name>{_NAME}){_Q}\s+tool\b", re.IGNORECASE)
#: (c) an unquoted snake_case name between use/call/invoke and tool: "use the x_y tool".
_BARE_TOOL = lazy_pattern(
    r"\b(?:use|call|invoke)\s+(?:the\s+)?(?P<name>[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s+tool\b",
    re.IGNORECASE,
)
_PATTERNS = (_VERB_QUOTED, _QUOTED_TOOL, _BARE_TOOL)
_FOLLOWED_BY_TOOL = lazy_pattern(r"\s+tool\b", re.IGNORECASE)
_NOT_A_TOOL = lazy_pattern(
    r"\s+(?:mode|option|flag|format|value|parameter|argument|field|setting|style|type|level"
    r"|scope|permission|access|strategy|method)s?\b",
    re.IGNORECASE,
)
_LOOKS_LIKE_TOOL = lazy_pattern(r"[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+")
_WORD_SPLIT = lazy_pattern(r"[_.\-]+|(?<=[a-z])(?=[A-Z])")


def _words(name: str) -> set[str]:
    return {part.lower() for part in _WORD_SPLIT.split(name) if part}


def closest_tool(name: str, tool_names: Iterable[str]) -> str | None:
    """The exposed tool most likely meant: most shared words, then most similar spelling."""
    wanted = _words(name)
    best: tuple[float, float] | None = None
    choice: str | None = None
    for candidate in sorted(tool_names):
        theirs = _words(candidate)
        overlap = len(wanted & theirs) / max(len(wanted | theirs), 1)
        ratio = difflib.SequenceMatcher(None, name.lower(), candidate.lower()).ratio()
        if overlap == 0 and ratio < 0.75:
            continue
        if best is None or (overlap, ratio) > best:
            best, choice = (overlap, ratio), candidate
    return choice


def _dangling(server: ServerText) -> Iterator[LintIssue]:
    tool_names = {tool.name for tool in server.tools}
    known = set(tool_names)
    for tool in server.tools:
        known |= schema_names(tool.input_schema)
    reported: set[tuple[str, str]] = set()
    for owner, text in model_texts(server):
        for pattern in _PATTERNS:
            for match in pattern.finditer(text):
                name = match.group("name")
                if name in known or (owner, name) in reported:
                    continue
                says_tool = _FOLLOWED_BY_TOOL.match(text, match.end()) is not None
                if (
                    pattern is _VERB_QUOTED
                    and not says_tool
                    and not _LOOKS_LIKE_TOOL.fullmatch(name)
                ):
                    continue
                if not says_tool and _NOT_A_TOOL.match(text, match.end()):
                    continue
                reported.add((owner, name))
                suggestion = closest_tool(name, tool_names)
                prefix = f"Did you mean {suggestion!r}? " if suggestion else ""
                yield LintIssue(
                    owner,
                    "warning",
                    f"refers to tool {name!r}, which this server does not expose",
                    prefix + FIX_REFERENCE,
                )


@hookimpl
def toolscore_mcp_register_lint_rules() -> Iterable[LintRuleSpec]:
    yield LintRuleSpec(
        "dangling-reference",
        _dangling,
        scope="server",
        order=100,
        summary="text refers to a tool the server does not expose",
    )
