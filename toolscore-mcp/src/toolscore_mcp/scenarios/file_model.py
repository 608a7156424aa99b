"""A loaded scenario file: each tool's plan (calls, setup, skip) and its expectation.

What :func:`toolscore_mcp.scenarios.file_reader.load_scenario_file` returns and the run
reads; :meth:`ResultExpectation.check` is called by the verdicts on every call of a tool
whose plan has an ``expect`` block.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs
from toolscore.matching.values import values_match

from toolscore_mcp.model import MCPToolResult, SetupCall

__all__ = ["EVIDENCE", "NOT_GIVEN", "ResultExpectation", "ScenarioFile", "ToolPlan"]


#: The value of ``scenario.evidence[arg]`` for arguments taken from a scenario file.
EVIDENCE: Final = "scenario-file"


_EXCERPT_MAX: Final = 120


class _NotGiven:
    """The type of :data:`NOT_GIVEN`: an expectation field the file left out."""

    _instance: _NotGiven | None = None

    def __new__(cls) -> _NotGiven:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NOT_GIVEN"

    def __bool__(self) -> bool:
        return False


#: Marks ``ResultExpectation.text`` / ``.structured`` when the file does not check them
#: (``None`` cannot: ``structured: null`` is a real expectation).
NOT_GIVEN: Final = _NotGiven()


def one_line_excerpt(text: str) -> str:
    """Whitespace collapsed and cut to a length that keeps an error message on one line."""
    collapsed = " ".join(text.split())
    if len(collapsed) <= _EXCERPT_MAX:
        return collapsed
    return collapsed[: _EXCERPT_MAX - 1] + "…"


def _short_repr(value: Any) -> str:
    """``repr`` of a value for a one-line message, cut like :func:`one_line_excerpt`."""
    return one_line_excerpt(repr(value))


@attrs.frozen
class ResultExpectation:
    """What every call of one tool must return, from the file's ``expect`` block.

    ``text`` and ``structured`` are already converted (matchers in place of their JSON
    forms), or :data:`NOT_GIVEN`; ``text_form`` / ``structured_form`` keep what the file
    said, for messages and for writing the file back. Equality compares what the file said
    (matchers compare equal to the values they accept, not to each other).
    """

    is_error: bool = False
    text: Any = attrs.field(default=NOT_GIVEN, eq=False)
    structured: Any = attrs.field(default=NOT_GIVEN, eq=False)
    text_form: Any = NOT_GIVEN
    structured_form: Any = NOT_GIVEN

    def check(self, result: MCPToolResult) -> str | None:
        """None when ``result`` meets the expectation, else the first problem as one line.

        Called by the verdicts for every call of a tool whose plan has an ``expect``.
        """
        if result.is_error != self.is_error:
            got = "true" if result.is_error else "false"
            want = "true" if self.is_error else "false"
            return f"expected isError {want}, got {got}: {one_line_excerpt(result.text)!r}"
        if self.text is not NOT_GIVEN and not values_match(self.text, result.text):
            return f"text does not match {_short_repr(self.text_form)}: got {one_line_excerpt(result.text)!r}"
        if self.structured is not NOT_GIVEN:
            return self._structured_problem(result)
        return None

    def _structured_problem(self, result: MCPToolResult) -> str | None:
        if "structuredContent" not in result.raw and result.structured is None:
            return (
                f"structuredContent does not match {_short_repr(self.structured_form)}: "
                "the result has none"
            )
        if values_match(self.structured, result.structured):
            return None
        return (
            f"structuredContent does not match {_short_repr(self.structured_form)}: "
            f"got {_short_repr(result.structured)}"
        )


@attrs.frozen
class ToolPlan:
    """What the file says about one tool: the calls to make, their setup, the expectation."""

    arguments: tuple[dict[str, Any], ...] = ({},)
    setup: tuple[SetupCall, ...] = ()
    expect: ResultExpectation | None = None
    #: Why the tool is not called; None when it is.
    skip: str | None = None


@attrs.frozen
class ScenarioFile:
    """A loaded scenario file: tool name -> plan, in file order."""

    tools: Mapping[str, ToolPlan]
    #: The file it came from (for messages).
    source: str

    @property
    def skipped(self) -> dict[str, str]:
        """Tool name -> reason, for the tools the file says not to call."""
        return {name: plan.skip for name, plan in self.tools.items() if plan.skip is not None}
