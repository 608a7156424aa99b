"""The project name and the markers made from it.

Kept free of other imports so that plugins can import :data:`hookimpl` cheaply: every plugin
module imports it, and ``toolscore --help`` imports the plugin modules (to learn their
commands) without building a plugin manager. So :data:`hookimpl` is not pluggy's
``HookimplMarker`` but marks a function exactly as that marker does (the same
``toolscore_impl`` attribute and options, which is all pluggy reads when a plugin registers;
``tests/core/test_markers.py`` checks the two agree), and pluggy is imported only when a plugin
manager is built. :data:`hookspec` is pluggy's own marker, made on first use: only hookspec
modules need it, and they are imported by the manager.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, overload

if TYPE_CHECKING:
    import pluggy

PROJECT_NAME = "toolscore"

_F = TypeVar("_F", bound=Callable[..., object])


class HookimplMarker:
    """Marks hook implementations for :class:`pluggy.PluginManager` (``@toolscore.hookimpl``).

    Takes the options of pluggy's ``HookimplMarker``, with the same meaning (see pluggy's
    documentation): ``tryfirst``, ``trylast``, ``wrapper``, ``hookwrapper``, ``optionalhook``
    and ``specname``.
    """

    __slots__ = ("project_name",)

    def __init__(self, project_name: str) -> None:
        self.project_name = project_name

    @overload
    def __call__(
        self,
        function: _F,
        hookwrapper: bool = ...,
        optionalhook: bool = ...,
        tryfirst: bool = ...,
        trylast: bool = ...,
        specname: str | None = ...,
        wrapper: bool = ...,
    ) -> _F: ...

    @overload
    def __call__(
        self,
        function: None = ...,
        hookwrapper: bool = ...,
        optionalhook: bool = ...,
        tryfirst: bool = ...,
        trylast: bool = ...,
        specname: str | None = ...,
        wrapper: bool = ...,
    ) -> Callable[[_F], _F]: ...

    def __call__(
        self,
        function: _F | None = None,
        hookwrapper: bool = False,
        optionalhook: bool = False,
        tryfirst: bool = False,
        trylast: bool = False,
        specname: str | None = None,
        wrapper: bool = False,
    ) -> _F | Callable[[_F], _F]:
        """Mark ``function`` (or, called with options only, return a decorator that does)."""
        opts = {
            "wrapper": wrapper,
            "hookwrapper": hookwrapper,
            "optionalhook": optionalhook,
            "tryfirst": tryfirst,
            "trylast": trylast,
            "specname": specname,
        }

        def mark(func: _F) -> _F:
            setattr(func, self.project_name + "_impl", dict(opts))
            return func

        return mark if function is None else mark(function)


#: Marker to be imported and used in plugins (and for core's own implementations).
hookimpl = HookimplMarker(PROJECT_NAME)


def hookimpl_options(obj: object) -> dict[str, Any] | None:
    """The options ``obj`` was marked with by :data:`hookimpl` (or pluggy's marker for this
    project), or ``None`` if it is not a hook implementation."""
    opts = getattr(obj, PROJECT_NAME + "_impl", None)
    return opts if isinstance(opts, dict) else None


def __getattr__(name: str) -> pluggy.HookspecMarker:
    # ``hookspec``: pluggy's marker, made when a hookspec module first asks for it.
    if name == "hookspec":
        import pluggy

        marker = pluggy.HookspecMarker(PROJECT_NAME)
        globals()["hookspec"] = marker
        return marker
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
