"""The plugin manager: pluggy underneath, a typed facade on top.

The evaluator and the CLI only call the ``get_*`` methods here; ``pm.hook`` never leaks out.

Isolation: nothing a third-party plugin raises at import or in a hook takes the host down,
``SystemExit`` included (a plugin calling ``sys.exit()`` would otherwise end every command,
``--help`` too, without saying which plugin did it). Only ``KeyboardInterrupt`` goes through,
so Ctrl-C still interrupts. The plugin is recorded as failed, named in a one-line warning on
stderr, and, for a hook called during a run (format detection, notifications), skipped for the
rest of the run. Core's own built-ins are not isolated: their errors are real errors.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from types import ModuleType
from typing import Any, TypeVar

import attrs
import pluggy
from pluggy import HookImpl

from toolscore import hookspecs
from toolscore._markers import PROJECT_NAME
from toolscore.errors import PluginConflictError, PluginLoadError
from toolscore.plugins.lazy_builtins import builtin_plugin
from toolscore.plugins.loading import (
    BrokenDistribution,
    PluginEntryPoint,
    canonical_name,
    scan_group,
    selection,
)
from toolscore.plugins.records import PluginRecord
from toolscore.plugins.registry import Registry, collect
from toolscore.specs import (
    SPEC_KINDS,
    ExecutorSpec,
    ExtractorSpec,
    JudgeSpec,
    MatcherSpec,
    MetricSpec,
    ReporterSpec,
)

SpecT = TypeVar("SpecT")

#: The arguments of core's ``toolscore_detect_format``, in the order it takes them.
_DETECT_ARGS = ("payload", "plugin_manager")

CORE_DISTRIBUTION = "toolscore-core"


def _core_version() -> str:
    from toolscore._version import version

    return version()


def _first_line(exc: BaseException, limit: int = 300) -> str:
    """The error as one line: type and message, with the message's lines joined."""
    message = " ".join(part.strip() for part in str(exc).splitlines() if part.strip())
    from toolscore.plugins.guard import PluginCodeError

    if isinstance(exc, PluginCodeError):  # already says what happened ("SystemExit: 3")
        text = message
    else:
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
        #: Plugins skipped for the rest of the run, per hook, after raising in it.
        self._dropped: dict[str, set[str]] = {}
        #: Hook call monitors in place (``TOOLSCORE_TRACE_HOOKS``, pluggy's tracing): while
        #: any is, every hook goes through pluggy so that the monitors see it.
        self._monitors = 0

    # -- loading -----------------------------------------------------------------------------

    def register_builtin(self, module_name: str) -> None:
        """Register one of core's own plugin modules (same path as any plugin); most are
        stand-ins that import the module on first use (:mod:`toolscore.plugins.lazy_builtins`)."""
        plugin = builtin_plugin(module_name)
        self.register(plugin, name=module_name)
        self._records[module_name] = PluginRecord(
            name=module_name,
            distribution=CORE_DISTRIBUTION,
            version=_core_version(),
            status="builtin",
            entry_point=module_name,
            location=getattr(plugin, "__file__", "") or "",
            hooks=self._hook_names(plugin),
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
        blocked_names = frozenset(canonical_name(b) for b in blocked)
        scan = scan_group(group)
        for broken in scan.broken:
            dist = broken.distribution
            if selection(dist, dist, allow=allow, blocked=blocked_names) == "load":
                self._record_broken(broken)
        for ep in scan.entry_points:
            chosen = selection(ep.name, ep.distribution, allow=allow, blocked=blocked_names)
            if chosen == "skipped":
                continue
            base = PluginRecord(
                name=ep.name,
                distribution=ep.distribution,
                version=ep.version,
                status="disabled",
                entry_point=ep.value,
            )
            if chosen == "blocked":
                self.set_blocked(ep.name)
                self._records[ep.name] = base
                continue
            self._load_one(ep, base)
        self._check_pending_once()

    def _check_pending_once(self) -> None:
        """Second loading phase: every plugin is registered, so a hook one plugin adds for
        others (toolscore-mcp's lint rules) is known whatever the loading order. Only the
        plugins that still implement an unknown hook are unregistered, each recorded as failed.
        """
        while True:
            try:
                self.check_pending()
            except pluggy.PluginValidationError as exc:
                name = self.get_name(exc.plugin)
                if name is None or name not in self._records:
                    raise
                self.unregister(name=name)
                self._plugin_failed(self._records[name], exc)
            else:
                return

    def _record_broken(self, broken: BrokenDistribution) -> None:
        """A distribution whose metadata cannot be read: listed as failed, its plugins skipped."""
        error = f"malformed distribution metadata: {broken.error}"
        self._records.setdefault(
            broken.distribution,
            PluginRecord(
                name=broken.distribution,
                distribution=broken.distribution,
                version=broken.version,
                status="failed",
                location=broken.location,
                error=error,
            ),
        )
        if self.strict:
            raise PluginLoadError(f"distribution {broken.distribution!r} is skipped: {error}")
        print(
            f"toolscore: distribution {broken.distribution!r} skipped: {error} "
            f"({broken.location}; see 'toolscore plugins list')",
            file=sys.stderr,
        )

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
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # SystemExit too: a plugin must not end the host
            if plugin is not None and self.get_plugin(ep.name) is plugin:
                self.unregister(name=ep.name)
            self._plugin_failed(base, exc, keep_owner=ep.name in self._records)
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

    def _plugin_failed(
        self, base: PluginRecord, exc: BaseException, *, keep_owner: bool = False
    ) -> None:
        """Record ``base``'s plugin as failed to load, and say so (or raise when strict).

        ``keep_owner``: the name belongs to another plugin (a clash), whose record stays.
        """
        if not keep_owner:
            self._records[base.name] = attrs.evolve(
                base,
                status="failed",
                error=_first_line(exc),
                traceback="".join(traceback.format_exception(type(exc), exc, exc.__traceback__)),
                hooks=(),
            )
        if self.strict:
            raise PluginLoadError(
                f"plugin {base.name!r} from {base.distribution} failed to load: {_first_line(exc)}"
            ) from exc
        print(
            f"toolscore: plugin {base.name!r} ({base.distribution}) failed to load: "
            f"{_first_line(exc)} (see 'toolscore plugins list'; --no-plugins skips plugins)",
            file=sys.stderr,
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
            impls = [
                (impl.plugin_name, partial(self._call_one, caller.name, impl, {}))
                for impl in _plain(caller.get_hookimpls())
            ]
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

    def get_executors(self) -> Registry[ExecutorSpec]:
        return self._registry("executors", ExecutorSpec)

    def detect_format(self, payload: Any) -> str | None:
        """Ask the ``toolscore_detect_format`` hook which extractor reads ``payload``.

        The first answer that is not ``None`` wins, in pluggy's order. A plugin whose detector
        raises is warned about once and left out for the rest of the run; the others (and
        core's fallback) still decide, so one broken detector never breaks auto-detection.
        """
        caller = self.hook.toolscore_detect_format
        impls = caller.get_hookimpls()
        if len(impls) == 1 and self._lone_builtin(impls[0], "toolscore_detect_format"):
            impl = impls[0]
            if impl.argnames == _DETECT_ARGS and not self._monitors:
                # Core's detector alone and nobody watching hook calls (the usual case):
                # called directly, as pluggy would call it. Pluggy's dispatch cost a third of
                # the detection of a chat completion.
                answer = impl.function(payload, self)
            else:
                # A call through pluggy is what call_each would make, without building a
                # subset caller per payload.
                answer = caller(payload=payload, plugin_manager=self)
            return None if answer is None else str(answer)
        kwargs = {"payload": payload, "plugin_manager": self}
        for _plugin, answer in self.call_each("toolscore_detect_format", **kwargs):
            if answer is not None:
                return str(answer)
        return None

    def _lone_builtin(self, impl: HookImpl, hook_name: str) -> bool:
        """Whether ``impl`` is a built-in's plain implementation that runs in ``hook_name``:
        then :meth:`call_each` on a hook with no other implementation raises its errors and
        yields its one answer, the same as calling the hook."""
        if impl.hookwrapper or impl.wrapper:
            return False
        name = impl.plugin_name
        if name in self._failed_in_registry or name in self._dropped.get(hook_name, ()):
            return False
        record = self._records.get(name)
        return record is not None and record.builtin

    def add_hookcall_monitoring(
        self,
        before: Callable[[str, Sequence[HookImpl], Mapping[str, Any]], None],
        after: Callable[[Any, str, Sequence[HookImpl], Mapping[str, Any]], None],
    ) -> Callable[[], None]:
        """pluggy's ``add_hookcall_monitoring``, counted: :meth:`detect_format` calls core's
        detector directly only while no monitor is in place."""
        undo = super().add_hookcall_monitoring(before, after)
        self._monitors += 1
        undone = False

        def remove() -> None:
            nonlocal undone
            undo()
            if not undone:
                undone = True
                self._monitors -= 1

        return remove

    def has_hookspec(self, hook_name: str) -> bool:
        """Whether a spec for ``hook_name`` has been added (a distribution's own hooks are
        added when it loads); implementations alone do not count."""
        caller = getattr(self.hook, hook_name, None)
        return caller is not None and caller.has_spec()

    def call_each(
        self,
        hook_name: str,
        _on_error: Callable[[str, BaseException], None] | None = None,
        **kwargs: Any,
    ) -> Iterator[tuple[str, Any]]:
        """Call each implementation of ``hook_name`` on its own, in pluggy's calling order.

        For hooks whose every answer matters to the caller, one plugin at a time (a plugin
        distribution's own hooks too: toolscore-mcp's lint rules). Yields ``(plugin name,
        answer)``. A third-party implementation that raises is dropped for the rest of the run
        and named on stderr; a built-in's error is raised, as it is a bug of core's own.
        ``_on_error(plugin, exc)``, when given, handles every failure instead (the caller
        reports it its own way, and the plugin is not dropped).
        """
        caller = getattr(self.hook, hook_name)
        dropped = self._dropped.setdefault(hook_name, set())
        for impl in reversed(_plain(caller.get_hookimpls())):
            if impl.plugin_name in dropped or impl.plugin_name in self._failed_in_registry:
                continue  # a plugin shown as failed does not run anywhere
            try:
                answer = self._call_one(hook_name, impl, kwargs)
            except KeyboardInterrupt:
                raise
            except Exception as exc:
                if _on_error is None:
                    self._isolate(hook_name, impl.plugin_name, exc)
                else:
                    _on_error(impl.plugin_name, exc)
                continue
            except BaseException as exc:  # SystemExit: a plugin must not end the host
                self._isolate(hook_name, impl.plugin_name, exc)
                continue
            yield impl.plugin_name, answer

    def _isolate(self, hook_name: str, plugin: str, exc: BaseException) -> None:
        """Drop a third-party ``plugin`` that raised in ``hook_name``; re-raise a built-in's."""
        record = self._records.get(plugin)
        if record is not None and record.builtin:
            raise exc
        self._hook_failed(hook_name, plugin, exc)

    def _call_one(self, hook_name: str, impl: HookImpl, kwargs: Mapping[str, Any]) -> Any:
        """Call one implementation through pluggy and return its answer (``None`` for none).

        Through pluggy, not ``impl.function(...)``, so that argument binding (an
        implementation may take fewer arguments than the spec), hook tracing and wrappers
        apply as for any hook call. The other plain implementations are left out, so one
        plugin's exception is that plugin's alone (pluggy stops a call at the first one).
        """
        caller = getattr(self.hook, hook_name)
        others = [other.plugin for other in _plain(caller.get_hookimpls()) if other is not impl]
        subset = self.subset_hook_caller(hook_name, others)
        record = self._records.get(impl.plugin_name)
        if record is not None and record.builtin:
            answer = subset(**kwargs)
        else:  # a third party's code: it may not exit, hang or take the run down
            from toolscore.plugins.guard import run_plugin_code

            answer = run_plugin_code(subset, **kwargs)
        if caller.spec is not None and caller.spec.opts.get("firstresult"):
            return answer
        return answer[0] if answer else None

    def _hook_failed(self, hook_name: str, plugin: str, exc: BaseException) -> None:
        """Record that ``plugin`` raised in ``hook_name``; skip it in that hook from now on."""
        self._dropped.setdefault(hook_name, set()).add(plugin)
        error = f"{hook_name} raised {_first_line(exc)}"
        self._failed_in_registry[plugin] = error
        if self.strict:
            raise PluginLoadError(f"plugin {self._describe(plugin)} failed: {error}") from exc
        print(
            f"toolscore: plugin {self._describe(plugin)} {error}; it is skipped in {hook_name} "
            "for the rest of this run (--disable-plugin NAME skips it for good)",
            file=sys.stderr,
        )

    def register_commands(self, cli: Any, *, exclude: Iterable[str] = ()) -> dict[str, str]:
        """Let every plugin add CLI commands; returns ``{plugin: error}`` for those that failed.

        A plugin that already added its commands to ``cli`` is not asked again, and those named
        in ``exclude`` are left for a later call (the root group resolves core's own commands
        from a table, so finding one plugin command need not import them all).
        """
        failures: dict[str, str] = {}
        skipped = set(exclude) | set(self._commands)
        for impl in _plain(self.hook.toolscore_register_commands.get_hookimpls()):
            if impl.plugin_name in skipped:
                continue
            before = set(getattr(cli, "commands", {}))
            try:
                self._call_one("toolscore_register_commands", impl, {"cli": cli})
            except KeyboardInterrupt:
                raise
            except BaseException as exc:
                failures[impl.plugin_name] = _first_line(exc)
                self._failed_in_registry[impl.plugin_name] = _first_line(exc)
                if self.strict:
                    raise PluginLoadError(
                        f"plugin {impl.plugin_name!r} failed to add commands: {_first_line(exc)}"
                    ) from exc
                continue
            added = set(getattr(cli, "commands", {})) - before
            self._commands[impl.plugin_name] = tuple(sorted(added))
        return failures

    def evaluation_finished(self, result: Any) -> None:
        """Tell every plugin an evaluation finished; one that raises is skipped from now on."""
        for _ in self.call_each("toolscore_evaluation_finished", result=result):
            pass

    def snapshot_used(self, name: str, path: Any) -> None:
        """Tell every plugin a snapshot was used; one that raises is skipped from now on."""
        for _ in self.call_each("toolscore_snapshot_used", name=name, path=path):
            pass

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
        for impl in _plain(self.hook.toolscore_describe_provided.get_hookimpls()):
            try:
                answer = self._call_one(
                    "toolscore_describe_provided", impl, {"plugin_manager": self}
                )
                if answer is None:
                    continue
                if not isinstance(answer, Mapping):
                    raise TypeError(f"returned {type(answer).__name__}, expected a mapping")
                for plugin, kinds in answer.items():
                    for kind, names in kinds.items():
                        if names:
                            merged.setdefault(plugin, {})[kind] = tuple(sorted(names))
            except KeyboardInterrupt:
                raise
            except BaseException as exc:
                self._failed_in_registry[impl.plugin_name] = _first_line(exc)
                if self.strict:
                    raise PluginLoadError(
                        f"plugin {impl.plugin_name!r} failed to describe what plugins "
                        f"provide: {_first_line(exc)}"
                    ) from exc
        return merged


def _plain(impls: Iterable[HookImpl]) -> list[HookImpl]:
    """The implementations that answer a call (wrappers only surround each call)."""
    return [impl for impl in impls if not (impl.hookwrapper or impl.wrapper)]
