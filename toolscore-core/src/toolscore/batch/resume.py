"""What ``--resume`` keeps of an earlier results file: one valid line per case of the dataset.

The results file is the run's memory, but it is only a file: a second process may have
appended to it, a crash may have torn a line, a person may have edited it. A line is kept only
when it is a complete result line whose score is a finite number in [0, 1] and whose grade is
a letter grade, for an id of the dataset, the first time that id appears. Every other line is
named (``file:line`` and why) in a warning and dropped: its case, if it is one of the
dataset's, is scored again. When something was dropped the file is rewritten with the kept
lines (atomically), so the finished file holds exactly what an uninterrupted run writes.
"""

from __future__ import annotations

import contextlib
import math
import os
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path

from toolscore.batch.records import CaseError, CaseResult
from toolscore.batch.results_file import read_results
from toolscore.batch.sources import Dataset, case_id_of, record_id

__all__ = ["dataset_ids", "previous_results"]

#: Dropped lines named one by one in warnings; the rest are counted.
NAMED_DROPS = 5
_GRADES = frozenset("ABCDF")


def dataset_ids(dataset: Dataset) -> set[str]:
    """Every case id the dataset holds (a JSON Lines dataset is read once, lines parsed)."""
    if dataset.kind != "jsonl":
        return {
            case_id
            for record in dataset
            if not isinstance(record, CaseError) and (case_id := case_id_of(record)) is not None
        }
    ids: set[str] = set()
    for first, lines in dataset.line_batches(4096):
        for number, raw in enumerate(lines, first):
            try:
                text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError:
                continue
            case_id = record_id(text) if text.strip() else None
            if case_id is not None:
                ids.add(case_id)
    return ids


def previous_results(out: Path, wanted: set[str]) -> Iterator[CaseResult]:
    """The results of ``out`` to keep for a dataset with ids ``wanted`` (see the module)."""
    if not out.is_file():
        return
    drops = _dropped_lines(out, wanted)
    if drops:
        _warn_dropped(out, drops)
    if set(drops) <= {-1}:  # nothing, or only a line torn by a kill: cut it off
        yield from read_results(out, repair=True)
        return
    yield from _rewrite(out, drops)


def _line_verdict(raw: bytes, wanted: set[str], seen: set[str]) -> CaseResult | str:
    """The line's result, or why it is dropped."""
    if not raw.endswith(b"\n"):
        return "a torn last line (no newline)"
    try:
        result = CaseResult.from_line(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        return f"not a result line ({exc})"
    if not (math.isfinite(result.score) and 0.0 <= result.score <= 1.0):
        return f"score {result.score!r} is not a number in [0, 1]"
    if result.grade not in _GRADES:
        return f"grade {result.grade!r} is not a letter grade"
    if result.id not in wanted:
        return f"id {result.id!r} is not in the dataset"
    if result.id in seen:
        return f"id {result.id!r} has an earlier result line"
    return result


def _scan(out: Path, wanted: set[str]) -> Iterator[tuple[int, CaseResult | str]]:
    seen: set[str] = set()
    with out.open("rb") as handle:
        for number, raw in enumerate(handle, 1):
            verdict = _line_verdict(raw, wanted, seen) if raw.strip() else "a blank line"
            if isinstance(verdict, CaseResult):
                seen.add(verdict.id)
            yield number, verdict


def _dropped_lines(out: Path, wanted: set[str]) -> dict[int, str]:
    """``{line number: reason}`` of the lines to drop; a torn last line is keyed ``-1``."""
    drops: dict[int, str] = {}
    for number, verdict in _scan(out, wanted):
        if isinstance(verdict, str):
            drops[-1 if verdict.startswith("a torn") else number] = verdict
    return drops


def _kept(out: Path, drops: dict[int, str]) -> Iterator[CaseResult]:
    with out.open("rb") as handle:
        for number, raw in enumerate(handle, 1):
            if number not in drops and raw.endswith(b"\n"):
                yield CaseResult.from_line(raw.decode("utf-8"))


def _rewrite(out: Path, drops: dict[int, str]) -> Iterator[CaseResult]:
    """Copy the kept lines to a temp file beside ``out`` (yielding each), then move it into
    place once the last one is copied."""
    fd, temp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            for result in _kept(out, drops):
                handle.write(result.line.encode("utf-8"))
                yield result
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, os.stat(out).st_mode & 0o777)
        os.replace(temp, out)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise


def _warn_dropped(out: Path, drops: dict[int, str]) -> None:
    named = sorted(drops.items(), key=lambda item: (item[0] == -1, item[0]))
    for number, reason in named[:NAMED_DROPS]:
        where = f"{out} (last line)" if number == -1 else f"{out}:{number}"
        warnings.warn(
            f"--resume: {where}: {reason}; dropped, its case is scored again",
            RuntimeWarning,
            stacklevel=3,
        )
    if len(named) > NAMED_DROPS:
        warnings.warn(
            f"--resume: {len(named) - NAMED_DROPS} more line(s) of {out} dropped",
            RuntimeWarning,
            stacklevel=3,
        )
