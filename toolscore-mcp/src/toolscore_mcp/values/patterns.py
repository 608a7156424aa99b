"""Build a string that matches a JSON-schema ``pattern``.

Used only when the value we would normally send does not match the pattern. The result is
deterministic (no randomness, so the seeded scenario values stay reproducible) and is checked
with a time-bounded ``re.search`` before use; patterns we cannot handle give ``None``, and so
do patterns whose shortest match is longer than :data:`~toolscore.limits.MAX_GENERATED_STRING`
(``a{1000000000}``) or whose check runs out of time.
"""

from __future__ import annotations

import re
from typing import Any

from toolscore.bounded_regex import UnsafePatternError, bounded_pattern
from toolscore.limits import MAX_GENERATED_STRING, SCHEMA_PATTERN_TIMEOUT_SECONDS, capped_length

try:  # Python 3.11+
    from re import _constants as _sre_constants  # type: ignore[attr-defined]
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _sre_constants  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

__all__ = ["string_for_pattern"]

_C = _sre_constants
_PREFERRED = "a1b2c3xyzABC_-. "
_MAX_REPEAT_WHEN_UNBOUNDED = 1


class _Unsupported(Exception):
    pass


def _category_char(category: Any) -> str:
    name = str(category)
    if "NOT_DIGIT" in name:
        return "a"
    if "NOT_WORD" in name or "NOT_SPACE" in name:
        return "-" if "NOT_WORD" in name else "a"
    if "DIGIT" in name:
        return "1"
    if "SPACE" in name:
        return " "
    if "WORD" in name:
        return "a"
    raise _Unsupported(name)


def _in_set(char: str, items: list[tuple[Any, Any]]) -> bool:
    for op, value in items:
        if op is _C.LITERAL and ord(char) == value:
            return True
        if op is _C.RANGE and value[0] <= ord(char) <= value[1]:
            return True
        if op is _C.CATEGORY and re.fullmatch(_category_regex(value), char):
            return True
    return False


def _category_regex(category: Any) -> str:
    name = str(category)
    table = {
        "CATEGORY_DIGIT": r"\d",
        "CATEGORY_NOT_DIGIT": r"\D",
        "CATEGORY_WORD": r"\w",
        "CATEGORY_NOT_WORD": r"\W",
        "CATEGORY_SPACE": r"\s",
        "CATEGORY_NOT_SPACE": r"\S",
    }
    for key, regex in table.items():
        if name.endswith(key):
            return regex
    raise _Unsupported(name)


def _pick_from_set(items: list[tuple[Any, Any]]) -> str:
    if items and items[0][0] is _C.NEGATE:
        rest = items[1:]
        for char in _PREFERRED:
            if not _in_set(char, rest):
                return char
        raise _Unsupported("negated set")
    for op, value in items:
        if op is _C.LITERAL:
            return chr(value)
        if op is _C.RANGE:
            low, high = value
            # "1" rather than "0" keeps dates and counts plausible ("1111-11-11").
            if low <= ord("1") <= high:
                return "1"
            if low <= ord("a") <= high:
                return "a"
            return chr(low)
        if op is _C.CATEGORY:
            return _category_char(value)
    raise _Unsupported("empty set")


def _render(parsed: Any, groups: dict[int, str]) -> str:
    out: list[str] = []
    total = 0
    for op, value in parsed:
        if op is _C.LITERAL:
            out.append(chr(value))
        elif op is _C.NOT_LITERAL:
            out.append("a" if chr(value) != "a" else "b")
        elif op is _C.ANY:
            out.append("a")
        elif op is _C.IN:
            out.append(_pick_from_set(list(value)))
        elif op is _C.CATEGORY:
            out.append(_category_char(value))
        elif op is _C.BRANCH:
            out.append(_render(value[1][0], groups))
        elif op is _C.SUBPATTERN:
            group, _add, _del, sub = value
            text = _render(sub, groups)
            if group is not None:
                groups[group] = text
            out.append(text)
        elif op in (_C.MAX_REPEAT, _C.MIN_REPEAT, getattr(_C, "POSSESSIVE_REPEAT", None)):
            low, _high, sub = value
            count = low if low > 0 else 0
            piece = ""
            if count:
                # Rendering is deterministic: one rendering, repeated, is every repetition.
                piece = _render(sub, groups)
                if len(piece) * count > MAX_GENERATED_STRING:
                    raise _Unsupported("the shortest match is too long")
            out.append(piece * count)
        elif op is _C.AT or op in (_C.ASSERT, _C.ASSERT_NOT):
            continue
        elif op is _C.GROUPREF:
            out.append(groups.get(value, ""))
        elif op is getattr(_C, "ATOMIC_GROUP", None):
            out.append(_render(value, groups))
        else:
            raise _Unsupported(str(op))
        total += len(out[-1])  # every branch that gets here appended exactly one piece
        if total > MAX_GENERATED_STRING:
            raise _Unsupported("the shortest match is too long")
    return "".join(out)


def string_for_pattern(
    pattern: str, *, min_length: int = 0, max_length: int | None = None
) -> str | None:
    """A short string that ``re.search(pattern, s)`` accepts, within the length bounds, or None."""
    try:
        compiled = bounded_pattern(pattern, 0, SCHEMA_PATTERN_TIMEOUT_SECONDS)
        text = _render(_sre_parse.parse(pattern), {})
    except (re.error, _Unsupported, RecursionError, TypeError, ValueError, IndexError):
        return None
    min_length = capped_length(min_length)
    candidates = [text]
    if len(text) < min_length:
        candidates = [text + "a" * (min_length - len(text)), text + "1" * (min_length - len(text))]
    for candidate in candidates:
        if max_length is not None and len(candidate) > max_length:
            continue
        try:
            if compiled.search(candidate):
                return candidate
        except UnsafePatternError:
            return None
    return None
