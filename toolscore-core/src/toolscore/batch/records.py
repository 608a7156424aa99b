"""The values that travel between the reader, the workers and the writer.

All are picklable. A batch goes to a worker (another process or a Dask node) as raw JSON
Lines bytes or as :class:`Case` values, and a :class:`BatchOutcome` comes back: the output
lines already serialized, one compact :data:`Row` per case and the batch's aggregate tally, so
the parent only writes bytes and merges. :class:`CaseResult` objects are made from rows only
for a caller that iterates the results.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from toolscore.errors import InputError

if TYPE_CHECKING:
    from toolscore.batch.aggregate import Tally

#: One scored case as a worker sends it back: ``(id, source, score, grade)``. The rest of
#: the case is in its output line.
Row = tuple[str, str, float, str]


@attrs.frozen
class Case:
    """One dataset record, as cheap as the reader could leave it (parsed by the worker).

    ``source`` is where it is (``cases.jsonl:12``, or a trace file). Exactly one of ``text``
    (a JSON Lines record), ``files`` (gold and trace paths) or ``record`` (an already decoded
    ``{"id", "expected", "actual"}``) is set. ``id`` is known when the reader needed it.
    """

    source: str
    id: str | None = None
    text: str | None = None
    files: tuple[str, str] | None = None
    record: Mapping[str, Any] | None = None


@attrs.frozen
class CaseError:
    """A bad record: counted and skipped (or fatal with ``fail_fast``).

    ``message`` is one line naming the file, the line and the JSON path.
    """

    source: str
    message: str
    id: str | None = None

    def __str__(self) -> str:
        return self.message


class BadRecordError(InputError):
    """Raised by a ``fail_fast`` run at its first bad record; ``error`` is that record."""

    def __init__(self, error: CaseError) -> None:
        super().__init__(error.message)
        self.error = error


@attrs.frozen
class CaseResult:
    """The outcome of one case.

    ``line`` is the case's output line (``{"id", "score", "grade", "metrics", "findings",
    "tools", "calls", "source"}`` plus a newline), exactly as ``--out`` stores it.
    ``findings`` maps a finding code (``missing_call``, ``wrong_arguments``, ...) to its
    count; ``tools`` maps an expected tool to ``(expected calls, failed calls)``.
    """

    id: str
    source: str
    score: float
    grade: str
    findings: tuple[tuple[str, int], ...]
    tools: tuple[tuple[str, int, int], ...]
    line: str

    @property
    def record(self) -> dict[str, Any]:
        """The output line, decoded (metrics included)."""
        value: dict[str, Any] = json.loads(self.line)
        return value

    @property
    def metrics(self) -> dict[str, Any]:
        """The evaluation's metrics, as ``EvaluationResult.metrics`` (JSON-safe)."""
        metrics: dict[str, Any] = self.record["metrics"]
        return metrics

    @classmethod
    def from_line(cls, line: str) -> CaseResult:
        """Read back a line written by a run (for ``--resume`` and ``--baseline``).

        :raises ValueError: the line is not JSON or lacks a field.
        """
        data = json.loads(line)
        if not isinstance(data, dict):
            raise ValueError("expected a JSON object")
        try:
            return cls(
                id=str(data["id"]),
                source=str(data.get("source", "")),
                score=float(data["score"]),
                grade=str(data["grade"]),
                findings=tuple(sorted((str(k), int(v)) for k, v in data["findings"].items())),
                tools=tuple(
                    sorted(
                        (str(k), int(v["expected"]), int(v["failed"]))
                        for k, v in data["tools"].items()
                    )
                ),
                line=line if line.endswith("\n") else line + "\n",
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a result line: missing or malformed {exc}") from None


@attrs.frozen
class BatchOutcome:
    """What a worker returns for one batch.

    ``lines`` are the output lines of the scored cases, in order, ASCII, each ending in a
    newline: exactly the bytes ``--out`` gets. They stay one object per line, never joined
    into one batch-sized buffer: the writer hands them to the kernel as they are, and the
    batch's memory stays small enough to stay in the CPU's caches. ``rows`` has one :data:`Row` per line.
    ``errors`` are the bad records, each with the number of rows before it, so that the
    batch's order can be rebuilt (``fail_fast`` stops exactly there). ``tally`` is the
    aggregate's share of the rows.
    """

    lines: tuple[bytes, ...]
    rows: tuple[Row, ...]
    errors: tuple[tuple[int, CaseError], ...]
    tally: Tally

    def results(self) -> list[CaseResult]:
        """The results as :class:`CaseResult` values, read back from the lines: made only for
        a caller that iterates the results (the parent itself needs only the rows)."""
        return [CaseResult.from_line(line.decode("ascii")) for line in self.lines]

    def in_order(self) -> list[CaseResult | CaseError]:
        """Results and bad records interleaved as they were in the dataset."""
        results = self.results()
        out: list[CaseResult | CaseError] = []
        done = 0
        for before, error in self.errors:
            out.extend(results[done:before])
            done = before
            out.append(error)
        out.extend(results[done:])
        return out
