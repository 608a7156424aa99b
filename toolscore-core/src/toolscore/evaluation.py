"""``evaluate()`` (in memory) and ``evaluate_trace()`` (files): the evaluator.

Both turn their inputs into :class:`~toolscore.model.ToolCall` lists and then share one tail
(:func:`_finish`, keyword-only through a frozen request): apply ``match=``, pair expected with
actual calls once and run every registered metric in order (:func:`toolscore.scoring.score_calls`),
add the extra metrics, the judge's verdicts, and hand the finished result to the
``toolscore_evaluation_finished`` hook. Metrics come from the plugin manager's registry,
built-in and third-party alike.

Importing this module is cheap: no reporter, CLI or plugin dependency is imported.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from toolscore.expectations.parse import is_structured
from toolscore.extraction import calls_from_payload
from toolscore.matching._expected import expected_calls
from toolscore.scoring import normalized_weights, plugin_metric_names, score_calls

if TYPE_CHECKING:
    from toolscore.matching.trajectory import MatchSpec
    from toolscore.model import ToolCall
    from toolscore.plugins.manager import ToolscorePluginManager
    from toolscore.result import EvaluationResult

__all__ = ["add_judgement", "evaluate", "evaluate_trace", "plugin_metric_names"]

_INSTALL_JUDGE = "the LLM judge needs the toolscore-judge distribution: pip install toolscore-judge"


def evaluate(
    expected: list[Any],
    actual: Any,
    weights: Mapping[str, float] | None = None,
    strict: bool = False,
    forbidden: Sequence[Mapping[str, Any]] | None = None,
    *,
    options: Mapping[str, Any] | None = None,
    match: Any = None,
    tools: Any = None,
    judge: Any = False,
    plugin_manager: ToolscorePluginManager | None = None,
) -> EvaluationResult:
    """Score actual tool calls against expected ones.

    :param expected: ``[{"tool": name, "args": {...}}]``; ``args`` absent or ``None`` means
        "do not check arguments", ``{}`` means "expect none"; values may be matchers.
    :param actual: a list of call dicts in the same shape (``result``, ``error``,
        ``duration``, ``cost``, ``id``, ``metadata`` are kept), or any response an extractor
        recognises (OpenAI, Anthropic, ... with toolscore-providers installed).
    :param weights: custom score weights, merged over the defaults and normalized; a key may
        also name an installed plugin metric that returns a number.
    :param strict: compare argument values with exact types (``1`` is not ``1.0``).
    :param forbidden: rules of calls the agent must never make; violations are reported in
        ``metrics["policy_metrics"]`` and never change the score.
    :param options: options for plugin metrics, handed to each as ``context.options``
        (``toolscore eval --option key=value``).
    :param match: a matching mode (``"strict"``, ``"unordered"``, ``"subset"``, ``"superset"``,
        ``"in_order"``), a mapping
        ``{"mode", "args", "args_overrides"}`` or a :class:`~toolscore.matching.MatchSpec`; the
        metrics then follow it and ``metrics["trajectory_match"]`` holds the verdict
        (docs/matching.md). ``None`` (the default) applies no mode: every metric keeps its
        plain definition.
    :param tools: tool definitions (OpenAI, Anthropic, MCP, Gemini lists, or
        ``{name: schema}``): each actual call's arguments are validated against its tool's
        input schema into ``metrics["schema_validity"]``; the score does not change.
    :param judge: an LLM judge for ``metrics["semantic_metrics"]``, as in
        :func:`evaluate_trace` (``True``, a model name or a ``JudgeConfig``; needs
        toolscore-judge); off by default. The score does not change.
    :param plugin_manager: the manager whose metrics and extractors to use (default: the
        process-wide one).
    :raises TypeError: ``expected`` is not a list, or ``actual`` is not a recognised format.
    :raises ValueError: a call without ``tool``, bad weights or bad forbidden rules.
    """
    if not isinstance(expected, list):
        raise TypeError(f"expected must be a list of dicts, got {type(expected).__name__}")
    trace_calls = calls_from_payload(actual, plugin_manager=plugin_manager)
    pm = plugin_manager if plugin_manager is not None else _default_manager()
    merged = normalized_weights(weights, pm)
    expectations = None
    if is_structured(expected):  # optional / repeat / any_order / one_of steps
        from toolscore.expectations.scoring import choose_gold

        gold_calls, expectations = choose_gold(
            expected, trace_calls, pm, strict=strict, weights=merged, match=_spec(match)
        )
    else:
        gold_calls = expected_calls(expected, pm)  # "$regex" forms read as in gold files
    if forbidden is not None:
        from toolscore.metrics.policy import validate_rules

        validate_rules(forbidden)
    return _finish(
        _Request(
            pm=pm,
            gold_calls=gold_calls,
            trace_calls=trace_calls,
            weights=merged,
            strict=strict,
            forbidden=forbidden,
            mode="evaluate",
            options=options,
            match=match,
            schema_check=_schema_check(trace_calls, _tool_schemas(tools)),
            expectations=expectations,
            judge=judge,
        )
    )


def evaluate_trace(
    gold_file: str | Path,
    trace_file: str | Path,
    format: str = "auto",
    validate_side_effects: bool = True,
    judge: Any = False,
    forbidden: Sequence[Mapping[str, Any]] | None = None,
    weights: Mapping[str, float] | None = None,
    *,
    options: Mapping[str, Any] | None = None,
    match: Any = None,
    tools: Any = None,
    plugin_manager: ToolscorePluginManager | None = None,
) -> EvaluationResult:
    """Score a trace file against a gold file (always lenient comparison).

    On top of :func:`evaluate`'s metrics: ``schema_metrics`` (when a gold call has an
    argument schema), ``latency_metrics`` and ``cost_metrics`` (when the trace records them),
    ``side_effect_metrics`` (when ``validate_side_effects``), and ``semantic_metrics`` from an
    LLM judge when ``judge`` is ``True``, a model name or a ``JudgeConfig``.

    :param format: ``"auto"`` or a format name (``canonical``, ``custom``, and those of
        installed extractor plugins).
    :param weights: as in :func:`evaluate`.
    :param options: options for plugin metrics, as in :func:`evaluate`.
    :param match: as in :func:`evaluate`; by default the gold file's ``"match"`` object, if any.
    :param tools: as in :func:`evaluate`, or a tools file's path; by default the gold file's
        ``tools``, else the trace's request ``tools``, if any.
    :raises FileNotFoundError: a file is missing (an :class:`~toolscore.errors.InputError`).
    :raises toolscore.errors.InputError: a file is invalid; the message names the file and
        the JSON path.
    """
    from toolscore.plugins import manager_or_default

    pm = manager_or_default(plugin_manager)
    merged = normalized_weights(weights, pm)
    from toolscore.expectations.scoring import choose_gold, read_gold_steps
    from toolscore.loading import load_gold_standard, load_trace

    steps = read_gold_steps(gold_file, pm)  # None: a flat gold list, no structured steps
    gold_calls = load_gold_standard(gold_file, plugin_manager=pm) if steps is None else []
    trace_calls = load_trace(trace_file, format=format, plugin_manager=pm)
    from toolscore.matching._gold import load_match

    spec = match if match is not None else load_match(gold_file)
    expectations = None
    if steps is not None:
        gold_calls, expectations = choose_gold(
            steps, trace_calls, pm, strict=False, weights=merged, match=_spec(spec)
        )
    if forbidden is not None:
        from toolscore.metrics.policy import validate_rules

        validate_rules(forbidden)
    from toolscore.tool_schemas.definitions import schemas_for_files

    schema_check = _schema_check(trace_calls, schemas_for_files(gold_file, trace_file, tools))
    return _finish(
        _Request(
            pm=pm,
            gold_calls=gold_calls,
            trace_calls=trace_calls,
            weights=merged,
            strict=False,
            forbidden=forbidden,
            mode="trace",
            validate_side_effects=validate_side_effects,
            options=options,
            match=spec,
            schema_check=schema_check,
            expectations=expectations,
            judge=judge,
        )
    )


# -- internals ---------------------------------------------------------------------------------


def _default_manager() -> ToolscorePluginManager:
    """The process-wide plugin manager (:func:`toolscore.plugins.get_plugin_manager`).

    Imported on first use, not with this module (which stays cheap to import), and then
    kept: a ``from`` import of a package attribute runs Python code on every execution.
    """
    global _get_manager
    if _get_manager is None:
        from toolscore.plugins import get_plugin_manager

        _get_manager = get_plugin_manager
    return _get_manager()


_get_manager: Callable[[], ToolscorePluginManager] | None = None


class _Request(NamedTuple):
    """What both front ends hand to :func:`_finish` once their inputs are read (built by
    keyword; a named tuple, as building a frozen attrs class of 13 fields cost more than
    several metrics)."""

    pm: ToolscorePluginManager
    gold_calls: Sequence[ToolCall]
    trace_calls: Sequence[ToolCall]
    weights: Mapping[str, float] | None
    strict: bool
    forbidden: Sequence[Mapping[str, Any]] | None
    mode: Literal["evaluate", "trace"]
    validate_side_effects: bool = False
    options: Mapping[str, Any] | None = None
    match: Any = None
    schema_check: dict[str, Any] | None = None
    expectations: dict[str, Any] | None = None
    judge: Any = False


#: Where the extra metrics land in ``result.metrics`` (the order the reports show them in).
_EXTRAS_ORDER: dict[str, tuple[str, ...]] = {
    "evaluate": ("schema_validity", "expectations", "trajectory_match"),
    "trace": ("trajectory_match", "schema_validity", "expectations"),
}


def _finish(request: _Request) -> EvaluationResult:
    """The common tail: apply ``match``, score, add the extra metrics, judge, tell plugins."""
    gold_calls, trace_calls = request.gold_calls, request.trace_calls
    trajectory = None
    if request.match is not None:
        from toolscore.matching._apply import apply_match
        from toolscore.matching.trajectory import MatchSpec

        spec = MatchSpec.coerce(request.match)
        gold_calls, trace_calls, verdict = apply_match(
            gold_calls, trace_calls, spec, strict=request.strict
        )
        trajectory = {**verdict.to_dict(), "spec": spec.to_dict()}
    result = score_calls(
        request.pm,
        gold_calls,
        trace_calls,
        weights=request.weights,
        strict=request.strict,
        forbidden=request.forbidden,
        mode=request.mode,
        validate_side_effects=request.validate_side_effects,
        options=request.options,
    )
    extras = {
        "schema_validity": request.schema_check,
        "expectations": request.expectations,
        "trajectory_match": trajectory,
    }
    for name in _EXTRAS_ORDER[request.mode]:
        if extras[name] is not None:
            result.metrics[name] = extras[name]
    if request.judge is not False:
        add_judgement(result, request.judge, request.pm)
    request.pm.evaluation_finished(result)
    return result


def _spec(match: Any) -> MatchSpec | None:
    if match is None:
        return None
    from toolscore.matching.trajectory import MatchSpec

    return MatchSpec.coerce(match)


def _schema_check(
    trace_calls: Sequence[ToolCall], schemas: Mapping[str, Any] | None
) -> dict[str, Any] | None:
    """``metrics["schema_validity"]`` for the calls as extracted, or ``None`` without tools."""
    if schemas is None:
        return None
    from toolscore.tool_schemas import check_calls

    return check_calls(trace_calls, schemas)


def _tool_schemas(tools: Any) -> dict[str, Any] | None:
    if tools is None:
        return None
    from toolscore.tool_schemas import tool_schemas

    return tool_schemas(tools)


def add_judgement(result: EvaluationResult, judge: Any, pm: ToolscorePluginManager) -> None:
    """Add an LLM judge's ``semantic_metrics`` to ``result``, judging the pairs its metrics
    used: what ``judge=`` does in :func:`evaluate` and :func:`evaluate_trace`, before the
    ``toolscore_evaluation_finished`` hook sees the result.

    Without a judge installed nothing is added, with a ``UserWarning``.
    """
    try:
        from toolscore.judging import run_judge
    except ImportError:
        warnings.warn(_INSTALL_JUDGE, UserWarning, stacklevel=3)
        return
    semantic = run_judge(
        judge, result.gold_calls, result.trace_calls, result.alignment, plugin_manager=pm
    )
    if semantic is not None:
        result.metrics["semantic_metrics"] = semantic
