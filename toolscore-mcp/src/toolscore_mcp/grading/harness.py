"""Put the pieces together: connect, list, discover, plan, run, lint, score.

``grade_server`` is what ``toolscore mcp test`` and ``toolscore demo`` run;
``query_server`` is what ``mcp list`` and ``mcp lint`` need. Both are coroutines; run them
with :func:`run_sync` from synchronous code.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

import attrs

from toolscore_mcp.client.base import junk_note
from toolscore_mcp.client.errors import MCPError, MCPProtocolError, MCPTimeoutError
from toolscore_mcp.client.prelaunch import Prelaunched
from toolscore_mcp.client.session import MCPConnection
from toolscore_mcp.client.target import DEFAULT_STARTUP_TIMEOUT, ServerTarget
from toolscore_mcp.grading.placement import (
    NO_SANDBOX,
    Placement,
    first_connection,
    outside_notes,
    place_in_sandbox,
    withheld_destructive,
)
from toolscore_mcp.grading.scorecard import MCPScorecard
from toolscore_mcp.model import MCPToolDef, Scenario, ServerDetails
from toolscore_mcp.sandbox.lazy import LazySandbox
from toolscore_mcp.scenarios.campaign import Campaign
from toolscore_mcp.scenarios.runner import DEFAULT_CONCURRENCY, ServerHandle
from toolscore_mcp.values.discovery import discover_values
from toolscore_mcp.values.generate import ValueContext
from toolscore_mcp.values.schema_subset import schema_is_valid

__all__ = ["TestOptions", "grade_server", "query_server", "run_sync"]

T = TypeVar("T")


@attrs.frozen
class TestOptions:
    __test__ = False  # not a pytest test class, despite the name

    """How ``mcp test`` exercises a server."""

    cases: int = 3
    edge_cases: bool = True
    timeout: float = 30.0
    concurrency: int = DEFAULT_CONCURRENCY
    #: Call tools that list valid values/roots first, and use what they say.
    discover: bool = True
    #: ``auto`` (the small client for stdio servers, the SDK for HTTP and SSE), ``sdk`` (the
    #: official SDK's ClientSession always) or ``lite`` (see :mod:`toolscore_mcp.client.lite`).
    client: str = "auto"
    #: Seconds the server may take to start and answer ``initialize``.
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT
    #: Give the run a sandbox (files, a git repository, a database, a loopback web server)
    #: for ``{sandbox}`` in the command and for path and URL arguments.
    sandbox: bool = True
    #: A scenario file (YAML or JSON) whose arguments, setup and skips come first.
    scenarios: str | None = None
    #: An ``mcp record`` session whose successful calls give arguments that worked.
    recorded: str | None = None
    #: Called with (done, total, tool) as calls settle (the live progress display).
    progress: Any = attrs.field(default=None, eq=False)
    #: The server, started by the command ahead of the run (:mod:`toolscore_mcp.client.prelaunch`);
    #: the run's first connection takes it over, and the run ends it if unclaimed.
    prelaunched: Prelaunched | None = attrs.field(default=None, eq=False)
    #: Call destructive tools even when their target is not the sandbox's or this run's own.
    allow_destructive: bool = False
    #: The run's sandbox, reserved by the command before it started the server (so the
    #: server could start in it), and closed by it after the run; the run reserves (and
    #: closes) one itself when this is None.
    reserved: LazySandbox | None = attrs.field(default=None, eq=False)


def run_sync(coroutine_factory: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine to completion on a fresh event loop (plain asyncio: see
    :mod:`toolscore_mcp.client.aio`)."""
    from toolscore_mcp.client.aio import run

    async def main() -> T:
        return await coroutine_factory()

    return run(main)


