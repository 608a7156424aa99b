"""The server author's scenario file: what ``toolscore mcp test --scenarios FILE`` calls.

Generated arguments are a guess; a server's author knows which calls make sense (an entity
that exists, a timezone the server supports) and pins them in their repository::

    version: 1
    tools:
      get_current_time:
        arguments:                     # one mapping, or a list of mappings: one call each
          - {timezone: "Europe/Paris"}
          - {timezone: "UTC"}
      read_entity:
        setup:                         # calls to other tools made first, in order
          - tool: create_entity
            arguments: {name: "toolscore-demo"}
        arguments: {name: "toolscore-demo"}
        expect:                        # optional; checked on every call of this tool
          is_error: false              # default false
          text: {"$regex": "toolscore-demo"}         # searched anywhere in the text
          structured: {count: {"$type": "integer"}}  # structuredContent, same keys
      search_web:
        skip: "needs a paid API key"   # not called; reported as skipped with this reason

The file is YAML (``.yaml``/``.yml``) or JSON (``.json``); any other name is read as JSON,
then as YAML. It is validated against ``schemas/scenarios.schema.json`` (shipped with this
package), so a misspelt key (``argumets``) is an error, not a silently ignored line. Every
problem is one :class:`~toolscore.errors.InputError` line naming the file and the JSON path:
``scenarios.yaml: $.tools.read_entity.setup[0].tool: expected a tool name, got integer``.

A tool entry without ``arguments`` is called once with no arguments. ``expect.text`` and
``expect.structured`` are matched with :func:`toolscore.value_match.values_match`, so a plain
value means equality and matcher forms (``$regex``, ``$contains``, ``$one_of``, ``$type``,
``$approx``, ``$any``) check loosely; in ``text`` a ``$regex`` is searched anywhere, in
``structured`` it must match the whole value (as in gold files). ``{"$literal": value}``
escapes a value that looks like a matcher. Strings may hold ``{sandbox}`` and
``{sandbox_url}``; they are kept as written here and substituted by the run.

Besides reading (:func:`load_scenario_file`, :func:`plans_for`), this module writes starter
files: from what a test run learned (:func:`starter_from_run`) or from a session recorded
with ``toolscore mcp record`` (:func:`scenarios_from_recording`), saved with
:func:`write_scenario_file`.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

import attrs
from toolscore.errors import InputError
from toolscore.lazy_pattern import lazy_pattern
from toolscore.matchers import builtin_json_forms, matcher_from_json
from toolscore.serialization import json_path, json_type_name
from toolscore.value_match import values_match

from toolscore_mcp.model import MCPToolDef, MCPToolResult, Scenario, ScenarioResult, SetupCall

__all__ = [
    "NOT_GIVEN",
    "ResultExpectation",
    "ScenarioFile",
    "ToolPlan",
    "load_scenario_file",
    "plans_for",
    "scenarios_from_recording",
    "starter_from_run",
    "write_scenario_file",
]

#: The value of ``scenario.evidence[arg]`` for arguments taken from a scenario file.
EVIDENCE: Final = "scenario-file"
#: At most this many passing argument sets per tool go into a starter file.
_STARTER_MAX_CALLS: Final = 3
_EXCERPT_MAX: Final = 120
_YAML_SUFFIXES: Final = frozenset({".yaml", ".yml"})
_YAML_HEADER: Final = (
    "# toolscore MCP scenario file: what `toolscore mcp test --scenarios FILE` calls.\n"
    "# Edit the arguments, add `expect:` checks, and check it with"
    " `toolscore mcp scenarios check FILE`.\n"
)
#: Keys under which a small int in structuredContent is an id (``id``, ``note_id``, ``noteId``).
_ID_KEY: Final = lazy_pattern(r"(?:^|_)id$|Id$|^id_")


class _NotGiven:
    """The type of :data:`NOT_GIVEN`: an expectation field the file left out."""

    _instance: _NotGiven | None = None

    def __new__(cls) -> _NotGiven:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NOT_GIVEN"

    def __bool__(self) -> bool:
        return False


#: Marks ``ResultExpectation.text`` / ``.structured`` when the file does not check them
#: (``None`` cannot: ``structured: null`` is a real expectation).
NOT_GIVEN: Final = _NotGiven()


# -- the model ------------------------------------------------------------------------------


def _excerpt(text: str) -> str:
    """Whitespace collapsed and cut to a length that keeps an error message on one line."""
    collapsed = " ".join(text.split())
    if len(collapsed) <= _EXCERPT_MAX:
        return collapsed
    return collapsed[: _EXCERPT_MAX - 1] + "…"


def _short_repr(value: Any) -> str:
    """``repr`` of a value for a one-line message, cut like :func:`_excerpt`."""
    return _excerpt(repr(value))


@attrs.frozen
class ResultExpectation:
    """What every call of one tool must return, from the file's ``expect`` block.

    ``text`` and ``structured`` are already converted (matchers in place of their JSON
    forms), or :data:`NOT_GIVEN`; ``text_form`` / ``structured_form`` keep what the file
    said, for messages and for writing the file back. Equality compares what the file said
    (matchers compare equal to the values they accept, not to each other).
    """

    is_error: bool = False
    text: Any = attrs.field(default=NOT_GIVEN, eq=False)
    structured: Any = attrs.field(default=NOT_GIVEN, eq=False)
    text_form: Any = NOT_GIVEN
    structured_form: Any = NOT_GIVEN

    def check(self, result: MCPToolResult) -> str | None:
        """None when ``result`` meets the expectation, else the first problem as one line.

        Called by the verdicts for every call of a tool whose plan has an ``expect``.
        """
        if result.is_error != self.is_error:
            got = "true" if result.is_error else "false"
            want = "true" if self.is_error else "false"
            return f"expected isError {want}, got {got}: {_excerpt(result.text)!r}"
        if self.text is not NOT_GIVEN and not values_match(self.text, result.text):
            return (
                f"text does not match {_short_repr(self.text_form)}: got {_excerpt(result.text)!r}"
            )
        if self.structured is not NOT_GIVEN:
            return self._structured_problem(result)
        return None

    def _structured_problem(self, result: MCPToolResult) -> str | None:
        if "structuredContent" not in result.raw and result.structured is None:
            return (
                f"structuredContent does not match {_short_repr(self.structured_form)}: "
                "the result has none"
            )
        if values_match(self.structured, result.structured):
            return None
        return (
            f"structuredContent does not match {_short_repr(self.structured_form)}: "
            f"got {_short_repr(result.structured)}"
        )


@attrs.frozen
class ToolPlan:
    """What the file says about one tool: the calls to make, their setup, the expectation."""

    arguments: tuple[dict[str, Any], ...] = ({},)
    setup: tuple[SetupCall, ...] = ()
    expect: ResultExpectation | None = None
    #: Why the tool is not called; None when it is.
    skip: str | None = None


@attrs.frozen
class ScenarioFile:
    """A loaded scenario file: tool name -> plan, in file order."""

    tools: Mapping[str, ToolPlan]
    #: The file it came from (for messages).
    source: str

    @property
    def skipped(self) -> dict[str, str]:
        """Tool name -> reason, for the tools the file says not to call."""
        return {name: plan.skip for name, plan in self.tools.items() if plan.skip is not None}


# -- reading --------------------------------------------------------------------------------


@cache
def _schema() -> dict[str, Any]:
    text = (
        resources.files("toolscore_mcp")
        .joinpath("schemas")
        .joinpath("scenarios.schema.json")
        .read_text(encoding="utf-8")
    )
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _yaml_loader() -> Any:
    """A safe loader that keeps ``2024-01-01`` a string: arguments go to a JSON API."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    return Loader


