"""The aggregate of a run, built one result at a time in bounded memory.

Kept per run: an exact running sum (Shewchuk partials, so the mean equals
``math.fsum(scores) / n`` bit for bit), a count per distinct score (percentiles are exact
and need one entry per distinct value, not per case), grade and finding counters, per-tool
counters, the worst cases in a bounded heap, and, with a baseline, the regressions (the
baseline's scores are held by id, the one thing that grows with the dataset).

Percentiles use linear interpolation between order statistics (numpy's default ``linear``).
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from toolscore.batch.records import CaseError, CaseResult
from toolscore.result import GRADE_ORDER

PERCENTILES = (5, 10, 25, 50, 75, 90, 95, 99)
HISTOGRAM_BINS = 20
#: A score drop smaller than this is float noise, not a regression.
REGRESSION_EPSILON = 1e-9


class ExactSum:
    """A running sum with no rounding error until :meth:`value` (Shewchuk's algorithm)."""

    def __init__(self) -> None:
        self._partials: list[float] = []

    def add(self, x: float) -> None:
        partials = self._partials
        i = 0
        for y in partials:
            if abs(x) < abs(y):
                x, y = y, x
            hi = x + y
            lo = y - (hi - x)
            if lo:
                partials[i] = lo
                i += 1
            x = hi
        partials[i:] = [x]

    def value(self) -> float:
        return math.fsum(self._partials)


def percentile(counts: Mapping[float, int], total: int, p: float) -> float:
    """The ``p``-th percentile (0-100) of values given as ``{value: count}``."""
    return percentiles(counts, total, (p,))[0]


def percentiles(counts: Mapping[float, int], total: int, ps: Iterable[float]) -> list[float]:
    """Several percentiles of ``{value: count}`` with one sort of the distinct values."""
    values = sorted(counts)
    out: list[float] = []
    for p in ps:
        if total == 0:
            out.append(math.nan)
            continue
        rank = (total - 1) * p / 100.0
        low = math.floor(rank)
        high = min(low + 1, total - 1)
        low_value = high_value = math.nan
        seen = 0
        for value in values:
            seen += counts[value]
            if math.isnan(low_value) and seen > low:
                low_value = value
            if seen > high:
                high_value = value
                break
        out.append(low_value + (high_value - low_value) * (rank - low))
    return out


@attrs.frozen
class ToolStat:
    tool: str
    expected: int
    failed: int

    @property
    def failure_rate(self) -> float:
        return self.failed / self.expected if self.expected else 0.0


@attrs.frozen
class FindingStat:
    code: str
    cases: int
    count: int
    rate: float


@attrs.frozen
class CaseRef:
    id: str
    score: float
    grade: str
    source: str


@attrs.frozen
class Regression:
    id: str
    before: float
    after: float
    source: str

    @property
    def delta(self) -> float:
        return self.after - self.before


@attrs.frozen
class Aggregate:
    """The numbers of a finished run (see :meth:`to_dict` for the JSON report's layout)."""

    cases: int
    bad_records: int
    errors: tuple[str, ...]
    mean: float
    minimum: float
    maximum: float
    percentiles: tuple[tuple[int, float], ...]
    grades: tuple[tuple[str, int], ...]
    histogram: tuple[int, ...]
    tools: tuple[ToolStat, ...]
    findings: tuple[FindingStat, ...]
    worst: tuple[CaseRef, ...]
    baseline: str | None = None
    compared: int = 0
    regressions: tuple[Regression, ...] = ()
    regression_count: int = 0
    improved_count: int = 0
    resumed: int = 0

    @property
    def grade(self) -> str:
        from toolscore.result import letter_grade

        return letter_grade(self.mean) if self.cases else "F"

    def to_dict(self) -> dict[str, Any]:
        return {
            "cases": self.cases,
            "bad_records": self.bad_records,
            "resumed": self.resumed,
            "score": {
                "mean": _num(self.mean),
                "grade": self.grade,
                "min": _num(self.minimum),
                "max": _num(self.maximum),
                "percentiles": {f"p{p}": _num(v) for p, v in self.percentiles},
            },
            "grades": dict(self.grades),
            "histogram": {"bins": HISTOGRAM_BINS, "counts": list(self.histogram)},
            "tools": [
                {
                    "tool": t.tool,
                    "expected": t.expected,
                    "failed": t.failed,
                    "failure_rate": t.failure_rate,
                }
                for t in self.tools
            ],
            "findings": [
                {"code": f.code, "cases": f.cases, "count": f.count, "case_rate": f.rate}
                for f in self.findings
            ],
            "worst": [attrs.asdict(c) for c in self.worst],
            "baseline": None
            if self.baseline is None
            else {
                "path": self.baseline,
                "compared": self.compared,
                "regressed": self.regression_count,
                "improved": self.improved_count,
                "regressions": [{**attrs.asdict(r), "delta": r.delta} for r in self.regressions],
            },
            "errors": list(self.errors),
        }


def _num(value: float) -> float | None:
    return None if math.isnan(value) else value


class AggregateBuilder:
    """Feed results (and errors) in; :meth:`build` gives the :class:`Aggregate`."""

    def __init__(
        self,
        *,
        worst: int = 10,
        baseline: Mapping[str, float] | None = None,
        baseline_name: str | None = None,
        max_errors: int = 50,
        max_regressions: int = 50,
    ) -> None:
        self._sum = ExactSum()
        self._scores: Counter[float] = Counter()
        self._grades: Counter[str] = Counter()
        self._histogram = [0] * HISTOGRAM_BINS
        self._tools: dict[str, list[int]] = {}
        self._finding_cases: Counter[str] = Counter()
        self._finding_counts: Counter[str] = Counter()
        self._worst_n = worst
        self._worst: list[
            tuple[float, int, CaseRef]
        ] = []  # max-heap on (score, order) via negation
        self._cases = 0
        self._bad = 0
        self._errors: list[str] = []
        self._max_errors = max_errors
        self._baseline = baseline
        self._baseline_name = baseline_name
        self._compared = 0
        self._regressed = 0
        self._improved = 0
        self._regressions: list[tuple[float, int, Regression]] = []
        self._max_regressions = max_regressions
        self.resumed = 0

    def add(self, item: CaseResult | CaseError) -> None:
        if isinstance(item, CaseError):
            self._bad += 1
            if len(self._errors) < self._max_errors:
                self._errors.append(item.message)
            return
        order = self._cases
        self._cases += 1
        score = item.score
        self._sum.add(score)
        self._scores[score] += 1
        self._grades[item.grade] += 1
        self._histogram[min(HISTOGRAM_BINS - 1, max(0, int(score * HISTOGRAM_BINS)))] += 1
        for tool, expected, failed in item.tools:
            counts = self._tools.setdefault(tool, [0, 0])
            counts[0] += expected
            counts[1] += failed
        for code, count in item.findings:
            self._finding_cases[code] += 1
            self._finding_counts[code] += count
        if self._worst_n > 0:
            entry = (-score, -order, CaseRef(item.id, score, item.grade, item.source))
            if len(self._worst) < self._worst_n:
                heapq.heappush(self._worst, entry)
            elif entry[:2] > self._worst[0][:2]:
                heapq.heapreplace(self._worst, entry)
        if self._baseline is not None:
            self._compare(item, order)

    def _compare(self, item: CaseResult, order: int) -> None:
        assert self._baseline is not None
        before = self._baseline.get(item.id)
        if before is None:
            return
        self._compared += 1
        if item.score < before - REGRESSION_EPSILON:
            self._regressed += 1
            regression = Regression(item.id, before, item.score, item.source)
            entry = (before - item.score, -order, regression)
            if len(self._regressions) < self._max_regressions:
                heapq.heappush(self._regressions, entry)
            elif entry[:2] > self._regressions[0][:2]:
                heapq.heapreplace(self._regressions, entry)
        elif item.score > before + REGRESSION_EPSILON:
            self._improved += 1

    def extend(self, items: Iterable[CaseResult | CaseError]) -> None:
        for item in items:
            self.add(item)

    def build(self) -> Aggregate:
        n = self._cases
        mean = self._sum.value() / n if n else math.nan
        tools = sorted(
            (ToolStat(t, e, f) for t, (e, f) in self._tools.items()),
            key=lambda s: (-s.failure_rate, -s.failed, s.tool),
        )
        findings = sorted(
            (
                FindingStat(code, cases, self._finding_counts[code], cases / n if n else 0.0)
                for code, cases in self._finding_cases.items()
            ),
            key=lambda f: (-f.cases, f.code),
        )
        worst = [ref for _, _, ref in sorted(self._worst, reverse=True)]
        regressions = [r for _, _, r in sorted(self._regressions, key=lambda e: (-e[0], -e[1]))]
        return Aggregate(
            cases=n,
            bad_records=self._bad,
            errors=tuple(self._errors),
            mean=mean,
            minimum=min(self._scores) if n else math.nan,
            maximum=max(self._scores) if n else math.nan,
            percentiles=tuple(zip(PERCENTILES, percentiles(self._scores, n, PERCENTILES))),
            grades=tuple((g, self._grades.get(g, 0)) for g in GRADE_ORDER),
            histogram=tuple(self._histogram),
            tools=tuple(tools),
            findings=tuple(findings),
            worst=tuple(worst),
            baseline=self._baseline_name,
            compared=self._compared,
            regressions=tuple(regressions),
            regression_count=self._regressed,
            improved_count=self._improved,
            resumed=self.resumed,
        )


def load_baseline(path: str) -> dict[str, float]:
    """``{id: score}`` of a previous run's ``--out`` file."""
    from pathlib import Path

    from toolscore.batch.results_file import read_results
    from toolscore.errors import InputError

    if not Path(path).exists():
        raise InputError(f"baseline not found: {path}")
    return {result.id: result.score for result in read_results(path)}
