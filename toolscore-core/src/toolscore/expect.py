"""The fluent assertion API: ``expect(agent).on(prompt).calls(...).run()``.

The subject is either an agent callable (give it a prompt with :meth:`Expectation.on`) or a
response the agent already produced (a raw provider response or a list of call dicts)::

    from toolscore import expect, ANY, Regex

    expect(agent).on("book me a flight to NYC") \\
        .calls("search_flights", origin=ANY, destination="NYC") \\
        .then_calls("book_flight", flight_id=Regex(r"FL-\\d+")) \\
        .does_not_call("cancel_booking") \\
        .with_score(0.9) \\
        .run()
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any

from toolscore.assertions import (
    THRESHOLD_EPSILON,
    ToolScoreAssertionError,
    check_threshold,
    failure_message,
    validate_min_score,
)
from toolscore.evaluation import evaluate
from toolscore.integrations import extract_calls

if TYPE_CHECKING:
    from toolscore.model import ToolCall
    from toolscore.result import EvaluationResult

__all__ = ["Expectation", "expect"]

_NO_EXPECTATIONS = (
    "no expectations declared — call .calls(), .then_calls(), or .does_not_call() before .{run}()."
)
_NO_PROMPT = (
    "expect() was given a callable subject but no prompt was set. Call .on(prompt) before .{run}()."
)
_PROMPT_FOR_RESULT = (
    "expect() was given a non-callable subject (a raw result or list), but .on(prompt) was "
    "also called.  Use .on() only when the subject is an agent callable."
)
_ASYNC_FUNCTION = "subject is an async function — use `expect(...).run_async()` instead."
_ASYNC_RESULT = "subject is async — use `expect(...).run_async()` instead."


class Expectation:
    """A fluent builder of tool-call expectations; make one with :func:`expect`.

    Every chain method returns the same object, so the calls read as one sentence.
    """

    def __init__(self, subject: Any) -> None:
        self._subject = subject
        self._prompt: str | None = None
        self._expected: list[dict[str, Any]] = []
        self._forbidden: list[dict[str, Any]] = []
        self._min_score = 0.9
        self._weights: dict[str, float] | None = None
        self._strict = False
        # .calls(tool, **args) means "at least these arguments" (docs/matching.md).
        self._match: dict[str, Any] = {"mode": "strict", "args": "superset", "args_overrides": {}}

    # -- building ----------------------------------------------------------------------------

    def on(self, prompt: str) -> Expectation:
        """The prompt passed to a callable subject (required for callables, refused otherwise)."""
        self._prompt = prompt
        return self

    def calls(self, tool: str, **args: Any) -> Expectation:
        """Expect a call to ``tool`` with at least these arguments (matchers allowed).

        Extra arguments the agent adds are accepted (plain ``evaluate()`` scoring lowers
        argument precision for them); :meth:`with_exact_args` restores that. Without keyword
        arguments the arguments are not checked at all. "Exactly zero arguments" cannot be said
        fluently; use ``evaluate([{"tool": t, "args": {}}], ...)``.
        """
        entry: dict[str, Any] = {"tool": tool}
        if args:
            entry["args"] = dict(args)
        self._expected.append(entry)
        return self

    def then_calls(self, tool: str, **args: Any) -> Expectation:
        """The same as :meth:`calls`; reads naturally for the second and later calls."""
        return self.calls(tool, **args)

    def does_not_call(self, tool: str, **args: Any) -> Expectation:
        """Forbid calls to ``tool``, or only those whose listed arguments all match."""
        self._forbidden.append({"tool": tool, "args": dict(args) if args else None})
        return self

    def with_score(self, min_score: float) -> Expectation:
        """The minimum composite score (default 0.9); checked against [0, 1] at run time."""
        self._min_score = min_score
        return self

    def with_weights(self, **weights: float) -> Expectation:
        """Composite-score weights, merged with the defaults and renormalised."""
        self._weights = weights
        return self

    def with_strict_args(self) -> Expectation:
        """Compare arguments strictly (no int/float coercion, no string strip)."""
        self._strict = True
        return self

    def with_exact_args(self) -> Expectation:
        """Expected calls list *all* the arguments: extra ones count against the score."""
        self._match["args"] = "exact"
        return self

    def in_any_order(self) -> Expectation:
        """The expected calls may happen in any order (the same calls, no more, no fewer)."""
        self._match["mode"] = "unordered"
        return self

    def allowing_extra_calls(self) -> Expectation:
        """Calls beyond the expected ones are fine, in any order (``superset`` mode)."""
        self._match["mode"] = "superset"
        return self

    def matching(
        self,
        mode: str | None = None,
        args: Any = None,
        args_overrides: dict[str, Any] | None = None,
    ) -> Expectation:
        """Set the match mode and argument policies, as ``match_trajectory`` takes them.

        ``args_overrides`` is merged into those already set, tool by tool.
        """
        from toolscore.matching.trajectory import MatchSpec

        if mode is not None:
            self._match["mode"] = mode
        if args is not None:
            self._match["args"] = args
        if args_overrides:
            self._match["args_overrides"] = {**self._match["args_overrides"], **args_overrides}
        MatchSpec.coerce(self._match)  # fail here, at the line that set a bad value
        return self

    # -- running -----------------------------------------------------------------------------

    def _check_declared(self, run: str) -> None:
        if not self._expected and not self._forbidden:
            raise ValueError(_NO_EXPECTATIONS.format(run=run))

    def _is_agent(self) -> bool:
        return callable(self._subject) and not isinstance(self._subject, (list, dict))

    def _call_sync(self) -> Any:
        if not self._is_agent():
            if self._prompt is not None:
                raise TypeError(_PROMPT_FOR_RESULT)
            return self._subject
        if self._prompt is None:
            raise ValueError(_NO_PROMPT.format(run="run"))
        if inspect.iscoroutinefunction(self._subject):
            raise TypeError(_ASYNC_FUNCTION)
        response = self._subject(self._prompt)
        if inspect.isawaitable(response):
            if inspect.iscoroutine(response):
                response.close()
            raise TypeError(_ASYNC_RESULT)
        return response

    async def _call_async(self) -> Any:
        if not self._is_agent():
            if self._prompt is not None:
                raise TypeError(_PROMPT_FOR_RESULT)
            return self._subject
        if self._prompt is None:
            raise ValueError(_NO_PROMPT.format(run="run_async"))
        response = self._subject(self._prompt)
        if inspect.isawaitable(response):
            response = await response
        return response

    def _forbidden_problem(self, actual: list[ToolCall]) -> str | None:
        """The forbidden calls made, as the first part of the failure message (or None)."""
        if not self._forbidden:
            return None
        from toolscore.metrics.policy import check_forbidden_calls

        report = check_forbidden_calls(actual, self._forbidden)
        offending = [actual[v["index"]] for v in report["violations"]]
        if not offending:
            return None
        names = ", ".join(dict.fromkeys(repr(call.tool) for call in offending))
        details = "; ".join(f"{call.tool}({dict(call.actual_args)})" for call in offending)
        return (
            f"Forbidden tool(s) were called: {names}\n"
            f"Forbidden calls: {details}\n"
            f"Actual calls: {[call.tool for call in actual]}"
        )

    def _finish(self, response: Any) -> EvaluationResult:
        """Evaluate, then fail with every problem of the run in one message.

        A forbidden call does not hide the score check: the message lists the forbidden calls
        first, then the expected-vs-actual table (wrong arguments, missing and extra calls)
        whenever the score is too low or some expected call differs.
        """
        actual = extract_calls(response)
        forbidden = self._forbidden_problem(actual)
        if not self._expected:
            if forbidden:
                raise ToolScoreAssertionError(forbidden)
            return evaluate([], actual)
        validate_min_score(self._min_score)
        result = evaluate(
            self._expected, actual, weights=self._weights, strict=self._strict, match=self._match
        )
        if forbidden is None:
            check_threshold(result, self._min_score, strict=self._strict)
            return result
        problems = [forbidden]
        too_low = result.score < max(0.0, self._min_score - THRESHOLD_EPSILON)
        if too_low or _differs(result, strict=self._strict):
            problems.append(
                failure_message(
                    result, self._min_score, strict=self._strict, score_passed=not too_low
                ).rstrip("\n")
            )
        raise ToolScoreAssertionError("\n\n".join(problems))

    def run(self) -> EvaluationResult:
        """Check the expectations now (sync subjects only).

        :raises ValueError: nothing declared, or a callable subject without a prompt.
        :raises TypeError: a prompt for a non-callable subject, or an async subject.
        :raises ToolScoreAssertionError: a forbidden call was made, or the score is too low;
            the message lists every problem of the run.
        """
        self._check_declared("run")
        return self._finish(self._call_sync())

    async def run_async(self) -> EvaluationResult:
        """Check the expectations, awaiting the agent's response if it is awaitable."""
        self._check_declared("run_async")
        return self._finish(await self._call_async())


def _differs(result: EvaluationResult, *, strict: bool) -> bool:
    """True when some expected call is missing, another tool, or has wrong arguments."""
    from toolscore.diff import diff_rows

    rows = diff_rows(result.gold_calls, result.trace_calls, strict=strict)
    return any(row.status in ("missing", "wrong_tool", "mismatch") for row in rows)


def expect(subject: Any) -> Expectation:
    """Start a fluent expectation about an agent callable or an already-produced response."""
    return Expectation(subject)