def _parse_yaml(text: str, source: str) -> Any:
    import yaml

    try:
        return yaml.load(text, Loader=_yaml_loader())  # a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        problem = " ".join(str(exc.problem or exc.context or "unreadable").split())
        raise InputError(f"invalid YAML at {where}{problem}", source=source) from None
    except yaml.YAMLError as exc:
        raise InputError(f"invalid YAML: {' '.join(str(exc).split())}", source=source) from None


def _parse_json(text: str, source: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}", source=source
        ) from None


def _parse(text: str, path: Path, source: str) -> Any:
    """Decode by extension; an unknown extension is tried as JSON, then as YAML."""
    suffix = path.suffix.lower()
    if suffix in _YAML_SUFFIXES:
        return _parse_yaml(text, source)
    if suffix == ".json":
        return _parse_json(text, source)
    try:
        return json.loads(text)
    except ValueError:
        return _parse_yaml(text, source)


def _read_text(path: Path, source: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("file not found", source=source) from None
    except IsADirectoryError:
        raise InputError("is a directory, expected a scenario file", source=source) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason})", source=source) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=source) from None


def _check_keys(value: Any, parts: list[str | int], source: str) -> None:
    """YAML allows ``1:`` or ``yes:`` as keys; a JSON document (and the schema) does not."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise InputError(
                    f"expected string keys, got {json_type_name(key)} key {key!r} (quote it)",
                    source=source,
                    path=json_path(parts),
                )
            _check_keys(item, [*parts, key], source)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_keys(item, [*parts, index], source)


def _validate(document: Any, source: str) -> None:
    """Raise one InputError for the first schema problem, in document order."""
    if document is None:
        raise InputError(
            "expected a mapping with 'version' and 'tools', got an empty document",
            source=source,
            path="$",
        )
    _check_keys(document, [], source)
    from jsonschema import Draft202012Validator

    errors = list(Draft202012Validator(_schema()).iter_errors(document))
    if not errors:
        return
    first = min(errors, key=_error_order)
    path, message = _describe(first)
    more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
    raise InputError(message + more, source=source, path=path)


def _error_order(error: Any) -> tuple[tuple[str, ...], str]:
    return (
        tuple(f"{p:010d}" if isinstance(p, int) else str(p) for p in error.absolute_path),
        str(error.validator),
    )


def _expected(schema: Any) -> str:
    if isinstance(schema, Mapping):
        described = schema.get("x-expected")
        if isinstance(described, str):
            return described
        if isinstance(schema.get("type"), str):
            return str(schema["type"])
    return "a valid value"


def _got(instance: Any) -> str:
    if isinstance(instance, str) and not instance:
        return "an empty string"
    if isinstance(instance, list) and not instance:
        return "an empty list"
    return json_type_name(instance)


def _describe(error: Any) -> tuple[str, str]:
    """A jsonschema error as (JSON path, what was expected and what was found)."""
    parts: list[str | int] = list(error.absolute_path)
    validator = error.validator
    instance = error.instance
    if validator == "additionalProperties" and isinstance(instance, Mapping):
        return _unknown_key(error, parts)
    if validator == "required" and isinstance(instance, Mapping):
        missing = [n for n in error.validator_value if n not in instance]
        name = missing[0] if missing else "?"
        return json_path([*parts, name]), f"missing required key '{name}'"
    if validator == "anyOf" and error.context:
        inner = _closest_branch(error)
        if inner is not None:
            return _describe(inner)
    if validator == "const":
        return json_path(parts), f"expected {error.validator_value!r}, got {instance!r}"
    return json_path(parts), f"expected {_expected(error.schema)}, got {_got(instance)}"


def _unknown_key(error: Any, parts: list[str | int]) -> tuple[str, str]:
    known = list((error.schema.get("properties") or {}).keys())
    extra = [k for k in error.instance if k not in known]
    name = extra[0] if extra else "?"
    return json_path([*parts, name]), f"unknown key '{name}' (expected one of: {', '.join(known)})"


def _closest_branch(error: Any) -> Any:
    """Of an ``anyOf``'s branch errors, one from a branch of the instance's own type.

    ``arguments: [{...}, 5]`` should say ``$...arguments[1]: expected a mapping``, not that
    the whole list is not a mapping. None when every branch wanted another type.
    """
    own_path = len(error.absolute_path)
    deeper = [e for e in error.context if len(e.absolute_path) > own_path]
    if deeper:
        return min(deeper, key=_error_order)
    same_type = [e for e in error.context if e.validator not in ("type", "$ref")]
    return min(same_type, key=_error_order) if same_type else None


def _known_forms() -> frozenset[str]:
    return frozenset(builtin_json_forms()) | {"$literal"}


def _reject_unknown_forms(value: Any, parts: list[str | int], source: str) -> None:
    """matcher_from_json keeps ``{"$regx": ...}`` as a plain dict; a typo must not pass."""
    if isinstance(value, dict):
        if len(value) == 1:
            key = next(iter(value))
            if key == "$literal":
                return
            if key.startswith("$") and key not in _known_forms():
                known = ", ".join(sorted(_known_forms()))
                raise InputError(
                    f"unknown matcher {key!r} (known: {known}; wrap a literal value in $literal)",
                    source=source,
                    path=json_path([*parts, key]),
                )
        for key, item in value.items():
            _reject_unknown_forms(item, [*parts, key], source)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _reject_unknown_forms(item, [*parts, index], source)


def _failing_form(value: Any, parts: list[str | int]) -> list[str | int] | None:
    """The path of the innermost matcher form that does not convert, or None."""
    if isinstance(value, dict):
        for key, item in value.items():
            found = _failing_form(item, [*parts, key])
            if found is not None:
                return found
        if len(value) == 1 and next(iter(value)) in builtin_json_forms():
            try:
                matcher_from_json(value)
            except (ValueError, TypeError, re.error):
                return [*parts, next(iter(value))]
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _failing_form(item, [*parts, index])
            if found is not None:
                return found
    return None


def _convert_matchers(value: Any, parts: list[str | int], source: str, *, search: bool) -> Any:
    """JSON matcher forms -> matchers; a bad or unknown form is an InputError at its path.

    ``search=True`` reads ``$regex`` as a search (the ``text`` check), otherwise a full match.
    """
    _reject_unknown_forms(value, parts, source)
    try:
        return matcher_from_json(value, rule_file=search)
    except (ValueError, TypeError, re.error) as exc:
        where = _failing_form(value, parts) or parts
        message = " ".join(str(exc).split())
        raise InputError(f"bad matcher: {message}", source=source, path=json_path(where)) from None


def _expectation(raw: Mapping[str, Any], parts: list[str | int], source: str) -> ResultExpectation:
    text_form = raw.get("text", NOT_GIVEN)
    structured_form = raw.get("structured", NOT_GIVEN)
    text = structured = NOT_GIVEN
    if "text" in raw:
        text = _convert_matchers(text_form, [*parts, "text"], source, search=True)
    if "structured" in raw:
        structured = _convert_matchers(
            structured_form, [*parts, "structured"], source, search=False
        )
    return ResultExpectation(
        is_error=bool(raw.get("is_error", False)),
        text=text,
        structured=structured,
        text_form=text_form,
        structured_form=structured_form,
    )


def _tool_plan(name: str, raw: Mapping[str, Any], source: str) -> ToolPlan:
    arguments = raw.get("arguments", {})
    argument_sets = arguments if isinstance(arguments, list) else [arguments]
    setup = tuple(
        SetupCall(tool=step["tool"], arguments=dict(step.get("arguments") or {}))
        for step in raw.get("setup", ())
    )
    expect = raw.get("expect")
    return ToolPlan(
        arguments=tuple(dict(item) for item in argument_sets),
        setup=setup,
        expect=None if expect is None else _expectation(expect, ["tools", name, "expect"], source),
        skip=raw.get("skip"),
    )


def load_scenario_file(path: str | Path) -> ScenarioFile:
    """Read and validate a scenario file (for ``mcp test --scenarios`` and ``scenarios check``).

    :raises InputError: one line naming the file, the JSON path and what was expected, for
        an unreadable file, bad YAML or JSON (with the line), a schema violation (a misspelt
        key, a wrong type) or a bad or unknown matcher form.
    """
    file = Path(path)
    source = str(path)
    document = _parse(_read_text(file, source), file, source)
    _validate(document, source)
    tools = {
        name: _tool_plan(name, raw, source) for name, raw in (document.get("tools") or {}).items()
    }
    return ScenarioFile(tools=tools, source=source)


# -- planning -------------------------------------------------------------------------------


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


# -- writing starter files ------------------------------------------------------------------


def _restore(value: Any, placeholders: Sequence[tuple[str, str]]) -> Any:
    """Put ``{sandbox}``-style placeholders back in place of the values they stood for."""
    if isinstance(value, str):
        for placeholder, actual in placeholders:
            value = value.replace(actual, placeholder)
        return value
    if isinstance(value, dict):
        return {k: _restore(v, placeholders) for k, v in value.items()}
    if isinstance(value, list):
        return [_restore(v, placeholders) for v in value]
    return copy.deepcopy(value)


def _append_unique(items: list[Any], item: Any) -> None:
    if item not in items:
        items.append(item)


def _setup_entry(step: SetupCall, placeholders: Sequence[tuple[str, str]]) -> dict[str, Any]:
    return {"tool": step.tool, "arguments": _restore(step.arguments, placeholders)}


def _skip_reason(failures: Sequence[ScenarioResult]) -> str:
    """Why a tool had no passing call, from the first failure, for the author to edit."""
    if not failures:
        return "no happy-path call passed in this run"
    first = failures[0]
    detail = _excerpt(first.detail) or "failed"
    if first.needs:
        return f"needs {first.needs}: {detail}"
    if first.category:
        return f"{first.category}: {detail}"
    return detail


def _starter_entry(
    results: Sequence[ScenarioResult], placeholders: Sequence[tuple[str, str]]
) -> dict[str, Any]:
    happy = [r for r in results if r.scenario.kind == "happy"]
    arguments: list[dict[str, Any]] = []
    setup: list[dict[str, Any]] = []
    for result in happy:
        if result.verdict != "pass" or len(arguments) >= _STARTER_MAX_CALLS:
            continue
        args = _restore(result.scenario.arguments, placeholders)
        if args in arguments:
            continue
        arguments.append(args)
        for step in result.scenario.setup:
            _append_unique(setup, _setup_entry(step, placeholders))
    if not arguments:
        failures = [r for r in happy if r.verdict == "fail"] or happy
        return {"skip": _skip_reason(failures)}
    return {"setup": setup, "arguments": arguments} if setup else {"arguments": arguments}


def starter_from_run(
    tools: Sequence[MCPToolDef],
    results: Sequence[ScenarioResult],
    *,
    placeholders: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The scenario document a test run learned, for ``mcp test --save-scenarios FILE``.

    Per tool, in advertised order: up to three distinct passing happy-path argument sets
    and their setup calls; a tool with none gets a ``skip`` carrying the first failure
    (``needs network: ...``), so the author sees what to fix or pin. ``placeholders`` maps
    ``"{sandbox}"``-style names to the values the run substituted; those values are turned
    back into the placeholders, so the file works on the next run's sandbox.
    """
    pairs = sorted((placeholders or {}).items(), key=lambda item: -len(item[1]))
    restore = [(name, actual) for name, actual in pairs if actual]
    by_tool: dict[str, list[ScenarioResult]] = {}
    for result in results:
        by_tool.setdefault(result.scenario.tool, []).append(result)
    entries = {tool.name: _starter_entry(by_tool.get(tool.name, []), restore) for tool in tools}
    return {"version": 1, "tools": entries}


