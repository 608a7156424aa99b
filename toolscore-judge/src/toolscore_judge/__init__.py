"""toolscore-judge: optional LLM judges (OpenAI, Anthropic, Gemini, any OpenAI-compatible
server) that score whether an agent's tool calls mean what the expected calls mean, with a
verdict cache so re-runs are offline and deterministic.

Use it through toolscore: ``evaluate_trace(gold, trace, judge=True)`` or
``toolscore eval GOLD TRACE --llm-judge``. The configuration is public as
``toolscore.JudgeConfig`` (defined in :mod:`toolscore_judge.config`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolscore_judge.config import JudgeConfig

__all__ = ["JudgeConfig"]


def __getattr__(name: str) -> Any:
    # Lazy, so that loading the plugin (every ``toolscore`` start) does not import the config.
    if name == "JudgeConfig":
        from toolscore_judge.config import JudgeConfig

        return JudgeConfig
    raise AttributeError(f"module 'toolscore_judge' has no attribute {name!r}")