async def query_server(
    target: ServerTarget,
    timeout: float = 30.0,
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
) -> tuple[ServerDetails, list[MCPToolDef]]:
    """Handshake and ``tools/list``; raises :class:`MCPError` with a one-line message.

    A stdio server runs in a throw-away folder (its working directory, HOME, TMPDIR and XDG
    folders, see :mod:`toolscore_mcp.sandbox.environment`); one that cannot start there is
    started as the user gave it."""
    import shutil
    import tempfile

    from toolscore_mcp.sandbox.environment import isolate

    folder = Path(tempfile.mkdtemp(prefix="toolscore-server-")).resolve()
    try:
        isolated = isolate(target, folder).target
        try:
            async with _connection(isolated, timeout, startup_timeout, "auto") as connection:
                return connection.details, await connection.list_tools()
        except (MCPTimeoutError, MCPProtocolError):
            raise
        except MCPError:
            if isolated == target:
                raise
        async with _connection(target, timeout, startup_timeout, "auto") as connection:
            return connection.details, await connection.list_tools()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _connection(
    target: ServerTarget,
    timeout: float,
    startup_timeout: float,
    client: str,
    prelaunched: Prelaunched | None = None,
) -> MCPConnection:
    """A connection (not yet opened) to ``target`` with the chosen client: the small stdio
    client for stdio servers unless ``client`` is ``sdk``; the SDK for HTTP and SSE. The small
    client takes over ``prelaunched`` when it was launched as it would launch ``target``."""
    if client != "sdk" and target.transport == "stdio":
        from toolscore_mcp.client.lite import LiteConnection

        lite = LiteConnection(
            target, timeout, startup_timeout=startup_timeout, prelaunched=prelaunched
        )
        return cast(MCPConnection, lite)  # the same interface, duck-typed
    return MCPConnection(target, timeout, startup_timeout=startup_timeout)


def _needs_tasks(tool: MCPToolDef) -> bool:
    execution = tool.raw.get("execution")
    return isinstance(execution, Mapping) and execution.get("taskSupport") == "required"


def _extra_scenarios(tools: Sequence[MCPToolDef], pm: Any) -> list[Scenario]:
    """The scenarios plugins add per tool (``toolscore_mcp_extra_scenarios``).

    Each implementation is called on its own through the manager's ``call_each``: a plugin
    that raises is recorded by the manager (named on stderr, skipped in this hook for the
    rest of the run) and the other plugins' scenarios still run.
    """
    if pm is None or not pm.has_hookspec("toolscore_mcp_extra_scenarios"):
        return []
    extra: list[Scenario] = []
    for tool in tools:
        for _plugin, produced in pm.call_each("toolscore_mcp_extra_scenarios", tool=tool):
            extra.extend(s for s in produced or () if isinstance(s, Scenario))
    return extra


def _import_jsonschema_if_needed(tools: list[MCPToolDef]) -> None:
    """Import jsonschema now if a tool's schema is beyond :mod:`toolscore_mcp.values.schema_subset`.

    Verdicts validate against schemas; importing jsonschema (about 50 ms) in the middle of
    the run would stall the event loop and inflate the latencies of calls in flight. Plain
    schemas never need it.
    """
    schemas = [s for tool in tools for s in (tool.input_schema, tool.output_schema) if s]
    if any(schema_is_valid(schema) is not True for schema in schemas):
        import jsonschema.validators  # noqa: F401


async def grade_server(
    target: ServerTarget, options: TestOptions | None = None, *, pm: Any = None
) -> MCPScorecard:
    """The full scorecard for one server; raises :class:`MCPError` only if it cannot start
    or list its tools."""
    from toolscore_mcp.registry import ensure_mcp_hooks

    options = options or TestOptions()
    if pm is None:
        from toolscore.plugins import get_plugin_manager

        pm = get_plugin_manager()
    ensure_mcp_hooks(pm)
    plan_file = _load_plan(options)
    recorded = _load_recorded(options)
    sandbox = options.reserved or _make_sandbox(options)
    placement = Placement(target, "" if target.transport != "stdio" else NO_SANDBOX)
    if sandbox is not None:
        placement = place_in_sandbox(target, sandbox.fill_target(target), sandbox)

    async def opener() -> MCPConnection:
        connection = _connection(
            placement.target,
            options.timeout,
            options.startup_timeout,
            options.client,
            options.prelaunched,
        )
        return await connection.__aenter__()

    server = ServerHandle(opener)
    if sandbox is not None:
        server.escaping_value = sandbox.escaping_value
    try:
        run = await _exercise(server, placement, options, pm, plan_file, recorded, sandbox)
    finally:
        if options.reserved is not None:
            # The caller closes the sandbox after the report: the server may stop meanwhile.
            options.reserved.after(await server.close_in_background())
        else:
            await server.close()
        if options.prelaunched is not None:
            options.prelaunched.discard()
        if sandbox is not None and options.reserved is None:
            sandbox.close()  # a sandbox the caller reserved is the caller's to close
    return _scorecard(run, server.stats, sandbox, pm)