# -- converting a recorded session ----------------------------------------------------------


@attrs.frozen
class _RecordedCall:
    """One successful ``tools/call`` of a recorded session."""

    tool: str
    arguments: dict[str, Any]
    text: str
    structured: Any


def _session_messages(path: Path, source: str) -> list[Any]:
    document = _parse_json(_read_text(path, source), source)
    if not isinstance(document, dict):
        raise InputError(
            f"expected a session object from `toolscore mcp record`, got {_got(document)}",
            source=source,
            path="$",
        )
    messages = document.get("messages")
    if not isinstance(messages, list):
        raise InputError(
            f"expected a list of recorded messages, got {_got(messages)}",
            source=source,
            path="$.messages",
        )
    return messages


def _request(message: Any, index: int, source: str) -> tuple[Any, str, dict[str, Any]] | None:
    """(id, tool, arguments) of a ``tools/call`` request; None for any other message."""
    if not isinstance(message, dict):
        raise InputError(
            f"expected a JSON-RPC message object, got {_got(message)}",
            source=source,
            path=json_path(["messages", index]),
        )
    if message.get("method") != "tools/call":
        return None
    params = message.get("params")
    name = params.get("name") if isinstance(params, dict) else None
    if not isinstance(name, str) or not name:
        raise InputError(
            "expected a tool name", source=source, path=json_path(["messages", index, "params"])
        )
    arguments = params.get("arguments") if isinstance(params, dict) else None
    if arguments is not None and not isinstance(arguments, dict):
        raise InputError(
            f"expected an object of arguments, got {_got(arguments)}",
            source=source,
            path=json_path(["messages", index, "params", "arguments"]),
        )
    return message.get("id"), name, dict(arguments or {})


