"""What shows that a tool worked: an answer without ``isError`` is not enough.

A server may answer a call it could not serve with a success-shaped message ("no data for
X", an empty list, a template). So after the campaign each tool that passed a happy path is
given positive evidence, or loses its pass:

* ``output-schema``: its ``structuredContent`` validates against its declared outputSchema;
* ``contrast``: the same call, with each value that names an existing thing (an id, a path, a
  table, a key) or selects what to look up replaced by one that surely does not exist, got a
  *different* answer, once the values we sent are masked out of both. If both answers have
  the same shape, our call hit the same path as a call on nothing: it did not work. When the
  replaced value names a thing, answering a missing thing without ``isError`` is also an
  error reported as success;
* ``expectation``: a scenario file said what the answer must be, and it was;
* ``answer``: a tool with nothing to vary (no arguments, or only free text and options), a
  producer (a fresh name is as valid as ours) or a destructive tool (it is never sent a target
  the run did not make), whose answer has content that reads as a result.

A pass with none of these becomes ``inconclusive`` (needs ``evidence``), with the reason.

The same probes look for errors reported as success on the tool's own error paths: a contrast
answer that says it failed (in prose or JSON) without ``isError`` is one, whatever else it
shows. Producers get the contrast call for that alone (a fresh value is as valid as ours, so
it proves nothing about success), and a tool with a position parameter (an offset, a start
index, a page) is also asked for a position far past any content. Tools that answer a
question about existence ("does it exist?", "is it valid?") are never flagged for saying no.
Probe calls run concurrently, after every phase, and are not scored.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Mapping, Sequence
from pathlib import PurePath
from typing import Any

import attrs
from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.grading.verdicts import answer_text, excerpt, output_problem, reports_failure
from toolscore_mcp.model import Evidence, MCPToolDef, MCPToolResult, Scenario, ScenarioResult
from toolscore_mcp.scenarios.runner import ServerHandle, run_scenarios
from toolscore_mcp.values.meaning import wants_new_path
from toolscore_mcp.values.providers import Parameter, name_tokens
from toolscore_mcp.values.roles import is_destructive, tool_role

__all__ = ["contrast_arguments", "establish_evidence", "same_shape"]

#: Parameter words that name an existing thing: a wrong value is a "not found".
_NAMING_WORDS = frozenset(
    {"id", "ids", "uuid", "key", "handle", "identifier", "ref", "sha", "hash", "name", "table",
     "collection", "document", "doc", "task", "project", "session", "index", "slug", "path",
     "file", "filename", "filepath", "dir", "directory", "folder", "repo", "repository", "db",
     "database", "sheet", "worksheet", "workbook", "branch", "column", "record", "item", "note",
     "entity", "node", "user", "page", "channel", "namespace", "bucket", "object", "resource"}
)  # fmt: skip
#: Parameter words of free text: any value is as good as ours, so nothing to contrast.
_FREE_WORDS = frozenset(
    {"content", "contents", "text", "body", "message", "msg", "comment", "description",
     "prompt", "thought", "summary", "observation", "observations", "caption", "reason", "memo",
     "details", "title", "subject", "label", "data", "value", "values", "format", "language",
     "lang", "mode", "type", "kind", "encoding", "sort", "order", "style", "template"}
)  # fmt: skip
#: Values that change from one call to the next, masked before answers are compared.
_VOLATILE = lazy_pattern(
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"
    r"|\b\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\b"
    r"|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"
    r"|\b\d+(?:\.\d+)?\s?(?:ms|s|µs|us|sec|seconds)\b",
    re.IGNORECASE,
)
_MISSING_NUMBER = 987_654_321
#: A position past the end of any sandbox content (its files are a few KB), yet small enough
#: for a server that counts up to it: a numbering start sent 987,654,321 made one real server
#: allocate gigabytes.
_PAST_THE_END = 1_000_000
#: Description words (near its start) of a value that names what the call makes.
_NEW_THING_WORDS = frozenset({"output", "new", "destination", "created"})
#: Integer parameter words that place a read inside the content: past the end is an error path.
_POSITION_WORDS = frozenset({"offset", "start", "skip", "page", "from", "cursor", "begin"})
#: Tool-name words of a yes/no question, where "does not exist" is a right answer.
_QUESTION_WORDS = frozenset(
    {"exists", "exist", "check", "validate", "verify", "lint", "test", "is", "has", "can"}
)


def _parameter(tool: MCPToolDef, name: str) -> Parameter:
    properties = tool.input_schema.get("properties") if tool.input_schema else None
    schema = properties.get(name) if isinstance(properties, Mapping) else None
    return Parameter(tool, name, schema if isinstance(schema, Mapping) else {})


def _names_a_new_thing(param: Parameter) -> bool:
    """Does the value name what the call makes ("Name of the output file", a destination
    path)? Any fresh value is as valid as ours there, so it cannot be contrasted."""
    description = str(param.schema.get("description") or "")
    lead = set(name_tokens(" ".join(description.split()[:6])))
    return bool(lead & _NEW_THING_WORDS) or wants_new_path(param)


def _contrast_kind(tool: MCPToolDef, name: str, value: Any) -> str | None:
    """``naming`` (the value names an existing thing), ``lookup`` (it selects what is looked
    up or computed), or None (free text, an option, a number, a flag: nothing to contrast)."""
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], (str, int)):
        value = value[0]  # one path or id in a list: contrasted as that one
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    param = _parameter(tool, name)
    if "enum" in param.schema or "const" in param.schema:
        return None
    if _names_a_new_thing(param):
        return None
    tokens = set(name_tokens(name))
    if tokens & _NAMING_WORDS and not (tokens & _FREE_WORDS and "name" not in tokens):
        return "naming"
    if isinstance(value, int):
        return None
    if tokens & _FREE_WORDS or not value.strip():
        return None
    return "lookup"


def _missing_value(value: Any, tag: str) -> Any:
    """A value of the same form as ``value`` that surely names nothing."""
    if isinstance(value, list):
        return [_missing_value(value[0], tag)]
    if isinstance(value, int):
        return _MISSING_NUMBER
    text = str(value)
    if re.fullmatch(
        r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", text
    ):
        return "00000000-0000-4000-8000-" + tag[:12].rjust(12, "0")
    if text.isdigit():
        return str(_MISSING_NUMBER)
    if "/" in text or "\\" in text:
        path = PurePath(text)
        return str(path.with_name(f"toolscore-missing-{tag}{path.suffix}"))
    suffix = PurePath(text).suffix if re.fullmatch(r"[\w.-]+\.\w{1,5}", text) else ""
    return f"toolscore-missing-{tag}{suffix}"


def contrast_arguments(
    tool: MCPToolDef, arguments: Mapping[str, Any], tag: str
) -> tuple[dict[str, Any], tuple[str, ...], bool] | None:
    """The arguments of the contrast call, the replaced names, and whether one of them names
    a thing; None when nothing can be contrasted."""
    replaced: list[str] = []
    naming = False
    contrast = dict(arguments)
    for name, value in arguments.items():
        kind = _contrast_kind(tool, name, value)
        if kind is None:
            nested = _nested_contrast(value, tag)
            if nested is not None:  # [{"path": ..., "file_hash": ...}]: the names inside
                contrast[name] = nested
                replaced.append(name)
                naming = True
            continue
        contrast[name] = _missing_value(value, tag)
        replaced.append(name)
        naming = naming or kind == "naming"
    return (contrast, tuple(replaced), naming) if replaced else None


def _nested_contrast(value: Any, tag: str, depth: int = 0) -> Any:
    """``value`` (an object, or a list of one) with each field that names a thing (a path,
    an id) replaced by one that names nothing; None when it has no such field."""
    if depth > 3:
        return None
    if isinstance(value, list) and len(value) == 1:
        inner = _nested_contrast(value[0], tag, depth + 1)
        return None if inner is None else [inner]
    if not isinstance(value, Mapping):
        return None
    out = dict(value)
    changed = False
    for key, field in value.items():
        tokens = set(name_tokens(str(key)))
        if isinstance(field, str) and field and tokens & _NAMING_WORDS and not tokens & _FREE_WORDS:
            out[key] = _missing_value(field, tag)
            changed = True
    return out if changed else None


def _strings(value: Any, depth: int = 0) -> list[str]:
    if isinstance(value, str):
        found = [value]
        if "/" in value:
            found.append(PurePath(value).name)
            found.append(PurePath(value).stem)
        return [s for s in found if len(s) >= 2]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [str(value)] if len(str(value)) >= 2 else []
    if depth < 4 and isinstance(value, Mapping):
        return [s for v in value.values() for s in _strings(v, depth + 1)]
    if depth < 4 and isinstance(value, list):
        return [s for v in value for s in _strings(v, depth + 1)]
    return []


def _masked(result: MCPToolResult, arguments: Mapping[str, Any]) -> str:
    text = answer_text(result)
    for value in sorted(set(_strings(dict(arguments))), key=len, reverse=True):
        text = text.replace(value, "\u2039arg\u203a")
    text = _VOLATILE.sub("\u2039t\u203a", text)
    return " ".join(text.split())


def same_shape(
    ours: MCPToolResult,
    our_arguments: Mapping[str, Any],
    theirs: MCPToolResult,
    their_arguments: Mapping[str, Any],
) -> bool:
    """Do two answers read the same once the arguments each call sent are masked out?"""
    return _masked(ours, our_arguments) == _masked(theirs, their_arguments)


_ECHO_FILLER = lazy_pattern(r"[\s\"'{}\[\]:,=()]+|\u2039arg\u203a|\u2039t\u203a")


def _only_echoes(result: MCPToolResult, arguments: Mapping[str, Any]) -> bool:
    """Is the answer our arguments and their names, and nothing else?"""
    rest = _ECHO_FILLER.sub(" ", _masked(result, arguments))
    for name in arguments:
        rest = re.sub(rf"\b{re.escape(str(name))}\b", " ", rest)
    return not re.search(r"\w", rest)


_EMPTY_RESULT = lazy_pattern(
    r"\bno (?:\w+ ){0,2}(?:results?|matches|matching|found|records?|items?|entries|data)\b"
    r"|\b0 (?:results?|matches|items?|records?)\b|^\s*(?:\[\s*\]|\{\s*\}|null|none)\s*$",
    re.IGNORECASE,
)


def _uses_the_input(result: MCPToolResult, arguments: Mapping[str, Any]) -> bool:
    """Does the answer quote what we sent, inside a result that is not an empty one?"""
    masked = _masked(result, arguments)
    return "\u2039arg\u203a" in masked and not _EMPTY_RESULT.search(masked)


def _reads_as_failure(result: MCPToolResult) -> bool:
    return result.is_error or result.rpc_error_code is not None or reports_failure(result)


def position_arguments(
    tool: MCPToolDef, arguments: Mapping[str, Any]
) -> tuple[dict[str, Any], str] | None:
    """``arguments`` with its first integer position parameter (an offset, a start index, a
    page) far past any content, and that parameter's name; None when the tool has none."""
    properties = tool.input_schema.get("properties") if tool.input_schema else None
    if not isinstance(properties, Mapping):
        return None
    for name, schema in properties.items():
        if not isinstance(schema, Mapping) or schema.get("type") != "integer":
            continue
        if "enum" in schema or "maximum" in schema or "exclusiveMaximum" in schema:
            continue
        if set(name_tokens(name)) & _POSITION_WORDS:
            return {**arguments, name: _PAST_THE_END}, name
    return None


