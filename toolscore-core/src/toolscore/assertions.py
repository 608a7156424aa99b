"""Test helpers: ``assert_tools``, ``test_agent``, ``test_agent_async``, ``cases``.

Every threshold check in toolscore (these helpers, ``expect()``, snapshot replay) goes through
:func:`check_threshold`, which allows 1e-9 of float noise and, on failure, raises
:class:`ToolScoreAssertionError` whose text is the expected-vs-actual table, the score line and
tips. The text is plain, to read well inside a pytest report; when stderr is a
terminal a coloured copy is written there too. rich is imported only when a message is built.
"""

# test_agent* are public helpers named by the seed API, not pytest tests (hence __test__).
# ruff: noqa: PT028

from __future__ import annotations

import inspect
import io
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from toolscore.evaluation import evaluate

if TYPE_CHECKING:
    from rich.table import Table

    from toolscore.diff import DiffRow
    from toolscore.result import EvaluationResult

__all__ = [
    "THRESHOLD_EPSILON",
    "ToolScoreAssertionError",
    "assert_tools",
    "cases",
    "check_threshold",
    "failure_message",
    "test_agent",
    "test_agent_async",
    "validate_min_score",
]

#: Float noise forgiven by every threshold check: a perfect match passes ``min_score=1.0``.
THRESHOLD_EPSILON = 1e-9

#: Width of the rendered failure message.
MESSAGE_WIDTH = 100

_ASYNC_AGENT = "agent is async — use `await toolscore.test_agent_async(...)` instead."


class ToolScoreAssertionError(AssertionError):
    """The calls scored below the required minimum (or a forbidden call was made)."""


def validate_min_score(min_score: float) -> None:
    """``ValueError("min_score must be between 0.0 and 1.0, got X")`` outside [0, 1]."""
    if not (0.0 <= min_score <= 1.0):
        raise ValueError(f"min_score must be between 0.0 and 1.0, got {min_score}")


def check_threshold(
    result: EvaluationResult, min_score: float | None, *, strict: bool | None = None
) -> None:
    """Raise :class:`ToolScoreAssertionError` with the diff message if the score is too low.

    ``None`` skips the check. The score fails when ``score < max(0, min_score - 1e-9)``.
    ``strict`` is the comparison the evaluation used (default: ``result.strict`` if the result
    records it, else lenient), so the table flags exactly the arguments that were scored wrong.
    """
    if min_score is None:
        return
    validate_min_score(min_score)
    if result.score >= max(0.0, min_score - THRESHOLD_EPSILON):
        return
    message = failure_message(result, min_score, strict=strict)
    try:
        if sys.stderr.isatty():
            sys.stderr.write(failure_message(result, min_score, color=True, strict=strict))
    except Exception:  # a closed or odd stderr must not hide the assertion itself
        pass
    raise ToolScoreAssertionError(message)


# -- the failure message ---------------------------------------------------------------------

_ROW_STYLE = {
    "match": "green",
    "mismatch": "yellow",
    "wrong_tool": "yellow",
    "missing": "red",
    "extra": "red",
}


def _table(rows: Sequence[DiffRow]) -> Table:
    from rich.table import Table
    from rich.text import Text

    from toolscore.diff import format_call
    from toolscore.terminal_text import shown

    table = Table(
        title="Expected vs Actual Tool Calls",
        show_header=True,
        header_style="bold",
        show_lines=True,
        expand=False,
    )
    table.add_column("#", justify="right", no_wrap=True, min_width=3)
    table.add_column("Expected", no_wrap=False, min_width=20)
    table.add_column("Actual", no_wrap=False, min_width=20)
    table.add_column("Status", no_wrap=False, min_width=12)
    for row in rows:
        style = _ROW_STYLE[row.status]
        expected = (
            Text(shown(format_call(row.expected), one_line=True))
            if row.expected
            else Text("— EXTRA —", style="red")
        )
        actual = (
            Text(shown(format_call(row.actual), one_line=True))
            if row.actual
            else Text("— MISSING —", style="red")
        )
        if row.status == "missing":
            status = Text("MISSING", style="red")
        elif row.status == "extra":
            status = Text("EXTRA", style="red")
        elif row.problems:
            status = Text("\n".join(shown(p, one_line=True) for p in row.problems), style="yellow")
        else:
            status = Text("✓", style="green")
        table.add_row(str(row.number), expected, actual, status, style=style)
    return table


