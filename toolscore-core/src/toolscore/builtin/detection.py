"""Format detection by confidence: every extractor rates the whole payload, the highest wins.

This module is core's ``trylast`` implementation of ``toolscore_detect_format``: a plugin that
implements the hook itself answers first, and this one decides only when nobody else did.

* Each registered extractor rates the payload from 0.0 (not mine) to 1.0 (certainly mine). An
  extractor whose ``confidence`` raises counts as 0.0: one broken plugin must not stop
  detection.
* The highest positive rating wins. Two or more extractors sharing the top rating is an
  :class:`AmbiguousFormatError` naming them: reading the payload with either could be wrong,
  and a silently wrong choice is worse than asking for ``format=``.
* Nothing positive: the hook returns ``None`` and the caller raises its own error (TypeError for
  in-memory objects, InputError for files) listing :func:`known_formats`.

The hook receives the plugin manager that asked, so it rates against that manager's
extractors (a test's fresh manager, or the CLI's with ``--disable-plugin`` applied). The
rating itself lives in :mod:`toolscore.extraction` with the rest of the extraction path; the
names it had here are re-exported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolscore._markers import hookimpl
from toolscore.extraction import (
    AmbiguousFormatError,
    choose_format,
    detect,
    extractor_for,
    known_formats,
    rank_formats,
)

if TYPE_CHECKING:
    from toolscore.plugins.manager import ToolscorePluginManager

__all__ = [
    "AmbiguousFormatError",
    "detect",
    "extractor_for",
    "known_formats",
    "rank_formats",
    "toolscore_detect_format",
]


@hookimpl(trylast=True)
def toolscore_detect_format(payload: Any, plugin_manager: ToolscorePluginManager) -> str | None:
    """Core's fallback detector: the most confident registered extractor, or ``None``."""
    return choose_format(payload, plugin_manager.get_extractors())
