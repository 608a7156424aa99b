"""The toolscore plugin: registers the built-in judges through ``toolscore_register_judges``.

Importing this module is cheap (no HTTP, no SDK); a judge is built only when an evaluation
asks for one (``evaluate_trace(judge=...)``, ``toolscore eval --llm-judge``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from toolscore import hookimpl

if TYPE_CHECKING:
    from toolscore.specs import JudgeSpec

__all__ = ["toolscore_register_judges"]

_SUMMARIES = {
    "openai": "OpenAI chat completions (OPENAI_API_KEY)",
    "anthropic": "Anthropic messages (ANTHROPIC_API_KEY)",
    "gemini": "Google Gemini generateContent (GOOGLE_API_KEY or GEMINI_API_KEY)",
    "openai_compatible": "any OpenAI-compatible server by base_url: Ollama, vLLM, Groq, ...",
}


def _factory(provider: str) -> Any:
    def build(config: Any) -> Any:
        from toolscore_judge.backends import AnthropicBackend, GeminiBackend, OpenAIBackend
        from toolscore_judge.judge import BatchJudge

        backends = {
            "openai": OpenAIBackend,
            "openai_compatible": OpenAIBackend,
            "anthropic": AnthropicBackend,
            "gemini": GeminiBackend,
        }
        return BatchJudge(config, backends[provider], provider)

    build.__name__ = f"{provider}_judge"
    return build


def _config_type() -> type[Any]:
    """``JudgeConfig``, imported when core first needs a configuration."""
    from toolscore_judge.config import JudgeConfig

    return JudgeConfig


@hookimpl
def toolscore_register_judges() -> Iterator[JudgeSpec]:
    """One judge per wire format; ``openai_compatible`` covers local and hosted clones.

    All four share :class:`~toolscore_judge.config.JudgeConfig` (``toolscore.JudgeConfig``).
    The spec type is imported here, not with the module: ``toolscore --help`` imports every
    plugin module, and :mod:`toolscore.specs` brings attrs with it.
    """
    from toolscore.specs import JudgeSpec

    for provider, summary in _SUMMARIES.items():
        yield JudgeSpec(
            name=provider, factory=_factory(provider), summary=summary, config_type=_config_type
        )
