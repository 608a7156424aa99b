"""Malformed items are errors that name their JSON path, never silent drops or coerced names.

Each case was read by an earlier version as "OK" with 0 calls (the item dropped) or with a
tool called "5" (the name coerced). They run through the real ``toolscore validate`` command
with every installed plugin, as a user would.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from providers_support import EXTRACTORS
from toolscore.cli import cli
from toolscore.errors import InputError
from toolscore.loading import load_trace
from toolscore.plugins import create_plugin_manager

PM = create_plugin_manager()


def validate(tmp_path: Path, data: Any, *options: str) -> Result:
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps(data), encoding="utf-8")
    return CliRunner().invoke(cli, ["validate", *options, str(trace)], obj={"plugin_manager": PM})


MALFORMED = [
    pytest.param(
        {
            "messages": [
                {"role": "user", "content": "hi"},
                {
                    "role": "assistant",
                    "content": [
                        {"type": "text", "text": "ok"},
                        {"type": "tool_use", "id": "t1", "name": None, "input": {}},
                    ],
                },
            ]
        },
        "$.messages[1].content[1].name: expected a non-empty tool name, got null",
        id="anthropic-name-null",
    ),
    pytest.param(
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": 5, "input": {}}]},
        "$.content[0].name: expected a string, got integer",
        id="anthropic-name-number",
    ),
    pytest.param(
        {
            "resourceSpans": [
                {
                    "scopeSpans": [
                        {
                            "spans": [
                                {"name": "execute_tool search", "spanId": "01", "attributes": 5}
                            ]
                        }
                    ]
                }
            ]
        },
        "$.resourceSpans[0].scopeSpans[0].spans[0].attributes: expected an object or an array "
        "of key/value pairs, got integer",
        id="otel-attributes-number",
    ),
    pytest.param(
        [
            {
                "name": "execute_tool",
                "spanId": "01",
                "attributes": {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": 7},
            }
        ],
        "$[0].attributes: gen_ai.tool.name: expected a string, got integer",
        id="otel-name-number",
    ),
    pytest.param(
        [{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": None}],
        "$[0].params: expected an object naming the tool, got null",
        id="mcp-params-null",
    ),
    pytest.param(
        [{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": ["x"]}}],
        "$[0].params.name: expected a string, got array",
        id="mcp-name-array",
    ),
    pytest.param(
        {
            "choices": [
                {
                    "message": {
                        "role": "assistant",
                        "tool_calls": [
                            {
                                "id": "c",
                                "type": "function",
                                "function": {"name": True, "arguments": "{}"},
                            }
                        ],
                    }
                }
            ]
        },
        "$.choices[0].message.tool_calls[0].function.name: expected a string, got boolean",
        id="openai-name-bool",
    ),
    pytest.param(
        {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [{"functionCall": {"name": {"x": 1}, "args": {}}}],
                    }
                }
            ]
        },
        "$.candidates[0].content.parts[0].functionCall.name: expected a string, got object",
        id="gemini-name-object",
    ),
]


@pytest.mark.parametrize(("data", "message"), MALFORMED)
def test_validate_names_the_malformed_item(tmp_path: Path, data: Any, message: str) -> None:
    result = validate(tmp_path, data)
    assert result.exit_code == 1, result.output
    assert "OK" not in result.output
    assert f"trace.json: {message}" in result.output


def test_a_tool_name_is_never_coerced_through_the_python_api() -> None:
    payload = {"role": "assistant", "content": [{"type": "tool_use", "name": 5, "input": {}}]}
    with pytest.raises(InputError) as caught:
        EXTRACTORS["anthropic"].extract(payload)
    assert caught.value.path == "$.content[0].name"


def test_a_forced_format_reading_nothing_from_another_format_is_an_error(tmp_path: Path) -> None:
    canonical = [{"tool": "search", "args": {"q": "x"}}]
    result = validate(tmp_path, canonical, "-f", "openai")
    assert result.exit_code == 1, result.output
    assert "no tool calls read as openai, but the file reads as canonical (1 call)" in (
        result.output
    )
    trace = tmp_path / "trace.json"
    with pytest.raises(InputError, match="pass --format canonical"):
        load_trace(trace, format="openai", plugin_manager=PM)


def test_a_forced_format_on_a_conversation_without_calls_is_a_warning(tmp_path: Path) -> None:
    chat = {
        "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    }
    result = validate(tmp_path, chat, "-f", "openai")
    assert result.exit_code == 0, result.output
    assert "Total calls: 0" in result.output
    assert "Warning: the file is not empty but no tool calls were read from it as openai" in (
        result.output
    )


def test_valid_payloads_still_read_the_same(tmp_path: Path) -> None:
    data = {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "t", "name": "search", "input": {"q": "x"}}],
    }
    result = validate(tmp_path, data, "-f", "anthropic")
    assert result.exit_code == 0, result.output
    assert "Total calls: 1" in result.output
    assert "First tool: search" in result.output
    assert "Warning" not in result.output
