"""Build happy-path argument sets from evidence, and check each against the input schema.

For every tool: argument sets that worked in a recorded session come first; then sets built
parameter by parameter from the value providers' candidates (strongest evidence first):

1. the required parameters only, each with its best candidate;
2. the required and the optional parameters, each with its best candidate;
3. the required parameters with their next-best candidates.

Identical sets are sent once (a tool without parameters gets one call), and a set is sent
only if it validates against the tool's input schema (optional values that break it are
dropped, and a required one falls back to its next candidate). Each set records where every
value came from, so a rejection can be blamed on the right party.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from toolscore_mcp.model import MCPToolDef, SetupCall
from toolscore_mcp.values.generate import effective_schema
from toolscore_mcp.values.meaning import is_wait
from toolscore_mcp.values.providers import (
    Candidate,
    Parameter,
    SynthesisContext,
    ValueProviderSpec,
    name_tokens,
)
from toolscore_mcp.values.roles import is_renamer, tool_nouns, tool_role
from toolscore_mcp.values.schema_subset import instance_is_valid, schema_is_valid

__all__ = ["ArgumentSet", "ToolSynthesizer", "collect_value_providers"]

_MAX_CANDIDATES = 6
_NAME_WORDS = frozenset({"name", "title", "label"})


@attrs.frozen
class ArgumentSet:
    """One happy-path call's arguments, the evidence for each, and the calls they rely on."""

    arguments: dict[str, Any]
    evidence: dict[str, str]
    setup: tuple[SetupCall, ...] = ()
    label: str = ""


#: Parameter words of an identifier (see :meth:`ToolSynthesizer.candidates`).
_ID_WORDS = frozenset({"id", "ids", "uuid", "handle", "identifier"})


def collect_value_providers(pm: Any) -> tuple[list[ValueProviderSpec], list[str]]:
    """Every registered provider, highest priority first, and one line per one skipped."""
    from toolscore_mcp.registry import ensure_mcp_hooks, gather_specs

    ensure_mcp_hooks(pm)
    specs, _, problems = gather_specs(
        pm, "toolscore_mcp_register_value_providers", ValueProviderSpec, "value provider"
    )
    ordered = sorted(specs.values(), key=lambda s: -s.priority)
    return ordered, problems


def _validator(schema: Mapping[str, Any]) -> Any:
    from jsonschema.validators import validator_for
    from toolscore.bounded_schema import bounded_validator_class

    from toolscore_mcp.rules.validity import schema_problem

    if schema_problem(dict(schema)) is not None:
        return None
    try:
        cls = bounded_validator_class(validator_for(schema), report_invalid_patterns=False)
        return cls(schema, format_checker=cls.FORMAT_CHECKER)
    except Exception:
        return None


def _shortest_first(candidate: Candidate) -> tuple[int, Any]:
    value = candidate.value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (0, value)
    return (1, 0)


#: The validator slot before its first use.
_UNBUILT: Any = object()


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


