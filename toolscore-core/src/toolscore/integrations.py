"""Turning whatever an agent returned into tool calls, through the extractor registry.

* :func:`extract_calls` is what ``evaluate()`` uses: a plain list of call dicts is converted
  directly (no plugin manager is built for it); anything else is detected and read by the
  extractor plugin that is most confident about it.
* :func:`auto_extract` is the reference product's public helper with its return shape: a list
  of ``{"tool", "args", ...}`` dicts.
* ``from_openai``, ``from_anthropic``, ... (and ``from_<name>`` of any third-party extractor)
  resolve through ``ExtractorSpec.function_name``. When the distribution that provides one is
  not installed, the name still imports, and calling it raises :class:`MissingPluginError`
  saying what to install.
* ``JudgeConfig`` is the configuration class the installed judge plugins declare
  (``JudgeSpec.config_type``); without one, it raises :class:`MissingPluginError` when called.
* Which distribution to install comes from :mod:`toolscore.first_party`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from toolscore.errors import InputError, MissingPluginError
from toolscore.first_party import FIRST_PARTY, distribution_of_kind, provider_of
from toolscore.model import ToolCall, calls_from_dicts

if TYPE_CHECKING:
    from toolscore.plugins.manager import ToolscorePluginManager
    from toolscore.plugins.registry import Registry
    from toolscore.specs import ExtractorSpec

__all__ = [
    "SEED_HELPERS",
    "auto_extract",
    "calls_to_dicts",
    "distribution_for_format",
    "extract_calls",
    "extractor_function",
    "providers_hint",
]

#: The seed's ``from_*`` helpers: importable whatever is installed.
SEED_HELPERS: tuple[str, ...] = (
    "from_openai",
    "from_anthropic",
    "from_gemini",
    "from_langgraph",
    "from_pydantic_ai",
    "from_openai_agents",
    "from_claude_agent_sdk",
    "from_crewai",
    "from_otel",
)

_NOT_DETECTED = (
    "Cannot auto-detect provider format from {kind}. Pass a raw OpenAI/Anthropic/Gemini/"
    "LangGraph/PydanticAI/OpenAIAgents/ClaudeAgentSDK response, or a list of dicts with "
    "'tool' and 'args' keys."
)


def distribution_for_format(name: str) -> str | None:
    """The first-party distribution that provides format ``name`` (or ``from_<name>``)."""
    return provider_of("functions", name) or provider_of("formats", name.removeprefix("from_"))


def providers_hint(registry: Registry[ExtractorSpec]) -> str:
    """``". Provider formats ... pip install toolscore-providers"`` for each first-party
    distribution of formats none of which is registered (empty when they all are)."""
    registered = set(registry.names())
    missing = [p for p in FIRST_PARTY if p.formats and not registered.intersection(p.formats)]
    return "".join(
        f". Provider formats (OpenAI, Anthropic, Gemini, MCP, LangChain, OpenTelemetry, ...) "
        f"need the {p.distribution} distribution: pip install {p.distribution}"
        for p in missing
    )


def _is_call_list(actual: Any) -> bool:
    """The reference's pass-through shape: ``[]``, or a list whose first item is a call dict."""
    if not isinstance(actual, list):
        return False
    if not actual:
        return True
    first = actual[0]
    return isinstance(first, ToolCall) or (isinstance(first, dict) and "tool" in first)


def _plugin_manager(pm: ToolscorePluginManager | None) -> ToolscorePluginManager:
    if pm is not None:
        return pm
    from toolscore.plugins import get_plugin_manager

    return get_plugin_manager()


def _dumped(actual: Any) -> Any:
    """``actual.model_dump()`` for an object that offers only that (no extractor reads the
    object itself), as tool-scorer dumps such objects; ``None`` when there is nothing to dump."""
    if actual is None or isinstance(actual, (Mapping, list, tuple, str, bytes, int, float)):
        return None
    dump = getattr(actual, "model_dump", None)
    if not callable(dump):
        return None
    try:
        value = dump()
    except Exception:
        return None
    return value if isinstance(value, (Mapping, list)) else None


def _extract_detected(actual: Any, pm: ToolscorePluginManager | None) -> list[ToolCall]:
    from toolscore.builtin.detection import detect, extractor_for, known_formats

    pm = _plugin_manager(pm)
    registry = pm.get_extractors()
    chosen = detect(actual, pm)
    if chosen is None and (dumped := _dumped(actual)) is not None:
        actual = dumped
        chosen = detect(actual, pm)
    if chosen is None:
        message = _NOT_DETECTED.format(kind=type(actual).__name__)
        looked_for = ", ".join(known_formats(registry))
        raise TypeError(f"{message} Formats looked for: {looked_for}{providers_hint(registry)}.")
    return list(extractor_for(registry, chosen).extract(actual))


