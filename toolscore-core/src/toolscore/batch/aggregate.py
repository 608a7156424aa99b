"""The aggregate of a run, built in bounded memory from per-batch tallies.

A worker tallies its own batch (:class:`BatchTally`): a count per distinct score and per grade,
per-tool and per-finding counters, and its few worst cases. The parent only merges these
(:meth:`AggregateBuilder.merge`), a handful of dictionary updates per batch, so with many
workers the parent does not become the bottleneck. Results read back from a file
(``--resume``) and bad records are added one at a time (:meth:`AggregateBuilder.add`).

Kept per run: a count per distinct score (percentiles are exact and need one entry per
distinct value, not per case; the mean is computed from it exactly, so it equals
``math.fsum(scores) / n`` bit for bit), grade and finding counters, per-tool counters, the
worst cases in a bounded heap, and, with a baseline, the regressions (the baseline's scores
are held by id, the one thing that grows with the dataset).

Percentiles use linear interpolation between order statistics (numpy's default ``linear``).
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from toolscore.batch.records import CaseError, CaseResult, Row
from toolscore.result import GRADE_ORDER

PERCENTILES = (5, 10, 25, 50, 75, 90, 95, 99)
HISTOGRAM_BINS = 20
#: A score drop smaller than this is float noise, not a regression.
REGRESSION_EPSILON = 1e-9
#: Every finite float is an integer multiple of 2**-1074 (the smallest subnormal).
_ULP_EXPONENT = 1074


def exact_sum(counts: Mapping[float, int]) -> float:
    """``math.fsum`` of every value repeated ``count`` times, without expanding them.

    Each float is an exact integer multiple of 2**-1074, so the sum is an exact integer at
    that scale; ``int / int`` rounds it correctly once, as ``fsum`` does.
    """
    total = 0
    for value, count in counts.items():
        if not math.isfinite(value):
            return math.fsum(v for v, c in counts.items() for _ in range(c))
        numerator, denominator = value.as_integer_ratio()
        total += (numerator * count) << (_ULP_EXPONENT + 1 - denominator.bit_length())
    return total / (1 << _ULP_EXPONENT)


def histogram_bin(score: float) -> int:
    """The bin of ``score`` among :data:`HISTOGRAM_BINS` equal bins over [0, 1]."""
    return min(HISTOGRAM_BINS - 1, max(0, int(score * HISTOGRAM_BINS)))


def percentile(counts: Mapping[float, int], total: int, p: float) -> float:
    """The ``p``-th percentile (0-100) of values given as ``{value: count}``."""
    return percentiles(counts, total, (p,))[0]


def percentiles(counts: Mapping[float, int], total: int, ps: Iterable[float]) -> list[float]:
    """Several percentiles of ``{value: count}``: one sort and one walk of the distinct values
    for all of them (a run may hold hundreds of thousands of distinct scores)."""
    ps = list(ps)
    if total == 0:
        return [math.nan] * len(ps)
    ranks = []
    order: dict[int, float] = {}  # order statistic (0-based) -> its value
    for p in ps:
        rank = (total - 1) * p / 100.0
        low = math.floor(rank)
        high = min(low + 1, total - 1)
        ranks.append((rank, low, high))
        order[low] = order[high] = math.nan
    pending = iter(sorted(order))
    target: int | None = next(pending)
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        while target is not None and seen > target:
            order[target] = value
            target = next(pending, None)
        if target is None:
            break
    return [order[low] + (order[high] - order[low]) * (rank - low) for rank, low, high in ranks]


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


@attrs.frozen
class Tally:
    """One batch's share of the aggregate (picklable; see :class:`BatchTally`).

    ``worst`` holds ``(score, row index)`` of the batch's lowest scores, ties to the
    earlier row: enough for the run's worst cases, whatever the other batches hold.
    """

    scores: dict[float, int]
    grades: dict[str, int]
    tools: dict[str, list[int]]
    finding_cases: dict[str, int]
    finding_counts: dict[str, int]
    worst: tuple[tuple[float, int], ...]


class BatchTally:
    """Builds a batch's :class:`Tally` where the batch is scored, one case at a time (so the
    per-case counts can be dropped as soon as the case's line is written)."""

    def __init__(self) -> None:
        self.tools: dict[str, list[int]] = {}
        self.finding_cases: dict[str, int] = {}
        self.finding_counts: dict[str, int] = {}

    def count(self, findings: Mapping[str, int], tools: Mapping[str, Mapping[str, int]]) -> None:
        """Add one case's ``(findings, tools)`` as :func:`~toolscore.batch.findings.summarize`
        gives them."""
        totals = self.tools
        for tool, counts in tools.items():
            total = totals.get(tool)
            if total is None:
                totals[tool] = [counts["expected"], counts["failed"]]
            else:
                total[0] += counts["expected"]
                total[1] += counts["failed"]
        if findings:
            cases, sums = self.finding_cases, self.finding_counts
            for code, count in findings.items():
                cases[code] = cases.get(code, 0) + 1
                sums[code] = sums.get(code, 0) + count

    def finish(self, rows: Sequence[Row], worst: int) -> Tally:
        """The tally of the counted cases, whose ``rows`` are given in dataset order."""
        scores = [row[2] for row in rows]
        lowest = heapq.nsmallest(worst, zip(scores, range(len(scores)))) if worst > 0 else []
        return Tally(
            scores=dict(Counter(scores)),
            grades=dict(Counter(row[3] for row in rows)),
            tools=self.tools,
            finding_cases=self.finding_cases,
            finding_counts=self.finding_counts,
            worst=tuple(lowest),
        )


