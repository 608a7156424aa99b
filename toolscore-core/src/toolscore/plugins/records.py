"""What the host remembers about each plugin it tried to load."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

import attrs

Status = Literal["active", "builtin", "disabled", "failed"]


@attrs.frozen
class PluginRecord:
    """One plugin as ``toolscore plugins list`` shows it.

    ``provides`` maps a kind ("metrics", "extractors", ...) to the names registered.
    """

    #: Registration name: the entry-point name, or ``toolscore.builtin.<x>`` for built-ins.
    name: str
    #: Distribution that ships it (``toolscore-core`` for built-ins).
    distribution: str
    version: str
    status: Status
    #: ``module:attr`` value of the entry point, or the built-in module name.
    entry_point: str = ""
    #: File the plugin module was loaded from, when known.
    location: str = ""
    hooks: tuple[str, ...] = ()
    provides: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    #: First line of the error for failed plugins.
    error: str = ""
    #: Full traceback text for failed plugins (shown with ``-v``).
    traceback: str = ""

    @property
    def builtin(self) -> bool:
        return self.status == "builtin"