class ToolSynthesizer:
    """Argument sets for one tool, from the providers and the run's context."""

    def __init__(
        self,
        tool: MCPToolDef,
        providers: Sequence[ValueProviderSpec],
        context: SynthesisContext,
        *,
        notes: list[str] | None = None,
    ) -> None:
        self.tool = tool
        self.providers = providers
        self.context = context
        self.notes = notes if notes is not None else []
        schema = tool.input_schema
        raw_props = schema.get("properties") if isinstance(schema, Mapping) else None
        self.properties: dict[str, Any] = dict(raw_props) if isinstance(raw_props, Mapping) else {}
        raw_required = schema.get("required")
        self.required = [
            r
            for r in (raw_required if isinstance(raw_required, list) else [])
            if r in self.properties
        ]
        self.role = tool_role(tool)
        self.schema: Mapping[str, Any] | None = schema or None
        # True: a plain schema, answered without importing jsonschema (the common case);
        # False: an invalid one, which checks nothing; None: jsonschema's to answer.
        self._plain = schema_is_valid(schema) if schema else False
        self._validator: Any = _UNBUILT
        self._candidates: dict[str, list[Candidate]] = {}
        #: Numbers that set how long the tool waits: the shortest valid value, in every set.
        self.waits = [name for name in self.properties if is_wait(self.parameter(name))]

    @property
    def validator(self) -> Any:
        """jsonschema's validator for the input schema (None if it has none or it is invalid),
        built on first use: plain schemas never need it."""
        if self._validator is _UNBUILT:
            self._validator = (
                _validator(self.schema) if self.schema and self._plain is not False else None
            )
        return self._validator

    # -- candidates ---------------------------------------------------------------------------

    def parameter(self, name: str) -> Parameter:
        raw = self.properties.get(name)
        prop = effective_schema(raw if isinstance(raw, Mapping) else {}, self.tool.input_schema)
        return Parameter(
            tool=self.tool,
            name=name,
            schema=prop,
            required=name in self.required,
            role=self.role,
            siblings=tuple(self.properties),
        )

    def candidates(self, name: str) -> list[Candidate]:
        """Valid candidates for one parameter, best first, without repeats."""
        if name in self._candidates:
            return self._candidates[name]
        param = self.parameter(name)
        found: list[Candidate] = []
        for spec in self.providers:
            try:
                offered = list(_first(spec.provide(param, self.context), _MAX_CANDIDATES))
            except Exception as exc:
                self.notes.append(
                    f"value provider {spec.name!r} failed on {self.tool.name}.{name}: "
                    f"{type(exc).__name__}: {exc}"
                )
                continue
            for candidate in offered:
                if any(_same(candidate.value, c.value) for c in found):
                    continue
                if self._valid_value(name, candidate.value):
                    found.append(candidate)
            if len(found) >= _MAX_CANDIDATES:
                break
        if name in self.waits:
            found.sort(key=_shortest_first)
        elif set(param.tokens) & _ID_WORDS or name.lower().endswith("id"):
            # An id this run's calls returned names a real thing; an example id names none.
            found.sort(key=lambda candidate: candidate.source != "harvested")
        self._candidates[name] = found
        return found

    def _valid_value(self, name: str, value: Any) -> bool:
        if self._plain is True:
            answer = instance_is_valid(self.properties[name], value, formats=True, root=self.schema)
            if answer is not None:
                return answer
        if self.validator is None:
            return True
        try:
            errors = self.validator.iter_errors({name: value})
            return not any(e.absolute_path and e.absolute_path[0] == name for e in errors)
        except Exception:
            return True

    # -- argument sets -----------------------------------------------------------------------

    def argument_sets(self, cases: int) -> list[ArgumentSet]:
        """Up to ``cases`` distinct sets, each valid against the input schema."""
        sets: list[ArgumentSet] = []
        for recorded in self.context.recorded.get(self.tool.name, ()):
            evidence = dict.fromkeys(recorded, "recorded")
            sets.append(ArgumentSet(dict(recorded), evidence, (), "recorded"))
        if not self.properties:
            sets.append(ArgumentSet({}, {}, (), "no arguments"))
            return _distinct(sets)[: max(cases, 1)]
        optional = [name for name in self.properties if name not in self.required]
        # A wait left out would be the server's default, often the longest.
        waits = [name for name in self.waits if name not in self.required]
        # An optional id or handle that this run's own calls returned goes with every call:
        # a server that keeps several open things may act on none without it.
        flowing = [
            name
            for name in optional
            if name not in waits
            and (options := self.candidates(name))
            and options[0].source == "harvested"
        ]
        plans = (
            ("required arguments", [*self.required, *waits, *flowing], 0),
            ("all arguments", [*self.required, *optional], 0),
            ("alternative values", [*self.required, *waits, *flowing], 1),
        )
        for label, names, rank in plans:
            built = self._build(names, rank, label)
            if built is not None:
                sets.append(built)
        return _distinct(sets, self._defaults())[: max(cases, 1)]

    def _defaults(self) -> dict[str, Any]:
        """Each optional parameter's schema default: sending it is the same as leaving it out."""
        found: dict[str, Any] = {}
        for name, raw in self.properties.items():
            if name in self.required or not isinstance(raw, Mapping) or "default" not in raw:
                continue
            found[name] = raw["default"]
        return found

    def seeds(self) -> dict[str, Candidate]:
        """A destroyer's (or a renamer's) arguments from the call that made its thing in
        this run.

        ``delete_sheet(path, sheet)`` after ``create_sheet(path, new_name)`` passed: the same
        ``path``, and ``sheet`` is the ``new_name`` made, so the destroyer removes what the run
        made, never the sandbox's own. Parameters of the same name take the maker's value; a
        parameter named for the thing (``sheet``) or its name (``name``, ``title``) takes the
        maker's one name argument. Ids come from answers (the harvest), never from here.
        """
        harvest = self.context.harvested
        takes_away = self.role == "destroyer" or is_renamer(self.tool)
        if not takes_away or harvest is None or not hasattr(harvest, "creation"):
            return {}
        for noun in sorted(tool_nouns(self.tool)):
            made = harvest.creation(noun)
            if made is None or made[0] == self.tool.name:
                continue
            maker, arguments = made
            setup = ((maker, arguments),)
            named = [
                key
                for key, value in arguments.items()
                if isinstance(value, str) and set(name_tokens(key)) & _NAME_WORDS
            ]
            # ``copy_sheet(sheet, new_name)`` made ``new_name``; its ``sheet`` was the source.
            named.sort(key=lambda key: "new" not in name_tokens(key))
            made_name = bool(named) and "new" in name_tokens(named[0])
            seeds: dict[str, Candidate] = {}
            for name in self.properties:
                tokens = set(name_tokens(name))
                if "new" in tokens:
                    continue  # a renamer's new name is a fresh one, never the maker's
                names_it = "id" not in tokens and (tokens == {noun} or bool(tokens & _NAME_WORDS))
                if named and names_it and (made_name or name not in arguments):
                    value = arguments[named[0]]
                elif name in arguments:
                    value = arguments[name]
                else:
                    continue
                if self._valid_value(name, value):
                    seeds[name] = Candidate(value, "harvested", setup)
            if seeds:
                return seeds
        return {}

    def _build(self, names: Sequence[str], rank: int, label: str) -> ArgumentSet | None:
        chosen: dict[str, Candidate] = {}
        # A renamer's every call aims at what the run made: renaming the sandbox's own
        # (its first sheet) would take it away from every later tool.
        seeds = self.seeds() if rank == 0 or is_renamer(self.tool) else {}
        for name in names:
            if name in seeds:
                chosen[name] = seeds[name]
                continue
            options = self.candidates(name)
            if not options:
                if name in self.required:
                    return None
                continue
            pick = options[0 if name in self.waits else min(rank, len(options) - 1)]
            # An alternative only from real evidence: a bare generated value is no better.
            chosen[name] = pick if pick.source not in ("generated", "plugin") else options[0]
        fitted = self._fit(chosen)
        if fitted is None:
            return None
        chosen = fitted
        setup: dict[tuple[str, str], SetupCall] = {}
        for candidate in chosen.values():
            for tool, arguments in candidate.setup:
                call = SetupCall(tool, dict(arguments))
                setup.setdefault((tool, repr(sorted(arguments.items()))), call)
        # Optional values sent together may conflict (head and tail): never certain evidence.
        return ArgumentSet(
            {name: c.value for name, c in chosen.items()},
            {
                name: c.source if name in self.required else f"optional {c.source}"
                for name, c in chosen.items()
            },
            tuple(setup.values()),
            label,
        )

    def _fit(self, chosen: dict[str, Candidate]) -> dict[str, Candidate] | None:
        """Drop optional values and swap required ones until the set validates (or give up)."""
        if self._plain is False:
            return chosen
        for _ in range(len(self.properties) * 2 + 2):
            error = self._first_error({n: c.value for n, c in chosen.items()})
            if error is None:
                return chosen
            path = list(error.absolute_path)
            culprit = str(path[0]) if path and str(path[0]) in chosen else None
            if culprit is None:
                culprit = _missing_property(error)
                if culprit is not None and culprit in self.properties:
                    options = self.candidates(culprit)
                    if options:
                        chosen[culprit] = options[0]
                        continue
                return None
            if culprit not in self.required:
                del chosen[culprit]
                continue
            options = [
                c for c in self.candidates(culprit) if not _same(c.value, chosen[culprit].value)
            ]
            if not options:
                return None
            chosen[culprit] = options[0]
        return None

    def _first_error(self, arguments: Mapping[str, Any]) -> Any:
        if (
            self._plain is True
            and instance_is_valid(self.schema, dict(arguments), formats=True, root=self.schema)
            is True
        ):
            return None
        if self.validator is None:
            return None
        from jsonschema import exceptions

        try:
            return exceptions.best_match(self.validator.iter_errors(dict(arguments)))
        except Exception:
            return None

    def validation_error(self, arguments: Mapping[str, Any]) -> str | None:
        """Why ``arguments`` break the input schema, or None."""
        error = self._first_error(arguments)
        if error is None:
            return None
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        return f"{where}: {error.message}"


def _missing_property(error: Any) -> str | None:
    if getattr(error, "validator", None) != "required":
        return None
    message = str(getattr(error, "message", ""))
    quoted = message.split("'")
    return quoted[1] if len(quoted) > 2 else None


def _first(values: Iterable[Candidate], limit: int) -> Iterable[Candidate]:
    for index, value in enumerate(values):
        if index >= limit:
            return
        # A bare value from a plugin counts as a guess of that plugin's.
        yield value if isinstance(value, Candidate) else Candidate(value, "plugin")


def _distinct(
    sets: list[ArgumentSet], defaults: Mapping[str, Any] | None = None
) -> list[ArgumentSet]:
    """``sets`` without repeats, counting a call that only adds optional values equal to
    their defaults as the same call (each happy path costs the server real work)."""
    unique: list[ArgumentSet] = []
    for candidate in sets:
        arguments = _without_defaults(candidate.arguments, defaults or {})
        if not any(
            _same_arguments(arguments, _without_defaults(seen.arguments, defaults or {}))
            for seen in unique
        ):
            unique.append(candidate)
    return unique


def _without_defaults(arguments: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
    return {
        name: value
        for name, value in arguments.items()
        if not (name in defaults and _same(value, defaults[name]))
    }


def _same_arguments(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