def failure_message(
    result: EvaluationResult,
    min_score: float,
    *,
    color: bool = False,
    width: int = MESSAGE_WIDTH,
    strict: bool | None = None,
    score_passed: bool = False,
) -> str:
    """The expected-vs-actual table, the score line and tips, as rendered text.

    ``color=True`` keeps ANSI styles (for a terminal); the default is plain text. ``strict``
    as in :func:`check_threshold`. ``score_passed=True`` words the score line as met
    (``score 0.95 ≥ 0.90 required``), for a run that failed for another reason.
    """
    from rich.console import Console

    from toolscore.diff import diff_rows, tips

    console = Console(
        file=io.StringIO(),
        record=True,
        width=width,
        force_terminal=color,
        color_system="standard" if color else None,
        highlight=False,
    )
    if strict is None:
        strict = bool(getattr(result, "strict", False))
    console.print(_table(diff_rows(result.gold_calls, result.trace_calls, strict=strict)))
    relation = "≥" if score_passed else "<"
    console.print(
        f"score {result.score:.2f} {relation} {min_score:.2f} required"
        f"  ·  selection {result.selection_accuracy:.2f}"
        f"  ·  args {result.argument_f1:.2f}"
        f"  ·  sequence {result.sequence_accuracy:.2f}",
        markup=False,
    )
    advice = tips(result)
    if advice:
        console.print("")
        console.print("Tips:")
        for tip in advice:
            console.print(f"  • {tip}", markup=False)
    return console.export_text(styles=color)


# -- the helpers -----------------------------------------------------------------------------


def assert_tools(
    expected: list[dict[str, Any]],
    actual: Any,
    min_score: float = 0.9,
    weights: dict[str, float] | None = None,
    strict: bool = False,
) -> EvaluationResult:
    """Evaluate ``actual`` against ``expected`` and fail below ``min_score``.

    :raises ValueError: ``min_score`` outside [0, 1] (checked before evaluating).
    :raises ToolScoreAssertionError: the score is below ``min_score``; the message shows the
        expected-vs-actual table, the score line and tips.
    """
    validate_min_score(min_score)
    result = evaluate(expected, actual, weights=weights, strict=strict)
    check_threshold(result, min_score, strict=strict)
    return result


def test_agent(
    agent: Callable[..., Any],
    input: str,
    expected: list[dict[str, Any]],
    min_score: float | None = None,
    weights: dict[str, float] | None = None,
    strict: bool = False,
) -> EvaluationResult:
    """Run ``agent(input)``, extract its tool calls and evaluate them against ``expected``.

    The agent must be synchronous; use :func:`test_agent_async` for async agents.

    :raises TypeError: the agent is async or returns an awaitable.
    :raises ValueError: ``min_score`` outside [0, 1] (checked before the agent runs).
    :raises ToolScoreAssertionError: ``min_score`` is set and the score is below it.
    """
    if min_score is not None:
        validate_min_score(min_score)
    if inspect.iscoroutinefunction(agent):
        raise TypeError(_ASYNC_AGENT)
    response = agent(input)
    if inspect.isawaitable(response):
        if inspect.iscoroutine(response):
            response.close()
        raise TypeError(_ASYNC_AGENT)
    result = evaluate(expected, response, weights=weights, strict=strict)
    check_threshold(result, min_score, strict=strict)
    return result


test_agent.__test__ = False  # type: ignore[attr-defined]


async def test_agent_async(
    agent: Callable[..., Any],
    input: str,
    expected: list[dict[str, Any]],
    min_score: float | None = None,
    weights: dict[str, float] | None = None,
    strict: bool = False,
) -> EvaluationResult:
    """Like :func:`test_agent`, for sync or async agents: an awaitable response is awaited.

    :raises ValueError: ``min_score`` outside [0, 1] (checked before the agent runs).
    :raises ToolScoreAssertionError: ``min_score`` is set and the score is below it.
    """
    if min_score is not None:
        validate_min_score(min_score)
    response = agent(input)
    if inspect.isawaitable(response):
        response = await response
    result = evaluate(expected, response, weights=weights, strict=strict)
    check_threshold(result, min_score, strict=strict)
    return result


test_agent_async.__test__ = False  # type: ignore[attr-defined]


def cases(test_cases: list[dict[str, Any]], id_key: str = "input") -> Any:
    """``pytest.mark.parametrize`` over a list of case dicts.

    Parameter names are the keys of the first case, in order; each case supplies those keys
    (a later case missing one raises KeyError). Test ids are ``str(case.get(id_key, index))``.
    """
    import pytest

    names = list(test_cases[0].keys())
    return pytest.mark.parametrize(
        names,
        [tuple(case[name] for name in names) for case in test_cases],
        ids=[str(case.get(id_key, index)) for index, case in enumerate(test_cases)],
    )
