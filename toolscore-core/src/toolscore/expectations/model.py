"""The typed steps of a gold trajectory; a plain expected call is a :class:`ToolCall`.

JSON forms (in a gold file's ``calls`` array, or in the list given to ``evaluate()``)::

    {"tool": "search", "args": {...}}                      a call
    {"optional": {"tool": "log"}}                          may happen once, or not at all
    {"repeat": {"tool": "poll"}, "min": 1, "max": 3}       1 to 3 times (max absent: any)
    {"any_order": [{"tool": "a"}, {"tool": "b"}]}          all of these, in any order
    {"one_of": {"email": [...], "sms": [...]}}             one whole alternative (or a list
                                                           of alternatives, named "1", "2")
"""

from __future__ import annotations

import attrs

from toolscore.model import ToolCall

__all__ = ["AnyOrder", "OneOf", "OptionalStep", "Repeat", "Step"]


@attrs.frozen
class OptionalStep:
    """``step`` may be skipped."""

    step: Step


@attrs.frozen
class Repeat:
    """``step`` happens between ``min`` and ``max`` times (``max`` ``None``: no upper bound)."""

    step: Step
    min: int = 1
    max: int | None = None


@attrs.frozen
class AnyOrder:
    """Every step happens, in any order (parallel calls inside an ordered sequence)."""

    steps: tuple[Step, ...]


@attrs.frozen
class OneOf:
    """Exactly one alternative sequence happens; the best-scoring one counts."""

    names: tuple[str, ...]
    alternatives: tuple[tuple[Step, ...], ...]


Step = ToolCall | OptionalStep | Repeat | AnyOrder | OneOf
