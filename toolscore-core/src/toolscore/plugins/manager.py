"""The plugin manager: pluggy underneath, a typed facade on top.

The evaluator and the CLI only call the ``get_*`` methods here; ``pm.hook`` never leaks out.
"""

from __future__ import annotations

import importlib
import sys
import traceback
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import Any, TypeVar

import attrs
import pluggy

from toolscore import hookspecs
from toolscore._markers import PROJECT_NAME
from toolscore.errors import PluginConflictError, PluginLoadError
from toolscore.plugins.loading import PluginEntryPoint, canonical_name, scan_entry_points
from toolscore.plugins.records import PluginRecord
from toolscore.plugins.registry import Registry, collect
from toolscore.specs import (
    SPEC_KINDS,
    ExtractorSpec,
    JudgeSpec,
    MatcherSpec,
    MetricSpec,
    ReporterSpec,
)

SpecT = TypeVar("SpecT")

CORE_DISTRIBUTION = "toolscore-core"


def _core_version() -> str:
    from toolscore._version import version

    return version()


def _first_line(exc: BaseException, limit: int = 300) -> str:
    """The error as one line: type and message, with the message's lines joined."""
    message = " ".join(part.strip() for part in str(exc).splitlines() if part.strip())
    text = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ToolscorePluginManager(pluggy.PluginManager):
    """Loads plugins safely, remembers where each came from, and serves typed registries."""

    def __init__(self, *, strict: bool = False) -> None:
        super().__init__(PROJECT_NAME)
        self.add_hookspecs(hookspecs)
        self.hook.toolscore_add_hookspecs.call_historic(kwargs={"plugin_manager": self})
        self.strict = strict
        self._records: dict[str, PluginRecord] = {}
        self._registries: dict[str, Registry[Any]] = {}
        self._failed_in_registry: dict[str, str] = {}
        self._commands: dict[str, tuple[str, ...]] = {}

    # -- loading -----------------------------------------------------------------------------

    def register_builtin(self, module_name: str) -> None:
        """Register one of core's own plugin modules (same path as any plugin)."""
        module = importlib.import_module(module_name)
        self.register(module, name=module_name)
        self._records[module_name] = PluginRecord(
            name=module_name,
            distribution=CORE_DISTRIBUTION,
            version=_core_version(),
            status="builtin",
            entry_point=module_name,
            location=getattr(module, "__file__", "") or "",
            hooks=self._hook_names(module),
        )

    def load_entry_points(
        self,
        group: str,
        *,
        allow: frozenset[str] | None = None,
        blocked: Iterable[str] = (),
    ) -> None:
        """Import and register every plugin of ``group``; one failure never stops the others.

        ``allow`` holds canonical distribution names (``None`` = everything); ``blocked``
        holds entry-point or distribution names. Both apply before the plugin is imported.
        """
        blocked_names = {canonical_name(b) for b in blocked}
        for ep in scan_entry_points(group):
            dist, version = ep.distribution, ep.version
            base = PluginRecord(
                name=ep.name,
                distribution=dist,
                version=version,
                status="disabled",
                entry_point=ep.value,
            )
            if allow is not None and canonical_name(dist) not in allow:
                continue
            if canonical_name(ep.name) in blocked_names or canonical_name(dist) in blocked_names:
                self.set_blocked(ep.name)
                self._records[ep.name] = base
                continue
            self._load_one(ep, base)

    def _load_one(self, ep: PluginEntryPoint, base: PluginRecord) -> None:
        plugin: object = None
        try:
            if self.has_plugin(ep.name) or ep.name in self._records:
                owner = self._records.get(ep.name)
                owner_dist = owner.distribution if owner else "another plugin"
                raise PluginConflictError(
                    f"plugin name {ep.name!r} is registered by both {owner_dist} and {base.distribution}"
                )
            plugin = ep.load()
            self.register(plugin, name=ep.name)
            self.check_pending()
        except Exception as exc:
            if plugin is not None and self.get_plugin(ep.name) is plugin:
                self.unregister(name=ep.name)
            self._records.setdefault(
                ep.name,
                attrs.evolve(
                    base, status="failed", error=_first_line(exc), traceback=traceback.format_exc()
                ),
            )
            if self.strict:
                raise PluginLoadError(
                    f"plugin {ep.name!r} from {base.distribution} failed to load: {_first_line(exc)}"
                ) from exc
            print(
                f"toolscore: plugin {ep.name!r} ({base.distribution}) failed to load: "
                f"{_first_line(exc)} (see 'toolscore plugins list'; --no-plugins skips plugins)",
                file=sys.stderr,
            )
            return
        module = (
            plugin if isinstance(plugin, ModuleType) else sys.modules.get(type(plugin).__module__)
        )
        self._records[ep.name] = PluginRecord(
            name=ep.name,
            distribution=base.distribution,
            version=base.version,
            status="active",
            entry_point=base.entry_point,
            location=getattr(module, "__file__", "") or "",
            hooks=self._hook_names(plugin),
        )

    def _hook_names(self, plugin: object) -> tuple[str, ...]:
        callers = self.get_hookcallers(plugin) or []
        return tuple(sorted(c.name for c in callers))

    def register(self, plugin: object, name: str | None = None) -> str | None:
        """Register ``plugin`` (pluggy's register) and forget registries built before it."""
        registered = super().register(plugin, name)
        self.invalidate_caches()
        return registered

    def unregister(self, plugin: object | None = None, name: str | None = None) -> Any:
        """Unregister ``plugin`` (pluggy's unregister) and forget registries built with it."""
        removed = super().unregister(plugin, name)
        self.invalidate_caches()
        return removed

    def invalidate_caches(self) -> None:
        """Drop the registries built so far; the next ``get_*()`` collects them afresh.

        Called on every register/unregister, so a plugin added later (a test fixture, an
        embedding application) is seen by the next evaluation.
        """
        self._registries.clear()

    # -- registries --------------------------------------------------------------------------

    def _registry(self, kind: str, spec_type: type[SpecT]) -> Registry[SpecT]:
        registry = self._registries.get(kind)
        if registry is None:
            caller = getattr(self.hook, f"toolscore_register_{kind}")
            # get_hookimpls() lists implementations in registration order (pluggy *calls*
            # them LIFO); collecting in that order lets built-ins (registered first) win name
            # clashes, then plugins in sorted entry-point order, reproducibly.
            impls = [(impl.plugin_name, _bind(impl.function)) for impl in caller.get_hookimpls()]
            registry = collect(kind, spec_type, impls, self._describe)
            for problem in registry.problems:
                self._failed_in_registry[problem.plugin] = _first_line(problem.error)
                if self.strict:
                    raise PluginLoadError(
                        f"plugin {problem.plugin!r} failed to register {kind}: {_first_line(problem.error)}"
                    ) from problem.error
            self._registries[kind] = registry
        return registry

    def _describe(self, plugin: str) -> str:
        record = self._records.get(plugin)
        return f"{plugin!r} ({record.distribution})" if record else repr(plugin)

    def get_metrics(self) -> Registry[MetricSpec]:
        return self._registry("metrics", MetricSpec)

    def get_extractors(self) -> Registry[ExtractorSpec]:
        return self._registry("extractors", ExtractorSpec)

    def get_matchers(self) -> Registry[MatcherSpec]:
        return self._registry("matchers", MatcherSpec)

    def get_judges(self) -> Registry[JudgeSpec]:
        return self._registry("judges", JudgeSpec)

    def get_reporters(self) -> Registry[ReporterSpec]:
        return self._registry("reporters", ReporterSpec)

    def detect_format(self, payload: Any) -> str | None:
        """Ask the ``toolscore_detect_format`` hook which extractor reads ``payload``."""
        result: str | None = self.hook.toolscore_detect_format(payload=payload, plugin_manager=self)
        return result

    def register_commands(self, cli: Any) -> dict[str, str]:
        """Let every plugin add CLI commands; returns ``{plugin: error}`` for those that failed."""
        failures: dict[str, str] = {}
        for impl in self.hook.toolscore_register_commands.get_hookimpls():
            before = set(getattr(cli, "commands", {}))
            try:
                impl.function(cli)
                added = set(getattr(cli, "commands", {})) - before
                self._commands[impl.plugin_name] = tuple(sorted(added))
            except Exception as exc:
                failures[impl.plugin_name] = _first_line(exc)
                self._failed_in_registry[impl.plugin_name] = _first_line(exc)
                if self.strict:
                    raise PluginLoadError(
                        f"plugin {impl.plugin_name!r} failed to add commands: {_first_line(exc)}"
                    ) from exc
        return failures

    def evaluation_finished(self, result: Any) -> None:
        self.hook.toolscore_evaluation_finished(result=result)

    def snapshot_used(self, name: str, path: Any) -> None:
        self.hook.toolscore_snapshot_used(name=name, path=path)

    # -- provenance --------------------------------------------------------------------------

    def records(self) -> list[PluginRecord]:
        """Every plugin seen, with what it provides; registries are built if needed."""
        registries: dict[str, Registry[Any]] = {
            kind: self._registry(kind, spec) for kind, spec in SPEC_KINDS.items()
        }
        described = self._described()
        out: list[PluginRecord] = []
        for record in self._records.values():
            provides = {
                kind: names
                for kind, registry in registries.items()
                if (names := registry.provided_by(record.name))
            }
            if self._commands.get(record.name):
                provides["commands"] = self._commands[record.name]
            provides.update(described.get(record.name, {}))
            error = self._failed_in_registry.get(record.name)
            if error and record.status in ("active", "builtin"):
                record = attrs.evolve(record, status="failed", error=error)
            out.append(attrs.evolve(record, provides=provides))
        return out

    def _described(self) -> dict[str, dict[str, tuple[str, ...]]]:
        """``toolscore_describe_provided`` answers, merged; a raising one marks its plugin."""
        merged: dict[str, dict[str, tuple[str, ...]]] = {}
        for impl in self.hook.toolscore_describe_provided.get_hookimpls():
            try:
                wanted = {"plugin_manager": self} if "plugin_manager" in impl.argnames else {}
                answer = impl.function(**wanted)
                if answer is None:
                    continue
                if not isinstance(answer, Mapping):
                    raise TypeError(f"returned {type(answer).__name__}, expected a mapping")
                for plugin, kinds in answer.items():
                    for kind, names in kinds.items():
                        if names:
                            merged.setdefault(plugin, {})[kind] = tuple(sorted(names))
            except Exception as exc:
                self._failed_in_registry[impl.plugin_name] = _first_line(exc)
                if self.strict:
                    raise PluginLoadError(
                        f"plugin {impl.plugin_name!r} failed to describe what plugins "
                        f"provide: {_first_line(exc)}"
                    ) from exc
        return merged


def _bind(function: Callable[..., Any]) -> Callable[[], Any]:
    return lambda: function()
