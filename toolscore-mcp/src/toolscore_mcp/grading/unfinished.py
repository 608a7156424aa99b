"""Answers that say the tool was never finished: "not implemented", "a placeholder for future
enhancement", "coming soon".

Such an answer often looks like success (a message, the echoed arguments, ``isError``
false), yet the tool did nothing. Whatever input it was given, it would do nothing, so the
failure is the server's (a defect), not our input's and not the machine's. An answer that
says the feature is missing only *on this platform* ("not implemented for linux") is a
missing program's and is read by :func:`toolscore_mcp.grading.classify.environment_need`
first.
"""

from __future__ import annotations

import re

from toolscore.lazy_pattern import lazy_pattern

__all__ = ["says_unfinished"]

#: Answers longer than this are data (a file, a listing) that may quote such words. "Not yet
#: supported" / "not yet available" are left out: they are said of one input value or of data
#: not ready yet, which is our input or state, not an unfinished tool.
_SHORT = 1200
_UNFINISHED = lazy_pattern(
    r"\bnot (?:yet )?implemented\b(?! (?:for|on|in) )|\bunimplemented\b"
    r"|\bplaceholder (?:for|until) (?:a )?(?:future|later|real)\b"
    r"|\b(?:is|as) a (?:stub|placeholder)\b|\bcoming soon\b"
    r"|\btodo:? implement",
    re.IGNORECASE,
)


def says_unfinished(text: str) -> bool:
    """Does a short answer say the tool (or the operation asked for) is not implemented?"""
    return len(text) <= _SHORT and _UNFINISHED.search(text) is not None