def extract_calls(
    actual: Any, *, plugin_manager: ToolscorePluginManager | None = None
) -> list[ToolCall]:
    """The calls in ``actual``: a list of call dicts or ToolCalls, or any supported response.

    A list of call dicts is converted directly (errors name the item: ``Item at index 2 is
    missing 'tool' key``), without building a plugin manager.

    :raises TypeError: no extractor recognises ``actual``.
    :raises ValueError: ``actual`` is malformed, or several extractors claim it equally
        (:class:`~toolscore.builtin.detection.AmbiguousFormatError`).
    """
    if _is_call_list(actual):
        return calls_from_dicts(actual)
    return _extract_detected(actual, plugin_manager)


def calls_to_dicts(calls: list[ToolCall]) -> list[dict[str, Any]]:
    """The reference's shape for extracted calls: ``tool``, ``args``, ``result``, ``is_error``,
    ``error`` and ``id`` always (``None`` when unknown, as tool-scorer's ``from_otel`` sets
    them), plus ``duration``, ``cost``, ``timestamp`` and ``metadata`` when known."""
    out = []
    for call in calls:
        record: dict[str, Any] = {
            "tool": call.tool,
            "args": dict(call.args) if call.args is not None else None,
        }
        record["result"] = call.result
        record["is_error"] = call.is_error
        record["error"] = call.error
        for key in ("duration", "cost", "timestamp"):
            value = getattr(call, key)
            if value is not None:
                record[key] = value
        record["id"] = call.id
        if call.metadata:
            record["metadata"] = dict(call.metadata)
        out.append(record)
    return out


def auto_extract(actual: Any, *, plugin_manager: ToolscorePluginManager | None = None) -> list[Any]:
    """Detect the format of an agent's response and return its calls as dicts.

    A list whose first item is a dict with ``"tool"`` (or an empty list) is returned unchanged,
    extra keys and all. Anything else is rated by every registered extractor and read by the
    most confident one.

    :raises TypeError: ``Cannot auto-detect provider format from <type>. ...`` (the message
        then lists the formats looked for).
    :raises ValueError: the payload is malformed for the extractor that claimed it, or
        several extractors claim it equally.
    """
    if _is_call_list(actual):
        return actual  # type: ignore[no-any-return]
    return calls_to_dicts(_extract_detected(actual, plugin_manager))


# -- from_<name> helpers ---------------------------------------------------------------------


def _find_function(name: str, registry: Registry[ExtractorSpec]) -> str | None:
    for spec_name in registry.names():
        if registry[spec_name].function_name == name:
            return spec_name
    return None


def extractor_function(name: str) -> Callable[..., list[dict[str, Any]]]:
    """A ``from_<format>(payload)`` helper that resolves its extractor when called."""

    def helper(
        payload: Any, *, plugin_manager: ToolscorePluginManager | None = None
    ) -> list[dict[str, Any]]:
        from toolscore.builtin.detection import extractor_for

        pm = _plugin_manager(plugin_manager)
        registry = pm.get_extractors()
        spec_name = _find_function(name, registry)
        if spec_name is None:
            distribution = distribution_for_format(name)
            if distribution is None:
                raise MissingPluginError(f"{name} is not provided by any installed plugin")
            raise MissingPluginError(
                f"{name} needs the {distribution} distribution: pip install {distribution}"
            )
        extractor = extractor_for(registry, spec_name)
        try:
            return calls_to_dicts(list(extractor.extract(payload)))
        except InputError:
            dumped = _dumped(payload)
            if dumped is None:
                raise
            return calls_to_dicts(list(extractor.extract(dumped)))

    helper.__name__ = helper.__qualname__ = name
    helper.__doc__ = (
        f"Extract tool calls with the extractor registered as ``{name}``; returns "
        f"``[{{'tool', 'args', ...}}]``. Needs the distribution that provides it."
    )
    return helper


def __getattr__(name: str) -> Any:
    value: Any
    if name == "JudgeConfig":
        value = _judge_config()
    elif name in SEED_HELPERS or (name.startswith("from_") and _registered_function(name)):
        value = extractor_function(name)
    else:
        raise AttributeError(f"module 'toolscore.integrations' has no attribute {name!r}")
    globals()[name] = value
    return value


def _registered_function(name: str) -> bool:
    return _find_function(name, _plugin_manager(None).get_extractors()) is not None


def _judge_config() -> type:
    from toolscore.judging import judge_config_type

    try:
        return judge_config_type()
    except ImportError:
        return _MissingJudgeConfig


class _MissingJudgeConfig:
    """Stands in for ``JudgeConfig`` when no judge plugin is installed."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        distribution = distribution_of_kind("judges")
        raise MissingPluginError(
            f"JudgeConfig needs the {distribution} distribution: pip install {distribution}"
        )


_MissingJudgeConfig.__name__ = _MissingJudgeConfig.__qualname__ = "JudgeConfig"


def __dir__() -> list[str]:
    return sorted({*globals(), *SEED_HELPERS, "JudgeConfig"})
