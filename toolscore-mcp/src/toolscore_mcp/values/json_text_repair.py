"""Repair one field inside an argument that carries JSON as text.

Some tools take a whole structure as a string (``tasksRaw: "[{...}]"``) and validate it on
their side, answering with the validator's own account of what was wrong:

    [{"received": "file type (A: ..., B: ...)", "code": "invalid_enum_value",
      "options": ["A", "B"], "path": [0, "files", 0, "type"]}]

or, in words, ``Invalid enum value. Expected 'A' | 'B', received 'file type ...'``. The
value we sent came from an example in the description that holds prose where an option
belongs; the message names the value it received and the options it allows.
:func:`repair_json_text` puts the first allowed option in place of that one value, inside
the JSON text, and leaves the rest of the structure as it was.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from toolscore.lazy_pattern import lazy_pattern

__all__ = ["Issue", "issues_in", "repair_json_text"]

#: ``Expected 'a' | 'b', received 'x'`` (zod's words for an enum that was not met).
_EXPECTED_RECEIVED = lazy_pattern(
    r"expected\s+((?:['\"][^'\"\n]{1,80}['\"]\s*(?:\||,|or)\s*)+['\"][^'\"\n]{1,80}['\"])"
    r"\s*,?\s*(?:but\s+)?received\s+['\"]([^'\"\n]{1,400})['\"]",
    re.I,
)
_QUOTED_OPTION = lazy_pattern(r"['\"]([^'\"\n]{1,80})['\"]")
_MAX_SCAN = 50_000


def _decoded(text: str) -> list[Any]:
    """Every JSON array or object that starts somewhere in ``text`` (the validator's report
    is usually embedded in a sentence)."""
    decoder = json.JSONDecoder()
    found: list[Any] = []
    index = 0
    text = text[:_MAX_SCAN]
    while len(found) < 5:
        starts = [i for i in (text.find("[", index), text.find("{", index)) if i >= 0]
        if not starts:
            break
        start = min(starts)
        try:
            value, end = decoder.raw_decode(text, start)
        except ValueError:
            index = start + 1
            continue
        if isinstance(value, (list, dict)):
            found.append(value)
        index = end
    return found


class Issue(NamedTuple):
    """One field the validator refused: where, what it received, and what it allows."""

    path: list[Any] | None
    received: Any = None
    options: tuple[Any, ...] = ()
    #: Bounds on a string's length (``too_small`` / ``too_big``), when that was the problem.
    minimum: int | None = None
    maximum: int | None = None


def _issue(value: Mapping[str, Any]) -> Issue | None:
    path = value.get("path")
    where = path if isinstance(path, list) else None
    options = value.get("options")
    if "received" in value and isinstance(options, list) and options:
        return Issue(where, value["received"], tuple(options))
    if where and value.get("type") == "string":
        low, high = value.get("minimum"), value.get("maximum")
        if value.get("code") == "too_small" and isinstance(low, int):
            return Issue(where, minimum=low)
        if value.get("code") == "too_big" and isinstance(high, int):
            return Issue(where, maximum=high)
    return None


def _issues(value: Any, depth: int = 0) -> list[Issue]:
    if depth > 4:
        return []
    if isinstance(value, Mapping):
        found = _issue(value)
        return [found] if found else [i for v in value.values() for i in _issues(v, depth + 1)]
    if isinstance(value, list):
        return [i for v in value[:50] for i in _issues(v, depth + 1)]
    return []


def issues_in(text: str) -> list[Issue]:
    """Each field the message rejects: a validator's JSON report, or its words."""
    issues = [issue for report in _decoded(text) for issue in _issues(report)]
    if not issues:
        for match in _EXPECTED_RECEIVED.finditer(text[:_MAX_SCAN]):
            options = _QUOTED_OPTION.findall(match.group(1))
            if options:
                issues.append(Issue(None, match.group(2), tuple(options)))
    return issues


def _holds(container: Any, key: Any) -> bool:
    if isinstance(container, list):
        return isinstance(key, int) and 0 <= key < len(container)
    return isinstance(container, dict) and isinstance(key, str) and key in container


def _at(value: Any, path: list[Any]) -> tuple[Any, Any] | None:
    """The container and key at ``path`` in ``value``, or None when it leads nowhere."""
    if not path:
        return None
    current = value
    for step in path[:-1]:
        if not _holds(current, step):
            return None
        current = current[step]
    return (current, path[-1]) if _holds(current, path[-1]) else None


def _replace_leaves(value: Any, old: Any, new: Any, depth: int = 0) -> int:
    """Put ``new`` wherever ``value`` holds ``old`` (in place); how many were replaced."""
    if depth > 8:
        return 0
    count = 0
    items: list[tuple[Any, Any]] = []
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    for key, item in items:
        if item == old and type(item) is type(old):
            value[key] = new
            count += 1
        else:
            count += _replace_leaves(item, old, new, depth + 1)
    return count


def _resized(value: str, issue: Issue) -> str | None:
    """``value`` made as long as the bounds ask, or None when it already fits."""
    if issue.minimum is not None and len(value) < issue.minimum:
        padding = " ".join(["with more detail"] * (issue.minimum // 16 + 1))
        return f"{value} {padding}"[: max(issue.minimum, len(value) + 1) + 16]
    if issue.maximum is not None and len(value) > issue.maximum:
        return value[: issue.maximum]
    return None


def _fix(document: Any, issue: Issue) -> str | None:
    """Fix ``document`` in place for one issue; the change in words, or None."""
    spot = _at(document, issue.path) if issue.path else None
    where = ".".join(map(str, issue.path or []))
    if issue.options:
        option = next((o for o in issue.options if o != issue.received), None)
        if option is None:
            return None
        if spot is not None and spot[0][spot[1]] == issue.received:
            spot[0][spot[1]] = option
            return f"{where} -> {option!r}"
        if _replace_leaves(document, issue.received, option):
            return f"{str(issue.received)[:30]!r} -> {option!r}"
        return None
    if spot is not None and isinstance(spot[0][spot[1]], str):
        resized = _resized(spot[0][spot[1]], issue)
        if resized is not None:
            spot[0][spot[1]] = resized
            return f"{where} made {len(resized)} characters long"
    return None


def _apply(document: Any, issues: list[Issue]) -> list[str]:
    """Fix ``document`` in place for each issue; the fields changed, in words."""
    return [change for issue in issues if (change := _fix(document, issue)) is not None]


def repair_json_text(
    synthesizer: Any, args: dict[str, Any], text: str, named: list[str]
) -> tuple[dict[str, Any], str] | None:
    """The arguments with the rejected field of a JSON-text argument set to an allowed
    option, and what was changed; None when no such argument holds the value named."""
    issues = issues_in(text)
    if not issues:
        return None
    for name, value in args.items():
        if not isinstance(value, str) or value.lstrip()[:1] not in ("[", "{"):
            continue
        try:
            document = json.loads(value)
        except ValueError:
            continue
        changed = _apply(document, issues)
        if changed:
            args[name] = json.dumps(document, ensure_ascii=False)
            return args, f"{name}: {', '.join(changed[:3])} (inside its JSON, an allowed option)"
    return None
