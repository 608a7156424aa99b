"""Helpers behind the fixtures for plugin authors.

``toolscore_plugin_manager`` gives a test a fresh manager holding only core's built-ins and
makes it the process-wide one (so ``toolscore.evaluate`` uses it) until the test ends;
``register_toolscore_plugin`` adds a plugin object to it for that one test.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolscore.plugins import ToolscorePluginManager


@contextmanager
def builtin_plugin_manager() -> Iterator[ToolscorePluginManager]:
    """A fresh built-ins-only manager, installed process-wide for the duration of the block."""
    from toolscore import plugins

    previous = plugins.current_plugin_manager()
    pm = plugins.create_plugin_manager(load_entrypoints=False)
    plugins.reset_plugin_manager(pm)
    try:
        yield pm
    finally:
        plugins.reset_plugin_manager(previous)


class PluginRegistrar:
    """Callable that registers plugin objects (modules, classes, instances) for one test.

    Example::

        def test_my_metric(register_toolscore_plugin):
            register_toolscore_plugin(my_plugin_module)
            result = toolscore.evaluate(expected, actual)
            assert "my_metric" in result.metrics
    """

    def __init__(self, pm: ToolscorePluginManager) -> None:
        self.plugin_manager = pm
        self._names: list[str] = []

    def __call__(self, plugin: Any, name: str | None = None) -> str:
        """Register ``plugin`` (under ``name``, if given) and return its registered name."""
        registered = self.plugin_manager.register(plugin, name=name)
        if registered is None:  # pragma: no cover - pluggy returns None only for blocked names
            raise ValueError(f"plugin name {name!r} is blocked in this plugin manager")
        self._names.append(registered)
        return registered

    def unregister_all(self) -> None:
        """Remove every plugin registered through this object (called at test teardown)."""
        pm = self.plugin_manager
        for name in reversed(self._names):
            if pm.get_plugin(name) is not None:
                pm.unregister(name=name)
        self._names.clear()
