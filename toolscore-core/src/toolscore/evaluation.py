"""``evaluate()`` (in memory) and ``evaluate_trace()`` (files): the evaluator.

Both turn their inputs into :class:`~toolscore.model.ToolCall` lists, pair expected with actual
calls once (:func:`toolscore.alignment.align`), run every registered metric in order and
hand the finished result to the ``toolscore_evaluation_finished`` hook. Metrics come from the
plugin manager's registry, built-in and third-party alike.

Importing this module is cheap: no reporter, CLI or plugin dependency is imported.
"""

from __future__ import annotations

import gc
import warnings
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from toolscore.alignment import align
from toolscore.context import NOT_APPLICABLE, EvaluationContext
from toolscore.model import calls_from_dicts
from toolscore.result import DEFAULT_WEIGHTS, EvaluationResult, normalize_weights

if TYPE_CHECKING:
    from toolscore.model import ToolCall
    from toolscore.plugins.manager import ToolscorePluginManager
    from toolscore.protocols import Metric

__all__ = ["evaluate", "evaluate_trace"]

_INSTALL_JUDGE = "the LLM judge needs the toolscore-judge distribution: pip install toolscore-judge"


def evaluate(
    expected: list[Any],
    actual: Any,
    weights: Mapping[str, float] | None = None,
    strict: bool = False,
    forbidden: Sequence[Mapping[str, Any]] | None = None,
    *,
    plugin_manager: ToolscorePluginManager | None = None,
) -> EvaluationResult:
    """Score actual tool calls against expected ones.

    :param expected: ``[{"tool": name, "args": {...}}]``; ``args`` absent or ``None`` means
        "do not check arguments", ``{}`` means "expect none"; values may be matchers.
    :param actual: a list of call dicts in the same shape (``result``, ``error``,
        ``duration``, ``cost``, ``id``, ``metadata`` are kept), or any response an extractor
        recognises (OpenAI, Anthropic, ... with toolscore-providers installed).
    :param weights: custom score weights, merged over the defaults and normalized.
    :param strict: compare argument values with exact types (``1`` is not ``1.0``).
    :param forbidden: rules of calls the agent must never make; violations are reported in
        ``metrics["policy_metrics"]`` and never change the score.
    :param plugin_manager: the manager whose metrics and extractors to use (default: the
        process-wide one).
    :raises TypeError: ``expected`` is not a list, or ``actual`` is not a recognised format.
    :raises ValueError: a call without ``tool``, bad weights or bad forbidden rules.
    """
    if not isinstance(expected, list):
        raise TypeError(f"expected must be a list of dicts, got {type(expected).__name__}")
    if not gc.isenabled():
        return _evaluate(expected, actual, weights, strict, forbidden, plugin_manager)
    gc.disable()  # see _evaluate
    try:
        return _evaluate(expected, actual, weights, strict, forbidden, plugin_manager)
    finally:
        gc.enable()


def _evaluate(
    expected: list[Any],
    actual: Any,
    weights: Mapping[str, float] | None,
    strict: bool,
    forbidden: Sequence[Mapping[str, Any]] | None,
    plugin_manager: ToolscorePluginManager | None,
) -> EvaluationResult:
    """:func:`evaluate`, run with the cyclic garbage collector paused.

    Why paused: an evaluation allocates tens of thousands of acyclic objects (calls, pairs,
    detail records) that all live until it returns, so the collector would walk them, and
    the caller's data, again and again and free nothing: a tenth of the time at 10,000
    calls. Reference counting frees memory as usual meanwhile; cycles that plugins create
    wait for the next collection after the evaluation.
    """
    trace_calls = _extract(actual, plugin_manager)
    merged = normalize_weights(weights)
    gold_calls = calls_from_dicts(expected)
    if forbidden is not None:
        from toolscore.metrics.policy import validate_rules

        validate_rules(forbidden)
    pm = plugin_manager if plugin_manager is not None else _default_manager()
    result = _run(pm, gold_calls, trace_calls, merged, strict, forbidden, "evaluate", False)
    pm.evaluation_finished(result)
    return result