def _successful_result(message: dict[str, Any]) -> dict[str, Any] | None:
    """The ``result`` of a response that succeeded; None for errors and ``isError: true``."""
    result = message.get("result")
    if "error" in message or not isinstance(result, dict) or result.get("isError") is True:
        return None
    return result


def _recorded_calls(messages: Sequence[Any], source: str) -> list[_RecordedCall]:
    """The successful calls of a session, in the order their responses arrived."""
    from toolscore_mcp.client.content import content_to_text

    pending: dict[Any, tuple[str, dict[str, Any]]] = {}
    calls: list[_RecordedCall] = []
    for index, message in enumerate(messages):
        request = _request(message, index, source)
        if request is not None:
            pending[json.dumps(request[0])] = request[1:]
            continue
        key = json.dumps(message.get("id"))
        if key not in pending:
            continue
        tool, arguments = pending.pop(key)
        result = _successful_result(message)
        if result is not None:
            text = content_to_text(result.get("content"))
            calls.append(_RecordedCall(tool, arguments, text, result.get("structuredContent")))
    return calls


def _id_like(value: Any) -> bool:
    """A value worth looking for in earlier outputs: not ``10`` or ``"a"``, which are everywhere."""
    if isinstance(value, bool):
        return False
    if isinstance(value, str):
        return len(value.strip()) >= 3
    return isinstance(value, int) and abs(value) >= 10


