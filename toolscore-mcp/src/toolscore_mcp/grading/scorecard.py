"""The scorecard: scores, grade, per-tool figures and the ranked "Top issues to fix".

``score = 0.6·happy + 0.2·edge + 0.2·lint``. Happy-path scenarios that were
*inconclusive* (the server rejected input we generated) count neither as passed nor failed.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from toolscore_mcp.checks.provider_compat import ToolCompat, compatibility
from toolscore_mcp.conformance import ConformanceOutcome
from toolscore_mcp.grading.budget import Budget, BudgetReport, measure
from toolscore_mcp.grading.tokens import context_tokens, tool_definition_tokens
from toolscore_mcp.grading.verdicts import schema_hint_fix
from toolscore_mcp.model import (
    Evidence,
    FixSuggestion,
    LintIssue,
    MCPToolDef,
    ScenarioResult,
    ServerDetails,
)

if TYPE_CHECKING:
    from toolscore_mcp.surface.diff import SurfaceChange

__all__ = [
    "GRADE_ORDER",
    "MCPScorecard",
    "ToolSummary",
    "build_fix_list",
    "grade_meets",
    "letter_grade",
]

GRADE_ORDER = ("A", "B", "C", "D", "F")
WEIGHTS = {"happy": 0.6, "edge": 0.2, "lint": 0.2}

FIX_HAPPY = (
    "The tool errors on well-formed arguments - check the handler and that the input schema "
    "matches what the tool actually accepts."
)
FIX_EDGE = (
    "Validate and guard arguments so the tool returns a clean error result instead of crashing "
    "or timing out."
)
FIX_LINT_DEFAULT = "Review the tool's schema and description."
FIX_ERROR_AS_SUCCESS = (
    "Set isError: true on results that report a failure - a model cannot tell these calls "
    "failed and carries on as if the error text were data."
)
FIX_OUTPUT_SCHEMA = (
    "Return structuredContent that validates against the declared outputSchema (or correct the "
    "schema) - clients that check results reject these calls."
)


def letter_grade(score: float) -> str:
    """A >= 0.9, B >= 0.8, C >= 0.7, D >= 0.6, else F (core's thresholds)."""
    try:
        from toolscore.result import letter_grade as core_letter_grade
    except ImportError:
        pass
    else:
        return str(core_letter_grade(score))
    for grade, floor in (("A", 0.9), ("B", 0.8), ("C", 0.7), ("D", 0.6)):
        if score >= floor:
            return grade
    return "F"


def grade_meets(grade: str, threshold: str) -> bool:
    """Is ``grade`` at least as good as ``threshold``? Case-insensitive; unknown is worst."""

    def rank(value: str) -> int:
        upper = value.upper()
        return GRADE_ORDER.index(upper) if upper in GRADE_ORDER else len(GRADE_ORDER)

    return rank(grade) <= rank(threshold)


@attrs.frozen
class ToolCoverage:
    """What the run could conclude about one tool.

    ``status`` is ``works`` (a happy path passed), ``defect`` (a happy path failed through
    the server's fault, and none passed; or the one on a fresh copy of a sandbox file
    failed so, whatever the others did), ``needs`` (every happy path was inconclusive: see ``needs``) or
    ``skipped`` (not called: a scenario file's skip, task-only execution).
    """

    tool: str
    status: str
    #: For ``needs``: ``network``, ``credentials``, ``rate-limit``, ``binary``, ``setup``,
    #: ``policy``, ``valid input`` or ``evidence``; for ``skipped``: the reason.
    needs: str = ""
    #: For ``works``: what shows it (see :class:`toolscore_mcp.model.Evidence`).
    evidence: Evidence | None = None

    @property
    def conclusive(self) -> bool:
        return self.status in ("works", "defect")


#: Lint rules whose errors mean a client cannot use the tool list as the server sent it
#: (see :mod:`toolscore_mcp.rules.validity`), and the score such a server is held to.
UNUSABLE_LIST_RULES = frozenset(
    {"tools-list", "no-tools", "duplicate-name", "invalid-name", "invalid-schema"}
)
UNUSABLE_CAP = 0.89

#: A grade resting on fewer verified tools than this share is incomplete (at best C).
INCOMPLETE_BELOW = 0.5
#: ``needs`` that mean the environment, not the server: no tool that needs only these can
#: succeed here.
ENVIRONMENT_NEEDS = frozenset({"network", "credentials", "rate-limit", "binary", "policy"})
_NEEDS_ORDER = (
    "network", "credentials", "rate-limit", "binary", "policy", "setup", "valid input", "evidence"
)  # fmt: skip


@attrs.frozen
class GradeCap:
    """A limit on the letter, and why (the rubric in docs/mcp.md)."""

    letter: str
    reason: str


def _percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = max(0, math.ceil(share * len(ordered)) - 1)
    return ordered[rank]


@attrs.frozen
class ToolSummary:
    """One row of the Tools table."""

    name: str
    passed: int
    total: int
    inconclusive: int
    avg_latency_ms: float
    tokens: int


def _rate(results: Sequence[ScenarioResult]) -> float:
    judged = [r for r in results if r.verdict != "inconclusive"]
    if not judged:
        return 1.0
    return sum(1 for r in judged if r.verdict == "pass") / len(judged)


@attrs.frozen
class SurfaceMeasures:
    """The tool surface's token counts and provider compatibility, measured ahead (on a
    helper thread while the run waited on the server: see
    :func:`toolscore_mcp.grading.harness.grade_server`)."""

    budget: BudgetReport
    compatibility: tuple[ToolCompat, ...]


def measure_surface(tools: Sequence[MCPToolDef], instructions: str | None) -> SurfaceMeasures:
    """What :meth:`MCPScorecard.budget_report` and :meth:`MCPScorecard.compatibility` report
    (the budget's limits aside)."""
    return SurfaceMeasures(measure(tools, instructions), tuple(compatibility(tools)))


@attrs.frozen
class MCPScorecard:
    """Everything measured about one server, and the scores derived from it."""

    server: ServerDetails
    tools: tuple[MCPToolDef, ...]
    results: tuple[ScenarioResult, ...]
    lint: tuple[LintIssue, ...]
    #: Run notes that do not change the score (restarts, junk on stdout, ...).
    notes: tuple[str, ...] = ()
    restarts: int = 0
    crashes: int = 0
    junk_lines: int = 0
    #: Junk lines written during calls (not while starting): they count against the grade.
    call_junk_lines: int = 0
    #: Tools not called, with the reason (scenario-file skips, task-only tools).
    skipped: tuple[tuple[str, str], ...] = ()
    #: ``(placeholder, real value)`` of the run's sandbox (``{sandbox}``, ``{sandbox_url}``),
    #: so what the run learned can be saved with placeholders again.
    sandbox: tuple[tuple[str, str], ...] = ()
    #: What each protocol conformance check concluded (not part of the score).
    conformance: tuple[ConformanceOutcome, ...] = ()
    #: The ``--budget`` / ``--max-tools`` limits the run was held to (none by default).
    budget: Budget = attrs.field(factory=Budget)
    #: Changes from the ``--lock`` file's reviewed surface; ``None`` without ``--lock``.
    lock_changes: tuple[SurfaceChange, ...] | None = None
    #: The surface measured ahead, or None (measured when first asked for).
    measured: SurfaceMeasures | None = attrs.field(default=None, eq=False, repr=False)

    def budget_report(self) -> BudgetReport:
        """Tokens per tool and in total, near-duplicate descriptions, broken gates."""
        return self._budget_report

    def compatibility(self) -> list[ToolCompat]:
        """Which providers' function-calling APIs accept each tool's definition."""
        return list(self._compatibility)

    # Measured once per scorecard: the console, the reports and the gates each ask (on 46
    # tools, 80 ms for the budget and 100 ms for compatibility, every time).
    @functools.cached_property
    def _budget_report(self) -> BudgetReport:
        if self.measured is not None:
            return attrs.evolve(self.measured.budget, budget=self.budget)
        return measure(self.tools, self.instructions, self.budget)

    @functools.cached_property
    def _compatibility(self) -> tuple[ToolCompat, ...]:
        if self.measured is not None:
            return self.measured.compatibility
        return tuple(compatibility(self.tools))

    @property
    def conformance_failures(self) -> int:
        return sum(1 for outcome in self.conformance if outcome.status == "fail")

    @property
    def server_info(self) -> dict[str, str]:
        return self.server.info()

    @property
    def instructions(self) -> str | None:
        return self.server.instructions

    @property
    def happy_pass_rate(self) -> float:
        return _rate([r for r in self.results if r.scenario.kind == "happy"])

    @property
    def edge_resilience_rate(self) -> float:
        return _rate([r for r in self.results if r.scenario.kind == "edge"])

    @property
    def lint_errors(self) -> int:
        return sum(1 for issue in self.lint if issue.severity == "error")

    @property
    def lint_warnings(self) -> int:
        return sum(1 for issue in self.lint if issue.severity == "warning")

    @property
    def lint_score(self) -> float:
        penalty = 0.25 * self.lint_errors + 0.10 * self.lint_warnings
        return max(0.0, 1.0 - penalty / max(len(self.tools), 1))

    @property
    def score(self) -> float:
        """The weighted score; 0 for a server that advertises no tools (nothing a client
        could call passes, whatever the empty pass rates say), at most ``UNUSABLE_CAP``
        (never an A) when a client cannot use the tool list as sent."""
        if not self.tools:
            return 0.0
        total = math.fsum(
            (
                WEIGHTS["happy"] * self.happy_pass_rate,
                WEIGHTS["edge"] * self.edge_resilience_rate,
                WEIGHTS["lint"] * self.lint_score,
            )
        )
        if any(i.severity == "error" and i.rule in UNUSABLE_LIST_RULES for i in self.lint):
            total = min(total, UNUSABLE_CAP)
        return round(total, 12)

    @property
    def grade(self) -> str:
        """The score's letter, held down by every cap the evidence sets (:meth:`grade_caps`)."""
        letter = letter_grade(self.score)
        for cap in self.grade_caps():
            if GRADE_ORDER.index(cap.letter) > GRADE_ORDER.index(letter):
                letter = cap.letter
        return letter

    def grade_caps(self) -> list[GradeCap]:
        """What keeps this server from a better letter, worst first.

        * no tool could succeed in this environment, or none was verified: at best D;
        * fewer than half the tools verified: incomplete, at best C;
        * a class of defect across the server (errors reported as success, text on stdout
          during calls, crashes or timeouts on valid input): at best B, C when it touches
          most tools;
        * a broken tool: no A.
        """
        if not self.tools:
            return []
        rows = self.coverage()
        caps: list[GradeCap] = []
        working = [row for row in rows if row.status == "works"]
        environment = [
            row for row in rows if row.status == "needs" and row.needs in ENVIRONMENT_NEEDS
        ]
        if (
            not working
            and environment
            and len(environment) + self._count(rows, "skipped") == len(rows)
        ):
            caps.append(GradeCap("D", f"no tool can succeed here: {self.coverage_line()}"))
        elif not working and not any(row.status == "defect" for row in rows):
            caps.append(GradeCap("D", f"nothing verified: {self.coverage_line()}"))
        if self.incomplete:
            caps.append(GradeCap("C", f"incomplete: {self.coverage_line()}"))
        for cap in self._defect_class_caps(len(rows)):
            caps.append(cap)
        broken = self._count(rows, "defect")
        if broken:
            caps.append(GradeCap("B", f"{broken} broken tool(s)"))
        return sorted(caps, key=lambda cap: GRADE_ORDER.index(cap.letter), reverse=True)

    @staticmethod
    def _count(rows: Sequence[ToolCoverage], status: str) -> int:
        return sum(1 for row in rows if row.status == status)

    def _defect_class_caps(self, tool_count: int) -> list[GradeCap]:
        classes = {
            # Counted where the server's own error path was hit (an edge case, a conclusive
            # happy path, a contrast call on a missing target), not where a value we made up
            # was wrong and the answer mixed it with the tool's results.
            "errors reported as success": {
                r.scenario.tool
                for r in self.results
                if r.finding == "error-as-success" and r.verdict == "fail"
            },
            "crashes or timeouts on valid input": {
                r.scenario.tool
                for r in self.results
                if r.scenario.kind == "happy" and r.finding in ("crash", "timeout")
            },
        }
        caps: list[GradeCap] = []
        for what, tools in classes.items():
            if tools:
                letter = "C" if len(tools) * 2 > tool_count else "B"
                caps.append(GradeCap(letter, f"{what} in {len(tools)} of {tool_count} tools"))
        if self.call_junk_lines:
            caps.append(
                GradeCap("B", f"text on stdout during calls ({self.call_junk_lines} line(s))")
            )
        return caps

    @property
    def total_tool_tokens(self) -> int:
        return sum(tool_definition_tokens(tool) for tool in self.tools)

    @property
    def instructions_tokens(self) -> int:
        return context_tokens(self.instructions or "")

    @property
    def context_tokens(self) -> int:
        return self.total_tool_tokens + self.instructions_tokens

    @property
    def inconclusive_count(self) -> int:
        return sum(1 for r in self.results if r.verdict == "inconclusive")

    @property
    def blocking(self) -> bool:
        """Lint errors or failed scenarios: what ``--ci`` fails on without ``--fail-under``."""
        return self.lint_errors > 0 or any(r.verdict == "fail" for r in self.results)

    @property
    def blocking_strict(self) -> bool:
        """What ``--ci --strict`` fails on: also any inconclusive happy path."""
        return self.blocking or any(
            r.verdict == "inconclusive" and r.scenario.kind == "happy" for r in self.results
        )

    def coverage(self) -> list[ToolCoverage]:
        """Per tool (advertised order): could the run conclude whether it works?"""
        skipped = dict(self.skipped)
        rows: list[ToolCoverage] = []
        for tool in self.tools:
            if tool.name in skipped:
                rows.append(ToolCoverage(tool.name, "skipped", skipped[tool.name]))
                continue
            happy = [
                r
                for r in self.results
                if r.scenario.tool == tool.name and r.scenario.kind == "happy"
            ]
            passed = [r for r in happy if r.verdict == "pass"]
            # Broken on the sandbox's own untouched file: passes on files that the run's
            # other calls had changed first do not make up for it.
            if any(r.verdict == "fail" and r.scenario.on_fresh_copy for r in happy):
                rows.append(ToolCoverage(tool.name, "defect"))
            elif passed:
                proof = next((r.evidence for r in passed if r.evidence is not None), None)
                rows.append(ToolCoverage(tool.name, "works", evidence=proof))
            elif any(r.verdict == "fail" for r in happy):
                rows.append(ToolCoverage(tool.name, "defect"))
            elif happy:
                needs = [r.needs or "valid input" for r in happy if r.verdict == "inconclusive"]
                known = [n if n in _NEEDS_ORDER else "valid input" for n in needs]
                rows.append(ToolCoverage(tool.name, "needs", min(known, key=_NEEDS_ORDER.index)))
            else:
                rows.append(ToolCoverage(tool.name, "skipped", "not called"))
        return rows

    @property
    def verified_tools(self) -> int:
        """Tools the run reached a conclusion on: shown to work, or shown broken."""
        return sum(1 for row in self.coverage() if row.conclusive)

    #: The name earlier releases used.
    conclusive_tools = verified_tools

    @property
    def incomplete(self) -> bool:
        """True when fewer than half the tools were verified: the letter is at best C."""
        total = len(self.tools)
        return total > 0 and self.verified_tools / total < INCOMPLETE_BELOW

    #: The name earlier releases used.
    provisional = incomplete

    def coverage_line(self) -> str:
        """``verified 9 of 14 tools; 3 need network, 2 need setup``."""
        rows = self.coverage()
        counts: dict[str, int] = {}
        for row in rows:
            if row.status == "needs":
                key = "unverified" if row.needs == "evidence" else f"need {row.needs}"
                counts[key] = counts.get(key, 0) + 1
            elif row.status == "skipped":
                counts["skipped"] = counts.get("skipped", 0) + 1
        parts = [f"{n} {what}" for what, n in counts.items()]
        head = f"verified {self.verified_tools} of {len(rows)} tools"
        return head + (f"; {', '.join(parts)}" if parts else "")

    def latency_percentiles(self) -> dict[str, float]:
        """p50 and p95 call latency in ms, over answered calls (send to response)."""
        durations = [r.duration * 1000 for r in self.results if r.response is not None]
        return {
            "p50_ms": round(_percentile(durations, 0.50), 1),
            "p95_ms": round(_percentile(durations, 0.95), 1),
        }

    def tool_summaries(self) -> list[ToolSummary]:
        """Per tool, in advertised order (plus tools only seen in results)."""
        names = [tool.name for tool in self.tools]
        names += [r.scenario.tool for r in self.results if r.scenario.tool not in names]
        tokens = {tool.name: tool_definition_tokens(tool) for tool in self.tools}
        rows: list[ToolSummary] = []
        for name in dict.fromkeys(names):
            mine = [r for r in self.results if r.scenario.tool == name]
            judged = [r for r in mine if r.verdict != "inconclusive"]
            latency = round(sum(r.duration for r in mine) / len(mine) * 1000, 1) if mine else 0.0
            rows.append(
                ToolSummary(
                    name=name,
                    passed=sum(1 for r in judged if r.verdict == "pass"),
                    total=len(judged),
                    inconclusive=len(mine) - len(judged),
                    avg_latency_ms=latency,
                    tokens=tokens.get(name, 0),
                )
            )
        return rows

    def fixes(self, limit: int | None = None) -> list[FixSuggestion]:
        return build_fix_list(self, limit)


def _first_per_tool(results: Sequence[ScenarioResult], wanted: Any) -> list[ScenarioResult]:
    seen: set[str] = set()
    chosen: list[ScenarioResult] = []
    for result in results:
        if wanted(result) and result.scenario.tool not in seen:
            seen.add(result.scenario.tool)
            chosen.append(result)
    return chosen


def build_fix_list(card: MCPScorecard, limit: int | None = None) -> list[FixSuggestion]:
    """Ranked fixes: failing happy paths, crashes on bad input and errors reported as
    success, lint errors, then lint warnings and inputs we could not construct."""
    tools = {tool.name: tool for tool in card.tools}
    fixes: list[FixSuggestion] = []
    happy_fails = _first_per_tool(
        card.results,
        lambda r: (
            r.scenario.kind == "happy" and r.verdict == "fail" and r.finding != "error-as-success"
        ),
    )
    for result in happy_fails:
        if result.finding == "output-schema":
            fixes.append(
                FixSuggestion(
                    result.scenario.tool,
                    f"returns output that breaks its outputSchema ({result.detail})",
                    FIX_OUTPUT_SCHEMA,
                    0,
                )
            )
        else:
            fixes.append(
                FixSuggestion(
                    result.scenario.tool,
                    f"fails on valid input ({result.detail or 'no detail'})",
                    FIX_HAPPY,
                    0,
                )
            )
    for result in _first_per_tool(
        card.results,
        lambda r: r.scenario.kind == "edge" and not r.ok and r.finding != "error-as-success",
    ):
        fixes.append(
            FixSuggestion(
                result.scenario.tool,
                f"crashes on bad input ({result.detail or 'no detail'})",
                FIX_EDGE,
                1,
            )
        )
    for result in _first_per_tool(card.results, lambda r: r.finding == "error-as-success"):
        detail = result.detail.removeprefix("error reported as success: ")
        fixes.append(
            FixSuggestion(
                result.scenario.tool,
                f"error reported as success (isError is false: {detail})",
                FIX_ERROR_AS_SUCCESS,
                1,
            )
        )
    for issue in card.lint:
        priority = 2 if issue.severity == "error" else 3
        fixes.append(
            FixSuggestion(issue.tool, issue.message, issue.fix or FIX_LINT_DEFAULT, priority)
        )
    for result in _first_per_tool(
        card.results,
        lambda r: r.verdict == "inconclusive" and r.needs not in ENVIRONMENT_NEEDS,
    ):
        tool = tools.get(result.scenario.tool) or MCPToolDef(name=result.scenario.tool)
        what = f"for {result.argument!r}" if result.argument else "for it"
        detail = result.detail.removeprefix("error reported as success: ")
        fixes.append(
            FixSuggestion(
                result.scenario.tool,
                f"could not construct valid input {what} ({detail})",
                schema_hint_fix(tool, result.argument, detail),
                3,
            )
        )
    fixes.sort(key=lambda fix: (fix.priority, fix.tool))
    fixes = _most_urgent_per_tool(fixes)
    return fixes if limit is None else fixes[:limit]


def _most_urgent_per_tool(fixes: list[FixSuggestion]) -> list[FixSuggestion]:
    """One fix per tool (its most urgent); server-wide fixes (no tool) are all kept."""
    seen: set[str] = set()
    kept: list[FixSuggestion] = []
    for fix in fixes:
        if fix.tool and fix.tool in seen:
            continue
        seen.add(fix.tool)
        kept.append(fix)
    return kept
