"""Core's glue: which pairs the judge sees, what judge= accepts, and what it does on failure."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import toolscore
from judge_support import FakeLLM, Pairs, calls
from toolscore.errors import MissingPluginError
from toolscore.judging import judge_config, judge_from_cli_options, judge_pairs, run_judge
from toolscore.model import ToolCall
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore.specs import JudgeSpec
from toolscore_judge.config import JudgeConfig

# -- which pairs ---------------------------------------------------------------------------


def test_pairs_come_from_the_alignment_not_positions(
    llm: FakeLLM, make_config: Callable[..., JudgeConfig], judge_pm: ToolscorePluginManager
) -> None:
    expected = calls(("a", {"x": 1}), ("b", {"y": 2}))
    actual = calls(("b", {"y": 2}), ("a", {"x": 1}))
    result = run_judge(
        make_config(), expected, actual, Pairs(((0, 1), (1, 0))), plugin_manager=judge_pm
    )
    assert result is not None
    assert result["pairs"] == [[0, 1], [1, 0]]
    assert result["per_call_scores"] == [1.0, 1.0], "a positional judge would see a-b and b-a"
    prompt = llm.seen[0].prompt
    assert prompt.index('Expected call: tool "a"') < prompt.index('Actual call: tool "a"')


def test_with_the_real_alignment(
    llm: FakeLLM, make_config: Callable[..., JudgeConfig], judge_pm: ToolscorePluginManager
) -> None:
    alignment = pytest.importorskip("toolscore.matching.alignment")
    expected = [ToolCall("a", {"x": 1}), ToolCall("b", {"y": 2})]
    actual = [ToolCall("b", {"y": 2}), ToolCall("a", {"x": 1})]
    aligned = alignment.align(expected, actual)
    result = run_judge(make_config(), expected, actual, aligned, plugin_manager=judge_pm)
    assert result is not None
    assert result["pairs"] == [[0, 1], [1, 0]]
    assert result["per_call_scores"] == [1.0, 1.0]


def test_unaligned_calls_are_paired_in_order() -> None:
    expected = calls("search", "get_weather", "notify")
    actual = calls("get_weather", "web_search", "log", "send_message")
    # get_weather is aligned; search and notify pair with the leftovers in order
    assert judge_pairs(expected, actual, Pairs(((1, 0),))) == [(0, 1), (1, 0), (2, 2)]


def test_without_any_alignment_pairs_are_positional() -> None:
    assert judge_pairs(calls("a", "b"), calls("x", "y", "z"), Pairs(())) == [(0, 0), (1, 1)]


def test_renamed_tools_are_still_judged(
    llm: FakeLLM, make_config: Callable[..., JudgeConfig], judge_pm: ToolscorePluginManager
) -> None:
    result = run_judge(
        make_config(), calls("search"), calls("web_search"), Pairs(()), plugin_manager=judge_pm
    )
    assert result is not None
    assert result["per_call_scores"] == [0.5]
    assert result["explanations"] == ["search vs web_search"]


def test_length_penalty_and_clamping_match_the_reference(
    llm: FakeLLM, make_config: Callable[..., JudgeConfig], judge_pm: ToolscorePluginManager
) -> None:
    llm.answer = lambda prompt: json.dumps(
        [{"index": 0, "score": 1.7, "explanation": "a"}, {"index": 1, "score": 0.5}]
    )
    result = run_judge(
        make_config(),
        calls("a", "b"),
        calls("a", "b", "c"),
        Pairs(((0, 0), (1, 1))),
        plugin_manager=judge_pm,
    )
    assert result is not None
    assert result["per_call_scores"] == [1.0, 0.5]
    assert result["semantic_score"] == pytest.approx(0.75 * 2 / 3)
    assert result["explanations"][1] == "No explanation provided"


def test_no_pairs_means_no_request_and_no_key(judge_pm: ToolscorePluginManager) -> None:
    result = run_judge(True, [], calls("a", "b"), Pairs(()), plugin_manager=judge_pm)
    assert result is not None
    assert result["semantic_score"] == 0.0
    assert result["per_call_scores"] == []
    assert (result["gold_count"], result["trace_count"]) == (0, 2)


# -- what judge= accepts -------------------------------------------------------------------


def test_judge_argument_forms() -> None:
    assert judge_config(True) == JudgeConfig()
    assert judge_config(None) == JudgeConfig()  # None means the default judge too
    assert judge_config("claude-3-5-haiku-latest").resolve_provider() == "anthropic"
    config = JudgeConfig("gemini-2.0-flash", timeout=3)
    assert judge_config(config) is config
    with pytest.raises(TypeError, match="got int"):
        judge_config(5)


def test_false_does_nothing(judge_pm: ToolscorePluginManager) -> None:
    assert (
        run_judge(False, calls("a"), calls("a"), Pairs(((0, 0),)), plugin_manager=judge_pm) is None
    )


# -- failures are recorded, never raised ---------------------------------------------------


@pytest.mark.parametrize(
    ("judge", "env"),
    [
        (True, "OPENAI_API_KEY"),
        ("claude-3-5-haiku-latest", "ANTHROPIC_API_KEY"),
        ("gemini-2.0-flash", "GOOGLE_API_KEY"),
    ],
)
def test_missing_key_is_recorded_like_the_reference(
    judge: Any, env: str, judge_pm: ToolscorePluginManager
) -> None:
    result = run_judge(judge, calls("a"), calls("a"), Pairs(((0, 0),)), plugin_manager=judge_pm)
    assert result is not None
    assert result["semantic_score"] is None
    assert result["error"].startswith("API key required for provider '")
    assert (
        f"Set the {env} environment variable or pass JudgeConfig(api_key=...)." in result["error"]
    )


def test_a_conflicting_config_is_recorded(judge_pm: ToolscorePluginManager) -> None:
    config = JudgeConfig(provider="anthropic", base_url="http://localhost:1/v1")
    result = run_judge(config, calls("a"), calls("a"), Pairs(((0, 0),)), plugin_manager=judge_pm)
    assert result is not None
    assert result["semantic_score"] is None
    assert "conflicts with base_url" in result["error"]


def test_an_unknown_provider_names_the_installed_judges(judge_pm: ToolscorePluginManager) -> None:
    config = JudgeConfig(provider="mistral")
    result = run_judge(config, calls("a"), calls("a"), Pairs(((0, 0),)), plugin_manager=judge_pm)
    assert result is not None
    assert result["error"] == (
        "no LLM judge for provider 'mistral' (installed judges: anthropic, gemini, openai, "
        "openai_compatible)"
    )


class _PluginJudge:
    def __init__(self, behaviour: str) -> None:
        self.behaviour = behaviour

    def judge(self, pairs: Any, *, gold_count: int, trace_count: int) -> Any:
        if self.behaviour == "raise":
            raise KeyError("boom")
        if self.behaviour == "import":
            raise ImportError("the 'mistralai' package is needed: pip install toolscore-mistral")
        if self.behaviour == "list":
            return [1, 2]
        return {"semantic_score": 1.0, "per_call_scores": [1.0] * len(pairs), "seen": len(pairs)}


@pytest.fixture
def plugin_pm(judge_pm: ToolscorePluginManager) -> ToolscorePluginManager:
    class Plugin:
        @toolscore.hookimpl
        def toolscore_register_judges(self) -> Iterator[JudgeSpec]:
            for name in ("ok", "raise", "import", "list"):
                yield JudgeSpec(name=name, factory=lambda config, n=name: _PluginJudge(n))

    judge_pm.register(Plugin(), name="test-judges")
    return judge_pm


def test_a_plugin_judge_is_used_by_provider_name(plugin_pm: ToolscorePluginManager) -> None:
    result = run_judge(
        JudgeConfig("m", provider="ok"),
        calls("a", "b"),
        calls("a"),
        Pairs(((0, 0),)),
        plugin_manager=plugin_pm,
    )
    assert result == {"semantic_score": 1.0, "per_call_scores": [1.0], "seen": 1, "pairs": [[0, 0]]}


def test_a_crashing_plugin_judge_is_recorded(plugin_pm: ToolscorePluginManager) -> None:
    result = run_judge(
        JudgeConfig("m", provider="raise"),
        calls("a"),
        calls("a"),
        Pairs(((0, 0),)),
        plugin_manager=plugin_pm,
    )
    assert result == {
        "error": "judge 'raise' failed: KeyError: 'boom'",
        "semantic_score": None,
        "model_used": "m",
        "provider": "raise",
    }


def test_a_plugin_judge_returning_junk_is_recorded(plugin_pm: ToolscorePluginManager) -> None:
    result = run_judge(
        JudgeConfig("m", provider="list"),
        calls("a"),
        calls("a"),
        Pairs(((0, 0),)),
        plugin_manager=plugin_pm,
    )
    assert result is not None
    assert result["error"] == "judge 'list' returned list, not a mapping"


def test_a_missing_sdk_warns_once_and_leaves_the_key_out(plugin_pm: ToolscorePluginManager) -> None:
    with pytest.warns(UserWarning, match="pip install toolscore-mistral"):
        result = run_judge(
            JudgeConfig("m", provider="import"),
            calls("a"),
            calls("a"),
            Pairs(((0, 0),)),
            plugin_manager=plugin_pm,
        )
    assert result is None


def test_without_toolscore_judge_a_warning_and_no_key(
    monkeypatch: pytest.MonkeyPatch, judge_pm: ToolscorePluginManager
) -> None:
    monkeypatch.setitem(sys.modules, "toolscore_judge.config", None)
    with pytest.warns(UserWarning, match="install toolscore-judge"):
        assert run_judge(True, calls("a"), calls("a"), Pairs(()), plugin_manager=judge_pm) is None


# -- the command line ----------------------------------------------------------------------


def test_cli_options_without_llm_judge_do_nothing() -> None:
    assert judge_from_cli_options(False, "claude-3", "anthropic", None, "off") is False


def test_cli_options_build_the_config() -> None:
    config = judge_from_cli_options(True, "llama3.1", None, "http://localhost:11434/v1", "off")
    assert isinstance(config, JudgeConfig)
    assert config.resolve_provider() == "openai_compatible"
    assert config.base_url == "http://localhost:11434/v1"
    assert config.cache_enabled is False
    default = judge_from_cli_options(True, "gpt-4o-mini", None, None, None)
    assert default == JudgeConfig()
    forced = judge_from_cli_options(True, "my-model", "anthropic", None, "/tmp/verdicts")
    assert isinstance(forced, JudgeConfig)
    assert forced.resolve_provider() == "anthropic"
    assert forced.cache_dir == "/tmp/verdicts"


def test_cli_options_without_toolscore_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "toolscore_judge.config", None)
    with pytest.raises(MissingPluginError, match="install toolscore-judge"):
        judge_from_cli_options(True, "gpt-4o-mini")


# -- registration --------------------------------------------------------------------------


def test_the_entry_point_registers_four_judges() -> None:
    pm = ToolscorePluginManager()
    pm.load_entry_points("toolscore", allow=frozenset({"toolscore-judge"}))
    assert pm.get_judges().names() == ["anthropic", "gemini", "openai", "openai_compatible"]
    record = next(r for r in pm.records() if r.name == "toolscore_judge")
    assert record.status == "active"
    assert record.distribution == "toolscore-judge"
    assert record.provides == {"judges": ("anthropic", "gemini", "openai", "openai_compatible")}


def test_importing_the_plugin_is_cheap() -> None:
    import subprocess

    code = (
        "import sys, toolscore_judge.plugin; "
        "heavy = [m for m in ('openai', 'anthropic', 'google.genai', 'urllib.request', "
        "'toolscore_judge.backends', 'toolscore_judge.judge') if m in sys.modules]; "
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
