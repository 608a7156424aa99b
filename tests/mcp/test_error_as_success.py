"""Failures that come back with ``isError: false``: the shapes real servers send them in."""

from __future__ import annotations

import pytest
from toolscore_mcp.grading.verdicts import reports_failure
from toolscore_mcp.model import MCPToolResult


def _text(text: str) -> MCPToolResult:
    return MCPToolResult(content=[{"type": "text", "text": text}], is_error=False, duration=0.0)


@pytest.mark.parametrize(
    "text",
    [
        "Error: Only SELECT queries are allowed",
        "Database error: no such table: nope",
        "Unknown tool: frobnicate",
        "Contents of http://127.0.0.1/page.html: <error>No more content available.</error>",
        "/tmp/sb/nope.txt: Error - ENOENT: no such file or directory, open '/tmp/sb/nope.txt'",
        "No results were found. This could be due to bot detection or a rate limit.",
        '{"error": "backend down"}',
        # Prose anywhere in a short answer, and JSON status at any depth or per batch item.
        "Document /tmp/sb/notes.txt.docx does not exist",
        "Error getting PDF information: EOF marker not found",
        "Security violation: Command 'echo' is not allowed",
        "Please provide either a country or a subdivision code.",
        "No public holiday data available for 2024: the API is unavailable",
        '{"result": "error", "reason": "FileHash mismatch"}',
        '{"status": "task_not_found"}',
        '{"data": {"outcome": "failed", "why": "locked"}}',
        '[{"id": 1, "status": "ok"}, {"id": 2, "status": "error"}]',
        '{"success": true, "results": [{"ok": false, "message": "no such key"}]}',
    ],
)
def test_failure_text_with_is_error_false_is_caught(text: str) -> None:
    assert reports_failure(_text(text))


@pytest.mark.parametrize(
    "text",
    [
        "Hello world",
        "Error count: 3 entries",
        "No error: all checks passed",
        "No results found for toolscore",
        "Found 0 invalid rows in table t",
        "Deleted 3 files",
        '{"status": "ok", "items": [{"status": "done"}, {"state": "open"}]}',
        '{"result": "4"}',
        '{"items": [], "error_rate": 0.1}',
        "x" * 600 + " rate limit",  # long data that merely mentions it
    ],
)
def test_ordinary_answers_are_not_called_failures(text: str) -> None:
    assert not reports_failure(_text(text))
