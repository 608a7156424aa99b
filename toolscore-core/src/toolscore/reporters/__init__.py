"""Evaluation reports: one reporter plugin per format, and the functions that write them.

Every format is a reporter plugin (``toolscore.reporters.console``, ``.json``, ``.markdown``,
``.html``, ``.csv``, ``.junit``), registered through ``toolscore_register_reporters`` like any
third-party format. Callers never import a format module directly: they ask the plugin manager
by name, so ``toolscore eval --report tap`` works for a plugin's format exactly as for ours.

Use :func:`write_reports` to write several files at once (``toolscore eval --html PATH ...``),
:func:`render_report` to get one report as text.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from toolscore.errors import MissingPluginError

if TYPE_CHECKING:
    from toolscore.plugins.manager import ToolscorePluginManager
    from toolscore.protocols import Reporter
    from toolscore.result import EvaluationResult

__all__ = ["available_reporters", "make_reporter", "render_report", "write_reports"]


def _manager(plugin_manager: ToolscorePluginManager | None) -> ToolscorePluginManager:
    if plugin_manager is not None:
        return plugin_manager
    from toolscore.plugins import get_plugin_manager

    return get_plugin_manager()


def available_reporters(*, plugin_manager: ToolscorePluginManager | None = None) -> list[str]:
    """Names of every installed report format, sorted."""
    return _manager(plugin_manager).get_reporters().names()


def make_reporter(
    name: str,
    *,
    plugin_manager: ToolscorePluginManager | None = None,
    options: Mapping[str, Any] | None = None,
) -> Reporter:
    """Build the reporter registered as ``name``; ``options`` go to its factory as keywords.

    Raises :class:`~toolscore.errors.MissingPluginError` naming the installed formats when no
    plugin provides ``name``.
    """
    registry = _manager(plugin_manager).get_reporters()
    if name not in registry:
        known = ", ".join(registry.names()) or "none"
        raise MissingPluginError(
            f"no report format named {name!r} is installed (installed formats: {known})"
        )
    factory = cast("Callable[..., Reporter]", registry[name].factory)
    return factory(**dict(options or {}))


def render_report(
    name: str,
    result: EvaluationResult,
    *,
    verbose: bool = False,
    plugin_manager: ToolscorePluginManager | None = None,
    options: Mapping[str, Any] | None = None,
) -> str:
    """Render ``result`` in the format ``name`` and return the text.

    A plugin's reporter runs guarded (:mod:`toolscore.plugins.guard`): if it raises, exits,
    hangs or returns something that is not text, this raises
    :class:`~toolscore.plugins.guard.PluginCodeError`.
    """
    from toolscore.plugins.guard import PluginCodeError, run_plugin_code

    pm = _manager(plugin_manager)
    if _is_builtin(pm, name):
        reporter = make_reporter(name, plugin_manager=pm, options=options)
        return reporter.render(result, verbose=verbose)

    def render() -> Any:
        reporter = make_reporter(name, plugin_manager=pm, options=options)
        return reporter.render(result, verbose=verbose)

    text = run_plugin_code(render)
    if not isinstance(text, str):
        raise PluginCodeError(f"render() returned {type(text).__name__}, expected text")
    return text


def registry_owner(pm: ToolscorePluginManager, name: str) -> str:
    """``plugin NAME`` for the plugin that registered the report format ``name``."""
    return f"plugin {pm.get_reporters().owners.get(name, '?')!r}"


def _is_builtin(pm: ToolscorePluginManager, name: str) -> bool:
    from toolscore.plugins import DEFAULT_PLUGINS

    registry = pm.get_reporters()
    return name not in registry or registry.owners.get(name) in DEFAULT_PLUGINS


def write_reports(
    result: EvaluationResult,
    targets: Mapping[str, str | os.PathLike[str]],
    *,
    plugin_manager: ToolscorePluginManager | None = None,
    verbose: bool = False,
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Path]:
    """Write one report per ``{format name: path}`` entry; returns ``{format name: path}``.

    Every report is rendered before any file is written, so an unknown format or a reporter
    that fails leaves no file behind; each file is then written atomically (parent folders
    created). ``options`` maps a format name to keyword options for its reporter, for example
    ``{"junit": {"per_call": True, "min_score": 0.8}}``.

    Example (what ``toolscore eval --html report.html --junit junit.xml`` does)::

        write_reports(result, {"html": "report.html", "junit": "junit.xml"}, plugin_manager=pm)
    """
    from toolscore.fileio import atomic_write_text
    from toolscore.plugins.guard import PluginCodeError

    pm = _manager(plugin_manager)
    per_format = options or {}
    rendered: list[tuple[str, Path, str]] = []
    for name, path in targets.items():
        try:
            text = render_report(
                name, result, verbose=verbose, plugin_manager=pm, options=per_format.get(name)
            )
        except Exception as exc:
            if _is_builtin(pm, name) or pm.strict:
                raise
            # A plugin's failure is the plugin's: the run's own reports and exit code stand.
            reason = (
                str(exc) if isinstance(exc, PluginCodeError) else f"{type(exc).__name__}: {exc}"
            )
            warnings.warn(
                f"report {name!r} ({registry_owner(pm, name)}) failed and is not written: {reason}",
                RuntimeWarning,
                stacklevel=2,
            )
            continue
        rendered.append((name, Path(path), text))
    written: dict[str, Path] = {}
    for name, path, text in rendered:
        written[name] = atomic_write_text(path, text)
    return written
