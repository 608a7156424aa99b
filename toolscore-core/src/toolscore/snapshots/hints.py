"""What a snapshot failure tells the reader beyond the table: where the file is, how to
re-record it, and which matcher fits an argument whose value changes on every run.

Why: a drift table alone leaves the two usual next steps to guesswork. Either the new calls are
right (re-record), or one argument is volatile (a timestamp, a generated id) and the snapshot
should say "any value of this shape" instead of one value.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolscore.result import EvaluationResult

__all__ = ["VOLATILE_SHAPES", "drift_hints", "volatile_matcher"]

#: Value shapes that are usually generated per run, with the ``$regex`` that accepts any of them.
VOLATILE_SHAPES: tuple[tuple[str, str], ...] = (
    ("a UUID", r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"),
    ("a timestamp", r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$"),
    ("a date", r"^\d{4}-\d{2}-\d{2}$"),
    ("a time", r"^\d{2}:\d{2}(:\d{2})?$"),
    ("a hex id", r"^[0-9a-f]{12,}$"),
    ("a number", r"^\d+$"),
)


def volatile_matcher(expected: Any, actual: Any) -> tuple[str, dict[str, Any]] | None:
    """``(what it looks like, matcher JSON)`` when two differing values share a volatile
    shape (both UUIDs, both dates, ...), else ``None``."""
    if not isinstance(expected, str) or not isinstance(actual, str) or expected == actual:
        return None
    for label, pattern in VOLATILE_SHAPES:
        if re.fullmatch(pattern, expected) and re.fullmatch(pattern, actual):
            return label, {"$regex": pattern}
    return None


def _differing_arguments(result: EvaluationResult) -> Iterator[tuple[str, str, Any, Any]]:
    """``(tool, key, expected, actual)`` for plain expected values the actual call changed."""
    from toolscore.diff import diff_rows

    for row in diff_rows(result.gold_calls, result.trace_calls):
        if row.status != "mismatch" or row.expected is None or row.actual is None:
            continue
        expected_args = row.expected.args
        if not isinstance(expected_args, Mapping):
            continue
        actual_args = row.actual.actual_args
        for key, value in expected_args.items():
            if key in actual_args and actual_args[key] != value:
                yield row.expected.tool, str(key), value, actual_args[key]


def drift_hints(result: EvaluationResult, path: Path, update_hint: str) -> list[str]:
    """The lines printed under a snapshot's drift table."""
    from toolscore.terminal_text import shown

    lines = [f"snapshot file: {path}", f"if the new calls are right, re-record: {update_hint}"]
    suggested = 0
    for tool, key, expected, actual in _differing_arguments(result):
        found = volatile_matcher(expected, actual)
        if found is None:
            continue
        label, matcher = found
        lines.append(
            f"{shown(tool, one_line=True)}.{shown(key, one_line=True)} looks like {label} that "
            f"changes per run: write {json.dumps(matcher)} in the snapshot file instead of "
            f"{shown(json.dumps(expected), one_line=True)}"
        )
        suggested += 1
    if not suggested:
        lines.append(
            'a value that changes on every run can be written as {"$any": true} '
            '(or {"$regex": "..."}) in the snapshot file'
        )
    return lines
