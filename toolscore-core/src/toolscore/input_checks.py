"""Problems in the input that toolscore scores anyway, and tells the user about.

Arguments that arrived as text that is not JSON (a truncated stream, a model that wrote
prose) are scored as ``{}`` (OpenTelemetry spans: ``{"value": text}``; docs/compat.md says why),
and the extractor notes the decoder's error (``args_parse_error``) and the text
(``raw_arguments``) in the call's metadata, so nothing is scored silently. The CLI prints these
notes, and the fix list names them, so a low argument score is not a mystery.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toolscore.model import ToolCall

__all__ = ["ARGS_PARSE_ERROR", "argument_problem", "argument_problems"]

#: The metadata key under which extractors note why arguments could not be decoded.
ARGS_PARSE_ERROR = "args_parse_error"


def argument_problem(call: ToolCall) -> str | None:
    """Why ``call``'s arguments could not be decoded, or ``None`` when they were."""
    problem = call.metadata.get(ARGS_PARSE_ERROR)
    return str(problem) if problem else None


def argument_problems(calls: Sequence[ToolCall]) -> list[str]:
    """One line per call whose arguments could not be read, numbered from 1 as in reports."""
    return [
        f"call {number} ({call.tool}): arguments could not be read ({problem}); "
        + ("scored as the raw text" if call.args else "scored as no arguments")
        for number, call in enumerate(calls, 1)
        if (problem := argument_problem(call)) is not None
    ]
