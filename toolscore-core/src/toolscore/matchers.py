"""Compatibility path ``toolscore.matchers``: the matchers live in :mod:`toolscore.matching.matchers`."""

from __future__ import annotations

from toolscore.matching.matchers import (
    ANY,
    Approx,
    Contains,
    IsType,
    Matcher,
    OneOf,
    Regex,
    SearchRegex,
    builtin_json_forms,
    matcher_from_json,
    matcher_to_json,
)

__all__ = [
    "ANY",
    "Approx",
    "Contains",
    "IsType",
    "Matcher",
    "OneOf",
    "Regex",
    "SearchRegex",
    "builtin_json_forms",
    "matcher_from_json",
    "matcher_to_json",
]
