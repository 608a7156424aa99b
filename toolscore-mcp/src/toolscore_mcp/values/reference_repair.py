"""Repair a qualified reference (``Data!B2:F9``) whose qualifier the server does not have.

A spreadsheet range, like many references, names its container before a ``!``:
``'Q1 Sales'!A1:C4``. A value built from an example (``Data!B2:F9``) names a sheet the
workbook may not hold, and the server says so by the qualifier alone:

    Sheet 'Data' not found. Available sheets: 'Sheet1', 'Summary'.

The argument the message blames is not one whose whole value it quotes, so the word-level
repairs would change the wrong one (the ``sheet`` argument, which was fine).
:func:`repair_reference` finds the arguments, at any depth, whose references carry the
qualifier the message quotes, and puts an existing one in its place: the one the call
already names elsewhere when the message lists it (the sheet the call writes to), else the
first one listed, else one this run created or a listing returned.

    Header cell D1 must contain text: the first row of source is the header row.

A range copied from an example (``A1:E200``) may reach past the data; when the message names
one of its cells, :func:`repair_range_cells` aims it at the cells the run knows hold data.
"""

from __future__ import annotations

import re
from typing import Any

from toolscore.lazy_pattern import lazy_pattern

__all__ = ["qualifiers", "repair_range_cells", "repair_reference", "requalify"]

_QUOTED = lazy_pattern(r"[\"'`‘’“”]([^\"'`‘’“”\n]{1,100})[\"'`‘’“”]")
#: A reference's qualifier: ``Data!`` or ``'Q1 Sales'!``.
_QUALIFIER = lazy_pattern(r"(?:'((?:[^']|'')+)'|([A-Za-z_][\w.]*))!")
_LISTED = lazy_pattern(r"\b(?:available|existing|valid|known)\b[^:\n]{0,40}:", re.I)


def qualifiers(value: str) -> list[str]:
    """The qualifiers of the references in ``value`` (``'My Sheet'!A1`` -> ``My Sheet``)."""
    return [
        (quoted.replace("''", "'") if quoted else bare)
        for quoted, bare in _QUALIFIER.findall(value)
    ]


def requalify(value: str, old: str, new: str) -> str:
    """``value`` with each reference qualified by ``old`` qualified by ``new`` instead."""
    replacement = (
        new if re.fullmatch(r"[A-Za-z_][\w.]*", new) else "'" + new.replace("'", "''") + "'"
    )

    def swap(match: re.Match[str]) -> str:
        quoted, bare = match.group(1), match.group(2)
        name = quoted.replace("''", "'") if quoted else bare
        return f"{replacement}!" if name == old else match.group(0)

    return _QUALIFIER.sub(swap, value)


def _strings(value: Any, depth: int = 0) -> list[str]:
    if isinstance(value, str):
        return [value]
    if depth < 6 and isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v, depth + 1)]
    if depth < 6 and isinstance(value, list):
        return [s for v in value for s in _strings(v, depth + 1)]
    return []


def _rewrite(value: Any, old: str, new: str, depth: int = 0) -> Any:
    if isinstance(value, str):
        return requalify(value, old, new)
    if depth < 6 and isinstance(value, dict):
        return {k: _rewrite(v, old, new, depth + 1) for k, v in value.items()}
    if depth < 6 and isinstance(value, list):
        return [_rewrite(v, old, new, depth + 1) for v in value]
    return value


def _run_names(synthesizer: Any, text: str, missing: str) -> list[str]:
    """Names this run made or a listing returned for the thing the message calls the
    missing one (``Sheet 'Data' not found`` -> sheets): the fallbacks."""
    harvest = getattr(synthesizer.context, "harvested", None)
    before = re.search(r"(\w+)\s*[\"'`‘“]" + re.escape(missing), text)
    if harvest is None or before is None:
        return []
    noun = before.group(1).lower()
    found = harvest.lookup(noun, synthesizer.tool.name, (f"{noun}_name",))
    return [value for value, _ in found if isinstance(value, str) and value != missing]


def repair_reference(
    synthesizer: Any, args: dict[str, Any], text: str, named: list[str]
) -> tuple[dict[str, Any], str] | None:
    """The arguments with references to a missing qualifier pointed at an existing one."""
    quoted = [q.strip() for q in _QUOTED.findall(text)]
    used = {q for value in args.values() for s in _strings(value) for q in qualifiers(s)}
    missing = next((q for q in quoted if q in used), None)
    if missing is None:
        return None
    listed = _LISTED.search(text)
    offered = [q.strip() for q in _QUOTED.findall(text[listed.end() :])] if listed else []
    offered = [q for q in offered if q != missing]
    plain = {v for v in args.values() if isinstance(v, str)}
    choice = next((q for q in offered if q in plain), None)
    choice = choice or next(iter(offered), None)
    if choice is None:
        choice = next(iter(_run_names(synthesizer, text, missing)), None)
    if choice is None:
        return None
    changed = [name for name, value in args.items() if _rewrite(value, missing, choice) != value]
    for name in changed:
        args[name] = _rewrite(args[name], missing, choice)
    return args, f"{', '.join(changed)}: {missing}! -> {choice}! (one the server has)"


_CELL = lazy_pattern(r"\b([A-Z]{1,3})([1-9]\d{0,6})\b")
_RANGE = lazy_pattern(
    r"^((?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?([A-Z]{1,3}[1-9]\d*):([A-Z]{1,3}[1-9]\d*)$"
)


def _cell(ref: str) -> tuple[int, int]:
    match = _CELL.fullmatch(ref)
    if match is None:
        return (0, 0)
    column = 0
    for letter in match.group(1):
        column = column * 26 + ord(letter) - 64
    return column, int(match.group(2))


def _inside(cell: tuple[int, int], first: tuple[int, int], last: tuple[int, int]) -> bool:
    return first[0] <= cell[0] <= last[0] and first[1] <= cell[1] <= last[1]


def _known_range(synthesizer: Any) -> str | None:
    """The cell range the run knows holds data: what a parameter named ``range`` means."""
    from toolscore_mcp.values.meaning import meaning_candidates
    from toolscore_mcp.values.providers import Parameter

    param = Parameter(synthesizer.tool, "range", {"type": "string"}, role=synthesizer.role)
    found = next(iter(meaning_candidates(param, synthesizer.context)), None)
    value = found.value if found is not None else None
    return value if isinstance(value, str) and _RANGE.match(value) else None


def repair_range_cells(
    synthesizer: Any, args: dict[str, Any], text: str, named: list[str]
) -> tuple[dict[str, Any], str] | None:
    """A cell range the message finds a cell of wanting ("Header cell D1 must contain text"
    for ``A1:E200``, an example's size) aimed at the range the run knows holds data."""
    cells = [_cell(m.group(0)) for m in _CELL.finditer(text)]
    known = _known_range(synthesizer)
    if not cells or known is None:
        return None
    for name, value in args.items():
        match = _RANGE.match(value) if isinstance(value, str) else None
        if match is None or match.group(2) + ":" + match.group(3) == known:
            continue
        first, last = _cell(match.group(2)), _cell(match.group(3))
        if any(_inside(cell, first, last) for cell in cells):
            args[name] = (match.group(1) or "") + known
            return args, f"{name} -> {args[name]!r} (the cells the run knows hold data)"
    return None