def _answers_questions(tool_name: str) -> bool:
    return bool(set(name_tokens(tool_name)[:2]) & _QUESTION_WORDS)


@attrs.frozen
class _Probe:
    """One tool's passed happy path and a probe call planned for it.

    ``for_evidence`` is false for a probe that only looks for an error path (a producer's
    contrast, a position past the end): its answer never decides whether the tool worked.
    """

    index: int
    scenario: Scenario
    replaced: tuple[str, ...]
    naming: bool
    for_evidence: bool = True


async def establish_evidence(
    server: ServerHandle,
    tools: Mapping[str, MCPToolDef],
    results: Sequence[ScenarioResult],
    *,
    timeout: float,
    concurrency: int,
) -> list[ScenarioResult]:
    """``results`` with evidence on each tool's passed happy paths, and extra results for the
    error-reported-as-success paths the contrast calls found (see the module)."""
    out = list(results)
    probes: list[_Probe] = []
    tag = secrets.token_hex(6)
    for index, result in _first_passes(out):
        tool = tools.get(result.scenario.tool) or MCPToolDef(name=result.scenario.tool)
        if result.scenario.expect is not None:  # the author said what a right answer is
            out[index] = attrs.evolve(
                result, evidence=Evidence("expectation", "the scenario file's expect was met")
            )
            continue
        direct = _direct_evidence(tool, result)
        if direct is not None:
            out[index] = attrs.evolve(result, evidence=direct)
            # Proven already; its error paths are still worth a look.
            probes += [
                attrs.evolve(probe, for_evidence=False)
                for probe in _plan_probes(index, tool, result, tag)
            ]
            continue
        probes += _plan_probes(index, tool, result, tag)
        if not any(probe.index == index and probe.for_evidence for probe in probes):
            out[index] = _answer_evidence(result)
    if probes:
        answers = await run_scenarios(
            server, [p.scenario for p in probes], tools, timeout=timeout, concurrency=concurrency
        )
        for probe, answer in zip(probes, answers):
            if probe.for_evidence:
                out[probe.index], extra = _judge_contrast(out[probe.index], probe, answer)
            else:
                extra = _error_path(probe, answer)
            out += extra
    return _spread(out)


