"""The one extractor class: serves any format module of this distribution to toolscore.

A format module (``openai.py``, ``gemini.py``, ...) holds only what is specific to its
format: ``FORMAT`` (its name), ``confidence(payload)`` and ``extract(payload)``. The
plumbing every format needs is here, once: the :class:`toolscore.protocols.Extractor`
shape, malformed items reported with their JSON path (:func:`~._common.located`), and
``rate(probe)``, the fast path of detection: every format rates the payload against the one
description of its messages that the first format to need it computed.
``plugin.py`` builds one adapter per format the first time toolscore needs that format.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from toolscore.model import ToolCall

from toolscore_providers import _shapes
from toolscore_providers._common import located

__all__ = ["FormatAdapter", "FormatModule"]


class FormatModule(Protocol):
    """What a format module defines."""

    FORMAT: str
    DETECTION_KEYS: frozenset[str]

    def confidence(self, payload: Any) -> float: ...

    def extract(self, payload: Any) -> list[ToolCall]: ...


class FormatAdapter:
    """A format module as a toolscore extractor."""

    __slots__ = ("confidence", "detection_keys", "extract", "name")

    def __init__(self, module: FormatModule) -> None:
        self.name: str = module.FORMAT
        self.detection_keys: frozenset[str] = module.DETECTION_KEYS
        self.confidence: Callable[[Any], float] = module.confidence
        self.extract: Callable[[Any], list[ToolCall]] = located(module.extract)

    def rate(self, probe: Any) -> float:
        """``confidence(probe.payload)``, with the descriptions of messages that the other
        formats of this detection already computed (``probe.memo``, see ``_shapes.described``)."""
        token = _shapes.MEMO.set(probe.memo)
        try:
            return self.confidence(probe.payload)
        finally:
            _shapes.MEMO.reset(token)

    def extract_probed(self, probe: Any) -> list[ToolCall]:
        """``extract(probe.payload)`` right after the payload's detection, with its memo: a
        format may then skip what the detection already checked (``_shapes.plain_roles``)."""
        token = _shapes.MEMO.set(probe.memo)
        try:
            return self.extract(probe.payload)
        finally:
            _shapes.MEMO.reset(token)

    def __repr__(self) -> str:
        return f"FormatAdapter({self.name!r})"
