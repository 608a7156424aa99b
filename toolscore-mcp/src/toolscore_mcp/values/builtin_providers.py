"""The built-in value providers, registered through toolscore-mcp's own hook.

Each is a function ``(parameter, context) -> candidates``; :mod:`toolscore_mcp.values.providers`
says what the evidence labels mean and in which order they are asked.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from typing import Any

from toolscore import hookimpl
from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.values.generate import SCHEMA_FORMAT_VALUES
from toolscore_mcp.values.meaning import meaning_candidates
from toolscore_mcp.values.providers import Candidate, Parameter, SynthesisContext, ValueProviderSpec

__all__ = ["FORMAT_HINTS", "builtin_value_providers", "description_candidates", "schema_candidates"]

_QUOTED_EXAMPLE = lazy_pattern(
    r"(?:e\.g\.|eg\.|for example|example|such as|like)[:,]?\s*[\"'`]([^\"'`\n]{1,200})[\"'`]",
    re.I,
)
_BARE_EXAMPLE = lazy_pattern(r"(?:e\.g\.|for example|such as)[:,]?\s*([^\s,;)]{1,80})", re.I)
_OPTIONS = lazy_pattern(
    r"(?:one of|options?(?: are)?|valid values?(?: are)?|supported(?: values)?(?: are)?|"
    r"allowed(?: values)?(?: are)?|choices?(?: are)?|either)\s*[:=]?\s*[\[(]?"
    r"((?:[\"'`]?[\w./+-]+[\"'`]?\s*(?:,|\||/|\bor\b)\s*)+[\"'`]?[\w./+-]+[\"'`]?)",
    re.I,
)
_COLON_OPTIONS = lazy_pattern(
    r"[:(]\s*((?:[\"'`]?[\w./+-]+[\"'`]?,\s*)*[\"'`]?[\w./+-]+[\"'`]?,?\s+or\s+[\"'`]?[\w./+-]+[\"'`]?)"
)
_QUOTED_OPTION = lazy_pattern(r"(?:^|[\s(\[,])['\"`]([\w.-]{1,40})['\"`](?=[\s)\],.;:]|$)")
#: Format hints written in prose, and a value that follows each (also read by repairs).
FORMAT_HINTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"HH:MM:SS", re.I), "14:30:00"),
    (re.compile(r"HH:MM|24-hour", re.I), "14:30"),
    (re.compile(r"YYYY-MM-DD[T ]HH", re.I), "2026-01-15T10:30:00"),
    (re.compile(r"ISO[ -]?8601|ISO format|RFC ?3339", re.I), "2026-01-15T10:30:00Z"),
    (re.compile(r"YYYY-MM-DD", re.I), "2026-01-15"),
    (re.compile(r"MM/DD/YYYY", re.I), "01/15/2026"),
    (re.compile(r"DD/MM/YYYY", re.I), "15/01/2026"),
    (re.compile(r"IANA", re.I), "Europe/London"),
    (re.compile(r"ISO 639|language code", re.I), "en"),
    (re.compile(r"ISO 3166|country code", re.I), "US"),
    (re.compile(r"ISO 4217|currency code", re.I), "USD"),
)
#: Formats whose value the schema vouches for. URL formats are left to the ``meaning``
#: provider, which points them at the sandbox's loopback server instead of the internet.
_URL_FORMATS = frozenset({"uri", "url", "iri", "uri-reference"})
_FORMAT_VALUES = {k: v for k, v in SCHEMA_FORMAT_VALUES.items() if k not in _URL_FORMATS}


_INTERNET_URL = lazy_pattern(
    r"(?:https?|wss?|ftp)://(?!(?:localhost|127\.\d+\.\d+\.\d+|\[::1\])(?:[:/]|$))", re.I
)


def _internet_url(value: Any) -> bool:
    """An example or default that points at the internet: the run is offline, so the
    ``meaning`` provider's loopback URL is tried instead."""
    return isinstance(value, str) and _INTERNET_URL.match(value) is not None