class AggregateBuilder:
    """Merge batch tallies (and add single results or errors); :meth:`build` gives the
    :class:`Aggregate`. Either way of feeding it gives the same numbers."""

    def __init__(
        self,
        *,
        worst: int = 10,
        baseline: Mapping[str, float] | None = None,
        baseline_name: str | None = None,
        max_errors: int = 50,
        max_regressions: int = 50,
    ) -> None:
        self._scores: Counter[float] = Counter()
        self._grades: Counter[str] = Counter()
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
        """Count one bad record, or add one result (e.g. read back for ``--resume``)."""
        if isinstance(item, CaseError):
            self._bad += 1
            if len(self._errors) < self._max_errors:
                self._errors.append(item.message)
            return
        order = self._cases
        self._cases += 1
        score = item.score
        self._scores[score] += 1
        self._grades[item.grade] += 1
        for tool, expected, failed in item.tools:
            counts = self._tools.setdefault(tool, [0, 0])
            counts[0] += expected
            counts[1] += failed
        for code, count in item.findings:
            self._finding_cases[code] += 1
            self._finding_counts[code] += count
        self._offer_worst(score, order, item.id, item.grade, item.source)
        if self._baseline is not None:
            self._compare(item.id, score, item.source, order)

    def merge(self, part: Tally, rows: Sequence[Row]) -> None:
        """Add a batch: its :class:`Tally` and its ``rows`` (the cases it was made from)."""
        base = self._cases
        self._cases += len(rows)
        self._scores.update(part.scores)
        self._grades.update(part.grades)
        for tool, (expected, failed) in part.tools.items():
            counts = self._tools.setdefault(tool, [0, 0])
            counts[0] += expected
            counts[1] += failed
        self._finding_cases.update(part.finding_cases)
        self._finding_counts.update(part.finding_counts)
        for score, index in part.worst:
            case_id, source, _score, grade = rows[index]
            self._offer_worst(score, base + index, case_id, grade, source)
        if self._baseline is not None:
            for index, (case_id, source, score, _grade) in enumerate(rows):
                self._compare(case_id, score, source, base + index)

    def _offer_worst(self, score: float, order: int, case_id: str, grade: str, source: str) -> None:
        if self._worst_n <= 0:
            return
        key = (-score, -order)
        if len(self._worst) >= self._worst_n and key <= self._worst[0][:2]:
            return
        entry = (-score, -order, CaseRef(case_id, score, grade, source))
        if len(self._worst) < self._worst_n:
            heapq.heappush(self._worst, entry)
        else:
            heapq.heapreplace(self._worst, entry)

    def _compare(self, case_id: str, score: float, source: str, order: int) -> None:
        assert self._baseline is not None
        before = self._baseline.get(case_id)
        if before is None:
            return
        self._compared += 1
        if score < before - REGRESSION_EPSILON:
            self._regressed += 1
            regression = Regression(case_id, before, score, source)
            entry = (before - score, -order, regression)
            if len(self._regressions) < self._max_regressions:
                heapq.heappush(self._regressions, entry)
            elif entry[:2] > self._regressions[0][:2]:
                heapq.heapreplace(self._regressions, entry)
        elif score > before + REGRESSION_EPSILON:
            self._improved += 1

    def extend(self, items: Iterable[CaseResult | CaseError]) -> None:
        for item in items:
            self.add(item)

    def build(self) -> Aggregate:
        n = self._cases
        mean = exact_sum(self._scores) / n if n else math.nan
        histogram = [0] * HISTOGRAM_BINS
        for score, count in self._scores.items():
            histogram[histogram_bin(score)] += count
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
            histogram=tuple(histogram),
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
