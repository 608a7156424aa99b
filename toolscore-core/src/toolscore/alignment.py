"""Compatibility path ``toolscore.alignment``: the pairing lives in :mod:`toolscore.matching.alignment`."""

from __future__ import annotations

from toolscore.matching.alignment import Alignment, align

__all__ = ["Alignment", "align"]
