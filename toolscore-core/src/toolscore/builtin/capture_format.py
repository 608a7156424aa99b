"""The ``capture`` trace format: files written by :class:`toolscore.capture.TraceCapture`.

A capture file is ``{"id", "name", "timestamp", "tools": [...], "metadata"}``. Its calls are
the entries of ``tools`` (the capture itself is not a call), so
``toolscore eval gold.json traces/agent_20260115_103000.json`` works.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolscore._markers import hookimpl
from toolscore.model import ToolCall
from toolscore.specs import ExtractorSpec

__all__ = ["CaptureExtractor"]


class CaptureExtractor:
    """Reads the ``tools`` list of a capture file."""

    #: A capture file has every capture key, ``tools`` among them (see ``Extractor``).
    detection_keys = frozenset({"tools"})

    def confidence(self, payload: Any) -> float:
        """0.95 for the capture shape (every capture key present and ``tools`` a list), else 0."""
        from toolscore.capture import is_capture_payload

        return 0.95 if is_capture_payload(payload) else 0.0

    def extract(self, payload: Any) -> list[ToolCall]:
        from toolscore.capture import calls_from_capture

        return calls_from_capture(payload)


@hookimpl
def toolscore_register_extractors() -> Iterator[ExtractorSpec]:
    yield ExtractorSpec(
        name="capture",
        factory=CaptureExtractor,
        summary="TraceCapture files: {id, name, timestamp, tools: [...]}",
        aliases=("trace-capture",),
    )