def schema_candidates(param: Parameter, ctx: SynthesisContext) -> Iterator[Candidate]:
    """``const``, ``enum``, ``examples``, ``default`` and booleans: values the schema vouches for."""
    schema = param.schema
    if "const" in schema:
        yield Candidate(schema["const"], "schema")
        return
    enum = schema.get("enum")
    if isinstance(enum, list):
        for value in enum:
            if value is not None:
                yield Candidate(value, "schema")
    examples = schema.get("examples")
    if isinstance(examples, list):
        for value in examples:
            if not _internet_url(value):
                yield Candidate(value, "schema")
    if schema.get("default") is not None and not _internet_url(schema["default"]):
        yield Candidate(schema["default"], "schema")
    if param.json_type == "boolean":
        yield Candidate(True, "schema")
        yield Candidate(False, "schema")
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt in _FORMAT_VALUES and param.json_type == "string":
        yield Candidate(_FORMAT_VALUES[fmt], "description")


def _split_options(text: str) -> list[str]:
    parts = re.split(r"\s*(?:,|\||/|\bor\b)\s*", text)
    return [p.strip("\"'` .") for p in parts if p.strip("\"'` .")]


def description_candidates(param: Parameter, ctx: SynthesisContext) -> Iterator[Candidate]:
    """Examples, listed options and format hints written in the parameter's description."""
    text = param.description
    if not text:
        return
    kind = param.json_type
    if kind == "string":
        from toolscore_mcp.values.meaning import json_example

        example = json_example(text)
        if example is not None:
            # A whole object or list written out: the quotes inside it are its values,
            # not examples of this parameter.
            yield Candidate(example, "description")
            return
    for match in _QUOTED_EXAMPLE.finditer(text):
        yield from _typed(match.group(1), kind)
    if kind == "string":
        for pattern, value in FORMAT_HINTS:
            if pattern.search(text):
                yield Candidate(value, "description")
                break
        quoted = _QUOTED_OPTION.findall(text)
        if len(set(quoted)) >= 2:
            for option in dict.fromkeys(quoted):
                yield Candidate(option, "description")
        for pattern in (_OPTIONS, _COLON_OPTIONS):
            for match in pattern.finditer(text):
                for option in _split_options(match.group(1))[:4]:
                    yield Candidate(option, "description")
    for match in _BARE_EXAMPLE.finditer(text):
        yield from _typed(match.group(1).rstrip("."), kind)


def _typed(raw: str, kind: str) -> Iterator[Candidate]:
    if kind == "string":
        yield Candidate(raw, "description")
    elif kind in ("integer", "number"):
        try:
            number = float(raw)
        except ValueError:
            return
        if kind == "integer" and number.is_integer():
            yield Candidate(int(number), "description")
        elif kind == "number":
            yield Candidate(number, "description")
    elif kind == "array":
        yield Candidate([raw], "description")


def learned_candidates(param: Parameter, ctx: SynthesisContext) -> Iterator[Candidate]:
    """A value a repaired call of another tool got accepted for a parameter of this name."""
    from toolscore_mcp.values.meaning import wants_new_path

    if param.name not in ctx.learned or param.role == "destroyer" or "new" in param.tokens:
        return
    if wants_new_path(param):
        return  # the file a tool makes is a new one, not the one another tool read
    yield Candidate(ctx.learned[param.name], "learned")


def discovered_candidates(param: Parameter, ctx: SynthesisContext) -> Iterator[Candidate]:
    """Values a listing tool of the server said are valid for a parameter of this name."""
    for value in ctx.known_values.get(param.name, ())[:3]:
        yield Candidate([value] if param.json_type == "array" else value, "discovered")


def harvested_candidates(param: Parameter, ctx: SynthesisContext) -> Iterator[Candidate]:
    """Ids, names and paths other tools returned this run, for a parameter of that name."""
    from toolscore_mcp.values.meaning import fits_meaning, path_kind
    from toolscore_mcp.values.positions import made_for, position_value
    from toolscore_mcp.values.roles import is_destructive

    harvest = ctx.harvested
    if harvest is None or path_kind(param) is not None or "new" in param.tokens:
        return  # a new name is one nothing has yet
    destructive = is_destructive(param.tool)
    place = position_value(param) is not None and param.json_type == "integer"
    # A position among other things than this tool's (a chart's shape for a table tool) is
    # no position for it.
    accept = (lambda _value, setup: made_for(param.tool, setup)) if place else None
    found = harvest.lookup(param.name, param.tool.name, (), made_only=destructive, accept=accept)
    for value, setup in found:
        if not fits_meaning(param, value):
            continue  # a path for a hash, a sentence for an id
        if param.json_type == "array" and not isinstance(value, list):
            value = [value]
        yield Candidate(value, "harvested", setup)