@attrs.define
class _Run:
    """What one run against a live server found, before it is scored."""

    details: ServerDetails
    tools: list[MCPToolDef]
    listing_problems: list[Any]
    results: list[Any]
    notes: list[str]
    skipped: list[tuple[str, str]]
    conformance: list[Any]
    measured: Any = None


async def _exercise(
    server: ServerHandle,
    placement: Placement,
    options: TestOptions,
    pm: Any,
    plan_file: Any,
    recorded: Any,
    sandbox: LazySandbox | None,
) -> _Run:
    """Connect, list, discover, run the campaign and the evidence probes, check conformance."""
    from toolscore_mcp.grading.background import in_background
    from toolscore_mcp.grading.evidence import establish_evidence
    from toolscore_mcp.grading.scorecard import measure_surface
    from toolscore_mcp.values.synthesizer import collect_value_providers

    first = await first_connection(server, placement)
    if options.prelaunched is not None:
        options.prelaunched.discard()  # launched otherwise than the run does: not needed
    tools = await first.list_tools()
    measured = in_background(lambda: measure_surface(tools, first.details.instructions))
    _import_jsonschema_if_needed(tools)
    discovered, notes = (
        await discover_values(first, tools, options.timeout)
        if options.discover
        else (ValueContext(), [])
    )
    providers, problems = collect_value_providers(pm)
    planned, file_notes, skipped = _planned_from_file(plan_file, tools, sandbox)
    notes += problems + file_notes
    skipped += [
        (tool.name, "requires task-augmented execution, which toolscore does not exercise")
        for tool in tools
        if _needs_tasks(tool)
    ]
    skipped_names = {name for name, _ in skipped}
    runnable = [tool for tool in tools if tool.name not in skipped_names]
    campaign = _campaign(
        server, runnable, providers, discovered, recorded, sandbox, planned, options,
        placement.target.command,
    )  # fmt: skip
    results = await campaign.run(_extra_scenarios(runnable, pm))
    results = await establish_evidence(
        server,
        {tool.name: tool for tool in runnable},
        results,
        timeout=options.timeout,
        concurrency=options.concurrency,
    )
    notes += campaign.notes
    skipped += withheld_destructive(campaign.withheld, {r.scenario.tool for r in results})
    notes += outside_notes(placement, runnable, results)
    details = first.details
    conformance = await _conformance(server, placement.target, details, tools, results, options, pm)
    return _Run(
        details,
        tools,
        list(first.listing_problems),
        results,
        notes,
        skipped,
        conformance,
        _or_none(measured),
    )


def _or_none(result: Callable[[], T]) -> T | None:
    """A background result, or None when its work failed (the scorecard then measures again
    where it is asked, and that is where a failure shows)."""
    try:
        return result()
    except Exception:
        return None


def _scorecard(run: _Run, stats: Any, sandbox: LazySandbox | None, pm: Any) -> MCPScorecard:
    notes = run.notes + _server_notes(stats)
    lint = _lint_findings(run.listing_problems, run.tools, run.details.instructions, pm)
    return MCPScorecard(
        server=run.details,
        tools=tuple(run.tools),
        results=tuple(run.results),
        lint=tuple(lint),
        notes=tuple(dict.fromkeys(notes)),
        restarts=stats.restarts,
        crashes=stats.crashes,
        junk_lines=stats.junk_lines,
        call_junk_lines=stats.call_junk_lines,
        skipped=tuple(run.skipped),
        sandbox=sandbox.placeholders() if sandbox is not None else (),
        conformance=tuple(run.conformance),
        measured=run.measured,
    )


def _lint_findings(
    listing_problems: Sequence[Any], tools: Sequence[MCPToolDef], instructions: str | None, pm: Any
) -> list[Any]:
    """The scorecard's lint list: problems of the tools/list answer itself, then the rules'."""
    from toolscore_mcp.lint import lint_tools
    from toolscore_mcp.rules.validity import listing_issues

    return listing_issues(listing_problems) + lint_tools(tools, instructions, pm=pm)


