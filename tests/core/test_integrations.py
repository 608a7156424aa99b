"""auto_extract, extract_calls, the from_* helpers and JudgeConfig, whatever is installed."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import toolscore
import toolscore.integrations as integrations
import toolscore.plugins as plugins
from toolscore.errors import MissingPluginError
from toolscore.integrations import SEED_HELPERS, auto_extract, extract_calls
from toolscore.model import ToolCall
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore.specs import ExtractorSpec


class MyLLMExtractor:
    def confidence(self, payload: Any) -> float:
        return 0.9 if isinstance(payload, dict) and payload.get("provider") == "myllm" else 0.0

    def extract(self, payload: Any) -> list[ToolCall]:
        return [
            ToolCall(tool=c["fn"], args=c.get("params"), id=c.get("id")) for c in payload["steps"]
        ]


class MyLLMPlugin:
    @toolscore.hookimpl
    def toolscore_register_extractors(self) -> Iterator[ExtractorSpec]:
        yield ExtractorSpec(name="myllm", factory=MyLLMExtractor, function_name="from_myllm")


MYLLM = {"provider": "myllm", "steps": [{"fn": "search", "params": {"q": "x"}, "id": "s1"}]}


# -- plain lists: the fast path ----------------------------------------------------------------


def test_plain_call_list_needs_no_plugin_manager() -> None:
    plugins.reset_plugin_manager(None)
    calls = extract_calls([{"tool": "a", "args": {"x": 1}, "result": "r", "error": "boom"}])
    assert plugins._DEFAULT is None  # nothing was built, no entry point scanned
    assert calls == [
        ToolCall(
            tool="a",
            args={"x": 1},
            result="r",
            error="boom",
            is_error=True,
            metadata={"error": "boom"},
        )
    ]
    assert extract_calls([]) == []
    assert plugins._DEFAULT is None


def test_toolcalls_pass_through() -> None:
    call = ToolCall(tool="a", args={})
    assert extract_calls([call]) == [call]


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ([{"tool": "a"}, 5], "Item at index 1 is not a dict"),
        ([{"tool": "a"}, {"args": {}}], "Item at index 1 is missing 'tool' key"),
        ([{"tool": ""}], "Item at index 0 is missing 'tool' key"),
    ],
)
def test_plain_list_errors_keep_reference_messages(items: list[Any], message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}$"):
        extract_calls(items)


def test_auto_extract_returns_call_lists_unchanged() -> None:
    calls = [{"tool": "a", "args": {}, "result": 1, "custom": "kept"}, "junk after the first"]
    assert auto_extract(calls) is calls
    empty: list[Any] = []
    assert auto_extract(empty) is empty


# -- detected payloads -------------------------------------------------------------------------


def test_auto_extract_reads_canonical_documents(builtin_pm: ToolscorePluginManager) -> None:
    payload = {"calls": [{"tool": "a", "args": {"x": 1}, "id": "c1"}, {"tool": "b"}]}
    # The documented keys are always there (None when unknown): code reads them unguarded
    # (docs/compat.md#what-stays-the-same).
    assert auto_extract(payload, plugin_manager=builtin_pm) == [
        {
            "tool": "a",
            "args": {"x": 1},
            "result": None,
            "is_error": False,
            "error": None,
            "id": "c1",
        },
        {"tool": "b", "args": None, "result": None, "is_error": False, "error": None, "id": None},
    ]


def test_auto_extract_reads_custom_lists(builtin_pm: ToolscorePluginManager) -> None:
    assert auto_extract([{"name": "s", "arguments": {"q": 1}}], plugin_manager=builtin_pm) == [
        {
            "tool": "s",
            "args": {"q": 1},
            "result": None,
            "is_error": False,
            "error": None,
            "id": None,
        }
    ]


@pytest.mark.parametrize("payload", [{"choices": []}, 42, "text", None, object()])
def test_unknown_payload_is_a_type_error_naming_formats_and_install(
    builtin_pm: ToolscorePluginManager, payload: Any
) -> None:
    with pytest.raises(TypeError) as info:
        auto_extract(payload, plugin_manager=builtin_pm)
    message = str(info.value)
    assert message.startswith(
        f"Cannot auto-detect provider format from {type(payload).__name__}. Pass a raw "
        "OpenAI/Anthropic/Gemini/LangGraph/PydanticAI/OpenAIAgents/ClaudeAgentSDK response, "
        "or a list of dicts with 'tool' and 'args' keys."
    )
    looked_for = ", ".join(builtin_pm.get_extractors().names())
    assert f"Formats looked for: {looked_for}." in message
    assert "canonical" in looked_for
    assert "pip install toolscore-providers" in message


def test_malformed_canonical_document_is_a_value_error(builtin_pm: ToolscorePluginManager) -> None:
    with pytest.raises(ValueError, match=r"\$\.calls\[1\]\.tool: expected a non-empty tool name"):
        extract_calls({"calls": [{"tool": "a"}, {"tool": ""}]}, plugin_manager=builtin_pm)


# -- from_* helpers ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", SEED_HELPERS)
def test_seed_helpers_import_and_say_what_to_install(
    only_builtins: ToolscorePluginManager, name: str
) -> None:
    helper = getattr(toolscore, name)
    assert helper is getattr(integrations, name)
    assert helper.__name__ == name
    with pytest.raises(MissingPluginError) as info:
        helper({"choices": []})
    assert str(info.value) == (
        f"{name} needs the toolscore-providers distribution: pip install toolscore-providers"
    )


def test_seed_helper_names_resolve_without_building_a_manager() -> None:
    plugins.reset_plugin_manager(None)
    from toolscore.integrations import from_gemini, from_openai  # noqa: F401

    assert plugins._DEFAULT is None


def test_third_party_from_helper_resolves_through_the_registry(
    only_builtins: ToolscorePluginManager,
) -> None:
    only_builtins.register(MyLLMPlugin(), name="myllm-plugin")
    from_myllm = integrations.from_myllm
    read = [{"tool": "search", "args": {"q": "x"}, "result": None}]
    read[0] |= {"is_error": False, "error": None, "id": "s1"}
    assert from_myllm(MYLLM) == read
    # and the same extractor is picked by detection
    assert auto_extract(MYLLM) == read


def test_unknown_from_name_is_an_attribute_error(only_builtins: ToolscorePluginManager) -> None:
    with pytest.raises(AttributeError):
        _ = integrations.from_nothing_installed
    with pytest.raises(AttributeError):
        _ = integrations.not_a_helper


# -- JudgeConfig -----------------------------------------------------------------------------


def test_judge_config_comes_from_toolscore_judge_when_installed() -> None:
    pytest.importorskip("toolscore_judge")
    from toolscore_judge.config import JudgeConfig

    assert toolscore.JudgeConfig is JudgeConfig
    assert integrations.JudgeConfig is JudgeConfig


def test_judge_config_without_toolscore_judge_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['toolscore_judge'] = None\n"
        "import toolscore\n"
        "from toolscore import JudgeConfig\n"
        "from toolscore.errors import MissingPluginError\n"
        "try:\n"
        "    JudgeConfig(model='gpt-4o')\n"
        "except MissingPluginError as exc:\n"
        "    print(type(exc).__name__, JudgeConfig.__name__, exc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert out.strip() == (
        "MissingPluginError JudgeConfig JudgeConfig needs the toolscore-judge distribution: "
        "pip install toolscore-judge"
    )


def test_extracted_dicts_carry_failures_and_timings(builtin_pm: ToolscorePluginManager) -> None:
    """Failures, results and timings a trace records come back under the documented keys
    (``is_error``, ``error``, ``result``, ``duration``, ``cost``)."""
    payload = {
        "calls": [
            {"tool": "a", "args": {}, "error": "boom", "duration": 0.5, "cost": 0.01},
            {"tool": "b", "args": {}, "result": {"ok": True}},
        ]
    }
    first, second = auto_extract(payload, plugin_manager=builtin_pm)
    assert (first["is_error"], first["error"], first["duration"], first["cost"]) == (
        True,
        "boom",
        0.5,
        0.01,
    )
    assert (second["result"], second["is_error"], second["error"]) == ({"ok": True}, False, None)
    assert "duration" not in second


class _OnlyModelDump:
    """An object whose only interface is a bare ``model_dump()`` (not pydantic's)."""

    def model_dump(self) -> dict[str, Any]:
        return {"calls": [{"tool": "ping", "args": {}}]}


def test_objects_that_only_offer_model_dump_are_dumped(builtin_pm: ToolscorePluginManager) -> None:
    (call,) = auto_extract(_OnlyModelDump(), plugin_manager=builtin_pm)
    assert (call["tool"], call["args"]) == ("ping", {})
