"""The ``toolscore.core`` module path, kept so that existing imports of it keep working.

Everything here is defined elsewhere; this module only re-exports it::

    from toolscore.core import evaluate, evaluate_trace, load_gold_standard, EvaluationResult
"""

from __future__ import annotations

from toolscore.assertions import (
    ToolScoreAssertionError,
    assert_tools,
    test_agent,
    test_agent_async,
)
from toolscore.evaluation import evaluate, evaluate_trace
from toolscore.loading import load_gold_standard, load_trace
from toolscore.model import ToolCall
from toolscore.result import EvaluationResult

__all__ = [
    "EvaluationResult",
    "ToolCall",
    "ToolScoreAssertionError",
    "assert_tools",
    "evaluate",
    "evaluate_trace",
    "load_gold_standard",
    "load_trace",
    "test_agent",
    "test_agent_async",
]
