"""The hook specifications: every extension point toolscore offers.

Registration hooks are called once per plugin manager, lazily, the first time a registry is
needed. They return iterables of frozen spec objects; names must be unique across all
installed plugins, or :class:`toolscore.errors.PluginConflictError` names both providers.
Implementations may be declared with any subset of a hook's arguments.

Plugins import :data:`toolscore.hookimpl`, never pluggy itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from toolscore._markers import hookspec

if TYPE_CHECKING:
    from pathlib import Path

    import click

    from toolscore.plugins.manager import ToolscorePluginManager
    from toolscore.result import EvaluationResult
    from toolscore.specs import (
        ExecutorSpec,
        ExtractorSpec,
        JudgeSpec,
        MatcherSpec,
        MetricSpec,
        ReporterSpec,
    )


@hookspec(historic=True)
def toolscore_add_hookspecs(plugin_manager: ToolscorePluginManager) -> None:
    """Add a plugin's own hookspecs, so that other plugins can extend it in turn.

    Called once for every plugin as it is registered (a historic hook: plugins registered
    later are called too). toolscore-mcp uses it to add its lint-rule hook.

    :param plugin_manager: The manager; call ``plugin_manager.add_hookspecs(module)``.

    Example::

        @toolscore.hookimpl
        def toolscore_add_hookspecs(plugin_manager):
            from toolscore_mcp import hookspecs
            plugin_manager.add_hookspecs(hookspecs)

    .. versionadded:: 0.1
    """


@hookspec
def toolscore_register_metrics() -> Iterable[MetricSpec]:
    """Register metrics computed for every evaluation.

    Called the first time the evaluator or ``toolscore plugins list`` needs the metric
    registry. Yield one :class:`~toolscore.specs.MetricSpec` per metric. Its factory builds an
    object with ``compute(context)``; the value lands in ``EvaluationResult.metrics[name]``.

    :returns: An iterable of metric specs.

    Example::

        @toolscore.hookimpl
        def toolscore_register_metrics():
            yield MetricSpec(name="call_budget", factory=CallBudget, summary="calls vs budget")

    .. versionadded:: 0.1
    """
    return ()


@hookspec
def toolscore_register_extractors() -> Iterable[ExtractorSpec]:
    """Register readers of provider and framework payloads.

    Called the first time a payload must be auto-detected, a ``format=`` name resolved, or a
    ``toolscore.from_<name>`` helper looked up. Each factory builds an object with
    ``confidence(payload) -> float`` and ``extract(payload) -> list[ToolCall]``; it may also
    offer ``rate(probe) -> float``, the same rating read from a shared
    :class:`toolscore.extraction.Probe`, which detection then calls instead of ``confidence``.

    :returns: An iterable of extractor specs.

    Example::

        @toolscore.hookimpl
        def toolscore_register_extractors():
            yield ExtractorSpec(name="myllm", factory=MyLLMExtractor, function_name="from_myllm")

    .. versionadded:: 0.1
    """
    return ()


@hookspec
def toolscore_register_matchers() -> Iterable[MatcherSpec]:
    """Register argument matchers and their JSON forms.

    Called when a gold, snapshot or rule file is read. A spec with ``json_key="$startswith"``
    turns ``{"$startswith": "x"}`` in such files into ``from_json("x")``.

    :returns: An iterable of matcher specs.

    Example::

        @toolscore.hookimpl
        def toolscore_register_matchers():
            yield MatcherSpec(name="startswith", factory=StartsWith, json_key="$startswith",
                              from_json=StartsWith)

    .. versionadded:: 0.1
    """
    return ()


@hookspec
def toolscore_register_judges() -> Iterable[JudgeSpec]:
    """Register LLM judge backends.

    Called only when an evaluation asks for a judge. ``factory(config)`` receives the
    ``JudgeConfig`` and returns an object with ``judge(pairs, gold_count=, trace_count=)``.

    :returns: An iterable of judge specs.

    Example::

        @toolscore.hookimpl
        def toolscore_register_judges():
            yield JudgeSpec(name="openai", factory=OpenAIJudge, summary="OpenAI chat completions")

    .. versionadded:: 0.1
    """
    return ()


@hookspec
def toolscore_register_reporters() -> Iterable[ReporterSpec]:
    """Register report formats for evaluation results.

    Called when a report is requested (``toolscore eval --html PATH``, ``--report NAME``) or
    reporters are listed. ``factory()`` returns an object with ``render(result, verbose=)``.

    :returns: An iterable of reporter specs.

    Example::

        @toolscore.hookimpl
        def toolscore_register_reporters():
            yield ReporterSpec(name="tap", factory=TapReporter, extension=".tap")

    .. versionadded:: 0.1
    """
    return ()


@hookspec
def toolscore_register_executors() -> Iterable[ExecutorSpec]:
    """Register engines that run ``toolscore eval-batch`` (and ``evaluate_dataset``).

    Called when a batch run picks its executor (``--executor NAME``) or ``toolscore plugins
    list`` lists executors. ``factory(options)`` gets the run's ``ExecutorOptions``
    (``workers``, ``scheduler``) and returns an object with
    ``map_batches(function, batches)`` (apply ``function`` to each picklable batch and yield
    the answers in input order, keeping only a bounded number in flight) and ``close()``.
    Core registers ``local`` (a process pool); toolscore-dask registers ``dask``.

    :returns: An iterable of executor specs.

    Example::

        @toolscore.hookimpl
        def toolscore_register_executors():
            yield ExecutorSpec(name="ray", factory=RayExecutor, summary="a Ray cluster")

    .. versionadded:: 0.1
    """
    return ()


@hookspec
def toolscore_register_commands(cli: click.Group) -> None:
    """Add commands to the ``toolscore`` command line.

    Called lazily by the CLI group, only when a command name is not a built-in or the full
    command list is needed (``plugins list``; ``toolscore --help`` reads the plugin's
    ``TOOLSCORE_COMMANDS`` table instead when it has one, see :mod:`toolscore.command_table`).
    Add commands with ``cli.add_command`` (or ``add_commands`` from such a table); import
    heavy dependencies inside the command callbacks, not at module import.

    :param cli: The root ``toolscore`` click group.

    Example::

        @toolscore.hookimpl
        def toolscore_register_commands(cli):
            @cli.command()
            def hello():
                "Say hello."
                click.echo("hello")

    .. versionadded:: 0.1
    """


@hookspec(firstresult=True)
def toolscore_detect_format(payload: Any, plugin_manager: ToolscorePluginManager) -> str | None:
    """Name the extractor that should read ``payload``, or return ``None`` to pass.

    Called once per payload that was not given an explicit format. Stops at first non-None
    result. The built-in implementation is ``trylast``: it asks every registered extractor for
    its confidence and picks the highest, so a plugin implementing this hook takes precedence.

    :param payload: A decoded JSON value or a provider SDK object.
    :param plugin_manager: The manager asking; ``plugin_manager.get_extractors()`` is the
        registry to choose from.
    :returns: An extractor name, or ``None``.

    Example::

        @toolscore.hookimpl
        def toolscore_detect_format(payload):
            if isinstance(payload, dict) and payload.get("provider") == "myllm":
                return "myllm"
            return None

    .. versionadded:: 0.1
    """


@hookspec
def toolscore_evaluation_finished(result: EvaluationResult) -> None:
    """Observe a finished evaluation.

    Called after every ``evaluate()`` / ``evaluate_trace()``, with the complete result. Use it
    for logging or export; the result is read-only and the return value is ignored.

    :param result: The finished evaluation.

    Example::

        @toolscore.hookimpl
        def toolscore_evaluation_finished(result):
            metrics_log.append(result.score)

    .. versionadded:: 0.1
    """


@hookspec
def toolscore_snapshot_used(name: str, path: Path) -> None:
    """Observe a snapshot check, before it runs and whatever its outcome.

    Called by every ``snapshot_check()`` and ``toolscore_snapshot`` fixture call. The pytest
    plugin's unused-snapshot check (``--toolscore-unused``) listens here, so that snapshots a
    test checks without the fixture are never reported, or deleted, as unused.

    :param name: The snapshot's name.
    :param path: The file that holds (or will hold) it.

    Example::

        @toolscore.hookimpl
        def toolscore_snapshot_used(name, path):
            seen.add(name)

    .. versionadded:: 0.1
    """


@hookspec
def toolscore_describe_provided(
    plugin_manager: ToolscorePluginManager,
) -> Mapping[str, Mapping[str, Iterable[str]]]:
    """Say what plugins provide through hooks that a plugin added itself.

    ``toolscore plugins list`` shows, per plugin, what it registers through core's hooks. A
    plugin that adds hooks of its own (with :func:`toolscore_add_hookspecs`) answers here for
    them, so that plugins extending it are listed with what they add too. Called only by
    ``toolscore plugins list``; an implementation that raises is reported as failed there.

    :param plugin_manager: The manager whose plugins to describe.
    :returns: ``{plugin name: {kind: names}}``; kinds are snake_case words shown as they are.

    Example (toolscore-mcp's own answer)::

        @toolscore.hookimpl
        def toolscore_describe_provided(plugin_manager):
            return {"my_rules": {"mcp_lint_rules": ["no-shouting"]}}

    .. versionadded:: 0.1
    """
    return {}
