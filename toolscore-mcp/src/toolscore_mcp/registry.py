"""Collect the named specs plugins register through one of toolscore-mcp's own hooks.

Lint rules and value providers are registered the same way: each plugin's implementation
returns specs with a ``name``. A plugin whose implementation raises, or returns something
that is not a spec, is skipped; a second spec with a name already taken is skipped too. Each
skip becomes one line in ``problems``, so a bad plugin never stops a run.
"""

from __future__ import annotations

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
    caller = getattr(pm.hook, hook_name)
    for impl in reversed(caller.get_hookimpls()):
        try:
            produced = list(impl.function() or ())
            bad = [spec for spec in produced if not isinstance(spec, spec_type)]
            if bad:
                raise TypeError(f"returned {type(bad[0]).__name__}, expected {spec_type.__name__}")
        except Exception as exc:
            problems.append(f"{noun}s of plugin {impl.plugin_name!r} skipped: {exc}")
            continue
        for spec in produced:
            if spec.name in specs:
                problems.append(
                    f"{noun} {spec.name!r} is registered by both {owners[spec.name]!r} "
                    f"and {impl.plugin_name!r}; keeping the first"
                )
                continue
            specs[spec.name] = spec
            owners[spec.name] = impl.plugin_name
    return specs, owners, problems
