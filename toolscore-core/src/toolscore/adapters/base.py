"""Compatibility path ``toolscore.adapters.base``: ``ToolCall`` lives in :mod:`toolscore.model`."""

from __future__ import annotations

from toolscore.model import ToolCall

__all__ = ["ToolCall"]
