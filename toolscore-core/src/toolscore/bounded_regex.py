"""Matching patterns that come from users' files, with a time bound.

Why: ``re`` backtracks, and a pattern such as ``(a|aa)+$`` in a gold file's ``$regex``, a
forbidden-call rule or a schema's ``pattern`` takes exponential time on a string that almost
matches; ``re`` cannot be interrupted, so ``toolscore eval`` would hang. Patterns are still
parsed by ``re`` (the same syntax errors as before), then matched by the ``regex`` package,
which is compatible with ``re`` (its version-0 mode) and takes a ``timeout``. A match that
runs out of time raises :class:`PatternTimeoutError`, which names the pattern. ``regex`` also
spells out fixed repeats when it compiles (``a{1000000000}`` would take minutes), so a pattern
whose repeats add up to more than :data:`~toolscore.limits.MAX_PATTERN_EXPANSION` is refused
with :class:`PatternTooLargeError` before it is compiled.

Our own fixed patterns keep using ``re``: only text written by a user goes through here.
"""

from __future__ import annotations

import functools
import re
from typing import Any

try:  # Python 3.11+
    from re import _constants as _sre_constants  # type: ignore[attr-defined]
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _sre_constants  # type: ignore[no-redef]
    import sre_parse as _sre_parse  # type: ignore[no-redef]

from toolscore.errors import ToolscoreError
from toolscore.limits import MAX_PATTERN_EXPANSION, REGEX_TIMEOUT_SECONDS

__all__ = [
    "BoundedPattern",
    "PatternTimeoutError",
    "PatternTooLargeError",
    "UnsafePatternError",
    "bounded_pattern",
]

_C = _sre_constants
_REPEATS = tuple(
    op
    for op in (_C.MAX_REPEAT, _C.MIN_REPEAT, getattr(_C, "POSSESSIVE_REPEAT", None))
    if op is not None
)


class UnsafePatternError(ToolscoreError, ValueError):
    """A user's regular expression that cannot be matched within the bounds."""


class PatternTooLargeError(UnsafePatternError):
    """A pattern whose fixed repeats multiply past :data:`MAX_PATTERN_EXPANSION`."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        super().__init__(
            f"regular expression {_shown(pattern)} repeats too much to be matched safely "
            f"(its minimum repeats add up to more than {MAX_PATTERN_EXPANSION} items)"
        )


def _shown(pattern: str) -> str:
    return repr(pattern if len(pattern) <= 200 else pattern[:200] + "...")


def _expansion(parsed: Any, factor: int = 1) -> int:
    """How many items the pattern spells out once its minimum repeat counts are expanded
    (stops counting past the bound)."""
    total = 0
    for op, value in parsed:
        if op in _REPEATS:
            low, _high, sub = value
            total += _expansion(sub, factor * max(int(low), 1))
        elif op is _C.SUBPATTERN:
            total += _expansion(value[-1], factor)
        elif op is _C.BRANCH:
            total += sum(_expansion(branch, factor) for branch in value[1])
        elif op in (_C.ASSERT, _C.ASSERT_NOT):
            total += _expansion(value[1], factor)
        elif op is getattr(_C, "ATOMIC_GROUP", None):
            total += _expansion(value, factor)
        elif op is _C.GROUPREF_EXISTS:
            total += sum(_expansion(part, factor) for part in value[1:] if part is not None)
        else:
            total += factor
        if total > MAX_PATTERN_EXPANSION:
            return total
    return total


class PatternTimeoutError(UnsafePatternError):
    """A user's regular expression took longer than its time bound on one string."""

    def __init__(self, pattern: str, length: int, seconds: float) -> None:
        self.pattern = pattern
        self.length = length
        self.seconds = seconds
        super().__init__(
            f"regular expression {_shown(pattern)} took more than {seconds:g} s on a "
            f"{length}-character string (it backtracks too much: rewrite nested repeats "
            "such as (a+)+ or (a|aa)+)"
        )


class BoundedPattern:
    """A compiled user pattern whose every match gives up after ``timeout`` seconds."""

    __slots__ = ("_compiled", "flags", "pattern", "timeout")

    def __init__(self, pattern: str, flags: int = 0, *, timeout: float = REGEX_TIMEOUT_SECONDS):
        stdlib = re.compile(pattern, flags)  # raises re.error for what re rejects, as before
        if _expansion(_sre_parse.parse(pattern, flags)) > MAX_PATTERN_EXPANSION:
            raise PatternTooLargeError(pattern)
        self.pattern = pattern
        self.flags = int(flags)
        self.timeout: float | None = timeout
        # Imported here, not at module level: most runs match no user pattern, and the
        # engine costs ~10 ms to import.
        import regex  # type: ignore[import-untyped]

        try:
            # re's flag bits (I, L, M, S, U, X, A) are regex's; VERSION0 is re's behaviour.
            self._compiled: Any = regex.compile(pattern, self.flags | regex.VERSION0)
        except (regex.error, ValueError, TypeError):  # pragma: no cover - no such pattern known
            self._compiled, self.timeout = stdlib, None  # unbounded, but it still works

    def _run(self, method: str, text: str) -> bool:
        if self.timeout is None:  # pragma: no cover - see __init__
            return getattr(self._compiled, method)(text) is not None
        try:
            found = getattr(self._compiled, method)(text, timeout=self.timeout)
        except TimeoutError:
            raise PatternTimeoutError(self.pattern, len(text), self.timeout) from None
        return found is not None

    def search(self, text: str) -> bool:
        """Whether the pattern occurs anywhere in ``text`` (``re.search``)."""
        return self._run("search", text)

    def match(self, text: str) -> bool:
        """Whether ``text`` starts with the pattern (``re.match``)."""
        return self._run("match", text)

    def fullmatch(self, text: str) -> bool:
        """Whether the whole of ``text`` is the pattern (``re.fullmatch``)."""
        return self._run("fullmatch", text)


@functools.lru_cache(maxsize=256)
def bounded_pattern(
    pattern: str, flags: int = 0, timeout: float = REGEX_TIMEOUT_SECONDS
) -> BoundedPattern:
    """A cached :class:`BoundedPattern` (a schema's pattern is checked once per call)."""
    return BoundedPattern(pattern, flags, timeout=timeout)
