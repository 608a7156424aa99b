"""The metric step of every evaluation: pair the calls once, run each registered metric.

:func:`score_calls` is what :func:`toolscore.evaluate`, :func:`toolscore.evaluate_trace` and the
choice among structured gold expansions (:mod:`toolscore.expectations.scoring`) all run, so a
candidate gold is scored exactly as the final evaluation scores it. It has no inputs to read
and no hook to call: extraction, ``match=`` and the judge happen around it, in
:mod:`toolscore.evaluation`.
"""

from __future__ import annotations

import math
import warnings
import weakref
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from toolscore.context import NOT_APPLICABLE, evaluation_context, summarize
from toolscore.matching.alignment import align
from toolscore.result import DEFAULT_WEIGHTS, EvaluationResult, normalize_weights

if TYPE_CHECKING:
    from toolscore.context import EvaluationContext
    from toolscore.model import ToolCall
    from toolscore.plugins.manager import ToolscorePluginManager
    from toolscore.protocols import Metric
    from toolscore.specs import MetricSpec

__all__ = ["checked_metric_value", "normalized_weights", "plugin_metric_names", "score_calls"]


def checked_metric_value(name: str, value: Any) -> Any:
    """A plugin metric's value, made safe to score, format and write.

    A finite number is kept as it is (a metric may report a count); only one in [0, 1] can
    count toward the score (:meth:`toolscore.result.EvaluationResult.score`). A number that is
    not finite or too large for a float (``nan``, ``1e400``, ``10**5000``) would crash what
    formats it or move the score: it is reported in a warning and kept as text. Anything that
    is not a number (a dict of details) is the plugin's own business and passes through.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if math.isfinite(number) and (not isinstance(value, int) or value.bit_length() <= 128):
        return value
    if isinstance(value, int) and value.bit_length() > 128:  # str() of it may even refuse
        shown = f"<an integer of about {int(value.bit_length() * 0.30103)} digits>"
    else:
        shown = repr(value)
    warnings.warn(
        f"metric {name!r} gave {shown}, not a finite number: kept as text, it counts toward "
        "no score",
        RuntimeWarning,
        stacklevel=6,
    )
    return shown


def plugin_metric_names(pm: ToolscorePluginManager) -> list[str]:
    """Names of the plugin metrics ``pm`` runs: what weights may name besides the defaults."""
    return [name for name, _, built_in in _metrics(pm) if not built_in]


def normalized_weights(
    weights: Mapping[str, float] | None, pm: ToolscorePluginManager
) -> dict[str, float] | None:
    """``weights`` normalized; plugin metrics may be named besides the default components."""
    if weights is None:
        return None
    return normalize_weights(weights, plugin_metric_names(pm))


def score_calls(
    pm: ToolscorePluginManager,
    gold_calls: Sequence[ToolCall],
    trace_calls: Sequence[ToolCall],
    *,
    weights: Mapping[str, float] | None,
    strict: bool,
    forbidden: Sequence[Mapping[str, Any]] | None = None,
    mode: Literal["evaluate", "trace"] = "evaluate",
    validate_side_effects: bool = False,
    options: Mapping[str, Any] | None = None,
) -> EvaluationResult:
    """Align ``gold_calls`` with ``trace_calls`` once and run every metric of ``pm`` on them.

    :param weights: already normalized (:func:`normalized_weights`); ``None`` for the defaults.
    :param mode: ``"trace"`` turns on the file-only metrics (latency, cost, side effects).
    """
    summary = summarize(gold_calls, trace_calls)  # the tools, grouped once for all
    alignment = align(gold_calls, trace_calls, strict=strict, summary=summary)
    context = evaluation_context(
        gold_calls,
        trace_calls,
        alignment,
        strict=strict,
        forbidden=forbidden,
        mode=mode,
        validate_side_effects=validate_side_effects,
        options=dict(options) if options else {},
        summary=summary,
    )
    metrics, plugin_specs = _compute(pm, context)
    result = EvaluationResult(
        metrics,
        gold_calls,
        trace_calls,
        weights if weights is not None else DEFAULT_WEIGHTS,
        alignment,
    )
    result.plugin_metrics = plugin_specs
    return result


def _compute(
    pm: ToolscorePluginManager, context: EvaluationContext
) -> tuple[dict[str, Any], dict[str, MetricSpec]]:
    """Each metric's value (absent when not applicable) and the specs of the plugin ones."""
    metrics: dict[str, Any] = {}
    plugin_specs: dict[str, MetricSpec] = {}
    registry = pm.get_metrics()
    for name, metric, built_in in _metrics(pm):
        if built_in:
            value = metric.compute(context)
        else:
            from toolscore.plugins.guard import run_plugin_code

            try:
                value = checked_metric_value(name, run_plugin_code(metric.compute, context))
            except Exception as exc:
                if pm.strict:
                    raise
                warnings.warn(
                    f"metric {name!r} failed and is left out: {type(exc).__name__}: {exc}",
                    RuntimeWarning,
                    stacklevel=5,
                )
                continue
        if value is not NOT_APPLICABLE:
            metrics[name] = value
            if not built_in and name in registry:
                plugin_specs[name] = registry[name]
    return metrics, plugin_specs


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
