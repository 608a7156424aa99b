"""The project name and the pluggy markers made from it.

Kept free of other imports so that plugins can import :data:`hookimpl` cheaply.
"""

from __future__ import annotations

import pluggy

PROJECT_NAME = "toolscore"

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)
