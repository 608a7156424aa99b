"""Import the parts of the official ``mcp`` SDK the client needs, and only those.

``import mcp.client.session`` first runs ``mcp/__init__.py`` and ``mcp/client/__init__.py``,
which import the whole SDK, server side included (uvicorn, starlette, ...): about 1.8 s on a
small machine, more than ``toolscore demo`` may take end to end. When those packages are not
imported yet, they are entered as *lazy* package modules: submodules import normally, and the
first attribute read that needs the real ``__init__`` (``from mcp import Client``) runs it
then. Code that uses the SDK's own top-level names therefore keeps working.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from typing import Any

_LAZY_PACKAGES = ("mcp", "mcp.client")


class _LazyPackage(types.ModuleType):
    """A package whose ``__init__`` runs on the first attribute it does not have yet."""

    def __getattr__(self, name: str) -> Any:
        state = self.__dict__
        if name.startswith("__") or state.get("_toolscore_initialised"):
            raise AttributeError(name)
        state["_toolscore_initialised"] = True
        spec = state["__spec__"]
        spec.loader.exec_module(self)
        return object.__getattribute__(self, name)


def _enter_lazily(name: str) -> None:
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return
    module = _LazyPackage(name)
    module.__spec__ = spec
    module.__path__ = list(spec.submodule_search_locations)
    module.__file__ = spec.origin
    module.__package__ = name
    module.__loader__ = spec.loader
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)


def load_client_modules() -> None:
    """Import the SDK's client session and stdio transport, cheaply.

    The same on both majors: in 1.x as in 2.x the heavy imports sit in the two package
    ``__init__`` files, and the session module brings what it runs on (2.x's dispatcher).
    """
    for name in _LAZY_PACKAGES:
        _enter_lazily(name)
    import mcp.client.session
    import mcp.client.stdio  # noqa: F401
