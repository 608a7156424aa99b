"""Regular expressions compiled on first use, for module-level tables of patterns.

Why: Python compiles an expression in Python code (``re._parser``, ``re._compiler``), about
0.2 ms for a plain one and several for a long case-insensitive alternation, and compiles it
again in every process. A module that keeps a dozen patterns for situations most runs never
meet (repair hints, error phrasings) makes every command pay for all of them at import. A
pattern made with :func:`lazy_pattern` compiles the first time it is used, then behaves as the
compiled :class:`re.Pattern` it stands for.
"""

from __future__ import annotations

import re
from typing import Any, cast

__all__ = ["lazy_pattern"]


class _CompiledOnUse:
    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self._source, self._flags)
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_pattern({self._source!r}, {self._flags!r})"


def lazy_pattern(source: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, done the first time the pattern is used.

    An invalid expression raises :class:`re.error` at that first use, not at import: keep
    such tables covered by a test that uses every pattern once.
    """
    return cast("re.Pattern[str]", _CompiledOnUse(source, int(flags)))
