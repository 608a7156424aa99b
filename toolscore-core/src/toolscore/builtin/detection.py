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
extractors (a test's fresh manager, or the CLI's with ``--disable-plugin`` applied).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from toolscore._markers import hookimpl
from toolscore.errors import ToolscoreError

if TYPE_CHECKING:
    from toolscore.plugins.manager import ToolscorePluginManager
    from toolscore.plugins.registry import Registry
    from toolscore.protocols import Extractor
    from toolscore.specs import ExtractorSpec

__all__ = [
    "AmbiguousFormatError",
    "detect",
    "extractor_for",
    "known_formats",
    "rank_formats",
    "toolscore_detect_format",
]


class AmbiguousFormatError(ToolscoreError, ValueError):
    """Several extractors claim a payload equally; ``candidates`` names them."""

    def __init__(self, candidates: tuple[str, ...], confidence: float) -> None:
        self.candidates = candidates
        self.confidence = confidence
        names = ", ".join(candidates)
        super().__init__(
            f"ambiguous trace format: {names} all read it with confidence {confidence:g}; "
            f"pass format= (or --format) with one of them"
        )


#: Extractor instances, built once per registry (so per plugin manager).
_INSTANCES: weakref.WeakKeyDictionary[Registry[ExtractorSpec], dict[str, Extractor]] = (
    weakref.WeakKeyDictionary()
)


def extractor_for(registry: Registry[ExtractorSpec], name: str) -> Extractor:
    """The (cached) extractor instance registered as ``name`` in ``registry``."""
    cache = _INSTANCES.setdefault(registry, {})
    extractor = cache.get(name)
    if extractor is None:
        extractor = registry[name].factory()
        cache[name] = extractor
    return extractor


def known_formats(registry: Registry[ExtractorSpec]) -> list[str]:
    """Format names to list in messages: every registered extractor, sorted."""
    return registry.names()


def rank_formats(payload: Any, registry: Registry[ExtractorSpec]) -> list[tuple[float, str]]:
    """Every extractor's positive confidence for ``payload``, best first (ties by name)."""
    ranked: list[tuple[float, str]] = []
    for name in registry.names():
        try:
            score = float(extractor_for(registry, name).confidence(payload))
        except Exception:  # a plugin's rating must never break detection
            continue
        if score > 0.0:
            ranked.append((min(score, 1.0), name))
    ranked.sort(key=lambda pair: (-pair[0], pair[1]))
    return ranked


def choose_format(payload: Any, registry: Registry[ExtractorSpec]) -> str | None:
    """The single best extractor for ``payload``; ``None`` when nothing recognises it."""
    ranked = rank_formats(payload, registry)
    if not ranked:
        return None
    best = ranked[0][0]
    top = tuple(name for score, name in ranked if score == best)
    if len(top) > 1:
        raise AmbiguousFormatError(top, best)
    return top[0]


def detect(payload: Any, plugin_manager: ToolscorePluginManager | None = None) -> str | None:
    """Ask ``plugin_manager`` (default: the process-wide one) which extractor reads ``payload``."""
    if plugin_manager is None:
        from toolscore.plugins import get_plugin_manager

        plugin_manager = get_plugin_manager()
    return plugin_manager.detect_format(payload)


@hookimpl(trylast=True)
def toolscore_detect_format(payload: Any, plugin_manager: ToolscorePluginManager) -> str | None:
    """Core's fallback detector: the most confident registered extractor, or ``None``."""
    return choose_format(payload, plugin_manager.get_extractors())