def _plan_probes(index: int, tool: MCPToolDef, result: ScenarioResult, tag: str) -> list[_Probe]:
    """The probe calls for one tool's first pass: its contrast call (for evidence, or for
    the error path alone when the tool is a producer) and a position past the end."""
    # A destructive tool is only ever sent targets the run may touch: no probe for it.
    if is_destructive(tool):
        return []
    probes: list[_Probe] = []
    producer = tool_role(tool) == "producer"
    # A producer's probe makes what it names: its own tag, so that no reader's contrast
    # value then names something that exists.
    planned = contrast_arguments(tool, result.scenario.arguments, f"{tag}p" if producer else tag)
    if planned is not None:
        arguments, replaced, naming = planned
        scenario = Scenario(
            tool.name, arguments, "happy", "contrast probe: a value that names nothing"
        )
        probes.append(_Probe(index, scenario, replaced, naming, not producer))
    positioned = position_arguments(tool, result.scenario.arguments)
    if positioned is not None:
        arguments, name = positioned
        scenario = Scenario(tool.name, arguments, "happy", f"probe: {name!r} past the end")
        probes.append(_Probe(index, scenario, (name,), False, False))
    return probes


def _error_path(probe: _Probe, answer: ScenarioResult) -> list[ScenarioResult]:
    """An error-as-success result when a probe's answer says it failed without ``isError``."""
    theirs = answer.response
    if theirs is None or not reports_failure(theirs) or _answers_questions(probe.scenario.tool):
        return []
    names = ", ".join(repr(name) for name in probe.replaced)
    return [
        _misreported(
            probe,
            answer,
            f"with {names} naming nothing it answered, without isError: {answer_text(theirs)}",
        )
    ]


