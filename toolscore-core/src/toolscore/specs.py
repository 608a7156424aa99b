"""Frozen registration records returned by the ``toolscore_register_*`` hooks.

A spec names a thing and carries a *factory*; nothing heavy is imported until the factory runs,
so listing plugins or printing ``--help`` stays fast.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from toolscore.protocols import Extractor, Judge, Metric, Reporter

_NAME = re.compile(r"^[a-z][a-z0-9_.-]*$")


def _check_name(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if not isinstance(value, str) or not _NAME.match(value):
        raise ValueError(
            f"{type(instance).__name__}.name must be lowercase letters, digits, '_', '-' or '.', "
            f"starting with a letter; got {value!r}"
        )


@attrs.frozen
class MetricSpec:
    """A metric computed for every evaluation.

    ``factory()`` returns an object with ``compute(context) -> value`` (see
    :class:`toolscore.protocols.Metric`). The value is stored as ``metrics[name]``.
    """

    #: Key of the value in ``EvaluationResult.metrics``.
    name: str = attrs.field(validator=_check_name)
    #: Builds the metric; called once per plugin manager.
    factory: Callable[[], Metric]
    #: One line for ``toolscore plugins list``.
    summary: str = ""
    #: Position among metrics; the built-ins use 10, 20, ... in report order.
    order: int = 1000
    #: Row title in the console, Markdown, HTML, CSV and JUnit views (default: ``name``).
    label: str | None = None
    #: ``render(value) -> str``: the value as one line of text in those views; by default
    #: numbers are shown with 4 significant digits and mappings as ``key=value`` pairs.
    render: Callable[[Any], str] | None = None


@attrs.frozen
class ExtractorSpec:
    """A reader of one provider or framework format.

    ``factory()`` returns a :class:`toolscore.protocols.Extractor`. ``function_name`` (for
    example ``"from_openai"``) is exposed as ``toolscore.<function_name>``.
    """

    name: str = attrs.field(validator=_check_name)
    factory: Callable[[], Extractor]
    summary: str = ""
    #: Other names accepted by ``load_trace(format=...)`` and ``--format``.
    aliases: tuple[str, ...] = ()
    #: Public helper name, e.g. ``"from_openai"``; ``None`` for none.
    function_name: str | None = None


@attrs.frozen
class MatcherSpec:
    """An argument matcher and its JSON form in gold, snapshot and rule files.

    ``json_key`` (for example ``"$regex"``) maps ``{"$regex": value}`` to ``from_json(value)``.
    """

    name: str = attrs.field(validator=_check_name)
    factory: Callable[..., Any]
    summary: str = ""
    json_key: str | None = None
    from_json: Callable[[Any], Any] | None = None


@attrs.frozen
class JudgeSpec:
    """An LLM judge backend; ``factory(config)`` returns a :class:`toolscore.protocols.Judge`.

    ``config_type`` is how core builds that ``config`` without knowing the judge plugin: a
    zero-argument callable returning the configuration class (import it inside the callable,
    so listing plugins stays cheap). The class is public as ``toolscore.JudgeConfig``; core
    calls it with keyword arguments ``model``, ``provider``, ``base_url`` and ``cache_dir``
    (``evaluate_trace(judge=...)``, ``--llm-*``) and asks the instance ``resolve_provider()``
    for the judge name to use. The ImportError it may raise means "not available".
    """

    name: str = attrs.field(validator=_check_name)
    factory: Callable[[Any], Judge]
    summary: str = ""
    #: Returns the configuration class ``factory`` receives; ``None`` for judges that only
    #: accept a configuration another plugin defines.
    config_type: Callable[[], type[Any]] | None = None


@attrs.frozen
class ReporterSpec:
    """A report format for evaluation results.

    ``factory()`` returns a :class:`toolscore.protocols.Reporter`.
    """

    name: str = attrs.field(validator=_check_name)
    factory: Callable[[], Reporter]
    summary: str = ""
    #: Default file extension, e.g. ``".html"``; ``None`` for terminal-only reporters.
    extension: str | None = None


@attrs.frozen
class ExecutorSpec:
    """An engine that runs batches of dataset cases for ``toolscore eval-batch``.

    ``factory(options)`` receives a :class:`toolscore.batch.executors.ExecutorOptions`
    (``workers``, ``scheduler``) and returns a :class:`toolscore.batch.executors.Executor`.
    Import the engine (a process pool, Dask, ...) inside the factory, not at module import.
    """

    name: str = attrs.field(validator=_check_name)
    factory: Callable[[Any], Any]
    summary: str = ""


#: The kinds of specs, keyed by the word used in ``plugins list`` ("metrics: a, b").
SPEC_KINDS: dict[str, type] = {
    "extractors": ExtractorSpec,
    "matchers": MatcherSpec,
    "metrics": MetricSpec,
    "judges": JudgeSpec,
    "reporters": ReporterSpec,
    "executors": ExecutorSpec,
}
