"""Conformance judged from the run's tool results.

* ``output-schema`` (2025-06-18): a tool that declares an ``outputSchema`` returns
  ``structuredContent`` that validates against it, on every answered call that was not an
  error. The verdicts already fail such a happy path; this names the requirement.
* ``bad-input-error`` (2025-11-25, SEP-1303): arguments that break the tool's input schema
  come back as a tool result with ``isError: true``, which the model can read and correct,
  not as a JSON-RPC protocol error. Each edge case records which of four things happened
  (:func:`edge_outcome`); only protocol errors to schema-invalid input fail the check.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Literal

from toolscore import hookimpl

from toolscore_mcp.conformance import ConformanceCheckSpec, ConformanceContext, ConformanceFinding
from toolscore_mcp.model import MCPToolDef, ScenarioResult
from toolscore_mcp.values.schema_subset import instance_is_valid

__all__ = ["EDGE_OUTCOMES", "edge_outcome", "edge_outcome_counts"]

EdgeOutcome = Literal["is-error", "protocol-error", "accepted", "crash"]
#: The four outcomes of bad input, in report order.
EDGE_OUTCOMES: tuple[EdgeOutcome, ...] = ("is-error", "protocol-error", "accepted", "crash")

FIX_OUTPUT_SCHEMA = (
    "Return structuredContent that validates against the declared outputSchema (or correct "
    "the schema); clients that check results reject these calls."
)
FIX_BAD_INPUT = (
    "Answer invalid arguments with a tool result {isError: true, content: [text saying what "
    "is wrong]} instead of a JSON-RPC error, so the model can read it and retry."
)


def edge_outcome(result: ScenarioResult) -> EdgeOutcome:
    """What bad input got: an ``isError`` result, a JSON-RPC error, a normal result
    (silently accepted), or no answer at all (crash, hang, lost connection)."""
    response = result.response
    if response is None:
        return "crash"
    if response.rpc_error_code is not None:
        return "protocol-error"
    return "is-error" if response.is_error else "accepted"


def edge_outcome_counts(results: Iterable[ScenarioResult]) -> dict[str, int]:
    """``{outcome: count}`` over the edge cases, every outcome present."""
    counts: dict[str, int] = dict.fromkeys(EDGE_OUTCOMES, 0)
    for result in results:
        if result.scenario.kind == "edge":
            counts[edge_outcome(result)] += 1
    return counts


def _breaks_schema(tool: MCPToolDef | None, arguments: Mapping[str, Any]) -> bool:
    if tool is None or not tool.input_schema:
        return False
    answer = instance_is_valid(tool.input_schema, dict(arguments))
    if answer is not None:
        return not answer
    from jsonschema.validators import Draft202012Validator, validator_for

    try:
        validator = validator_for(tool.input_schema, default=Draft202012Validator)
        return (
            next(iter(validator(tool.input_schema).iter_errors(dict(arguments))), None) is not None
        )
    except Exception:  # an unusable schema is lint's business
        return False


def _output_schema(context: ConformanceContext) -> Iterator[ConformanceFinding]:
    seen: set[str] = set()
    for result in context.results:
        if result.finding == "output-schema" and result.scenario.tool not in seen:
            seen.add(result.scenario.tool)
            yield ConformanceFinding(
                result.scenario.tool, result.detail, FIX_OUTPUT_SCHEMA, "error"
            )


def _bad_input(context: ConformanceContext) -> Iterator[ConformanceFinding]:
    tools = {tool.name: tool for tool in context.tools}
    seen: set[str] = set()
    for result in context.results:
        name = result.scenario.tool
        if result.scenario.kind != "edge" or name in seen:
            continue
        if edge_outcome(result) != "protocol-error":
            continue
        if not _breaks_schema(tools.get(name), result.scenario.arguments):
            continue
        seen.add(name)
        code = result.response.rpc_error_code if result.response is not None else None
        yield ConformanceFinding(
            name,
            f"schema-invalid arguments got a JSON-RPC error {code} instead of an isError "
            f"result ({result.scenario.description})",
            FIX_BAD_INPUT,
        )


@hookimpl
def toolscore_mcp_register_conformance_checks() -> Iterable[ConformanceCheckSpec]:
    yield ConformanceCheckSpec(
        "output-schema",
        _output_schema,
        summary="structuredContent validates against the tool's outputSchema",
        needs="results",
        since="2025-06-18",
        order=20,
    )
    yield ConformanceCheckSpec(
        "bad-input-error",
        _bad_input,
        summary="invalid arguments come back as an isError result, not a protocol error",
        needs="results",
        since="2025-11-25",
        order=30,
    )