def _misreported(probe: _Probe, answer: ScenarioResult, what: str) -> ScenarioResult:
    """A probe's answer as the finding it is: a failed edge case, an error reported as
    success."""
    return attrs.evolve(
        answer,
        scenario=attrs.evolve(probe.scenario, kind="edge"),
        ok=False,
        verdict="fail",
        finding="error-as-success",
        detail=excerpt(f"error reported as success: {what}"),
    )


def _first_passes(results: Sequence[ScenarioResult]) -> list[tuple[int, ScenarioResult]]:
    """Each tool's passed happy path that its evidence is sought for: the first whose answer
    does not itself read as a failure (a demo of an error message passes but proves
    nothing), else the first."""
    chosen: dict[str, tuple[int, ScenarioResult]] = {}
    settled: set[str] = set()
    for index, result in enumerate(results):
        tool = result.scenario.tool
        if result.scenario.kind != "happy" or result.verdict != "pass" or tool in settled:
            continue
        if result.response is None:
            settled.add(tool)
            continue
        if not reports_failure(result.response):
            chosen[tool] = (index, result)
            settled.add(tool)
        else:
            chosen.setdefault(tool, (index, result))
    return sorted(chosen.values(), key=lambda pair: pair[0])


def _direct_evidence(tool: MCPToolDef, result: ScenarioResult) -> Evidence | None:
    response = result.response
    if response is None or tool.output_schema is None or response.structured is None:
        return None
    if output_problem(tool, response) is not None:
        return None
    return Evidence("output-schema", excerpt(json.dumps(response.structured, default=str)))


