"""Glue between ``evaluate_trace(judge=...)`` / ``toolscore eval --llm-judge`` and the judges.

Judges are plugins (the ``toolscore_register_judges`` hook), and so is their configuration:
the judges' ``JudgeSpec.config_type`` names the class that ``judge=True``, a model name or the
``--llm-*`` options become (``toolscore.JudgeConfig``), imported only when a judge is asked
for. Core names no judge plugin. Whatever goes wrong with a judge (no key, a conflicting config, an
HTTP error, a timeout, a garbled answer), the evaluation completes: the problem is recorded
as ``semantic_metrics["error"]`` with ``semantic_score: None``.

Pairs: the judge sees the pairs of the evaluation's alignment (same tool name, best argument
match), then the calls the alignment left unpaired, matched in order, so that a renamed tool
(``search`` vs ``web_search``), which the judge exists to recognise, is still judged. The
number of pairs is ``min(len(expected), len(actual))``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol

from toolscore.errors import MissingPluginError, ToolscoreError
from toolscore.first_party import distribution_of_kind
from toolscore.model import ToolCall

if TYPE_CHECKING:
    from toolscore.plugins.manager import ToolscorePluginManager

__all__ = [
    "install_judges_hint",
    "judge_config",
    "judge_config_type",
    "judge_from_cli_options",
    "judge_pairs",
    "run_judge",
]

#: A judge configuration (the class is whatever the judge plugin declares).
JudgeConfig = Any


def install_judges_hint() -> str:
    """``"install toolscore-judge (pip install toolscore-judge)"``, from the first-party table."""
    distribution = distribution_of_kind("judges")
    return f"install {distribution} (pip install {distribution})"


class _HasPairs(Protocol):
    @property
    def pairs(self) -> Sequence[tuple[int, int]]: ...


def judge_config_type(plugin_manager: ToolscorePluginManager | None = None) -> type[Any]:
    """The configuration class the registered judges declare (``toolscore.JudgeConfig``).

    The first judge, by name, whose spec has a ``config_type`` decides.

    :raises ImportError: no registered judge declares one, or its module cannot be imported.
    """
    from toolscore.plugins import manager_or_default

    registry = manager_or_default(plugin_manager).get_judges()
    for name in registry.names():
        load = registry[name].config_type
        if load is not None:
            return load()
    raise ImportError(f"no installed judge declares a configuration; {install_judges_hint()}")


def judge_config(
    judge: Any, *, plugin_manager: ToolscorePluginManager | None = None
) -> JudgeConfig:
    """``True``/``None`` → default config, a str → that model, a JudgeConfig → itself.

    :raises ImportError: no judge plugin (with its configuration) is installed.
    :raises TypeError: anything else.
    """
    config_type = judge_config_type(plugin_manager)
    if judge is True or judge is None:
        return config_type()
    if isinstance(judge, str):
        return config_type(model=judge)
    if isinstance(judge, config_type):
        return judge
    raise TypeError(
        f"judge must be False, True, a model name or a JudgeConfig; got {type(judge).__name__}"
    )


def _align(expected: Sequence[ToolCall], actual: Sequence[ToolCall]) -> _HasPairs | None:
    try:
        align = import_module("toolscore.matching.alignment").align
    except (ImportError, AttributeError):
        return None
    result: _HasPairs = align(expected, actual)
    return result


def judge_pairs(
    expected: Sequence[ToolCall], actual: Sequence[ToolCall], alignment: _HasPairs | None
) -> list[tuple[int, int]]:
    """``(expected index, actual index)`` pairs to judge, sorted by expected index.

    The alignment's pairs first; then the calls it left unpaired on both sides, matched in
    their order (so the count is ``min(len(expected), len(actual))``).
    """
    if alignment is None:
        alignment = _align(expected, actual)
    aligned = [(int(e), int(a)) for e, a in alignment.pairs] if alignment is not None else []
    used_expected = {e for e, _ in aligned}
    used_actual = {a for _, a in aligned}
    rest_expected = [i for i in range(len(expected)) if i not in used_expected]
    rest_actual = [j for j in range(len(actual)) if j not in used_actual]
    return sorted(aligned + list(zip(rest_expected, rest_actual)))


def _error(message: str, config: JudgeConfig | None, provider: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {"error": message, "semantic_score": None}
    if config is not None:
        out["model_used"] = config.model
    if provider is not None:
        out["provider"] = provider
    return out


def _describe(exc: Exception, provider: str) -> str:
    """Our own failures carry a readable message; anything else is a judge plugin's bug."""
    text = str(exc)
    if isinstance(exc, (ValueError, RuntimeError, OSError, ToolscoreError)) and text:
        return text.splitlines()[0]
    detail = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return f"judge {provider!r} failed: {detail}".splitlines()[0]


