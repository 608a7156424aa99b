"""Collect the named specs plugins register through one of toolscore-mcp's own hooks.

Lint rules and value providers are registered the same way: each plugin's implementation
returns specs with a ``name``. A plugin whose implementation raises, or returns something
that is not a spec, is skipped; a second spec with a name already taken is skipped too. Each
skip becomes one line in ``problems``, so a bad plugin never stops a run.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol, TypeVar

__all__ = ["gather_specs"]


class _Named(Protocol):
    @property
    def name(self) -> str: ...


S = TypeVar("S", bound=_Named)


def gather_specs(
    pm: Any, hook_name: str, spec_type: type[S], noun: str
) -> tuple[dict[str, S], dict[str, str], list[str]]:
    """Specs by name, the plugin of each, and one line per skipped plugin or spec.

    ``noun`` names a spec in those lines (``"lint rule"``). Implementations are read in
    registration order, so a built-in keeps its name against a later plugin.
    """
    specs: dict[str, S] = {}
    owners: dict[str, str] = {}
    problems: list[str] = []
    for plugin, answer in _answers(pm, hook_name, problems, noun):
        try:
            produced = list(answer or ())
            bad = [spec for spec in produced if not isinstance(spec, spec_type)]
            if bad:
                raise TypeError(f"returned {type(bad[0]).__name__}, expected {spec_type.__name__}")
        except Exception as exc:
            problems.append(f"{noun}s of plugin {plugin!r} skipped: {exc}")
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


def _answers(pm: Any, hook_name: str, problems: list[str], noun: str) -> Iterator[tuple[str, Any]]:
    """``(plugin, answer)`` in pluggy's calling order, each implementation called on its own
    through pluggy (so tracing and argument binding apply); one that raises is a problem line.

    A plain pluggy manager (a test's) has no ``call_each``; its hook is called per plugin here.
    """

    def skipped(plugin: str, exc: BaseException) -> None:
        problems.append(f"{noun}s of plugin {plugin!r} skipped: {exc}")

    call_each = getattr(pm, "call_each", None)
    if call_each is not None:
        yield from call_each(hook_name, _on_error=skipped)
        return
    caller = getattr(pm.hook, hook_name)
    impls = [i for i in caller.get_hookimpls() if not (i.hookwrapper or i.wrapper)]
    for impl in reversed(impls):
        others = [other.plugin for other in impls if other is not impl]
        try:
            answers = pm.subset_hook_caller(hook_name, others)()
        except Exception as exc:
            skipped(impl.plugin_name, exc)
            continue
        yield impl.plugin_name, answers[0] if answers else None
