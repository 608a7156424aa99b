"""What every metric receives: the calls, the options, and the one shared alignment."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Literal

import attrs

if TYPE_CHECKING:
    from toolscore.matching.alignment import Alignment
    from toolscore.model import ToolCall


class _NotApplicable:
    """Returned by a metric that does not apply to this evaluation; the key is left out."""

    _instance: _NotApplicable | None = None

    def __new__(cls) -> _NotApplicable:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NOT_APPLICABLE"


NOT_APPLICABLE: Final = _NotApplicable()


@attrs.frozen
class EvaluationContext:
    """Inputs of one evaluation, handed to every metric.

    ``alignment`` pairs expected with actual calls one-to-one per tool name; it is computed
    once by the evaluator, and no metric re-pairs on its own.
    """

    expected: Sequence[ToolCall]
    actual: Sequence[ToolCall]
    alignment: Alignment
    #: Strict argument comparison (types must match exactly).
    strict: bool = False
    #: Validated forbidden-call rules, or ``None`` when none were given.
    forbidden: Sequence[Mapping[str, Any]] | None = None
    #: ``"evaluate"`` for in-memory calls, ``"trace"`` for ``evaluate_trace`` (files).
    mode: Literal["evaluate", "trace"] = "evaluate"
    #: ``evaluate_trace(validate_side_effects=...)``.
    validate_side_effects: bool = False
    #: Extra options for third-party metrics (``toolscore eval --option k=v`` and the API).
    options: Mapping[str, Any] = attrs.field(factory=dict)