def run_judge(
    judge: Any,
    expected: Sequence[ToolCall],
    actual: Sequence[ToolCall],
    alignment: _HasPairs | None,
    *,
    plugin_manager: ToolscorePluginManager | None = None,
) -> dict[str, Any] | None:
    """Judge the evaluation's pairs; the ``semantic_metrics`` mapping, or ``None`` for no key.

    Called by ``evaluate_trace`` when ``judge`` is not ``False``. Returns ``None`` (with a
    ``UserWarning``) when no judge plugin or a judge's SDK is installed. Every other failure becomes ``{"error": ..., "semantic_score": None}``.
    """
    if judge is False:
        return None
    from toolscore.plugins import manager_or_default

    plugin_manager = manager_or_default(plugin_manager)
    try:
        config = judge_config(judge, plugin_manager=plugin_manager)
    except ImportError:
        warnings.warn(
            f"the LLM judge was requested but is not available: {install_judges_hint()}",
            UserWarning,
            stacklevel=3,
        )
        return None
    try:
        provider = config.resolve_provider()
    except ValueError as exc:
        return _error(str(exc), config, None)
    registry = plugin_manager.get_judges()
    if provider not in registry:
        installed = ", ".join(registry.names())
        hint = (
            f"installed judges: {installed}"
            if installed
            else f"no judge is loaded; {install_judges_hint()}"
        )
        return _error(f"no LLM judge for provider {provider!r} ({hint})", config, provider)
    index_pairs = judge_pairs(expected, actual, alignment)
    pairs = [(expected[e], actual[a]) for e, a in index_pairs]
    try:
        backend = registry[provider].factory(config)
        result = backend.judge(pairs, gold_count=len(expected), trace_count=len(actual))
    except ImportError as exc:  # a judge whose SDK is missing
        warnings.warn(str(exc) or install_judges_hint(), UserWarning, stacklevel=3)
        return None
    except Exception as exc:
        return _error(_describe(exc, provider), config, provider)
    if not isinstance(result, dict):
        return _error(
            f"judge {provider!r} returned {type(result).__name__}, not a mapping", config, provider
        )
    out = dict(result)
    out["pairs"] = [[e, a] for e, a in index_pairs]
    return out


# -- the command line ------------------------------------------------------------------------


def judge_from_cli_options(
    llm_judge: bool,
    model: str | None = None,
    provider: str | None = None,
    base_url: str | None = None,
    cache: str | None = None,
    *,
    plugin_manager: ToolscorePluginManager | None = None,
) -> JudgeConfig | bool:
    """The ``judge=`` value for ``evaluate_trace`` from ``toolscore eval``'s ``--llm-*`` options.

    ``False`` unless ``--llm-judge`` is given (the other options alone do nothing).
    ``cache`` is ``--llm-cache DIR|off``; ``None`` keeps the default folder.

    :raises MissingPluginError: ``--llm-judge`` without a judge plugin installed.
    """
    if not llm_judge:
        return False
    try:
        config_type = judge_config_type(plugin_manager)
    except ImportError:
        raise MissingPluginError(
            f"--llm-judge needs the LLM judges: {install_judges_hint()}"
        ) from None
    options: dict[str, Any] = {"provider": provider or None, "base_url": base_url or None}
    if model:
        options["model"] = model
    if cache is not None:
        options["cache_dir"] = cache
    return config_type(**options)
