"""Each provider's wire format, against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from judge_support import API_KEY, MODELS, PROVIDERS, FakeLLM, Pairs, calls
from toolscore.judging import run_judge
from toolscore.model import ToolCall
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore_judge.config import JudgeConfig

EXPECTED = calls(("search", {"q": "weather in Paris"}), ("get_weather", {"city": "Paris"}))
ACTUAL = calls(("web_search", {"query": "Paris weather"}), ("get_weather", {"city": "Paris"}))


@pytest.mark.parametrize("provider", PROVIDERS)
def test_one_batched_request_scores_every_pair(
    provider: str,
    llm: FakeLLM,
    make_config: Callable[..., JudgeConfig],
    judge_pm: ToolscorePluginManager,
) -> None:
    config = make_config(provider)
    result = run_judge(config, EXPECTED, ACTUAL, Pairs(((1, 1),)), plugin_manager=judge_pm)

    assert len(llm.seen) == 1, "all pairs go in one request"
    assert llm.seen[0].provider == ("openai" if provider == "openai_compatible" else provider)
    assert result is not None
    assert result["per_call_scores"] == [0.5, 1.0]
    assert result["explanations"] == ["search vs web_search", "get_weather vs get_weather"]
    assert result["semantic_score"] == pytest.approx(0.75)
    assert result["model_used"] == MODELS[provider]
    assert result["provider"] == provider
    assert (result["gold_count"], result["trace_count"]) == (2, 2)
    assert result["pairs"] == [[0, 0], [1, 1]]
    assert result["cached"] is False
    assert result["judge_drift"] is None


def test_openai_request_shape(
    llm: FakeLLM, make_config: Callable[..., JudgeConfig], judge_pm: ToolscorePluginManager
) -> None:
    run_judge(
        make_config("openai", temperature=0.2), EXPECTED, ACTUAL, None, plugin_manager=judge_pm
    )
    seen = llm.seen[0]
    assert seen.path == "/v1/chat/completions"
    assert seen.headers["authorization"] == f"Bearer {API_KEY}"
    assert seen.body["model"] == "gpt-4o-mini"
    assert seen.body["temperature"] == 0.2
    assert seen.body["response_format"] == {"type": "json_object"}
    assert [m["role"] for m in seen.body["messages"]] == ["system", "user"]
    assert "## Pair 0" in seen.prompt
    assert "## Pair 1" in seen.prompt
    assert '"weather in Paris"' in seen.prompt
    assert '"Paris weather"' in seen.prompt


def test_openai_compatible_uses_base_url_and_needs_no_key(
    llm: FakeLLM, make_config: Callable[..., JudgeConfig], judge_pm: ToolscorePluginManager
) -> None:
    llm.api_key = "not-needed"
    config = make_config("openai_compatible", api_key=None)
    result = run_judge(config, EXPECTED, ACTUAL, None, plugin_manager=judge_pm)
    assert result is not None
    assert "error" not in result
    assert llm.seen[0].headers["authorization"] == "Bearer not-needed"
    assert llm.seen[0].body["model"] == "llama3.1"


def test_anthropic_request_shape(
    llm: FakeLLM, make_config: Callable[..., JudgeConfig], judge_pm: ToolscorePluginManager
) -> None:
    run_judge(make_config("anthropic"), EXPECTED, ACTUAL, None, plugin_manager=judge_pm)
    seen = llm.seen[0]
    assert seen.path == "/v1/messages"
    assert seen.headers["x-api-key"] == API_KEY
    assert seen.headers["anthropic-version"] == "2023-06-01"
    assert seen.body["model"] == "claude-3-5-haiku-latest"
    assert seen.body["max_tokens"] == 4096
    assert seen.body["temperature"] == 0.0
    assert seen.system
    assert "JSON" in seen.system
    assert seen.body["messages"] == [{"role": "user", "content": seen.prompt}]


def test_gemini_request_shape(
    llm: FakeLLM, make_config: Callable[..., JudgeConfig], judge_pm: ToolscorePluginManager
) -> None:
    run_judge(make_config("gemini"), EXPECTED, ACTUAL, None, plugin_manager=judge_pm)
    seen = llm.seen[0]
    assert seen.path == "/v1beta/models/gemini-2.0-flash:generateContent"
    assert seen.headers["x-goog-api-key"] == API_KEY
    assert "key=" not in seen.path, "the key travels in a header, never in the URL"
    assert seen.body["generationConfig"] == {
        "temperature": 0.0,
        "responseMimeType": "application/json",
    }
    assert seen.body["systemInstruction"]["parts"][0]["text"] == seen.system


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini"])
def test_keys_are_read_from_the_provider_environment(
    provider: str,
    llm: FakeLLM,
    make_config: Callable[..., JudgeConfig],
    judge_pm: ToolscorePluginManager,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    env = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY", "gemini": "GEMINI_API_KEY"}
    monkeypatch.setenv(env[provider], API_KEY)
    result = run_judge(
        make_config(provider, api_key=None), EXPECTED, ACTUAL, None, plugin_manager=judge_pm
    )
    assert result is not None
    assert "error" not in result, result


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini"])
def test_a_rejected_key_is_recorded_without_retries_or_leaks(
    provider: str,
    llm: FakeLLM,
    make_config: Callable[..., JudgeConfig],
    judge_pm: ToolscorePluginManager,
) -> None:
    config = make_config(provider, api_key="sk-wrong-key-42")
    result = run_judge(config, EXPECTED, ACTUAL, None, plugin_manager=judge_pm)
    assert result is not None
    assert result["semantic_score"] is None
    assert result["error"].startswith("HTTP 401 from http://127.0.0.1:")
    assert result["error"].endswith("invalid api key")
    assert "sk-wrong-key-42" not in result["error"]
    assert len(llm.seen) == 1, "an auth failure is not retried"


def test_matchers_in_expected_calls_are_shown_in_their_file_form(
    llm: FakeLLM, make_config: Callable[..., JudgeConfig], judge_pm: ToolscorePluginManager
) -> None:
    from toolscore.matching.matchers import ANY, Regex

    expected = [ToolCall("lookup", {"id": Regex(r"\d+"), "trace": ANY}), ToolCall("ping", None)]
    actual = calls(("lookup", {"id": "42", "trace": "t-1"}), ("ping", {"n": 1}))
    result = run_judge(make_config(), expected, actual, None, plugin_manager=judge_pm)
    assert result is not None
    assert result["per_call_scores"] == [1.0, 1.0]
    prompt = llm.seen[0].prompt
    assert '"$regex": "\\\\d+"' in prompt
    assert '"$any": true' in prompt
    assert "(not specified: any arguments are acceptable)" in prompt
