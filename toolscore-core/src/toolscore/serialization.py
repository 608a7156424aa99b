"""Reading and writing our file formats: the converter, the shipped schemas, one-line errors.

Two jobs live here:

* :func:`make_converter` builds a fresh cattrs converter (JSON flavour) that knows our value
  types, for every component that writes or reads canonical files (snapshots, reports,
  scorecards). It never touches cattrs' global converter, so plugins cannot change our formats.
* :func:`validate_document` checks a user-authored JSON document against a schema shipped in
  ``toolscore/schemas/`` and raises :class:`~toolscore.errors.InputError` with one line such as
  ``gold.json: $[3].tool: expected a non-empty tool name, got nothing``;
  :func:`format_errors` renders any number of validation errors the same way.

cattrs and jsonschema are imported inside the functions: ``evaluate()`` and ``import toolscore``
must not pay for them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from toolscore.errors import InputError
from toolscore.model import ToolCall, call_from_dict

if TYPE_CHECKING:
    from cattrs.preconf.json import JsonConverter
    from jsonschema.exceptions import ValidationError  # type: ignore[import-untyped]

__all__ = [
    "SCHEMA_NAMES",
    "format_errors",
    "json_path",
    "load_schema",
    "make_converter",
    "validate_document",
]

#: Schemas shipped in ``toolscore/schemas/`` (name -> file).
SCHEMA_NAMES: dict[str, str] = {
    "gold": "gold.schema.json",
    "trace": "trace.schema.json",
}

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

_JSON_TYPE_NAMES: dict[type, str] = {
    dict: "object",
    list: "array",
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    type(None): "null",
}


# -- the converter ---------------------------------------------------------------------------


def make_converter() -> JsonConverter:
    """A fresh JSON converter for toolscore's file formats; never cattrs' global one.

    ``ToolCall`` unstructures to its canonical dict (``tool`` and ``args`` always, every other
    field only when set) and structures back from any ``evaluate()``-style dict, so a
    snapshot, a canonical trace and a report round-trip through the same converter.
    """
    from cattrs.preconf.json import make_converter as _make_json_converter

    converter = _make_json_converter()
    converter.register_unstructure_hook(ToolCall, _unstructure_call)
    converter.register_structure_hook(ToolCall, _structure_call)
    return converter


def _unstructure_call(call: ToolCall) -> dict[str, Any]:
    out = call.to_dict()
    if out.get("args") is not None:
        out["args"] = dict(out["args"])
    return out


def _structure_call(value: Any, _type: type) -> ToolCall:
    if isinstance(value, ToolCall):
        return value
    if not isinstance(value, Mapping):
        raise ValueError(f"expected a tool call object, got {json_type_name(value)}")
    tool = value.get("tool")
    if not isinstance(tool, str) or not tool:
        got = _got_text(tool) if "tool" in value else "nothing"
        raise ValueError(f"expected a non-empty tool name in 'tool', got {got}")
    return call_from_dict(value)


# -- paths and type names --------------------------------------------------------------------


def json_path(parts: Iterable[str | int]) -> str:
    """Render a location inside a document as a JSONPath: ``$``, ``$.calls[3].args``."""
    out = ["$"]
    for part in parts:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _IDENTIFIER.match(part):
            out.append(f".{part}")
        else:
            out.append(f"[{json.dumps(part, ensure_ascii=False)}]")
    return "".join(out)


def json_type_name(value: Any) -> str:
    """The JSON name of a decoded value's type (``object``, ``array``, ``string``, ...)."""
    for kind, name in _JSON_TYPE_NAMES.items():
        if type(value) is kind:
            return name
    return type(value).__name__


# -- schemas ---------------------------------------------------------------------------------


@cache
def load_schema(name: str) -> dict[str, Any]:
    """One of the JSON Schemas shipped with toolscore (``"gold"`` or ``"trace"``)."""
    try:
        filename = SCHEMA_NAMES[name]
    except KeyError:
        raise ValueError(f"Unknown schema {name!r}; known: {', '.join(SCHEMA_NAMES)}") from None
    text = (
        resources.files("toolscore")
        .joinpath("schemas")
        .joinpath(filename)
        .read_text(encoding="utf-8")
    )
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _validator(name: str) -> Any:
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

    return Draft202012Validator(load_schema(name))


