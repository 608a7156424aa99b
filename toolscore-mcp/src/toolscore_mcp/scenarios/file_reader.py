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
``expect.structured`` are matched with :func:`toolscore.matching.values.values_match`, so a plain
value means equality and matcher forms (``$regex``, ``$contains``, ``$one_of``, ``$type``,
``$approx``, ``$any``) check loosely; in ``text`` a ``$regex`` is searched anywhere, in
``structured`` it must match the whole value (as in gold files). ``{"$literal": value}``
escapes a value that looks like a matcher. Strings may hold ``{sandbox}`` and
``{sandbox_url}``; they are kept as written here and substituted by the run.


Reading and validating live here; the rest of the scenario-file work is next door:
:mod:`toolscore_mcp.scenarios.file_model` (the loaded file), ``file_plans`` (scenarios from a
file), ``starter`` and ``recording`` (starter files from a run or a recorded session) and
``file_writer`` (saving).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

from toolscore.errors import InputError
from toolscore.matching.matchers import builtin_json_forms, matcher_from_json
from toolscore.serialization import json_path, json_type_name

from toolscore_mcp.model import SetupCall
from toolscore_mcp.scenarios.file_model import NOT_GIVEN, ResultExpectation, ScenarioFile, ToolPlan

__all__ = ["load_scenario_file"]

_YAML_SUFFIXES: Final = frozenset({".yaml", ".yml"})


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


def parse_json_text(text: str, source: str) -> Any:
    """Decode JSON text; a syntax error is one InputError naming line and column."""
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
        return parse_json_text(text, source)
    try:
        return json.loads(text)
    except ValueError:
        return _parse_yaml(text, source)


def read_input_text(path: Path, source: str) -> str:
    """The UTF-8 text of an input file; a missing or unreadable file is one InputError."""
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


def describe_value(instance: Any) -> str:
    """How a message names a value of the wrong kind: ``an empty string``, ``integer``."""
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
    return json_path(parts), f"expected {_expected(error.schema)}, got {describe_value(instance)}"


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
    document = _parse(read_input_text(file, source), file, source)
    _validate(document, source)
    tools = {
        name: _tool_plan(name, raw, source) for name, raw in (document.get("tools") or {}).items()
    }
    return ScenarioFile(tools=tools, source=source)
