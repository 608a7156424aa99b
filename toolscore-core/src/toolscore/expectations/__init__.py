"""Gold expectations beyond a flat list: optional calls, counts, unordered groups, alternatives.

Why: a real task often allows several right answers — a lookup the agent may skip, a retry
that may happen up to three times, two calls made in parallel in either order, or two whole
ways of doing the job. These are written in the gold (Python or JSON, see docs/matching.md)
and *expanded* into flat lists of expected calls before scoring; the flat list that scores
best against the actual calls is the one scored, so every metric keeps its plain
definition. ``metrics["expectations"]`` says which choices were made.
"""

from __future__ import annotations

from toolscore.expectations.expand import best_expansion, expansions
from toolscore.expectations.model import AnyOrder, OneOf, OptionalStep, Repeat, Step
from toolscore.expectations.parse import is_structured, parse_steps

__all__ = [
    "AnyOrder",
    "OneOf",
    "OptionalStep",
    "Repeat",
    "Step",
    "best_expansion",
    "expansions",
    "is_structured",
    "parse_steps",
]