def _campaign(
    server: ServerHandle,
    runnable: list[MCPToolDef],
    providers: Any,
    discovered: ValueContext,
    recorded: Any,
    sandbox: LazySandbox | None,
    planned: dict[str, list[Scenario]],
    options: TestOptions,
    server_command: Sequence[str] = (),
) -> Campaign:
    """The run's campaign over the runnable tools: the synthesis context (sandbox, values
    discovered from listings, the recorded session) and the options' limits."""
    from toolscore_mcp.values.command_line import command_line_paths
    from toolscore_mcp.values.harvest import Harvest
    from toolscore_mcp.values.providers import SynthesisContext

    context = SynthesisContext(
        sandbox=sandbox,
        known_values=discovered.known_values,
        roots=discovered.roots,
        harvested=Harvest(),
        recorded=recorded,
        paths=command_line_paths(server_command),
    )
    return Campaign(
        server=server,
        tools=runnable,
        providers=providers,
        context=context,
        cases=options.cases,
        edge_cases=options.edge_cases,
        timeout=options.timeout,
        concurrency=options.concurrency,
        planned=planned,
        progress=options.progress,
        folder=sandbox.reserved if sandbox is not None else None,
        allow_destructive=options.allow_destructive,
    )


def _planned_from_file(
    plan_file: Any, tools: Sequence[MCPToolDef], sandbox: LazySandbox | None
) -> tuple[dict[str, list[Scenario]], list[str], list[tuple[str, str]]]:
    """The scenario file's scenarios by tool (sandbox placeholders filled in), its notes,
    and the tools it says to skip with their reasons; all empty without a file."""
    planned: dict[str, list[Scenario]] = {}
    if plan_file is None:
        return planned, [], []
    from toolscore_mcp.scenarios.file_plans import plans_for

    file_scenarios, file_notes = plans_for(plan_file, tools)
    for scenario in file_scenarios:
        if sandbox is not None:
            scenario = attrs.evolve(
                scenario,
                arguments=sandbox.substitute_all(scenario.arguments),
                setup=sandbox.substitute_all(scenario.setup),
            )
        planned.setdefault(scenario.tool, []).append(scenario)
    skipped = [(name, plan.skip) for name, plan in plan_file.tools.items() if plan.skip]
    return planned, list(file_notes), skipped


def _server_notes(stats: Any) -> list[str]:
    """Run notes about how the server behaved: junk on stdout, restarts, a missing credential."""
    notes: list[str] = []
    if stats.junk_lines:
        note = junk_note(stats.junk_lines, stats.first_junk, stats.junk_binary)
        notes.append(f"the server {note}; stdout must carry only protocol messages.")
    if stats.restarts:
        notes.append(f"the server was restarted {stats.restarts} time(s) after crashes or hangs.")
    if stats.missing_credential:
        notes.append(
            f"the server's stderr says a credential is missing: {stats.missing_credential}"
        )
    return notes


async def _conformance(
    server: ServerHandle,
    target: ServerTarget,
    details: ServerDetails,
    tools: Sequence[MCPToolDef],
    results: Sequence[Any],
    options: TestOptions,
    pm: Any,
) -> list[Any]:
    """Run the conformance checks while the session is still open (a server that can no
    longer be reached gets only the checks that need no session)."""
    from toolscore_mcp.conformance import (
        ConformanceContext,
        collect_conformance_checks,
        run_conformance,
    )

    try:
        connection: Any = await server.get()
    except MCPError:
        connection = None
    context = ConformanceContext(
        details=details,
        tools=tuple(tools),
        results=tuple(results),
        connection=connection,
        target=target,
        timeout=options.timeout,
    )
    return await run_conformance(collect_conformance_checks(pm), context)


def _load_plan(options: TestOptions) -> Any:
    if not options.scenarios:
        return None
    from toolscore_mcp.scenarios.file_reader import load_scenario_file

    return load_scenario_file(options.scenarios)


def _load_recorded(options: TestOptions) -> dict[str, list[dict[str, Any]]]:
    """Tool -> argument sets that succeeded in an ``mcp record`` session."""
    if not options.recorded:
        return {}
    from toolscore_mcp.scenarios.recording import scenarios_from_recording

    document = scenarios_from_recording(options.recorded)
    out: dict[str, list[dict[str, Any]]] = {}
    for name, plan in (document.get("tools") or {}).items():
        sets = plan.get("arguments") if isinstance(plan, Mapping) else None
        if isinstance(sets, Mapping):
            sets = [sets]
        if isinstance(sets, list):
            out[name] = [dict(s) for s in sets if isinstance(s, Mapping)]
    return out


def _make_sandbox(options: TestOptions) -> LazySandbox | None:
    """The run's sandbox: its folder reserved now, its contents built on first use."""
    return LazySandbox.reserve() if options.sandbox else None
