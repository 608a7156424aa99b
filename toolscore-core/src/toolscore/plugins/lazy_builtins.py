"""Core's built-in plugins registered without importing them: stand-ins that import on use.

Why: every command builds a plugin manager, and importing all of core's metric, reporter,
matcher and executor modules costs about 20 ms (a tenth of ``toolscore demo``) that
``toolscore mcp test``, ``demo`` and ``--help`` never use. Each of those modules implements one
hook, a ``toolscore_register_<kind>()`` that takes no arguments, so a stand-in with that one
hook registers in the module's place. Its first call imports the module and answers with the
module's own implementation.

Everything else is as if the module itself were registered: the same name, at the same place
in the registration order (so pluggy's calling order and registry precedence do not change),
``--disable-plugin`` and ``toolscore plugins list`` (which names the module's file). A test
checks :data:`LAZY_BUILTIN_HOOKS` against the modules, so the table cannot drift from them.
"""

from __future__ import annotations

import importlib
import os
import types
from collections.abc import Callable
from typing import Any

from toolscore._markers import hookimpl

#: Built-in plugin module -> the one argument-free hook it implements.
LAZY_BUILTIN_HOOKS: dict[str, str] = {
    "toolscore.builtin.canonical": "toolscore_register_extractors",
    "toolscore.builtin.capture_format": "toolscore_register_extractors",
    "toolscore.builtin.matchers": "toolscore_register_matchers",
    **{
        f"toolscore.metrics.{name}": "toolscore_register_metrics"
        for name in (
            "invocation",
            "selection",
            "tool_correctness",
            "sequence",
            "trajectory",
            "arguments",
            "efficiency",
            "required_calls",
            "security",
            "policy",
            "trace_extras",
        )
    },
    **{
        f"toolscore.reporters.{name}": "toolscore_register_reporters"
        for name in ("console", "json", "markdown", "html", "csv", "junit")
    },
    "toolscore.batch.local": "toolscore_register_executors",
}


class LazyBuiltin(types.ModuleType):
    """Stands for the built-in module ``module_name``, whose only hook is ``hook_name``.

    A module object, not an instance of a class of ours: pluggy looks at every attribute of a
    plugin when registering it, and a module has five besides the hook, a class instance
    thirty.
    """

    def __init__(self, module_name: str, hook_name: str) -> None:
        super().__init__(module_name, f"Stands for {module_name} until {hook_name} is called.")
        setattr(self, hook_name, _forwarding_hook(module_name, hook_name))
        # Core's modules are plain files of the installed package: no import system needed.
        package_folder = os.path.dirname(os.path.dirname(__file__))
        parts = module_name.split(".")[1:]
        self.__file__ = os.path.join(package_folder, *parts) + ".py"

    def __repr__(self) -> str:
        return f"<LazyBuiltin {self.__name__}>"


def _forwarding_hook(module_name: str, hook_name: str) -> Callable[[], Any]:
    def forward() -> Any:
        module = importlib.import_module(module_name)
        return getattr(module, hook_name)()

    forward.__name__ = forward.__qualname__ = hook_name
    forward.__module__ = module_name
    return hookimpl(forward)


def builtin_plugin(module_name: str) -> types.ModuleType:
    """The object to register for core's plugin ``module_name``: a stand-in, or the module."""
    hook_name = LAZY_BUILTIN_HOOKS.get(module_name)
    if hook_name is not None:
        return LazyBuiltin(module_name, hook_name)
    return importlib.import_module(module_name)


__all__ = ["LAZY_BUILTIN_HOOKS", "LazyBuiltin", "builtin_plugin"]
