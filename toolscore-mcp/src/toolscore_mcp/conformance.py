"""Protocol conformance checks: the registry, what a check sees, and the runner.

A conformance check tests one requirement of the MCP specification that a tool definition,
a tool result or a live session must meet (results carry ``structuredContent`` matching
their ``outputSchema``, ``tools/list`` is stable, HTTP servers refuse a foreign ``Origin``,
...). Checks come through toolscore-mcp's own hook
``toolscore_mcp_register_conformance_checks``, built-in ones included, like lint rules.

Unlike lint rules they do not feed the score: they are shown in every report (and as SARIF
results) so a server's author sees which requirement failed and how to fix it. A check whose
requirement appeared in a newer protocol revision than the server negotiated is reported
"not applicable", never as a failure; one that needs a live session or an HTTP transport is
"not run" without them.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, Literal

import attrs

from toolscore_mcp.model import MCPToolDef, ScenarioResult, ServerDetails
from toolscore_mcp.registry import BUILTIN_CHECK_MODULES, ensure_mcp_hooks, gather_specs

__all__ = [
    "BUILTIN_CHECK_MODULES",
    "ConformanceCheckSpec",
    "ConformanceContext",
    "ConformanceFinding",
    "ConformanceOutcome",
    "NotApplicable",
    "collect_conformance_checks",
    "run_conformance",
]

#: What a check needs: the advertised tools only, the run's results, an open session, or
#: an open session over streamable HTTP.
Needs = Literal["definitions", "results", "session", "http"]
Status = Literal["pass", "fail", "not-applicable", "not-run"]


class NotApplicable(Exception):
    """Raised by a check that finds, once running, that its requirement does not apply
    (an HTTP server that needs no credentials has no 401 to check); the message says why."""


@attrs.frozen
class ConformanceFinding:
    """One breach of a requirement (the check's name is filled in by the runner)."""

    tool: str
    message: str
    fix: str = ""
    severity: Literal["error", "warning"] = "warning"
    rule: str = ""


@attrs.frozen
class ConformanceContext:
    """Everything a check may look at."""

    details: ServerDetails
    tools: tuple[MCPToolDef, ...]
    results: tuple[ScenarioResult, ...] = ()
    #: An open connection (``request(method, params, timeout)``) for session checks.
    connection: Any = None
    #: The :class:`toolscore_mcp.client.target.ServerTarget` (URL and headers for HTTP checks).
    target: Any = None
    timeout: float = 30.0


@attrs.frozen
class ConformanceCheckSpec:
    """One conformance check.

    ``check(context)`` returns (or, when a coroutine function, resolves to) an iterable of
    :class:`ConformanceFinding`; no finding means the requirement holds. ``since`` is the
    protocol revision that introduced the requirement (``YYYY-MM-DD``): against a server that
    negotiated an older one the check is not applicable.
    """

    name: str
    check: Callable[[ConformanceContext], Iterable[ConformanceFinding] | Awaitable[Any]]
    summary: str = ""
    needs: Needs = "definitions"
    since: str = ""
    order: int = 1000


@attrs.frozen
class ConformanceOutcome:
    """What one check concluded for one server."""

    rule: str
    status: Status
    summary: str = ""
    #: Why a check did not apply or was not run.
    note: str = ""
    findings: tuple[ConformanceFinding, ...] = ()


def protocol_at_least(negotiated: str, since: str) -> bool:
    """Does the negotiated revision include a requirement from ``since``? Revisions are
    dates, so they compare as strings; an unknown (empty) revision is assumed current."""
    return not since or not negotiated or negotiated >= since


def collect_conformance_checks(pm: Any = None) -> list[ConformanceCheckSpec]:
    """Every registered check, by ``order`` then name; a broken plugin is skipped with a
    warning on stderr (as for lint rules)."""

    if pm is None:
        from toolscore.plugins import get_plugin_manager

        pm = get_plugin_manager()
    ensure_mcp_hooks(pm)
    specs, _, problems = gather_specs(
        pm, "toolscore_mcp_register_conformance_checks", ConformanceCheckSpec, "conformance check"
    )
    for problem in problems:
        print(f"toolscore: {problem}", file=sys.stderr)
    return sorted(specs.values(), key=lambda spec: (spec.order, spec.name))


def _skip_reason(spec: ConformanceCheckSpec, context: ConformanceContext) -> tuple[Status, str]:
    if not protocol_at_least(context.details.protocol_version, spec.since):
        return "not-applicable", (
            f"needs protocol {spec.since}; the server negotiated {context.details.protocol_version}"
        )
    if spec.needs in ("session", "http") and context.connection is None:
        return "not-run", "needs a live session"
    if spec.needs == "http" and context.details.transport != "http":
        return "not-applicable", "streamable HTTP only"
    return "pass", ""


async def run_conformance(
    specs: Sequence[ConformanceCheckSpec], context: ConformanceContext
) -> list[ConformanceOutcome]:
    """Run every check that applies; a check that raises is reported "not run" with the
    error, never stopping the others."""
    import inspect

    outcomes: list[ConformanceOutcome] = []
    for spec in specs:
        status, note = _skip_reason(spec, context)
        if status != "pass":
            outcomes.append(ConformanceOutcome(spec.name, status, spec.summary, note))
            continue
        try:
            produced = spec.check(context)
            if inspect.isawaitable(produced):
                produced = await produced
            findings = tuple(
                f if f.rule else attrs.evolve(f, rule=spec.name)
                for f in produced or ()
                if isinstance(f, ConformanceFinding)
            )
        except NotApplicable as exc:
            outcomes.append(ConformanceOutcome(spec.name, "not-applicable", spec.summary, str(exc)))
            continue
        except Exception as exc:  # a check's bug must not end the run
            message = " ".join(str(exc).split())[:200] or type(exc).__name__
            outcomes.append(ConformanceOutcome(spec.name, "not-run", spec.summary, message))
            continue
        outcomes.append(
            ConformanceOutcome(
                spec.name, "fail" if findings else "pass", spec.summary, "", findings
            )
        )
    return outcomes


def definition_conformance(
    tools: Sequence[MCPToolDef], details: ServerDetails, pm: Any = None
) -> list[ConformanceOutcome]:
    """The checks that need only the tool definitions (``mcp lint``), run synchronously."""
    from toolscore_mcp.client.aio import run

    specs = [s for s in collect_conformance_checks(pm) if s.needs == "definitions"]
    context = ConformanceContext(details=details, tools=tuple(tools))

    async def main() -> list[ConformanceOutcome]:
        return await run_conformance(specs, context)

    return run(main)
