"""Rules the real-server corpus taught, each checked on its own: failure prose the detector must
read, repairs a hint asks for, examples written out in descriptions, the order that lets a hash
flow into an edit, and the targets a destroyer may be given."""

from __future__ import annotations

from typing import Any

import pytest
from toolscore_mcp.grading.verdicts import reports_failure
from toolscore_mcp.model import MCPToolDef, MCPToolResult
from toolscore_mcp.values.harvest import Harvest
from toolscore_mcp.values.meaning import json_example
from toolscore_mcp.values.roles import run_order


def _answer(text: str) -> MCPToolResult:
    return MCPToolResult(content=[{"type": "text", "text": text}], is_error=False, duration=0.0)


@pytest.mark.parametrize(
    "text",
    [
        "找不到ID為 `1234` 的任務。請確認ID是否正確。",
        "tasks 參數格式錯誤，請確保格式正確，錯誤訊息：" + "x" * 2000,
        "[DENIED] notes.txt",
        "Expected 1 occurrences but found 2 in notes.txt.",
        "Invalid table index. Document has 1 tables (0-0).",
        "Invalid heading level: 99. Level must be between 1 and 9.",
        "No footnotes in document",
        '{"valid": false, "message": "Document missing.docx does not exist", "report": {}}',
        '{ "a.txt": { "result": "error", "reason": "Empty patches list',
        "Search content not found in notes.txt. The closest match was " + "y" * 800,
    ],
)
def test_failures_in_these_words_are_read_as_failures(text: str) -> None:
    assert reports_failure(_answer(text))


@pytest.mark.parametrize(
    "text",
    [
        "# Notes\n" + "a line of the notes\n" * 100,
        "Here are the results. " + "Error: not found " * 40,
        '{"valid": false, "message": "Footnote 3 has no reference", "report": {}}',
        "No results were returned for that query, try another.",
        '[{"name": "build", "state": "done"}]',
    ],
)
def test_answers_that_are_data_are_not_failures(text: str) -> None:
    assert not reports_failure(_answer(text))


def test_a_json_example_in_a_description_becomes_the_value() -> None:
    description = (
        "Task list, e.g. [{name: 'Parse: the file', type: 'TO_MODIFY: change, REFERENCE: read',"
        " deps: ['a'], lines: 3}] - keep it short"
    )
    assert json_example(description) == (
        '[{"name": "Parse: the file", "type": "TO_MODIFY: change, REFERENCE: read", '
        '"deps": ["a"], "lines": 3}]'
    )
    assert json_example("A plain sentence with no example.") is None
    assert json_example("Broken {name: 'x'") is None


def _tool(name: str, schema: dict[str, Any]) -> MCPToolDef:
    return MCPToolDef(name=name, description="", input_schema=schema)


def test_an_edit_that_quotes_a_hash_runs_after_the_readers() -> None:
    edit = _tool(
        "edit_text_file_contents",
        {
            "type": "object",
            "properties": {
                "files": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"path": {"type": "string"}, "file_hash": {"type": "string"}},
                        "required": ["path", "file_hash"],
                    },
                }
            },
            "required": ["files"],
        },
    )
    read = _tool(
        "get_text_file_contents",
        {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    )
    plain_edit = _tool(
        "edit_note",
        {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
    )
    tools = [edit, read, plain_edit]
    assert run_order(plain_edit, tools) < run_order(read, tools) < run_order(edit, tools)


def test_fields_of_one_answer_object_travel_together() -> None:
    harvest = Harvest()
    answer = '{"a.txt": {"ranges": [{"start_line": 1, "end_line": 3, "range_hash": "ab12"}]}}'
    harvest.add_call("read", {}, _answer(answer), include_arguments=False)
    together = harvest.companions("ab12")
    assert together["line_start"] == 1
    assert together["end_line"] == 3


def test_only_what_a_producer_made_counts_as_made_by_this_run() -> None:
    harvest = Harvest()
    listing = '{"processes": [{"pid": 1, "name": "init"}]}'
    harvest.add_call("list_processes", {}, _answer(listing), include_arguments=False)
    harvest.add_call(
        "create_record", {"name": "toolscore-1"}, _answer('{"id": "r-9"}'), include_arguments=True
    )
    assert harvest.made("toolscore-1")
    assert harvest.made("r-9")
    assert not harvest.made("init")
    assert not harvest.made(1)
    assert [value for value, _ in harvest.lookup("name", "purge", (), made_only=True)] == [
        "toolscore-1"
    ]
