"""The extractors as users reach them: load_trace, the from_* helpers and evaluate()."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import toolscore
from providers_support import FIXTURES, load_fixture, summary
from test_fixtures import CASES
from toolscore.loading import load_trace


@pytest.mark.parametrize("name", sorted(CASES))
def test_load_trace_auto_detects_every_fixture(name: str) -> None:
    fmt, expected, _ = CASES[name]
    assert summary(load_trace(FIXTURES / name)) == expected
    assert summary(load_trace(FIXTURES / name, format=fmt)) == expected


def test_aliases_are_accepted_as_formats() -> None:
    path = FIXTURES / "langgraph_state.json"
    assert len(load_trace(path, format="langgraph")) == 2


def test_from_helpers_return_call_dicts() -> None:
    calls = toolscore.from_openai(load_fixture("openai_chat_completion.json"))
    assert calls[0]["tool"] == "get_weather"
    assert calls[0]["args"] == {"city": "Paris", "unit": "c"}
    assert toolscore.from_langgraph(load_fixture("langgraph_state.json"))[0]["id"] == "call_w"
    assert [c["tool"] for c in toolscore.from_otel(load_fixture("otel_otlp.json"))] == [
        "get_weather",
        "book",
    ]


def test_evaluate_reads_a_message_list_that_starts_with_the_user() -> None:
    actual = load_fixture("anthropic_conversation.json")["messages"]
    expected = [
        {"tool": "get_weather", "args": {"city": "Paris"}},
        {"tool": "book_table", "args": {"time": "19:00"}},
    ]
    result = toolscore.evaluate(expected, actual)
    assert result.selection_accuracy == 1.0
    assert result.argument_f1 == 1.0


def test_eval_reports_arguments_a_model_truncated(tmp_path: Path) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"tool": "book", "args": {"city": "Paris"}}]))
    trace = tmp_path / "trace.json"
    cut = {"name": "book", "arguments": '{"city": "Pari'}  # a stream cut off mid-string
    trace.write_text(
        json.dumps(
            {
                "choices": [
                    {
                        "message": {
                            "role": "assistant",
                            "tool_calls": [{"id": "c1", "type": "function", "function": cut}],
                        }
                    }
                ]
            }
        )
    )
    done = subprocess.run(
        [sys.executable, "-m", "toolscore", "eval", str(gold), str(trace), "-o", "r.json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        env={**os.environ, "COLUMNS": "250"},
    )
    assert done.returncode == 0, done.stderr
    assert (
        f"Warning: {trace}: call 1 (book): arguments could not be read (invalid JSON "
        "arguments: Unterminated string starting at: line 1 column 10 (char 9)); "
        "scored as no arguments"
    ) in done.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["summary"]["score"] < 1.0
