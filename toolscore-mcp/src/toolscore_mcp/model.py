"""Value types of the MCP scorecard: tools, scenarios, results, lint issues, fixes.

Frozen attrs classes, built by the client, the scenario generator, the runner and the lint
rules, and read by the scorecard and the reports. Nothing here imports the ``mcp`` SDK, so
saved tool lists can be linted offline without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import attrs
from toolscore.diff import FixSuggestion

__all__ = [
    "FRESH_COPY",
    "SANDBOX_TEXT",
    "Attempt",
    "FixSuggestion",
    "LintIssue",
    "MCPToolDef",
    "MCPToolResult",
    "Scenario",
    "ScenarioResult",
    "ServerDetails",
    "SetupCall",
]

Severity = Literal["error", "warning"]
ScenarioKind = Literal["happy", "edge"]
#: ``pass`` and ``fail`` count towards the pass rates; ``inconclusive`` (we could not build
#: input the server accepts) counts towards neither.
Verdict = Literal["pass", "fail", "inconclusive"]


def _schema(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, Mapping) else {}


@attrs.frozen
class MCPToolDef:
    """One tool as the server advertised it in ``tools/list``."""

    name: str
    description: str = ""
    #: The ``inputSchema`` object; ``{}`` when it was missing or not an object.
    input_schema: dict[str, Any] = attrs.field(factory=dict, converter=_schema)
    #: The ``outputSchema`` object, when the tool declares one.
    output_schema: dict[str, Any] | None = None
    #: The tool entry exactly as received (for saved tool lists and reports).
    raw: dict[str, Any] = attrs.field(factory=dict, eq=False, repr=False)

    @classmethod
    def from_wire(cls, entry: Mapping[str, Any]) -> MCPToolDef:
        """Build from a ``tools/list`` entry, keeping odd values visible to lint."""
        output = entry.get("outputSchema")
        return cls(
            name=str(entry.get("name", "")),
            description=str(entry.get("description") or ""),
            input_schema=entry.get("inputSchema"),
            output_schema=dict(output) if isinstance(output, Mapping) else None,
            raw=dict(entry),
        )


@attrs.frozen
class MCPToolResult:
    """What one ``tools/call`` returned (a JSON-RPC error becomes ``is_error=True``)."""

    content: Any
    is_error: bool
    duration: float
    #: ``structuredContent`` when present.
    structured: Any = None
    #: The JSON-RPC ``result`` (or ``error``) object.
    raw: dict[str, Any] = attrs.field(factory=dict, eq=False, repr=False)
    #: The JSON-RPC error code when the server answered with an error instead of a result.
    rpc_error_code: int | None = None

    @property
    def text(self) -> str:
        from toolscore_mcp.client.content import content_to_text

        return content_to_text(self.content)


@attrs.frozen
class ServerDetails:
    """What the server said about itself during the handshake."""

    name: str = ""
    version: str = ""
    protocol_version: str = ""
    instructions: str | None = None
    capabilities: dict[str, Any] = attrs.field(factory=dict)
    #: Where it runs: the argv for stdio, the URL for HTTP.
    target: str = ""
    transport: str = "stdio"

    def info(self) -> dict[str, str]:
        """``{"name", "version"}`` as the reports show it."""
        return {"name": self.name, "version": self.version}


@attrs.frozen
class SetupCall:
    """A call another scenario depends on: made (and its output harvested) before it."""

    tool: str
    arguments: dict[str, Any] = attrs.field(factory=dict)


#: Evidence of a path argument: a file the sandbox wrote for this one call, with the bytes of
#: the sandbox's own file of that kind (no earlier call of the run has changed it).
FRESH_COPY = "fresh-copy"
#: Evidence of a text argument: a line that file holds, so a tool that looks for it must
#: find it.
SANDBOX_TEXT = "sandbox-text"


@attrs.frozen
class Scenario:
    """One planned tool call."""

    tool: str
    arguments: dict[str, Any]
    kind: ScenarioKind
    description: str
    #: Calls that produced values this one uses (ids, paths), in the order they ran.
    setup: tuple[SetupCall, ...] = ()
    #: Where each argument's value came from: ``scenario-file``, ``recorded``, ``schema``,
    #: ``description``, ``meaning``, ``harvested``, ``generated``, ``repair``,
    #: :data:`FRESH_COPY`, :data:`SANDBOX_TEXT`.
    evidence: dict[str, str] = attrs.field(factory=dict, eq=False)
    #: What the result must look like (from a scenario file), or None.
    expect: Any = attrs.field(default=None, eq=False)

    @property
    def on_fresh_copy(self) -> bool:
        """Was the call given a fresh copy of a sandbox file (:data:`FRESH_COPY`)?"""
        return FRESH_COPY in self.evidence.values()


@attrs.frozen
class Evidence:
    """What shows that a happy-path call worked (an answer without ``isError`` shows nothing).

    ``kind``: ``expectation`` (a scenario file's ``expect`` was met), ``output-schema``
    (structuredContent valid against the declared outputSchema),
    ``contrast`` (the same call with a value that surely does not exist failed, and its answer
    differs from ours), ``round-trip`` (what a producer wrote, a reader returned), ``answer``
    (a call with no input to vary answered with content that reads as a result).
    """

    kind: str
    excerpt: str

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "excerpt": self.excerpt}


@attrs.frozen
class Attempt:
    """One rejected try of a scenario, and what was changed for the next one."""

    arguments: dict[str, Any]
    detail: str
    repair: str = ""


@attrs.frozen
class ScenarioResult:
    """The outcome of one scenario.

    ``ok`` is the plain pass/fail (a happy call without an error, an edge call that got
    any answer). ``verdict`` refines it: a happy call rejected because *our* generated input was
    invalid is ``inconclusive`` and counts neither way. ``finding`` names a problem worth a
    fix even when the call passed (``error-as-success``, ``output-schema``, ...).
    """

    scenario: Scenario
    ok: bool
    is_error: bool
    duration: float
    detail: str
    verdict: Verdict = "pass"
    #: Machine-readable kind of problem: ``failure``, ``timeout``, ``crash``, ``transport``,
    #: ``inconclusive``, ``error-as-success``, ``output-schema``; ``None`` when clean.
    finding: str | None = None
    #: The argument our input got wrong (for ``inconclusive``), when we could tell.
    argument: str | None = None
    #: For a failed happy path: ``defect``, ``rejected-input`` or ``environment``.
    category: str | None = None
    #: What an ``environment`` result lacked: ``network``, ``credentials``, ``rate-limit``,
    #: ``binary``; for ``rejected-input``: ``setup`` when the server blamed missing state.
    needs: str | None = None
    #: Earlier tries of this scenario that were rejected and repaired (oldest first).
    attempts: tuple[Attempt, ...] = ()
    #: Why a passed happy path counts as working: its kind (``output-schema``, ``contrast``,
    #: ``round-trip``, ``answer``) and an excerpt of what shows it; ``None`` when nothing does.
    evidence: Evidence | None = None
    #: The server's answer, when it answered (for harvesting values; not compared).
    response: MCPToolResult | None = attrs.field(default=None, eq=False, repr=False)


@attrs.frozen
class LintIssue:
    """A problem found in what the server advertises."""

    tool: str
    severity: Severity
    message: str
    fix: str = ""
    #: The rule that found it (``prop-type``, ``dangling-reference``, ...).
    rule: str = ""
