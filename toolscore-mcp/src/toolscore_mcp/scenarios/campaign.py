"""The happy-path campaign: who is called when, with what, and how rejections are repaired.

Tools run in phases by what they do to state (:mod:`toolscore_mcp.values.roles`): creators and
openers, other producers, readers that need no arguments (listings), the other readers and
modifiers, destroyers, and last the destroyers of things the other destroyers act on. Before
each phase its tools' argument sets are built from evidence
(:mod:`toolscore_mcp.values.synthesizer`), so readers see the ids and names the producers
returned (:mod:`toolscore_mcp.values.harvest`) and destroyers remove what the run made. Within a phase calls run concurrently.
After a phase, each tool that has no passing call and whose rejection carried a hint is
repaired and called again, at most :data:`MAX_REPAIRS` times (:mod:`toolscore_mcp.values.repair`).
Edge cases run last, built on each tool's first happy-path arguments.

Every call passes :mod:`toolscore_mcp.scenarios.safety` first: our relative paths are made
absolute in the sandbox, and a destructive tool whose target is not the sandbox's or this
run's own is held back (:attr:`Campaign.withheld`). A happy path refused by the server's
policy or a start option, and a network tool's timeout or connection error on a machine
without a network, are the environment's, not the server's (:meth:`Campaign._environment`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from toolscore_mcp.client.content import content_to_text
from toolscore_mcp.model import Attempt, MCPToolDef, Scenario, ScenarioResult, SetupCall
from toolscore_mcp.scenarios.runner import ServerHandle, run_scenarios
from toolscore_mcp.scenarios.safety import absolute_paths, destructive_refusal
from toolscore_mcp.values.meaning import path_kind, wants_new_path
from toolscore_mcp.values.providers import SynthesisContext, ValueProviderSpec, name_tokens
from toolscore_mcp.values.repair import repair_arguments
from toolscore_mcp.values.roles import (
    is_destructive,
    is_renamer,
    makes_new,
    run_order,
    tool_nouns,
    tool_phase,
)
from toolscore_mcp.values.synthesizer import ToolSynthesizer

__all__ = ["MAX_REPAIRS", "Campaign"]

MAX_REPAIRS = 3
#: How many of a tool's rejected happy paths are repaired, one after the other.
_REPAIRED_SETS = 2

Progress = Callable[[int, int, str], None]


#: What a tool's happy paths may all have lacked for it to get a second chance.
_SECOND_CHANCE_NEEDS = frozenset({"setup", "valid input"})


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
    #: The sandbox folder: our relative paths go there, destructive targets must be there.
    folder: Path | None = None
    #: Send destructive calls whatever their target (``--allow-destructive``).
    allow_destructive: bool = False
    #: Tool name -> why its calls were not sent (destructive, target not ours).
    withheld: dict[str, list[str]] = attrs.field(factory=dict)
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
        phases: dict[tuple[int, int], list[MCPToolDef]] = {}
        for tool in self.tools:
            phases.setdefault(run_order(tool, self.tools), []).append(tool)
        edge_count = 3 if self.edge_cases else 0
        self._total = len(self.tools) * (max(self.cases, 1) + edge_count) + len(extra)
        results: list[ScenarioResult] = []
        for phase in sorted(phases):
            results += await self._run_phase(phases[phase])
        results = await self._second_chance(results)
        results += await self._run_batch([*self._edge_scenarios(results), *extra])
        return results

    async def _list_again(self, results: Sequence[ScenarioResult]) -> None:
        """Call each listing (a reader that needs no arguments) that passed once more, for
        what the run made since it first ran; only the harvest keeps the answers."""
        again: dict[str, Scenario] = {}
        for result in results:
            tool = self._by_name.get(result.scenario.tool)
            if (
                tool is not None
                and result.verdict == "pass"
                and result.scenario.kind == "happy"
                and run_order(tool, self.tools) == (2, 0)
            ):
                again.setdefault(tool.name, result.scenario)
        if again:
            self._harvest(await self._run_batch(list(again.values())))

    async def _second_chance(self, results: list[ScenarioResult]) -> list[ScenarioResult]:
        """Once more, in order, each tool that only lacked state or valid input, if what this
        run has since made or learned gives it other arguments (an id a later tool returned,
        a file a repair of another tool found).

        The phases order tools by what their names and descriptions say; a tool that makes
        things without saying so (``split_tasks`` returning new task ids) runs among the
        readers, after some of those that need what it makes.
        """
        if self.context.harvested is None:
            return results
        lacking = {
            r.scenario.tool
            for r in results
            if r.scenario.kind == "happy" and r.needs in _SECOND_CHANCE_NEEDS
        }
        if not lacking:
            return results
        await self._list_again(results)
        for tool in self.tools:
            mine = [
                index
                for index, result in enumerate(results)
                if result.scenario.tool == tool.name and result.scenario.kind == "happy"
            ]
            if (
                tool.name not in lacking
                or not mine
                or tool.name in self.planned
                or any(results[index].needs not in _SECOND_CHANCE_NEEDS for index in mine)
            ):
                continue
            # Built now, after the earlier second chances: a destroyer's target may be what
            # one of them just made. The required arguments first; a tool that refuses them
            # (an update with nothing to change) gets the set with its optional values too.
            for scenario in self._again(tool, [results[i].scenario.arguments for i in mine]):
                [result] = await self._run_batch([scenario], concurrency=1)
                settled = await self._settle_again(results[mine[0]], result)
                if settled is not results[mine[0]]:
                    results[mine[0]] = settled
                    break
        return results

    def _again(self, tool: MCPToolDef, sent: list[dict[str, Any]]) -> list[Scenario]:
        """Up to two new happy paths for ``tool`` from what the run knows now (none that
        repeats a call already sent)."""
        self._synthesizers.pop(tool.name, None)  # candidates from what is known now
        scenarios: list[Scenario] = []
        for chosen in self.synthesizer(tool).argument_sets(2):
            arguments = absolute_paths(tool, chosen.arguments, chosen.evidence, self.folder)
            if arguments in sent or not self._may_send(tool, arguments, chosen.evidence):
                continue
            sent = [*sent, arguments]
            scenarios.append(
                Scenario(
                    tool.name,
                    arguments,
                    "happy",
                    "happy path, once more with what later calls made",
                    setup=chosen.setup,
                    evidence=chosen.evidence,
                )
            )
        return scenarios

    async def _settle_again(self, before: ScenarioResult, result: ScenarioResult) -> ScenarioResult:
        """``before`` replaced by the second chance ``result`` when it (or its repair)
        passed; else ``before``."""
        tool = self._by_name[result.scenario.tool]
        if result.verdict != "pass" and result.category == "rejected-input":
            result = await self._repair_one(tool, result)  # its hint, as in the phases
        result = self._environment(result)
        if result.verdict != "pass":
            return before
        attempt = Attempt(
            dict(before.scenario.arguments), before.detail, "tried again after later calls"
        )
        self._harvest([result])
        return attrs.evolve(result, attempts=(*before.attempts, attempt))

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
                scenario = Scenario(
                    tool.name,
                    absolute_paths(tool, chosen.arguments, chosen.evidence, self.folder),
                    "happy",
                    f"happy path #{index + 1} ({chosen.label})",
                    setup=chosen.setup,
                    evidence=chosen.evidence,
                )
                if self._may_send(tool, scenario.arguments, scenario.evidence):
                    scenarios.append(scenario)
        # Calls that change the server's state go one at a time: a store that rewrites its
        # file on every call loses concurrent writes, and the readers need what they made.
        changes_state = all(tool_phase(tool) <= 1 for tool in tools)
        results = await self._run_batch(scenarios, concurrency=1 if changes_state else None)
        results = await self._repair(results)
        results = [self._environment(result) for result in results]
        self._harvest(results)
        return results

    def _may_send(
        self, tool: MCPToolDef, arguments: Mapping[str, Any], evidence: Mapping[str, str]
    ) -> bool:
        """False (and the reason kept) for a destructive call whose target is not ours."""
        if self.allow_destructive or not is_destructive(tool):
            return True
        harvest = self.context.harvested
        known = harvest.made if harvest is not None else None
        reason = destructive_refusal(tool, arguments, evidence, self.folder, known)
        if reason is None:
            return True
        self.withheld.setdefault(tool.name, []).append(reason)
        return False

    def _environment(self, result: ScenarioResult) -> ScenarioResult:
        """A failed happy path that the server's policy or a missing network explains:
        inconclusive, category ``environment``, with the fix in the run's notes."""
        from toolscore_mcp.grading.classify import policy_fix

        if result.scenario.kind != "happy" or result.verdict == "pass":
            return result
        if result.category == "environment" and result.needs != "network":
            return result
        text = content_to_text(result.response.content) if result.response else ""
        fix = policy_fix(text or result.detail) if result.response is not None else None
        if fix is not None:
            self.notes.append(f"{result.scenario.tool}: {fix}.")
            return attrs.evolve(
                result,
                verdict="inconclusive",
                finding="inconclusive",
                category="environment",
                needs="policy",
            )
        tool = self._by_name.get(result.scenario.tool)
        offline_kind = result.finding in ("timeout", "transport") or result.needs == "network"
        if tool is not None and offline_kind and _network_tool(tool):
            from toolscore_mcp.grading.network import has_network

            if not has_network():
                return attrs.evolve(
                    result,
                    verdict="inconclusive",
                    finding="inconclusive",
                    category="environment",
                    needs="network",
                )
        return result

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

    async def _run_batch(
        self, scenarios: Sequence[Scenario], concurrency: int | None = None
    ) -> list[ScenarioResult]:
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
            concurrency=concurrency or self.concurrency,
            on_result=tick,
        )

    # -- repair ------------------------------------------------------------------------------

    async def _repair(self, results: list[ScenarioResult]) -> list[ScenarioResult]:
        """Retry each tool's first rejected happy path with the hint applied (bounded); when
        that does not pass, its next one (the set with the optional values may be the one
        the server can take: a position that makes the call add to a sheet, not make one)."""
        passed = {r.scenario.tool for r in results if r.verdict == "pass"}
        repaired: dict[str, int] = {}
        for position, result in enumerate(results):
            tool = self._by_name.get(result.scenario.tool)
            if (
                tool is None
                or tool.name in passed
                or repaired.get(tool.name, 0) >= _REPAIRED_SETS
                or result.scenario.kind != "happy"
                or result.category != "rejected-input"
                or result.scenario.tool in self.planned
            ):
                continue
            repaired[tool.name] = repaired.get(tool.name, 0) + 1
            results[position] = await self._repair_one(tool, result)
            if results[position].verdict == "pass":
                passed.add(tool.name)
        return results

    async def _repair_one(self, tool: MCPToolDef, result: ScenarioResult) -> ScenarioResult:
        attempts: list[Attempt] = []
        current = result
        spent = 0
        # Putting back a value the server accepted earlier in this run (its kind of file) is
        # no guess: it does not count against the budget, once per tool.
        for _ in range(MAX_REPAIRS + 1):
            text = content_to_text(current.response.content) if current.response else ""
            fixed = repair_arguments(
                self.synthesizer(tool), current.scenario.arguments, text or current.detail
            )
            if fixed is None:
                break
            arguments, change = fixed
            if not self._may_send(tool, arguments, current.scenario.evidence):
                break
            if not self._relearned(current.scenario.arguments, arguments):
                spent += 1
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
                self._learn(tool, arguments, evidence)
            if current.category != "rejected-input" or spent >= MAX_REPAIRS:
                break
        if not attempts:
            return result
        return attrs.evolve(current, attempts=tuple(attempts))

    def _relearned(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
        """Did a repair only put back values an earlier repair of this run got accepted?"""
        learned = self.context.learned
        changed = [name for name in after if after[name] != before.get(name)]
        return bool(changed) and all(
            name in learned and learned[name] == after[name] for name in changed
        )

    def _learn(
        self, tool: MCPToolDef, arguments: Mapping[str, Any], evidence: Mapping[str, str]
    ) -> None:
        """What a repaired call that passed taught: the value for every parameter of that
        name, and a folder, repository or database path for every later path of its kind."""
        synthesizer = self.synthesizer(tool)
        for name, value in arguments.items():
            if evidence.get(name) != "repair" or name not in synthesizer.properties:
                continue
            self.context.learned.setdefault(name, value)
            kind = path_kind(synthesizer.parameter(name))
            suffix = Path(value).suffix if kind == "file" and isinstance(value, str) else ""
            if suffix:
                # "must point to an Excel file": every later file of that name is one.
                self.context.paths.setdefault(f"extension:{name}", suffix.lower())
            if kind in ("repository", "database", "directory") and isinstance(value, str):
                self.context.paths.setdefault(kind, value)

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
        arguments = result.scenario.arguments
        producer = tool_phase(tool) < 2
        harvest.add_call(tool.name, arguments, result.response, include_arguments=producer)
        if (producer or is_renamer(tool)) and makes_new(tool, arguments):
            # What a renamer named is the run's now; the old name is gone.
            harvest.add_creation(sorted(tool_nouns(tool)), tool.name, arguments)
            if not producer:
                harvest.mark_made([v for k, v in arguments.items() if "new" in name_tokens(str(k))])
        if not producer:
            return
        synthesizer = self.synthesizer(tool)
        for name, value in arguments.items():
            if (
                name in synthesizer.properties
                and isinstance(value, str)
                and wants_new_path(synthesizer.parameter(name))
                and path_kind(synthesizer.parameter(name)) == "file"
                and Path(value).is_absolute()
                and Path(value).is_file()
            ):
                harvest.add_created("file", value, tool.name, arguments)

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
            for edge in edge_cases_for(tool, scenario.arguments, scenario.setup):
                # Values the edge case kept are as sure as the happy path's; new ones are ours.
                evidence = {
                    name: scenario.evidence.get(name, "generated")
                    for name, value in edge.arguments.items()
                    if scenario.arguments.get(name) == value
                }
                arguments = absolute_paths(tool, edge.arguments, evidence, self.folder)
                if self._may_send(tool, arguments, evidence):
                    scenarios.append(attrs.evolve(edge, arguments=arguments))
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


_NETWORK_WORDS = frozenset(
    {"url", "uri", "http", "https", "web", "website", "fetch", "download", "internet", "online",
     "search", "browse", "browser", "crawl", "scrape", "host", "hostname", "domain", "endpoint",
     "webpage"}
)  # fmt: skip


def _network_tool(tool: MCPToolDef) -> bool:
    """Does the tool reach out over the network: annotated open-world, or its name, its
    parameters or its description speak of URLs, hosts, the web or downloads?"""
    import re

    from toolscore_mcp.values.providers import name_tokens

    annotations = tool.raw.get("annotations")
    if isinstance(annotations, Mapping) and annotations.get("openWorldHint") is True:
        return True
    properties = tool.input_schema.get("properties") if tool.input_schema else None
    words = set(name_tokens(tool.name))
    for name in properties if isinstance(properties, Mapping) else ():
        words |= set(name_tokens(str(name)))
    words |= set(re.findall(r"[a-z]+", (tool.description or "").lower()))
    return bool(words & _NETWORK_WORDS)


def _repaired_source(synthesizer: ToolSynthesizer, name: str, value: Any) -> str:
    """Where a repaired value came from: one of the argument's own candidates keeps that
    candidate's evidence (a second enum value is as certain as the first); anything else
    the repair made up from the server's hint is ``repair``."""
    for candidate in synthesizer.candidates(name):
        if candidate.value == value and type(candidate.value) is type(value):
            return candidate.source
    return "repair"
