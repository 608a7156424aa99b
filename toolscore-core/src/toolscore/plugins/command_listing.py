"""The plugin commands ``toolscore --help`` lists, read from the plugins' command tables.

Why not the plugin manager: building one imports pluggy and attrs, and asking each plugin for
its commands imports every command module; together most of ``toolscore --help``'s time.
Here each plugin module is imported (it must be anyway, to report one that fails to) and its
``TOOLSCORE_COMMANDS`` table (:mod:`toolscore.command_table`) is read instead of calling its
``toolscore_register_commands`` hook.

Whenever the tables cannot be trusted to say what the manager would do, :func:`declared_commands`
answers ``None`` and the caller builds the manager as before, which also reports the problem:
a plugin that fails to import, a broken distribution, two plugins of one name or two tables
claiming one command, a plugin that adds commands through the hook without a table, or a
plugin that is not a module. The user's choice of plugins (``--no-plugins``,
``--disable-plugin``, ``TOOLSCORE_LOAD_PLUGINS``) applies through the same
:func:`~toolscore.plugins.loading.selection` as the manager's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import FunctionType, MethodType, ModuleType

from toolscore._markers import hookimpl_options
from toolscore.command_table import TABLE_ATTRIBUTE, CommandEntry
from toolscore.plugins.loading import (
    ENTRY_POINT_GROUP,
    PluginEntryPoint,
    allow_list_from_env,
    canonical_name,
    env_flag,
    scan_group,
    selection,
)

__all__ = ["declared_commands"]

_HOOK = "toolscore_register_commands"


def declared_commands(
    *,
    disabled: Iterable[str] = (),
    no_plugins: bool | None = None,
    group: str = ENTRY_POINT_GROUP,
) -> dict[str, CommandEntry] | None:
    """Every installed plugin's commands by name, from their tables, or ``None`` when the
    plugin manager must be asked instead (see the module).

    ``disabled`` and ``no_plugins`` mean what they mean to
    :func:`~toolscore.plugins.create_plugin_manager`.
    """
    if no_plugins is None:
        no_plugins = env_flag("TOOLSCORE_NO_PLUGINS")
    if no_plugins:
        return {}
    allow = allow_list_from_env()
    blocked = frozenset(canonical_name(name) for name in disabled)
    scan = scan_group(group)
    for broken in scan.broken:
        dist = broken.distribution
        if selection(dist, dist, allow=allow, blocked=blocked) == "load":
            return None
    plugins: set[str] = set()
    commands: dict[str, CommandEntry] = {}
    for ep in scan.entry_points:
        if selection(ep.name, ep.distribution, allow=allow, blocked=blocked) != "load":
            continue
        if ep.name in plugins or ep.name.startswith("toolscore."):  # a clash the manager reports
            return None
        plugins.add(ep.name)
        table = _table_of(ep)
        if table is None:
            return None
        for name, entry in table.items():
            if name in commands:
                return None
            commands[name] = entry
    return commands


def _table_of(ep: PluginEntryPoint) -> Mapping[str, CommandEntry] | None:
    """``ep``'s command table (empty if it adds no commands), or ``None`` if only its hook
    can tell, or it fails to import."""
    try:
        plugin = ep.load()
    except KeyboardInterrupt:
        raise
    except BaseException:  # SystemExit too; the manager imports it again and reports it
        return None
    if not isinstance(plugin, ModuleType):
        return None
    namespace = vars(plugin)
    if not any(_adds_commands(name, value) for name, value in namespace.items()):
        return {}
    table = namespace.get(TABLE_ATTRIBUTE)
    if not isinstance(table, Mapping):
        return None
    for name, entry in table.items():
        if not isinstance(name, str) or not isinstance(entry, CommandEntry):
            return None
    return table


def _adds_commands(name: str, value: object) -> bool:
    """Whether module attribute ``name`` implements ``toolscore_register_commands``.

    Only functions and bound methods are looked at (as pluggy does): reading an attribute of
    any other object could run its code.
    """
    if not isinstance(value, (FunctionType, MethodType)):
        return False
    opts = hookimpl_options(value)
    return opts is not None and (opts.get("specname") or name) == _HOOK