def evaluate_trace(
    gold_file: str | Path,
    trace_file: str | Path,
    format: str = "auto",
    validate_side_effects: bool = True,
    judge: Any = False,
    forbidden: Sequence[Mapping[str, Any]] | None = None,
    weights: Mapping[str, float] | None = None,
    *,
    plugin_manager: ToolscorePluginManager | None = None,
) -> EvaluationResult:
    """Score a trace file against a gold file (always lenient comparison).

    On top of :func:`evaluate`'s metrics: ``schema_metrics`` (when a gold call has an
    argument schema), ``latency_metrics`` and ``cost_metrics`` (when the trace records them),
    ``side_effect_metrics`` (when ``validate_side_effects``), and ``semantic_metrics`` from an
    LLM judge when ``judge`` is ``True``, a model name or a ``JudgeConfig``.

    :param format: ``"auto"`` or a format name (``canonical``, ``custom``, and those of
        installed extractor plugins).
    :raises FileNotFoundError: a file is missing (an :class:`~toolscore.errors.InputError`).
    :raises toolscore.errors.InputError: a file is invalid; the message names the file and
        the JSON path.
    """
    merged = normalize_weights(weights)
    pm = plugin_manager if plugin_manager is not None else _default_manager()
    from toolscore.loading import load_gold_standard, load_trace

    gold_calls = load_gold_standard(gold_file, plugin_manager=pm)
    trace_calls = load_trace(trace_file, format=format, plugin_manager=pm)
    if forbidden is not None:
        from toolscore.metrics.policy import validate_rules

        validate_rules(forbidden)
    result = _run(
        pm, gold_calls, trace_calls, merged, False, forbidden, "trace", validate_side_effects
    )
    if judge is not False:
        semantic = _judge(judge, gold_calls, trace_calls, result, pm)
        if semantic is not None:
            result.metrics["semantic_metrics"] = semantic
    pm.evaluation_finished(result)
    return result


# -- internals ---------------------------------------------------------------------------------


def _default_manager() -> ToolscorePluginManager:
    from toolscore.plugins import get_plugin_manager

    return get_plugin_manager()


def _extract(actual: Any, pm: ToolscorePluginManager | None) -> list[ToolCall]:
    from toolscore.integrations import extract_calls

    return extract_calls(actual, plugin_manager=pm)


_MetricList = list[tuple[str, "Metric", bool]]
_METRICS: weakref.WeakKeyDictionary[Any, _MetricList] = weakref.WeakKeyDictionary()


def _metrics(pm: ToolscorePluginManager) -> _MetricList:
    """``(name, metric, built_in)`` in (order, name) order; factories run once per registry.

    Keyed by the registry object: when plugins change, the manager builds a new registry and
    the metrics are built afresh.
    """
    registry = pm.get_metrics()
    cached = _METRICS.get(registry)
    if cached is not None:
        return cached
    from toolscore.plugins import DEFAULT_PLUGINS

    out: _MetricList = []
    for name, spec in sorted(registry.specs.items(), key=lambda item: (item[1].order, item[0])):
        built_in = registry.owners.get(name) in DEFAULT_PLUGINS
        try:
            metric = spec.factory()
        except Exception as exc:
            if built_in or pm.strict:
                raise
            warnings.warn(
                f"metric {name!r} from plugin {registry.owners.get(name)!r} could not be "
                f"created and is skipped: {type(exc).__name__}: {exc}",
                RuntimeWarning,
                stacklevel=3,
            )
            continue
        out.append((name, metric, built_in))
    _METRICS[registry] = out
    return out


def _run(
    pm: ToolscorePluginManager,
    gold_calls: Sequence[ToolCall],
    trace_calls: Sequence[ToolCall],
    weights: Mapping[str, float] | None,
    strict: bool,
    forbidden: Sequence[Mapping[str, Any]] | None,
    mode: Literal["evaluate", "trace"],
    validate_side_effects: bool,
) -> EvaluationResult:
    alignment = align(gold_calls, trace_calls, strict=strict)
    context = EvaluationContext(
        expected=gold_calls,
        actual=trace_calls,
        alignment=alignment,
        strict=strict,
        forbidden=forbidden,
        mode=mode,
        validate_side_effects=validate_side_effects,
    )
    metrics: dict[str, Any] = {}
    for name, metric, built_in in _metrics(pm):
        if built_in:
            value = metric.compute(context)
        else:
            try:
                value = metric.compute(context)
            except Exception as exc:
                if pm.strict:
                    raise
                warnings.warn(
                    f"metric {name!r} failed and is left out: {type(exc).__name__}: {exc}",
                    RuntimeWarning,
                    stacklevel=3,
                )
                continue
        if value is not NOT_APPLICABLE:
            metrics[name] = value
    return EvaluationResult(
        metrics,
        gold_calls,
        trace_calls,
        weights if weights is not None else DEFAULT_WEIGHTS,
        alignment,
    )


def _judge(
    judge: Any,
    gold_calls: Sequence[ToolCall],
    trace_calls: Sequence[ToolCall],
    result: EvaluationResult,
    pm: ToolscorePluginManager,
) -> dict[str, Any] | None:
    try:
        from toolscore.judging import run_judge
    except ImportError:
        warnings.warn(_INSTALL_JUDGE, UserWarning, stacklevel=3)
        return None
    return run_judge(judge, gold_calls, trace_calls, result.alignment, plugin_manager=pm)
