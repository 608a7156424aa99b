"""JudgeConfig: provider inference, key resolution and its error texts (kept word for word:
users match on them)."""

from __future__ import annotations

import pytest
import toolscore
from toolscore_judge.config import JudgeConfig, MissingAPIKeyError


@pytest.mark.parametrize(
    ("kwargs", "provider"),
    [
        ({}, "openai"),
        ({"model": "gpt-4.1"}, "openai"),
        ({"model": "o3-mini"}, "openai"),
        ({"model": "claude-3-5-haiku-latest"}, "anthropic"),
        ({"model": "Claude-Sonnet-4"}, "anthropic"),
        ({"model": "gemini-2.0-flash"}, "gemini"),
        ({"model": "GEMINI-pro"}, "gemini"),
        ({"model": "llama3.1", "base_url": "http://localhost:11434/v1"}, "openai_compatible"),
        # a base_url wins over the model name when no provider is given
        ({"model": "claude-3", "base_url": "http://localhost:8000/v1"}, "openai_compatible"),
        # an explicit provider wins over the model name
        ({"model": "claude-3", "provider": "openai"}, "openai"),
        ({"model": "gpt-4o", "provider": "gemini"}, "gemini"),
        (
            {"model": "x", "provider": "openai_compatible", "base_url": "http://h/v1"},
            "openai_compatible",
        ),
    ],
)
def test_provider_inference(kwargs: dict[str, str], provider: str) -> None:
    assert JudgeConfig(**kwargs).resolve_provider() == provider


def test_openai_compatible_without_base_url_is_an_error() -> None:
    with pytest.raises(ValueError, match="needs a base_url"):
        JudgeConfig(provider="openai_compatible").resolve_provider()


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini"])
def test_explicit_provider_with_base_url_conflicts(provider: str) -> None:
    with pytest.raises(ValueError, match="conflicts with base_url='http://h/v1'"):
        JudgeConfig(provider=provider, base_url="http://h/v1").resolve_provider()


@pytest.mark.parametrize(
    ("provider", "env"),
    [
        ("openai", "OPENAI_API_KEY"),
        ("anthropic", "ANTHROPIC_API_KEY"),
        ("gemini", "GOOGLE_API_KEY"),
    ],
)
def test_missing_key_has_the_reference_message(provider: str, env: str) -> None:
    with pytest.raises(MissingAPIKeyError) as info:
        JudgeConfig().require_api_key(provider)
    assert isinstance(info.value, ValueError)
    assert str(info.value) == (
        f"API key required for provider '{provider}'. Set the {env} environment variable "
        "or pass JudgeConfig(api_key=...)."
    )


def test_keys_come_from_the_config_then_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert JudgeConfig(api_key="given").require_api_key("openai") == "given"
    monkeypatch.setenv("ANTHROPIC_API_KEY", "from-env")
    assert JudgeConfig().require_api_key("anthropic") == "from-env"
    monkeypatch.setenv("GEMINI_API_KEY", "gemini-key")
    assert JudgeConfig().require_api_key("gemini") == "gemini-key"
    monkeypatch.setenv("GOOGLE_API_KEY", "google-key")
    assert JudgeConfig().require_api_key("gemini") == "google-key"  # GOOGLE_API_KEY first


def test_empty_environment_key_counts_as_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "")
    with pytest.raises(MissingAPIKeyError):
        JudgeConfig().require_api_key("openai")


def test_api_key_env_override(monkeypatch: pytest.MonkeyPatch) -> None:
    config = JudgeConfig(
        "llama-3.3-70b", base_url="https://groq.example/v1", api_key_env="GROQ_KEY"
    )
    with pytest.raises(MissingAPIKeyError, match="Set the GROQ_KEY environment variable"):
        config.require_api_key("openai_compatible")
    monkeypatch.setenv("GROQ_KEY", "gsk")
    assert config.require_api_key("openai_compatible") == "gsk"


def test_openai_compatible_needs_no_key() -> None:
    config = JudgeConfig("llama3.1", base_url="http://localhost:11434/v1")
    assert config.require_api_key("openai_compatible") == "not-needed"


def test_repr_never_shows_the_key() -> None:
    assert "sk-secret" not in repr(JudgeConfig(api_key="sk-secret"))


def test_reference_positional_order() -> None:
    config = JudgeConfig("claude-3", "anthropic", "k", None, 0.5, 4)
    assert (config.model, config.provider, config.api_key, config.temperature) == (
        "claude-3",
        "anthropic",
        "k",
        0.5,
    )
    assert config.max_retries == 4


@pytest.mark.parametrize(
    "kwargs", [{"max_retries": -1}, {"timeout": 0}, {"retry_backoff": -0.1}, {"max_tokens": 0}]
)
def test_impossible_numbers_are_rejected(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        JudgeConfig(**kwargs)


@pytest.mark.parametrize(
    ("cache_dir", "enabled"),
    [(".toolscore/judge-cache", True), ("off", False), ("OFF", False), (None, False)],
)
def test_cache_switch(cache_dir: str | None, enabled: bool) -> None:
    assert JudgeConfig(cache_dir=cache_dir).cache_enabled is enabled


def test_identity_names_provider_model_and_temperature() -> None:
    assert JudgeConfig().identity() == "openai:gpt-4o-mini"
    assert JudgeConfig("claude-3", temperature=0.7).identity() == "anthropic:claude-3@t=0.7"


def test_public_as_toolscore_judgeconfig() -> None:
    assert toolscore.JudgeConfig is JudgeConfig
