"""Kept so ``from toolscore.compare import values_match`` (used by plugins) keeps working.

The comparison of expected and actual argument values lives in :mod:`toolscore.value_match`.
"""

from __future__ import annotations

from toolscore.value_match import (
    NO_KEY,
    count_correct,
    key_function,
    lenient_key,
    match_key,
    values_match,
)

__all__ = ["NO_KEY", "count_correct", "key_function", "lenient_key", "match_key", "values_match"]