def _leaves(value: Any, key: str = "") -> Iterable[tuple[str, Any]]:
    """(key, value) of every scalar inside ``value``."""
    if isinstance(value, dict):
        for name, item in value.items():
            yield from _leaves(item, str(name))
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item, key)
    else:
        yield key, value


def _in_text(value: Any, text: str) -> bool:
    token = re.escape(str(value))
    return re.search(rf"(?<![\w.-]){token}(?![\w-]|\.\w)", text) is not None


def _produced(value: Any, call: _RecordedCall) -> bool:
    """Whether ``call``'s output holds ``value``: an id, a path, a name it gave back."""
    for key, item in _leaves(call.structured):
        same = item == value and type(item) is type(value)
        if same and (_id_like(value) or (isinstance(value, int) and _ID_KEY.search(key))):
            return True
    return _id_like(value) and _in_text(value, call.text)


def _producers(call: _RecordedCall, earlier: Sequence[_RecordedCall]) -> list[int]:
    """Indexes of the earlier calls (other tools) whose outputs hold one of ``call``'s values."""
    found: list[int] = []
    for _, value in _leaves(call.arguments):
        for index, previous in enumerate(earlier):
            if previous.tool != call.tool and _produced(value, previous):
                _append_unique(found, index)
                break
    return sorted(found)


