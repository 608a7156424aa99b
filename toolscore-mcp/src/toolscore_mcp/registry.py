"""toolscore-mcp's own hooks on a plugin manager: adding them, and gathering what they answer.

Lint rules, conformance checks and value providers are registered the same way: each
plugin's implementation returns specs with a ``name``. :func:`ensure_mcp_hooks` makes sure a
manager knows the hooks and the built-in plugins (whichever way it was built);
:func:`gather_specs` collects the specs. A plugin whose implementation raises, or returns
something that is not a spec, is skipped; a second spec with a name already taken is skipped
too. Each skip becomes one line in ``problems``, so a bad plugin never stops a run.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from toolscore.plugins.manager import ToolscorePluginManager

__all__ = [
    "BUILTIN_CHECK_MODULES",
    "BUILTIN_PROVIDER_MODULES",
    "BUILTIN_RULE_MODULES",
    "add_mcp_hookspecs",
    "ensure_mcp_hooks",
    "gather_specs",
]

#: Plugin modules holding the built-in lint rules, registered like any third-party plugin.
BUILTIN_RULE_MODULES: tuple[str, ...] = (
    "toolscore_mcp.rules.descriptions",
    "toolscore_mcp.rules.naming",
    "toolscore_mcp.rules.schema",
    "toolscore_mcp.rules.references",
    "toolscore_mcp.rules.poisoning",
    "toolscore_mcp.rules.validity",
    "toolscore_mcp.rules.refs",
)

#: Plugin modules holding the built-in conformance checks.
BUILTIN_CHECK_MODULES: tuple[str, ...] = (
    "toolscore_mcp.checks.definitions",
    "toolscore_mcp.checks.results",
    "toolscore_mcp.checks.session",
    "toolscore_mcp.checks.http",
)

#: Plugin modules holding the built-in value providers.
BUILTIN_PROVIDER_MODULES: tuple[str, ...] = ("toolscore_mcp.values.builtin_providers",)


class _Named(Protocol):
    @property
    def name(self) -> str: ...


S = TypeVar("S", bound=_Named)


def add_mcp_hookspecs(pm: Any) -> None:
    """Add toolscore-mcp's hookspecs to ``pm`` unless they are there already.

    Called from the ``toolscore_add_hookspecs`` hook and by :func:`ensure_mcp_hooks`. A
    plugin registered earlier may implement a hook already (pluggy then holds it without a
    spec): ``has_spec``, not ``hasattr``, tells whether the specs were added.
    """
    from toolscore_mcp import hookspecs

    if not pm.has_hookspec("toolscore_mcp_register_lint_rules"):
        pm.add_hookspecs(hookspecs)


def ensure_mcp_hooks(pm: Any) -> None:
    """Make sure ``pm`` knows toolscore-mcp's hooks and built-in rules, checks and providers.

    Normally done when the ``toolscore_mcp`` plugin is registered; this covers a manager
    built without entry points (``TOOLSCORE_NO_PLUGINS``, tests, embedding).
    """
    add_mcp_hookspecs(pm)
    modules = (*BUILTIN_RULE_MODULES, *BUILTIN_CHECK_MODULES, *BUILTIN_PROVIDER_MODULES)
    for module_name in modules:
        if not pm.has_plugin(module_name):
            pm.register(importlib.import_module(module_name), name=module_name)


def gather_specs(
    pm: ToolscorePluginManager, hook_name: str, spec_type: type[S], noun: str
) -> tuple[dict[str, S], dict[str, str], list[str]]:
    """Specs by name, the plugin of each, and one line per skipped plugin or spec.

    ``noun`` names a spec in those lines (``"lint rule"``). Implementations are called one
    by one through the manager's ``call_each`` (in registration order, so a built-in keeps
    its name against a later plugin); one that raises is a problem line, not a stopped run.
    """
    specs: dict[str, S] = {}
    owners: dict[str, str] = {}
    problems: list[str] = []

    def skipped(plugin: str, exc: BaseException) -> None:
        problems.append(f"{noun}s of plugin {plugin!r} skipped: {exc}")

    for plugin, answer in pm.call_each(hook_name, _on_error=skipped):
        try:
            produced = list(answer or ())
            bad = [spec for spec in produced if not isinstance(spec, spec_type)]
            if bad:
                raise TypeError(f"returned {type(bad[0]).__name__}, expected {spec_type.__name__}")
        except Exception as exc:
            skipped(plugin, exc)
            continue
        for spec in produced:
            if spec.name in specs:
                problems.append(
                    f"{noun} {spec.name!r} is registered by both {owners[spec.name]!r} "
                    f"and {plugin!r}; keeping the first"
                )
                continue
            specs[spec.name] = spec
            owners[spec.name] = plugin
    return specs, owners, problems
