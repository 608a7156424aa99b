"""A call dict's ``id`` and error message are kept in the call's metadata as well; failures
recorded in metadata fail the call; written calls hold each field once."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from toolscore import evaluate
from toolscore.adapters.base import ToolCall as CompatToolCall
from toolscore.cli import main
from toolscore.model import ToolCall, call_from_dict


def test_the_compatibility_path_is_the_same_class() -> None:
    assert CompatToolCall is ToolCall


def test_id_and_error_message_are_copied_into_metadata() -> None:
    call = call_from_dict({"tool": "a", "id": 7, "error": "boom", "metadata": {"step": 2}})
    assert (call.id, call.error, call.is_error) == ("7", "boom", True)
    assert call.metadata == {"step": 2, "id": "7", "error": "boom"}


def test_metadata_keeps_its_own_id_and_top_level_error_wins() -> None:
    call = call_from_dict(
        {"tool": "a", "id": "c1", "error": "top", "metadata": {"id": "m1", "error": "inner"}}
    )
    assert call.metadata["id"] == "m1"
    assert (call.metadata["error"], call.error) == ("top", "top")


def test_no_id_and_no_error_add_nothing() -> None:
    assert call_from_dict({"tool": "a", "error": True}).metadata == {}
    assert call_from_dict({"tool": "a", "error": None}).metadata == {}


def test_failures_in_metadata_fail_a_constructed_call() -> None:
    assert ToolCall(tool="x", metadata={"error": "boom"}).is_error is True
    assert ToolCall(tool="x", metadata={"is_error": True}).is_error is True
    assert ToolCall(tool="x", error="boom").is_error is True
    assert ToolCall(tool="x", metadata={"error": None, "is_error": False}).is_error is False
    assert ToolCall(tool="x", metadata={"error": False}).is_error is False
    assert ToolCall(tool="x").is_error is False


def test_to_dict_does_not_repeat_the_fields_in_metadata() -> None:
    call = call_from_dict({"tool": "a", "args": {}, "id": "c1", "error": "boom"})
    assert call.to_dict() == {
        "tool": "a",
        "args": {},
        "error": "boom",
        "id": "c1",
        "is_error": True,
    }
    assert call_from_dict(call.to_dict()) == call
    other = ToolCall(tool="a", id="c1", metadata={"id": "different"})
    assert other.to_dict()["metadata"] == {"id": "different"}


def test_the_json_report_lists_id_and_error_once(tmp_path: Path) -> None:
    gold = tmp_path / "gold.json"
    trace = tmp_path / "trace.json"
    report = tmp_path / "report.json"
    gold.write_text(json.dumps([{"tool": "a", "args": {}}]))
    trace.write_text(json.dumps([{"tool": "a", "args": {}, "id": "c1", "error": "boom"}]))
    result = CliRunner().invoke(main, ["eval", str(gold), str(trace), "-o", str(report)])
    assert result.exit_code == 0, result.output
    (call,) = json.loads(report.read_text())["trace_calls"]
    assert call["metadata"] == {}
    assert (call["id"], call["error"], call["is_error"]) == ("c1", "boom", True)


def test_evaluate_numbers_are_unchanged_by_ids_and_messages() -> None:
    expected = [{"tool": "a", "args": {"x": 1}}]
    plain = evaluate(expected, [{"tool": "a", "args": {"x": 1}, "error": "boom"}])
    with_id = evaluate(expected, [{"tool": "a", "args": {"x": 1}, "error": "boom", "id": "c"}])
    assert plain.score == with_id.score
    assert plain.trace_calls[0].metadata["error"] == "boom"
