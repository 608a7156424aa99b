"""The happy-path campaign: who is called when, with what, and how rejections are repaired.

Tools run in phases by what they do to state (:mod:`toolscore_mcp.values.roles`): creators, other
producers, readers and modifiers, destroyers. Before each phase its tools' argument sets are
built from evidence (:mod:`toolscore_mcp.values.synthesizer`), so readers see the ids and names the
producers returned (:mod:`toolscore_mcp.values.harvest`). Within a phase calls run concurrently.
After a phase, each tool that has no passing call and whose rejection carried a hint is
repaired and called again, at most :data:`MAX_REPAIRS` times (:mod:`toolscore_mcp.values.repair`).
Edge cases run last, built on each tool's first happy-path arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from toolscore_mcp.client.content import content_to_text
from toolscore_mcp.model import Attempt, MCPToolDef, Scenario, ScenarioResult, SetupCall
from toolscore_mcp.scenarios.runner import ServerHandle, run_scenarios
from toolscore_mcp.values.providers import SynthesisContext, ValueProviderSpec
from toolscore_mcp.values.repair import repair_arguments
from toolscore_mcp.values.roles import tool_phase
from toolscore_mcp.values.synthesizer import ToolSynthesizer

__all__ = ["MAX_REPAIRS", "Campaign"]

MAX_REPAIRS = 2

Progress = Callable[[int, int, str], None]


@attrs.define
class Campaign:
    """One run's happy paths and edge cases against one server."""

    server: ServerHandle
    tools: Sequence[MCPToolDef]
    providers: Sequence[ValueProviderSpec]
    context: SynthesisContext
    cases: int = 3
    edge_cases: bool = True
    timeout: float = 30.0
    concurrency: int = 10
    #: Tool name -> happy scenarios from the user's scenario file (replace synthesis).
    planned: Mapping[str, Sequence[Scenario]] = attrs.field(factory=dict)
    progress: Progress | None = None
    notes: list[str] = attrs.field(factory=list)
    _synthesizers: dict[str, ToolSynthesizer] = attrs.field(factory=dict, init=False)
    _done: int = attrs.field(default=0, init=False)
    _total: int = attrs.field(default=0, init=False)

    #: The tools by name, built once (every batch and every result looks tools up).
    _by_name: dict[str, MCPToolDef] = attrs.field(init=False)

    @_by_name.default
    def _index_tools(self) -> dict[str, MCPToolDef]:
        return {tool.name: tool for tool in self.tools}

    def synthesizer(self, tool: MCPToolDef) -> ToolSynthesizer:
        if tool.name not in self._synthesizers:
            self._synthesizers[tool.name] = ToolSynthesizer(
                tool, self.providers, self.context, notes=self.notes
            )
        return self._synthesizers[tool.name]

    async def run(self, extra: Sequence[Scenario] = ()) -> list[ScenarioResult]:
        """Every phase, the repairs, then the edge cases and plugin scenarios."""
        phases: dict[int, list[MCPToolDef]] = {}
        for tool in self.tools:
            phases.setdefault(tool_phase(tool), []).append(tool)
        edge_count = 3 if self.edge_cases else 0
        self._total = len(self.tools) * (max(self.cases, 1) + edge_count) + len(extra)
        results: list[ScenarioResult] = []
        for phase in sorted(phases):
            results += await self._run_phase(phases[phase])
        results += await self._run_batch([*self._edge_scenarios(results), *extra])
        return results

    # -- phases ------------------------------------------------------------------------------

    async def _run_phase(self, tools: Sequence[MCPToolDef]) -> list[ScenarioResult]:
        scenarios: list[Scenario] = []
        for tool in tools:
            if tool.name in self.planned:
                planned = list(self.planned[tool.name])
                await self._run_setup(planned)
                scenarios += planned
                continue
            for index, chosen in enumerate(self.synthesizer(tool).argument_sets(self.cases)):
                scenarios.append(
                    Scenario(
                        tool.name,
                        chosen.arguments,
                        "happy",
                        f"happy path #{index + 1} ({chosen.label})",
                        setup=chosen.setup,
                        evidence=chosen.evidence,
                    )
                )
        results = await self._run_batch(scenarios)
        results = await self._repair(results)
        self._harvest(results)
        return results

    async def _run_setup(self, scenarios: Sequence[Scenario]) -> None:
        """Calls a scenario file asks for first; their outputs are harvested."""
        seen: set[str] = set()
        for scenario in scenarios:
            for call in scenario.setup:
                key = f"{call.tool}:{sorted(call.arguments.items())!r}"
                if key in seen:
                    continue
                seen.add(key)
                setup = Scenario(call.tool, dict(call.arguments), "happy", "setup")
                [outcome] = await run_scenarios(
                    self.server, [setup], self._by_name, timeout=self.timeout, concurrency=1
                )
                if outcome.verdict == "pass" and outcome.response is not None:
                    self._harvest_one(outcome)
                else:
                    self.notes.append(
                        f"setup call {call.tool} for {scenario.tool} failed: {outcome.detail}"
                    )

    async def _run_batch(self, scenarios: Sequence[Scenario]) -> list[ScenarioResult]:
        if not scenarios:
            return []

        def tick(result: ScenarioResult) -> None:
            self._done += 1
            if self.progress is not None:
                self.progress(self._done, max(self._total, self._done), result.scenario.tool)

        return await run_scenarios(
            self.server,
            scenarios,
            self._by_name,
            timeout=self.timeout,
            concurrency=self.concurrency,
            on_result=tick,
        )

    # -- repair ------------------------------------------------------------------------------

    async def _repair(self, results: list[ScenarioResult]) -> list[ScenarioResult]:
        """Retry each tool's first rejected happy path with the hint applied (bounded)."""
        passed = {r.scenario.tool for r in results if r.verdict == "pass"}
        for position, result in enumerate(results):
            tool = self._by_name.get(result.scenario.tool)
            if (
                tool is None
                or tool.name in passed
                or result.scenario.kind != "happy"
                or result.category != "rejected-input"
                or result.scenario.tool in self.planned
            ):
                continue
            passed.add(tool.name)  # one repaired scenario per tool
            results[position] = await self._repair_one(tool, result)
        return results

    async def _repair_one(self, tool: MCPToolDef, result: ScenarioResult) -> ScenarioResult:
        attempts: list[Attempt] = []
        current = result
        for _ in range(MAX_REPAIRS):
            text = content_to_text(current.response.content) if current.response else ""
            fixed = repair_arguments(
                self.synthesizer(tool), current.scenario.arguments, text or current.detail
            )
            if fixed is None:
                break
            arguments, change = fixed
            attempts.append(Attempt(dict(current.scenario.arguments), current.detail, change))
            evidence = dict(current.scenario.evidence)
            for name in arguments:
                if arguments[name] != current.scenario.arguments.get(name):
                    evidence[name] = _repaired_source(self.synthesizer(tool), name, arguments[name])
            scenario = attrs.evolve(
                current.scenario,
                arguments=arguments,
                evidence=evidence,
                description=f"{result.scenario.description}, repaired",
            )
            [current] = await run_scenarios(
                self.server, [scenario], self._by_name, timeout=self.timeout, concurrency=1
            )
            if current.verdict == "pass":
                for name in arguments:
                    if evidence.get(name) == "repair":
                        self.context.learned.setdefault(name, arguments[name])
            if current.category != "rejected-input":
                break
        if not attempts:
            return result
        return attrs.evolve(current, attempts=tuple(attempts))

    # -- harvest -----------------------------------------------------------------------------

    def _harvest(self, results: Sequence[ScenarioResult]) -> None:
        for result in results:
            if result.verdict == "pass" and result.response is not None:
                self._harvest_one(result)

    def _harvest_one(self, result: ScenarioResult) -> None:
        harvest = self.context.harvested
        tool = self._by_name.get(result.scenario.tool)
        if harvest is None or tool is None or result.response is None:
            return
        harvest.add_call(
            tool.name,
            result.scenario.arguments,
            result.response,
            include_arguments=tool_phase(tool) < 2,
        )

    # -- edge cases --------------------------------------------------------------------------

    def _edge_scenarios(self, results: Sequence[ScenarioResult]) -> list[Scenario]:
        if not self.edge_cases:
            return []
        base: dict[str, Scenario] = {}
        for result in results:
            if result.scenario.kind == "happy":
                base.setdefault(result.scenario.tool, result.scenario)
        scenarios: list[Scenario] = []
        for tool in self.tools:
            scenario = base.get(tool.name)
            if scenario is None:
                continue
            scenarios += edge_cases_for(tool, scenario.arguments, scenario.setup)
        return scenarios


def edge_cases_for(
    tool: MCPToolDef, arguments: Mapping[str, Any], setup: tuple[SetupCall, ...] = ()
) -> list[Scenario]:
    """Missing required argument, a wrong-typed value, empty values: built on valid arguments."""
    from toolscore_mcp.scenarios.generate import edge_case_arguments

    return [
        Scenario(tool.name, args, "edge", f"edge case: {what}", setup=setup)
        for args, what in edge_case_arguments(tool.input_schema, dict(arguments))
    ]


def _repaired_source(synthesizer: ToolSynthesizer, name: str, value: Any) -> str:
    """Where a repaired value came from: one of the argument's own candidates keeps that
    candidate's evidence (a second enum value is as certain as the first); anything else
    the repair made up from the server's hint is ``repair``."""
    for candidate in synthesizer.candidates(name):
        if candidate.value == value and type(candidate.value) is type(value):
            return candidate.source
    return "repair"
