"""State that flows: what one tool made or named is what the next tools get.

Real stdio test servers (``servers/tracker_server.py``, ``workbook_server.py``,
``db_server.py``, ``hint_server.py``), no mocks: ids a tool returned reach the tools that
need them, a workbook is opened before the tools that act on it and closed after them,
listed tables feed the query tool, and a repair never sets a path to a word of the hint.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp_support import server_cmd
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore_mcp.client.target import ServerTarget
from toolscore_mcp.grading.harness import TestOptions, grade_server, run_sync
from toolscore_mcp.grading.scorecard import MCPScorecard
from toolscore_mcp.model import MCPToolDef, MCPToolResult
from toolscore_mcp.values.command_line import command_line_paths
from toolscore_mcp.values.harvest import Harvest
from toolscore_mcp.values.meaning import fits_meaning
from toolscore_mcp.values.providers import Parameter
from toolscore_mcp.values.roles import run_order, tool_phase


@pytest.fixture
def pm() -> ToolscorePluginManager:
    from toolscore.plugins import get_plugin_manager

    return get_plugin_manager()


def grade(server: str, pm: ToolscorePluginManager, *args: str) -> MCPScorecard:
    target = ServerTarget(command=tuple(server_cmd(server, *args)))
    return run_sync(lambda: grade_server(target, TestOptions(timeout=10.0), pm=pm))


def happy(card: MCPScorecard, tool: str) -> list:
    return [r for r in card.results if r.scenario.tool == tool and r.scenario.kind == "happy"]


def verified(card: MCPScorecard) -> set[str]:
    return {row.tool for row in card.coverage() if row.status == "works"}


def test_ids_a_tool_returned_reach_the_tools_that_need_them(pm: ToolscorePluginManager) -> None:
    card = grade("tracker_server.py", pm)
    assert verified(card) >= {"request_planning", "get_next_task", "mark_task_done"}
    [first] = happy(card, "get_next_task")[:1]
    assert first.scenario.arguments["requestId"].startswith("req-")
    assert first.scenario.evidence["requestId"] == "harvested"
    done = [r for r in happy(card, "mark_task_done") if r.verdict == "pass"]
    assert done
    assert done[0].scenario.arguments["taskId"].startswith("task-")
    ids = [
        value
        for result in card.results
        if result.scenario.kind == "happy"
        for name, value in result.scenario.arguments.items()
        if name.endswith("Id")
    ]
    assert ids
    assert not any("sample" in str(value) for value in ids)


def test_a_workbook_is_opened_before_and_closed_after_the_tools_that_act_on_it(
    pm: ToolscorePluginManager,
) -> None:
    card = grade("workbook_server.py", pm)
    tools = {"open_workbook", "list_sheets", "update_cell", "read_cell", "close_workbook"}
    assert verified(card) == tools
    [opened] = [r for r in happy(card, "open_workbook") if r.verdict == "pass"][:1]
    assert opened.scenario.arguments["path"].endswith("report.xlsx")
    order = [r.scenario.tool for r in card.results if r.scenario.kind == "happy"]
    assert order.index("open_workbook") < order.index("read_cell") < order.index("close_workbook")
    [read] = [r for r in happy(card, "read_cell") if r.verdict == "pass"][:1]
    assert read.scenario.arguments["sheet"] == "Sheet1"
    assert read.scenario.arguments["workbook_id"].startswith("wb-")


def test_listed_tables_feed_the_query_tool(pm: ToolscorePluginManager) -> None:
    card = grade("db_server.py", pm)
    assert verified(card) == {"list_tables", "describe_table", "read_query"}
    [query] = happy(card, "read_query")[:1]
    assert query.scenario.arguments["query"] == "SELECT * FROM orders LIMIT 5"
    assert query.verdict == "pass"
    [described] = happy(card, "describe_table")[:1]
    assert described.scenario.arguments["table_name"] == "orders"


def test_a_repair_never_sets_a_path_to_a_word_of_the_hint(pm: ToolscorePluginManager) -> None:
    card = grade("hint_server.py", pm)
    sent = [
        arguments.get("path")
        for result in happy(card, "read_log")
        for arguments in [result.scenario.arguments, *(a.arguments for a in result.attempts)]
    ]
    assert sent
    assert "before" not in sent
    assert "after" not in sent
    assert all("/" in str(path) for path in sent)


def _tool(name: str, description: str = "", properties: dict | None = None) -> MCPToolDef:
    schema = {"type": "object", "properties": properties or {}}
    return MCPToolDef(name=name, description=description, input_schema=schema, raw={})


def test_tools_that_open_load_or_register_run_first_and_container_destroyers_last() -> None:
    planning = _tool("request_planning", "Register a new user request and plan its tasks.")
    loader = _tool("load_session", "Load a session from a file.")
    reader = _tool("get_report", "Return the report.")
    assert tool_phase(planning) == 0
    assert tool_phase(loader) == 0
    assert tool_phase(reader) == 2
    sheet = {"path": {"type": "string"}, "sheet": {"type": "string"}}
    tools = [
        _tool("delete_sheet", "", sheet),
        _tool("delete_note", "", {**sheet, "cell": {"type": "string"}}),
        _tool("list_sheets"),
    ]
    orders = {tool.name: run_order(tool, tools) for tool in tools}
    assert orders["delete_note"] < orders["delete_sheet"]
    assert orders["list_sheets"] < (2, 1)


def test_the_harvest_reads_labelled_ids_listings_and_python_literals() -> None:
    harvest = Harvest()
    answer = MCPToolResult(
        content=[{"type": "text", "text": "Request ID: req-7\nTask ID: t-1"}],
        is_error=False,
        duration=0.0,
    )
    harvest.add_call("request_planning", {}, answer)
    assert next(harvest.lookup("requestId", "x", ()))[0] == "req-7"
    assert next(harvest.lookup("taskId", "x", ()))[0] == "t-1"
    tables = MCPToolResult(
        content=[{"type": "text", "text": "[{'name': 'orders'}]"}], is_error=False, duration=0.0
    )
    harvest.add_call("list_tables", {}, tables)
    assert next(harvest.lookup("table_name", "x", ("table",)))[0] == "orders"


def test_values_must_fit_the_parameter_meaning() -> None:
    tool = _tool("t")
    path = Parameter(tool, "path", {"type": "string", "description": "File to read."})
    digest = Parameter(tool, "commit_hash", {"type": "string"})
    assert not fits_meaning(path, "before")
    assert fits_meaning(path, "/tmp/x/notes.txt")
    assert not fits_meaning(digest, "/tmp/x/notes.txt")
    assert fits_meaning(digest, "3f2a9c1")


def test_paths_on_the_server_command_line_are_known_by_kind(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    db = tmp_path / "data.db"
    db.write_bytes(b"")
    found = command_line_paths(["server", "--repository", str(repo), f"--db-path={db}"])
    assert found == {"repository": str(repo), "database": str(db)}
