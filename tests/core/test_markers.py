"""``toolscore.hookimpl`` is not pluggy's marker (so plugins import it without pluggy), but
marks a function exactly as pluggy's ``HookimplMarker`` would: same attribute, same options."""

from __future__ import annotations

import itertools
import sys
from typing import Any

import pluggy
import pytest
from toolscore import hookimpl
from toolscore._markers import PROJECT_NAME, hookimpl_options
from toolscore.plugins import create_plugin_manager

FLAGS = ("hookwrapper", "optionalhook", "tryfirst", "trylast", "wrapper")


def opts_of(marker: Any, **options: Any) -> dict[str, Any]:
    def function() -> None: ...

    marked = marker(**options)(function) if options else marker(function)
    value: dict[str, Any] = getattr(marked, PROJECT_NAME + "_impl")
    return value


@pytest.mark.parametrize(
    "options",
    [
        {},
        *({flag: True} for flag in FLAGS),
        {"specname": "toolscore_register_metrics"},
        *(
            dict.fromkeys(pair, True)
            for pair in itertools.combinations(("tryfirst", "optionalhook", "wrapper"), 2)
        ),
    ],
)
def test_marks_as_pluggys_marker_does(options: dict[str, Any]) -> None:
    assert opts_of(hookimpl, **options) == opts_of(pluggy.HookimplMarker(PROJECT_NAME), **options)


def test_a_function_marked_by_it_registers_with_the_manager() -> None:
    class Plugin:
        @staticmethod
        @hookimpl(specname="toolscore_register_commands")
        def add(cli: Any) -> None:
            cli.add_command("x")

    pm = create_plugin_manager(load_entrypoints=False)
    pm.register(Plugin, name="plugin")
    assert "toolscore_register_commands" in {c.name for c in pm.get_hookcallers(Plugin) or []}
    assert hookimpl_options(Plugin.add) == opts_of(hookimpl, specname="toolscore_register_commands")
    assert hookimpl_options(len) is None


def test_hookspec_is_pluggys_marker_made_on_first_use() -> None:
    import toolscore

    assert isinstance(toolscore.hookspec, pluggy.HookspecMarker)
    assert toolscore.hookspec.project_name == PROJECT_NAME
    assert "pluggy" in sys.modules
