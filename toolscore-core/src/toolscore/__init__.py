"""toolscore: deterministic, offline tests for LLM tool-calling.

Check that an agent calls the right tools, with the right arguments, in the right order::

    import toolscore
    result = toolscore.evaluate(expected=[{"tool": "search", "args": {"q": "x"}}], actual=calls)
    assert result.score >= 0.9

Importing this package is cheap: every public name is resolved on first use, and no plugin,
``rich`` or ``click`` is imported until something needs it.
"""

from __future__ import annotations

import sys
import types
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from toolscore._markers import hookimpl, hookspec
    from toolscore.assertions import (
        ToolScoreAssertionError,
        assert_tools,
        cases,
        test_agent,
        test_agent_async,
    )
    from toolscore.capture import TraceCapture, capture_trace
    from toolscore.diff import FixSuggestion
    from toolscore.evaluation import evaluate, evaluate_trace
    from toolscore.expect import Expectation, expect
    from toolscore.integrations import (
        auto_extract,
        from_anthropic,
        from_claude_agent_sdk,
        from_crewai,
        from_gemini,
        from_langgraph,
        from_openai,
        from_openai_agents,
        from_otel,
        from_pydantic_ai,
    )
    from toolscore.loading import load_gold_standard, load_trace
    from toolscore.matching import MatchSpec, TrajectoryMatch, match_trajectory
    from toolscore.matching.matchers import ANY, Approx, Contains, IsType, Matcher, OneOf, Regex
    from toolscore.model import ToolCall
    from toolscore.result import EvaluationResult, letter_grade
    from toolscore.runs import RunsResult, evaluate_runs
    from toolscore.snapshots import Snapshot, SnapshotStore, snapshot_check
    from toolscore.turns import TurnsResult, evaluate_turns

#: Public name -> module that defines it. Resolved lazily by ``__getattr__``.
_LAZY: dict[str, str] = {
    # the pluggy markers: pluggy is imported when a plugin (or the plugin manager) needs it
    "hookimpl": "toolscore._markers",
    "hookspec": "toolscore._markers",
    "evaluate": "toolscore.evaluation",
    "evaluate_trace": "toolscore.evaluation",
    "assert_tools": "toolscore.assertions",
    "test_agent": "toolscore.assertions",
    "test_agent_async": "toolscore.assertions",
    "ToolScoreAssertionError": "toolscore.assertions",
    "cases": "toolscore.assertions",
    "expect": "toolscore.expect",
    "Expectation": "toolscore.expect",
    "ANY": "toolscore.matching.matchers",
    "Regex": "toolscore.matching.matchers",
    "Approx": "toolscore.matching.matchers",
    "Contains": "toolscore.matching.matchers",
    "OneOf": "toolscore.matching.matchers",
    "IsType": "toolscore.matching.matchers",
    "Matcher": "toolscore.matching.matchers",
    "auto_extract": "toolscore.integrations",
    "from_openai": "toolscore.integrations",
    "from_anthropic": "toolscore.integrations",
    "from_gemini": "toolscore.integrations",
    "from_langgraph": "toolscore.integrations",
    "from_pydantic_ai": "toolscore.integrations",
    "from_openai_agents": "toolscore.integrations",
    "from_claude_agent_sdk": "toolscore.integrations",
    "from_crewai": "toolscore.integrations",
    "from_otel": "toolscore.integrations",
    "JudgeConfig": "toolscore.integrations",
    "Snapshot": "toolscore.snapshots",
    "SnapshotStore": "toolscore.snapshots",
    "snapshot_check": "toolscore.snapshots",
    "TraceCapture": "toolscore.capture",
    "capture_trace": "toolscore.capture",
    "letter_grade": "toolscore.result",
    "EvaluationResult": "toolscore.result",
    "FixSuggestion": "toolscore.diff",
    "load_gold_standard": "toolscore.loading",
    "load_trace": "toolscore.loading",
    "ToolCall": "toolscore.model",
    "match_trajectory": "toolscore.matching",
    "MatchSpec": "toolscore.matching",
    "TrajectoryMatch": "toolscore.matching",
    "evaluate_runs": "toolscore.runs",
    "RunsResult": "toolscore.runs",
    "evaluate_turns": "toolscore.turns",
    "TurnsResult": "toolscore.turns",
}

__all__ = [
    "ANY",
    "Approx",
    "Contains",
    "EvaluationResult",
    "Expectation",
    "FixSuggestion",
    "IsType",
    "JudgeConfig",
    "MatchSpec",
    "Matcher",
    "OneOf",
    "Regex",
    "RunsResult",
    "Snapshot",
    "SnapshotStore",
    "ToolCall",
    "ToolScoreAssertionError",
    "TraceCapture",
    "TrajectoryMatch",
    "TurnsResult",
    "__version__",
    "assert_tools",
    "auto_extract",
    "capture_trace",
    "cases",
    "evaluate",
    "evaluate_runs",
    "evaluate_trace",
    "evaluate_turns",
    "expect",
    "from_anthropic",
    "from_claude_agent_sdk",
    "from_crewai",
    "from_gemini",
    "from_langgraph",
    "from_openai",
    "from_openai_agents",
    "from_otel",
    "from_pydantic_ai",
    "hookimpl",
    "hookspec",
    "letter_grade",
    "load_gold_standard",
    "load_trace",
    "match_trajectory",
    "snapshot_check",
    "test_agent",
    "test_agent_async",
]


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from toolscore._version import version

        return version()
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'toolscore' has no attribute {name!r}")
    value = getattr(import_module(module_name), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """The ``toolscore`` package, which keeps a public function over a submodule of its name.

    ``toolscore.expect`` is both a function and the submodule that defines it. Once a submodule
    is imported, Python binds it to the package's attribute of that name, so ``import
    toolscore.expect`` (or ``from toolscore.expect import Expectation``) anywhere in a process
    would turn ``from toolscore import expect`` into a module. The function is bound instead.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if (
            isinstance(value, types.ModuleType)
            and value.__name__ == f"{__name__}.{name}"
            and _LAZY.get(name) == value.__name__
        ):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
