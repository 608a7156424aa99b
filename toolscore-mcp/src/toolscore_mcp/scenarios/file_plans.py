"""The scenarios a scenario file asks for: one per listed call, with its setup and expectation.

:func:`plans_for` is what ``mcp test --scenarios`` uses in place of generated arguments for
the tools the file names.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from toolscore_mcp.model import MCPToolDef, Scenario
from toolscore_mcp.scenarios.file_model import EVIDENCE, ScenarioFile, ToolPlan

__all__ = ["plans_for"]


def _tool_scenarios(name: str, plan: ToolPlan) -> list[Scenario]:
    return [
        Scenario(
            tool=name,
            arguments=copy.deepcopy(arguments),
            kind="happy",
            description=f"scenario file #{number}",
            setup=plan.setup,
            evidence=dict.fromkeys(arguments, EVIDENCE),
            expect=plan.expect,
        )
        for number, arguments in enumerate(plan.arguments, start=1)
    ]


def plans_for(
    scenario_file: ScenarioFile, tools: Sequence[MCPToolDef]
) -> tuple[list[Scenario], list[str]]:
    """The happy-path scenarios the file pins for the server's ``tools``, and notes.

    Called by the harness in place of generated happy paths for the tools the file names.
    Scenarios come in file order; skipped tools get none (see :attr:`ScenarioFile.skipped`).
    A tool (or setup tool) the server does not list is a note, never an error: a file may
    cover several versions of a server.
    """
    listed = {tool.name for tool in tools}
    scenarios: list[Scenario] = []
    notes: list[str] = []
    for name, plan in scenario_file.tools.items():
        if name not in listed:
            notes.append(f"scenario file names tool {name!r}, which the server does not list")
            continue
        notes.extend(
            f"scenario file's setup for {name!r} calls {step.tool!r}, which the server does not list"
            for step in plan.setup
            if step.tool not in listed
        )
        if plan.skip is None:
            scenarios.extend(_tool_scenarios(name, plan))
    return scenarios, notes
