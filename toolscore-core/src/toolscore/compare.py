"""Compatibility path ``toolscore.compare``: the comparison lives in :mod:`toolscore.matching.values`."""

from __future__ import annotations

from toolscore.matching.values import (
    NO_KEY,
    count_correct,
    key_function,
    lenient_key,
    match_key,
    values_match,
)

__all__ = ["NO_KEY", "count_correct", "key_function", "lenient_key", "match_key", "values_match"]
