"""The public extraction helpers (``toolscore.auto_extract``, ``toolscore.from_openai``, ...).

The work itself is done by :mod:`toolscore.extraction`; this module gives it its public,
dict-returning shape:

* :func:`extract_calls`: the calls of a call list or any supported response, as ToolCalls.
* :func:`auto_extract`: the same as a list of ``{"tool", "args", ...}`` dicts; a call list
  is returned unchanged.
* ``from_openai``, ``from_anthropic``, ... (and ``from_<name>`` of any third-party extractor)
  resolve through ``ExtractorSpec.function_name``. When the distribution that provides one is
  not installed, the name still imports, and calling it raises :class:`MissingPluginError`
  saying what to install.
* ``JudgeConfig`` is the configuration class the installed judge plugins declare
  (``JudgeSpec.config_type``); without one, it raises :class:`MissingPluginError` when called.
* Which distribution to install comes from :mod:`toolscore.first_party`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from toolscore.errors import MissingPluginError
from toolscore.extraction import (
    calls_from_payload,
    calls_with,
    distribution_for_format,
    is_call_list,
    providers_hint,
)
from toolscore.first_party import FIRST_PARTY, distribution_of_kind

if TYPE_CHECKING:
    from toolscore.model import ToolCall
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

#: The seed's ``from_*`` helpers: importable whatever is installed (the first-party table's).
SEED_HELPERS: tuple[str, ...] = tuple(name for p in FIRST_PARTY for name in p.functions)


def extract_calls(
    actual: Any, *, plugin_manager: ToolscorePluginManager | None = None
) -> list[ToolCall]:
    """The calls in ``actual``: a list of call dicts or ToolCalls, or any supported response.

    A list of call dicts is converted directly (errors name the item: ``Item at index 2 is
    missing 'tool' key``), without building a plugin manager.

    :raises TypeError: no extractor recognises ``actual``.
    :raises ValueError: ``actual`` is malformed, or several extractors claim it equally
        (:class:`~toolscore.extraction.AmbiguousFormatError`).
    """
    return calls_from_payload(actual, plugin_manager=plugin_manager)


def calls_to_dicts(calls: list[ToolCall]) -> list[dict[str, Any]]:
    """The public shape of extracted calls: ``tool``, ``args``, ``result``, ``is_error``,
    ``error`` and ``id`` always (``None`` when unknown, so callers can read every key), plus
    ``duration``, ``cost``, ``timestamp`` and ``metadata`` when known."""
    from toolscore.model import own_metadata

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
        metadata = own_metadata(call)
        if metadata:
            record["metadata"] = metadata
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
    if is_call_list(actual):
        return actual  # type: ignore[no-any-return]
    return calls_to_dicts(calls_from_payload(actual, plugin_manager=plugin_manager))


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
        from toolscore.plugins import manager_or_default

        pm = manager_or_default(plugin_manager)
        spec_name = _find_function(name, pm.get_extractors())
        if spec_name is None:
            distribution = distribution_for_format(name)
            if distribution is None:
                raise MissingPluginError(f"{name} is not provided by any installed plugin")
            raise MissingPluginError(
                f"{name} needs the {distribution} distribution: pip install {distribution}"
            )
        return calls_to_dicts(calls_with(spec_name, payload, plugin_manager=pm))

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
    from toolscore.plugins import get_plugin_manager

    return _find_function(name, get_plugin_manager().get_extractors()) is not None


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