def generated_candidates(param: Parameter, ctx: SynthesisContext) -> Iterator[Candidate]:
    """The schema-driven generator's value: valid by the schema, meaning unknown."""
    from toolscore_mcp.values.generate import ValueContext, generate_nested

    rng = random.Random(f"{param.tool.name}.{param.name}")
    # The tool's whole schema is the root its ``$ref``s point into (pydantic's ``$defs``).
    root = param.tool.input_schema or {}
    value: Any = generate_nested(param.name, param.schema, "normal", rng, ValueContext(root), 0)
    if param.json_type in ("array", "object"):
        value = _nested_meaning(param, value, param.schema, ctx)
    plain = param.json_type in ("integer", "number", "boolean")
    yield Candidate(value, "plain" if plain else "generated")


_NESTED_DEPTH = 4


def _nested_meaning(
    param: Parameter, value: Any, schema: Mapping[str, Any], ctx: SynthesisContext, depth: int = 0
) -> Any:
    """A generated list or object with each inner field given what its name means, as a
    top-level parameter of that name would get (a sandbox file for ``file_path``, a known
    name for ``entityName``): ``[{"file_path": "/tmp/data.json"}]`` reaches nothing.

    A list keeps the fewest items its schema allows: each item is one more chance to name
    something that is not there, and lists sent side by side (``ids`` and ``documents``)
    then have the same length.
    """
    from toolscore_mcp.values.generate import effective_schema
    from toolscore_mcp.values.harvest import word_set
    from toolscore_mcp.values.meaning import meaning_candidates
    from toolscore_mcp.values.nested_fields import fits_field, kept_fields, pinned

    if depth >= _NESTED_DEPTH:
        return value
    schema = effective_schema(schema, param.tool.input_schema or {})
    if isinstance(value, list):
        items = schema.get("items")
        if not isinstance(items, Mapping):
            return value
        least = schema.get("minItems")
        value = value[: max(1, least if isinstance(least, int) else 1)]
        return [_nested_meaning(param, item, items, ctx, depth + 1) for item in value]
    properties = schema.get("properties")
    if not isinstance(value, dict) or not isinstance(properties, Mapping):
        return value
    out = dict(value)
    companions: dict[str, Any] = {}
    harvested: set[str] = set()
    for key, sub in properties.items():
        if key not in out or not isinstance(sub, Mapping):
            continue
        sub = effective_schema(sub, param.tool.input_schema or {})
        if isinstance(out[key], (list, dict)):
            out[key] = _nested_meaning(param, out[key], sub, ctx, depth + 1)
            continue
        if pinned(sub):
            continue  # the schema's own option, whatever the field's name suggests
        inner = Parameter(param.tool, str(key), sub, role=param.role)
        for candidate in (*harvested_candidates(inner, ctx), *meaning_candidates(inner, ctx)):
            if fits_field(candidate.value, sub):
                out[key] = candidate.value
                if candidate.source == "harvested":
                    harvested.add(str(key))
                    companions = companions or ctx.harvested.companions(candidate.value)
                break
    # Values that came together stay together: a hash sent with the lines it was taken of.
    for key, sub in properties.items():
        together = companions.get(word_set(str(key)))
        if (
            key in out
            and together is not None
            and isinstance(sub, Mapping)
            and fits_field(together, sub)
        ):
            out[key] = together
            harvested.add(str(key))
    return kept_fields(out, schema, harvested)


def builtin_value_providers() -> list[ValueProviderSpec]:
    """toolscore-mcp's own providers, in the order of the evidence they stand for."""
    return [
        ValueProviderSpec("schema", schema_candidates, 80, "const, enum, examples, default"),
        ValueProviderSpec("learned", learned_candidates, 78, "values a repair got accepted"),
        ValueProviderSpec("discovered", discovered_candidates, 75, "values a lister returned"),
        ValueProviderSpec("description", description_candidates, 70, "e.g., options, formats"),
        ValueProviderSpec("harvested", harvested_candidates, 65, "ids other tools returned"),
        ValueProviderSpec("meaning", meaning_candidates, 60, "what the parameter name means"),
        ValueProviderSpec("generated", generated_candidates, 0, "schema-driven fallback"),
    ]


@hookimpl
def toolscore_mcp_register_value_providers() -> list[ValueProviderSpec]:
    """The built-in providers, through the same hook as a plugin's."""
    return builtin_value_providers()