def validate_document(data: Any, schema: str, *, source: str | None = None) -> None:
    """Raise :class:`InputError` (one line) if ``data`` does not match the named schema.

    A pure-Python pass over the schema's keywords settles the common, valid case without
    importing jsonschema; only a document that fails it goes to jsonschema, which has the
    final word and names the first problem in document order, so the message is stable.
    """
    if _quick_check(schema)(data):
        return
    errors = sorted(_validator(schema).iter_errors(data), key=_error_sort_key)
    if not errors:
        return
    path, message = _describe(errors[0])
    raise InputError(message, source=source, path=path)


Check = Callable[[Any], bool]

_TYPE_CHECKS: dict[str, Check] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
    ),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
}
_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "title", "description", "x-expected"})


def _never(_value: Any) -> bool:
    return False


def _always(_value: Any) -> bool:
    return True


@cache
def _quick_check(name: str) -> Check:
    """The named schema compiled into a fast, conservative check (see :func:`_compile`)."""
    root = load_schema(name)
    return _compile(root, root, {})


def _quick_valid(value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    """True only if ``value`` certainly matches ``schema``; False means "ask jsonschema"."""
    return _compile(schema, root, {})(value)


def _compile(schema: Mapping[str, Any], root: Mapping[str, Any], refs: dict[str, Check]) -> Check:
    """Compile the keywords our shipped schemas use into one predicate.

    True only when ``value`` certainly matches. A keyword this compiler does not know makes
    the predicate answer False (so jsonschema decides), which keeps it correct if a schema
    grows a new keyword; it only gets slower on valid input.
    """
    checks: list[Check] = []
    for key, rule in schema.items():
        if key in _ANNOTATIONS or key in ("then", "else"):
            continue
        if key == "type":
            kinds = [rule] if isinstance(rule, str) else list(rule)
            if any(kind not in _TYPE_CHECKS for kind in kinds):
                return _never
            checks.append(_one_of_types(tuple(_TYPE_CHECKS[kind] for kind in kinds)))
        elif key == "$ref":
            if not (isinstance(rule, str) and rule.startswith("#/")):
                return _never
            checks.append(_compile_ref(rule, root, refs))
        elif key == "if":
            checks.append(
                _branch(
                    _compile(rule, root, refs),
                    _compile(schema.get("then", {}), root, refs),
                    _compile(schema.get("else", {}), root, refs),
                )
            )
        elif key == "required":
            checks.append(_required(tuple(rule)))
        elif key == "properties":
            checks.append(_properties({n: _compile(sub, root, refs) for n, sub in rule.items()}))
        elif key == "items":
            checks.append(_items(_compile(rule, root, refs)))
        elif key == "minLength":
            checks.append(_min_length(rule))
        else:
            return _never
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    return _all_of(tuple(checks))


# Each keyword's predicate; only the keyword's own type is constrained, as in JSON Schema.


def _one_of_types(tests: tuple[Check, ...]) -> Check:
    return lambda v: any(test(v) for test in tests)


def _branch(condition: Check, then: Check, otherwise: Check) -> Check:
    return lambda v: then(v) if condition(v) else otherwise(v)


def _required(names: tuple[str, ...]) -> Check:
    return lambda v: not isinstance(v, dict) or all(name in v for name in names)


def _properties(props: Mapping[str, Check]) -> Check:
    def check(value: Any) -> bool:
        if not isinstance(value, dict):
            return True
        for name, item in value.items():
            sub = props.get(name)
            if sub is not None and not sub(item):
                return False
        return True

    return check


def _items(item: Check) -> Check:
    return lambda v: not isinstance(v, list) or all(map(item, v))


def _min_length(minimum: int) -> Check:
    return lambda v: not isinstance(v, str) or len(v) >= minimum


def _all_of(checks: tuple[Check, ...]) -> Check:
    return lambda v: all(check(v) for check in checks)


def _compile_ref(ref: str, root: Mapping[str, Any], refs: dict[str, Check]) -> Check:
    compiled = refs.get(ref)
    if compiled is None:
        target: Any = root
        for part in ref[2:].split("/"):
            target = target[part]
        holder: list[Check] = []
        refs[ref] = lambda v: holder[0](v)  # a recursive reference resolves through this
        holder.append(_compile(target, root, refs))
        compiled = refs[ref] = holder[0]
    return compiled


def format_errors(errors: Iterable[Any] | BaseException, source: str | None = None) -> list[str]:
    """One line per problem: ``source: $.calls[3].args: expected object, got string``.

    Accepts jsonschema ``ValidationError`` objects (or an iterable of them), a cattrs
    structuring error (``ClassValidationError`` / ``IterableValidationError``), or an
    :class:`InputError`.
    """
    if isinstance(errors, InputError):
        return [str(errors) if source is None or errors.source else f"{source}: {errors}"]
    if isinstance(errors, BaseException) and not _is_schema_error(errors):
        return [_join(source, path, message) for path, message in _cattrs_lines(errors)]
    items: Iterable[Any] = [errors] if isinstance(errors, BaseException) else errors
    lines = []
    for error in sorted(items, key=_error_sort_key):
        path, message = _describe(error)
        lines.append(_join(source, path, message))
    return lines


def _join(source: str | None, path: str, message: str) -> str:
    return ": ".join(p for p in (source, path, message) if p)


def _is_schema_error(error: BaseException) -> bool:
    return hasattr(error, "validator") and hasattr(error, "absolute_path")


def _error_sort_key(error: ValidationError) -> tuple[tuple[str, ...], str]:
    return (
        tuple(f"{p:010d}" if isinstance(p, int) else str(p) for p in error.absolute_path),
        str(error.validator),
    )


def _describe(error: ValidationError) -> tuple[str, str]:
    """Turn a jsonschema error into (JSON path, "expected ..." text)."""
    parts: list[str | int] = list(error.absolute_path)
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    validator = error.validator
    instance = error.instance
    if validator == "required":
        missing = next(
            (
                name
                for name in (
                    error.validator_value if isinstance(error.validator_value, list) else ()
                )
                if isinstance(instance, Mapping) and name not in instance
            ),
            None,
        )
        if missing is not None:
            prop = (schema.get("properties") or {}).get(missing, {})
            expected = _expected_text(prop) if isinstance(prop, Mapping) else "a value"
            return json_path([*parts, missing]), f"expected {expected}, got nothing"
    if validator in ("type", "minLength", "if", "then", "else", "$ref", "items", "properties"):
        return json_path(parts), f"expected {_expected_text(schema)}, got {_got_text(instance)}"
    return json_path(parts), f"expected {_expected_text(schema)} ({error.message})"


def _expected_text(schema: Mapping[str, Any]) -> str:
    described = schema.get("x-expected")
    if isinstance(described, str):
        return described
    kind = schema.get("type")
    if isinstance(kind, str):
        return kind
    if isinstance(kind, Sequence):
        return " or ".join(str(k) for k in kind)
    return "a valid value"


def _got_text(instance: Any) -> str:
    if isinstance(instance, str) and not instance:
        return "an empty string"
    return json_type_name(instance)


def _cattrs_lines(error: BaseException) -> list[tuple[str, str]]:
    """Flatten a cattrs validation error group into (path, message) pairs."""
    try:
        from cattrs.errors import BaseValidationError
        from cattrs.v import transform_error
    except ImportError:  # pragma: no cover - cattrs is a dependency
        return [("", f"{type(error).__name__}: {error}")]
    if not isinstance(error, BaseValidationError):
        return [("", f"{type(error).__name__}: {error}")]

    def describe(exc: BaseException, _type: Any) -> str:
        if isinstance(exc, ValueError):
            return str(exc)
        if isinstance(exc, KeyError):
            return f"required field {exc} is missing"
        return f"invalid value ({type(exc).__name__}: {exc})"

    out: list[tuple[str, str]] = []
    for line in transform_error(error, format_exception=describe):
        message, _, where = line.rpartition(" @ ")
        out.append((where if where.startswith("$") else "$", message or line))
    return out