def _setup_chains(calls: Sequence[_RecordedCall]) -> list[list[int]]:
    """For each call, the earlier calls it depends on, their own setup first."""
    chains: list[list[int]] = []
    for position, call in enumerate(calls):
        chain: list[int] = []
        for index in _producers(call, calls[:position]):
            for step in [*chains[index], index]:
                _append_unique(chain, step)
        chains.append(chain)
    return chains


def _recording_document(calls: Sequence[_RecordedCall]) -> dict[str, Any]:
    chains = _setup_chains(calls)
    entries: dict[str, dict[str, Any]] = {}
    for call, chain in zip(calls, chains):
        entry = entries.setdefault(call.tool, {"setup": [], "arguments": []})
        for index in chain:
            step = calls[index]
            _append_unique(entry["setup"], {"tool": step.tool, "arguments": step.arguments})
        _append_unique(entry["arguments"], call.arguments)
    tools = {
        name: entry if entry["setup"] else {"arguments": entry["arguments"]}
        for name, entry in entries.items()
    }
    return {"version": 1, "tools": tools}


def scenarios_from_recording(path: str | Path) -> dict[str, Any]:
    """A scenario document from a ``toolscore mcp record`` session, for ``scenarios from-record``.

    Every successful call becomes an argument set of its tool (distinct, in order); failed
    calls (JSON-RPC errors, ``isError: true``, no response) are left out. When a call's
    argument (an id, a path, a name of three characters or more, an int of 10 or more) shows
    up in an earlier successful call's output, that earlier call, after its own setup,
    becomes a setup step of the tool.

    :raises InputError: the session file cannot be read or is not a recorded session.
    """
    source = str(path)
    messages = _session_messages(Path(path), source)
    return _recording_document(_recorded_calls(messages, source))


# -- saving ---------------------------------------------------------------------------------


def _yaml_text(document: Mapping[str, Any]) -> str:
    import yaml

    body = yaml.safe_dump(
        dict(document), sort_keys=False, allow_unicode=True, default_flow_style=False, width=100
    )
    return _YAML_HEADER + body


def write_scenario_file(document: Mapping[str, Any], path: str | Path) -> Path:
    """Write ``document`` atomically: JSON for ``.json``, block-style YAML otherwise.

    The YAML keeps key order and reads back with :func:`load_scenario_file`.
    """
    from toolscore.fileio import atomic_write_json, atomic_write_text

    target = Path(path)
    if target.suffix.lower() == ".json":
        return atomic_write_json(target, dict(document))
    return atomic_write_text(target, _yaml_text(document))
