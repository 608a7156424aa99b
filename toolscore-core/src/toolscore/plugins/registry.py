"""Collect registration-hook results into name-keyed registries, one plugin at a time.

Calling each implementation on its own (rather than the whole hook at once) lets a plugin
whose registration hook raises, or returns something that is not a spec, be marked failed
while every other plugin keeps working, and lets a name clash name both providers.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

import attrs

from toolscore.errors import PluginConflictError, PluginValidationError

SpecT = TypeVar("SpecT")


@attrs.frozen
class RegistryProblem:
    """A plugin whose registration failed or clashed."""

    plugin: str
    error: BaseException
    traceback: str = ""


class Registry(Generic[SpecT]):
    """Specs of one kind, by name, with the plugin that registered each."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.specs: dict[str, SpecT] = {}
        self.owners: dict[str, str] = {}
        self.problems: list[RegistryProblem] = []

    def __contains__(self, name: object) -> bool:
        return name in self.specs

    def __getitem__(self, name: str) -> SpecT:
        return self.specs[name]

    def names(self) -> list[str]:
        return sorted(self.specs)

    def provided_by(self, plugin: str) -> tuple[str, ...]:
        return tuple(sorted(n for n, owner in self.owners.items() if owner == plugin))


def collect(
    kind: str,
    spec_type: type[SpecT],
    impls: Iterable[tuple[str, Callable[[], Iterable[Any] | None]]],
    describe: Callable[[str], str],
) -> Registry[SpecT]:
    """Build a registry from ``(plugin name, zero-argument caller)`` pairs, in order.

    Earlier plugins win a name clash; the later one is recorded as a problem whose message
    names both (``describe(plugin)`` gives "plugin (distribution)").
    """
    registry: Registry[SpecT] = Registry(kind)
    for plugin, call in impls:
        try:
            produced = list(call() or ())
            for spec in produced:
                if not isinstance(spec, spec_type):
                    raise PluginValidationError(
                        f"toolscore_register_{kind} returned {type(spec).__name__}, "
                        f"expected {spec_type.__name__}"
                    )
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # SystemExit too: one plugin must not end the host
            registry.problems.append(RegistryProblem(plugin, exc, traceback.format_exc()))
            continue
        for spec in produced:
            name: str = spec.name
            owner = registry.owners.get(name)
            if owner is not None and owner != plugin:
                registry.problems.append(
                    RegistryProblem(
                        plugin,
                        PluginConflictError(
                            f"{kind[:-1]} {name!r} is registered by both {describe(owner)} "
                            f"and {describe(plugin)}"
                        ),
                    )
                )
                continue
            registry.specs[name] = spec
            registry.owners[name] = plugin
    _drop_failed(registry)
    return registry


def _drop_failed(registry: Registry[Any]) -> None:
    """A plugin with a problem (it raised, returned junk, or claimed a taken name) provides
    nothing: ``plugins list`` shows it failed, and none of its other specs run either."""
    failed = {problem.plugin for problem in registry.problems}
    for name in [name for name, owner in registry.owners.items() if owner in failed]:
        del registry.specs[name]
        del registry.owners[name]