def _answer_evidence(result: ScenarioResult) -> ScenarioResult:
    assert result.response is not None
    text = answer_text(result.response).strip()
    if text and not reports_failure(result.response):
        return attrs.evolve(result, evidence=Evidence("answer", excerpt(text)))
    return _unverified(result, "answered with nothing: no content shows that the call worked")


def _unverified(result: ScenarioResult, reason: str) -> ScenarioResult:
    return attrs.evolve(
        result,
        ok=False,
        verdict="inconclusive",
        finding="inconclusive",
        category="rejected-input",
        needs="evidence",
        detail=excerpt(reason),
    )


def _judge_contrast(
    result: ScenarioResult, probe: _Probe, answer: ScenarioResult
) -> tuple[ScenarioResult, list[ScenarioResult]]:
    ours = result.response
    theirs = answer.response
    assert ours is not None
    names = ", ".join(repr(name) for name in probe.replaced)
    if theirs is None:  # the contrast call timed out or crashed: no comparison
        return _answer_evidence(result), []
    same = same_shape(ours, result.scenario.arguments, theirs, probe.scenario.arguments)
    their_text = excerpt(answer_text(theirs)) or "(empty answer)"
    if not same:
        return (
            attrs.evolve(
                result,
                evidence=Evidence("contrast", f"with a missing {names} it answered: {their_text}"),
            ),
            _error_path(probe, answer),
        )
    if _only_echoes(ours, result.scenario.arguments):
        # An answer made of nothing but what we sent: the tool took the input as given.
        return _answer_evidence(result), []
    if not probe.naming and _uses_the_input(ours, result.scenario.arguments):
        # A value that names nothing (a topic, a stage) changed only itself in an answer that
        # is not an empty result: the tool formats what it is given, and it did.
        return _answer_evidence(result), []
    reason = (
        f"the answer is the same as for a {names} that does not exist ({their_text}): "
        "the call did not reach anything real"
    )
    extra: list[ScenarioResult] = []
    if probe.naming and not _reads_as_failure(theirs):
        extra.append(
            _misreported(
                probe,
                answer,
                f"a {names} that does not exist got an answer without isError, the same as a "
                f"real one: {their_text}",
            )
        )
    return _unverified(result, reason), extra


def _spread(results: list[ScenarioResult]) -> list[ScenarioResult]:
    """A tool whose first pass lost it keeps no other unproven pass; one with evidence lends
    it to its other passes."""
    evidence: dict[str, Evidence] = {}
    unproven: set[str] = set()
    for result in results:
        if result.scenario.kind != "happy":
            continue
        if result.evidence is not None:
            evidence.setdefault(result.scenario.tool, result.evidence)
        elif result.needs == "evidence":
            unproven.add(result.scenario.tool)
    out: list[ScenarioResult] = []
    for result in results:
        tool = result.scenario.tool
        if result.scenario.kind == "happy" and result.verdict == "pass" and result.evidence is None:
            if tool in evidence:
                result = attrs.evolve(result, evidence=evidence[tool])
            elif tool in unproven:
                result = _unverified(result, "no passed call of this tool shows that it worked")
        out.append(result)
    return out
