"""Value providers: where a happy-path argument's value comes from, strongest evidence first.

A provider looks at one parameter (its name, schema, description, the tool and its role) and
the run's context (the sandbox, values the server told us or returned) and offers candidate
values, each labelled with its evidence. Built-in providers come through the same hook as a
plugin's (``toolscore_mcp_register_value_providers``), ordered by ``priority``:

* ``schema`` (80): ``const``, ``enum``, ``examples``, ``default``, booleans;
* ``discovered`` (75): values a listing tool of the server said are valid;
* ``description`` (70): "e.g. 'X'", quoted examples, listed options, formats such as HH:MM;
* ``harvested`` (65): ids, names and paths other tools returned earlier in this run;
* ``meaning`` (60): what the name says: a path in the sandbox of the right kind, a loopback
  URL, a timezone, SQL, a math expression, free text;
* ``generated`` (0): the schema-driven generator, when nothing else applies.

The user's scenario file and recorded sessions give whole argument sets and come before all
of these (see :mod:`toolscore_mcp.values.synthesizer`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import attrs
from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.model import MCPToolDef

__all__ = [
    "Candidate",
    "Parameter",
    "SandboxLike",
    "SynthesisContext",
    "ValueProviderSpec",
    "name_tokens",
]

_CAMEL = lazy_pattern(r"(?<=[a-z0-9])(?=[A-Z])")


def name_tokens(name: str) -> tuple[str, ...]:
    """``repoPath`` / ``repo_path`` / ``repo-path`` -> ``("repo", "path")``."""
    spaced = _CAMEL.sub(" ", name)
    return tuple(t for t in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if t)


class SandboxLike(Protocol):
    """What value providers use of :class:`toolscore_mcp.sandbox.sandbox.Sandbox`."""

    @property
    def root(self) -> Any: ...

    @property
    def url(self) -> str: ...

    def file_with_extension(self, extension: str) -> Any: ...

    def new_path(self, name_hint: str = "item", extension: str = "") -> Any: ...

    def disposable(self, kind_or_extension: str) -> Any: ...

    def fresh_copy(self, extension: str) -> tuple[Any, tuple[str, ...]] | None: ...

    def url_for(self, name: str) -> str: ...


@attrs.frozen
class Parameter:
    """One parameter of one tool, as providers see it."""

    tool: MCPToolDef
    name: str
    #: The property's schema with ``$ref``/``allOf``/unions folded in.
    schema: Mapping[str, Any]
    required: bool = False
    #: ``producer``, ``reader`` or ``destroyer`` (see :mod:`toolscore_mcp.values.roles`).
    role: str = "reader"
    #: The tool's other parameter names.
    siblings: tuple[str, ...] = ()

    @property
    def tokens(self) -> tuple[str, ...]:
        return name_tokens(self.name)

    @property
    def description(self) -> str:
        """The schema's description; without one, the line the tool's own description gives
        the parameter in a docstring-style ``Args:`` section."""
        text = self.schema.get("description")
        if isinstance(text, str) and text.strip():
            return text
        from toolscore_mcp.values.docstring_args import documented_arguments

        return documented_arguments(self.tool.description or "").get(self.name, "")

    @property
    def json_type(self) -> str:
        from toolscore.schema_values import primary_schema_type

        return primary_schema_type(self.schema)


@attrs.frozen
class Candidate:
    """A value for a parameter and the evidence behind it."""

    value: Any
    #: ``schema``, ``plain``, ``discovered``, ``description``, ``harvested``, ``meaning``,
    #: ``generated``, or a plugin's own label. See :data:`toolscore_mcp.grading.classify.CERTAIN_SOURCES`.
    source: str
    #: Calls that produced the value (harvested ids), as ``(tool, arguments)``.
    setup: tuple[tuple[str, Mapping[str, Any]], ...] = ()


@attrs.define
class SynthesisContext:
    """What providers may consult besides the parameter itself."""

    sandbox: SandboxLike | None = None
    #: Parameter name -> values a listing tool of the server said are valid.
    known_values: Mapping[str, Sequence[Any]] = attrs.field(factory=dict)
    #: Directories the server allows (from a ``list_allowed_directories``-style tool).
    roots: tuple[str, ...] = ()
    #: Values other tools returned this run (see :mod:`toolscore_mcp.values.harvest`).
    harvested: Any = None
    #: Tool -> argument sets that worked in a recorded session.
    recorded: Mapping[str, Sequence[Mapping[str, Any]]] = attrs.field(factory=dict)
    #: A counter for unique names of things producers create.
    serial: int = 0
    #: Parameter name -> a value a repair found the server accepts (shared by its tools).
    learned: dict[str, Any] = attrs.field(factory=dict)
    #: Path kind (``repository``, ``database``, ``directory``) -> the path the server was given
    #: on its command line or a repair found it accepts: every later path of that kind uses it.
    paths: dict[str, str] = attrs.field(factory=dict)

    def next_serial(self) -> int:
        self.serial += 1
        return self.serial


Provide = Callable[[Parameter, SynthesisContext], Iterable[Candidate]]


@attrs.frozen
class ValueProviderSpec:
    """A value provider registered through ``toolscore_mcp_register_value_providers``.

    ``provide(parameter, context)`` yields :class:`Candidate` values, best first; it is
    called for every top-level parameter of every tool and must be quick and pure (no I/O
    outside the sandbox). Higher ``priority`` providers are asked first.
    """

    name: str
    provide: Provide
    priority: int = 50
    summary: str = ""
