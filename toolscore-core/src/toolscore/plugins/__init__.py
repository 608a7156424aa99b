"""Building the plugin manager.

:func:`create_plugin_manager` builds a fresh manager (tests, embedding); :func:`get_plugin_manager`
returns the process-wide one that ``evaluate()`` and the CLI use, built lazily on first need.

Importing this package imports neither pluggy nor attrs: ``toolscore --help`` reads entry
points through :mod:`toolscore.plugins.loading` (a submodule, so this package runs first)
without building a manager. :class:`ToolscorePluginManager` and :class:`PluginRecord` are
resolved on first use.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from toolscore.plugins.loading import ENTRY_POINT_GROUP, allow_list_from_env, env_flag

if TYPE_CHECKING:
    from toolscore.plugins.manager import ToolscorePluginManager
    from toolscore.plugins.records import PluginRecord

__all__ = [
    "DEFAULT_PLUGINS",
    "ESSENTIAL_PLUGINS",
    "PluginRecord",
    "ToolscorePluginManager",
    "create_plugin_manager",
    "current_plugin_manager",
    "get_plugin_manager",
    "manager_or_default",
    "reset_plugin_manager",
    "use_plugin_manager",
]

#: Core's own plugins, registered through the same ``register()`` path as any third party.
DEFAULT_PLUGINS: tuple[str, ...] = (
    "toolscore.builtin.detection",
    "toolscore.builtin.canonical",
    "toolscore.builtin.capture_format",
    "toolscore.builtin.matchers",
    "toolscore.metrics.invocation",
    "toolscore.metrics.selection",
    "toolscore.metrics.tool_correctness",
    "toolscore.metrics.sequence",
    "toolscore.metrics.trajectory",
    "toolscore.metrics.arguments",
    "toolscore.metrics.efficiency",
    "toolscore.metrics.required_calls",
    "toolscore.metrics.security",
    "toolscore.metrics.policy",
    "toolscore.metrics.trace_extras",
    "toolscore.reporters.console",
    "toolscore.reporters.json",
    "toolscore.reporters.markdown",
    "toolscore.reporters.html",
    "toolscore.reporters.csv",
    "toolscore.reporters.junit",
    "toolscore.batch.local",
    "toolscore.builtin.commands",
)

#: Built-ins that ``--disable-plugin`` cannot block: without them nothing evaluates.
ESSENTIAL_PLUGINS: frozenset[str] = frozenset(
    {"toolscore.builtin.detection", "toolscore.builtin.canonical", "toolscore.builtin.commands"}
)


def create_plugin_manager(
    *,
    load_entrypoints: bool = True,
    group: str = ENTRY_POINT_GROUP,
    disabled: tuple[str, ...] = (),
    strict: bool | None = None,
    no_plugins: bool | None = None,
) -> ToolscorePluginManager:
    """Build a fresh plugin manager: hookspecs, core's built-ins, then installed plugins.

    ``no_plugins=True`` keeps only built-ins (``toolscore --no-plugins``); ``None`` reads the
    user's setting ``TOOLSCORE_NO_PLUGINS``. The environment is read, never written.

    Environment: ``TOOLSCORE_NO_PLUGINS=1`` keeps only built-ins; ``TOOLSCORE_LOAD_PLUGINS``
    is an allow-list of distributions (``""`` = none); ``TOOLSCORE_STRICT_PLUGINS=1`` makes any
    plugin failure an error; ``TOOLSCORE_TRACE_HOOKS=1`` traces hook calls to stderr.
    """
    from toolscore.plugins.manager import ToolscorePluginManager

    pm = ToolscorePluginManager(
        strict=env_flag("TOOLSCORE_STRICT_PLUGINS") if strict is None else strict
    )
    blocked_builtins = {d for d in disabled if d in DEFAULT_PLUGINS and d not in ESSENTIAL_PLUGINS}
    for module_name in DEFAULT_PLUGINS:
        if module_name not in blocked_builtins:
            pm.register_builtin(module_name)
    if no_plugins is None:
        no_plugins = env_flag("TOOLSCORE_NO_PLUGINS")
    if load_entrypoints and not no_plugins:
        pm.load_entry_points(group, allow=allow_list_from_env(), blocked=disabled)
    if env_flag("TOOLSCORE_TRACE_HOOKS"):
        _trace_hooks(pm)
    return pm


def _trace_hooks(pm: ToolscorePluginManager) -> None:
    def before(hook_name: str, impls: object, kwargs: object) -> None:
        names = [getattr(i, "plugin_name", "?") for i in impls]  # type: ignore[attr-defined]
        print(f"toolscore: hook {hook_name} -> {names} kwargs={kwargs!r}", file=sys.stderr)

    def after(outcome: object, hook_name: str, impls: object, kwargs: object) -> None:
        try:
            result = outcome.get_result()  # type: ignore[attr-defined]
        except BaseException as exc:
            result = f"raised {exc!r}"
        print(f"toolscore: hook {hook_name} <- {result!r}", file=sys.stderr)

    pm.add_hookcall_monitoring(before, after)


_DEFAULT: ToolscorePluginManager | None = None
#: The manager of the command running now (``use_plugin_manager``), over ``_DEFAULT``. A
#: context variable, so two commands run in one process (threads that copy their context,
#: asyncio tasks) each see their own; a new thread that copies nothing sees none.
_ACTIVE: ContextVar[ToolscorePluginManager | None] = ContextVar(
    "toolscore_active_plugin_manager", default=None
)


def get_plugin_manager() -> ToolscorePluginManager:
    """The manager ``evaluate()`` and friends use when given none: the running command's
    (see :func:`use_plugin_manager`), else the process-wide one, built on first use."""
    global _DEFAULT
    active = _ACTIVE.get()
    if active is not None:
        return active
    if _DEFAULT is None:
        _DEFAULT = create_plugin_manager()
    return _DEFAULT


def manager_or_default(pm: ToolscorePluginManager | None) -> ToolscorePluginManager:
    """``pm`` itself, or :func:`get_plugin_manager`'s when ``None``: every public function
    that takes ``plugin_manager=None`` resolves it here."""
    return pm if pm is not None else get_plugin_manager()


def current_plugin_manager() -> ToolscorePluginManager | None:
    """The manager :func:`get_plugin_manager` would return, without building one."""
    active = _ACTIVE.get()
    return active if active is not None else _DEFAULT


@contextmanager
def use_plugin_manager(pm: ToolscorePluginManager) -> Iterator[ToolscorePluginManager]:
    """Make ``pm`` the manager of code that asks for none, until the block ends.

    The CLI runs each command in such a block, so ``--no-plugins`` and ``--disable-plugin``
    reach every helper of that command and end with it (a ``CliRunner`` call leaves the
    process as it found it).
    """
    previous = _ACTIVE.get()
    _ACTIVE.set(pm)
    try:
        yield pm
    finally:
        # set, not reset(token): click may close the block from another context copy
        _ACTIVE.set(previous)


def reset_plugin_manager(pm: ToolscorePluginManager | None = None) -> None:
    """Replace (or drop, with ``None``) the process-wide manager; for tests and the CLI."""
    global _DEFAULT
    _DEFAULT = pm


def __getattr__(name: str) -> Any:
    # The manager and its records pull in pluggy and attrs: imported when first asked for.
    if name == "ToolscorePluginManager":
        from toolscore.plugins.manager import ToolscorePluginManager

        return ToolscorePluginManager
    if name == "PluginRecord":
        from toolscore.plugins.records import PluginRecord

        return PluginRecord
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
