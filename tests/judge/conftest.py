"""Fixtures for the judge tests: the fake LLM server, offline guards, configs aimed at it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import toolscore_judge.plugin
from judge_support import API_KEY, BASE_ENVS, KEY_ENVS, MODELS, PROXY_ENVS, FakeLLM
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore_judge.config import JudgeConfig


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No real keys, no proxy, every official endpoint pointed at a closed local port, cwd in tmp."""
    for name in (*KEY_ENVS, *PROXY_ENVS):
        monkeypatch.delenv(name, raising=False)
    for name in BASE_ENVS:
        monkeypatch.setenv(name, "http://127.0.0.1:9")
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def llm() -> Iterator[FakeLLM]:
    server = FakeLLM()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def judge_pm() -> ToolscorePluginManager:
    """A plugin manager holding only the judge plugin (the way the entry point registers it)."""
    pm = ToolscorePluginManager()
    pm.register(toolscore_judge.plugin, name="toolscore_judge")
    return pm


@pytest.fixture
def make_config(
    llm: FakeLLM, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Callable[..., JudgeConfig]:
    """``make_config(provider, **overrides)``: a fast config aimed at the fake server."""

    def make(provider: str = "openai", **overrides: Any) -> JudgeConfig:
        monkeypatch.setenv("OPENAI_BASE_URL", f"{llm.url}/v1")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", llm.url)
        monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", llm.url)
        options: dict[str, Any] = {
            "model": MODELS[provider],
            "api_key": API_KEY,
            "timeout": 1.0,
            "max_retries": 2,
            "retry_backoff": 0.01,
            "max_retry_wait": 0.2,
            "cache_dir": str(tmp_path / "cache"),
        }
        if provider == "openai_compatible":
            options["base_url"] = f"{llm.url}/v1"
        options.update(overrides)
        return JudgeConfig(**options)

    return make
