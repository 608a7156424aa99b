"""Conformance checks, the schema-ref lint rule, provider compatibility and budgets against
real servers on the ``mcp`` SDK (``servers/conformance_*.py``), over stdio and streamable
HTTP: each flawed server draws exactly its own rule, the clean one draws none."""

from __future__ import annotations

import json
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp_support import run_cli, server_cmd
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore_mcp.client.target import ServerTarget
from toolscore_mcp.grading.harness import TestOptions, grade_server, run_sync
from toolscore_mcp.grading.scorecard import MCPScorecard

TOKEN = "s3cret-token"

#: server file -> (conformance checks that fail, lint rules that fire), on both transports.
EXPECTED: dict[str, tuple[set[str], set[str]]] = {
    "conformance_clean.py": (set(), set()),
    "conformance_output_schema.py": ({"output-schema"}, set()),
    "conformance_annotations.py": ({"annotations"}, set()),
    "conformance_name.py": (set(), {"invalid-name", "naming"}),
    "conformance_schema_ref.py": (set(), {"schema-ref"}),
    "conformance_bad_input.py": ({"bad-input-error"}, set()),
    "conformance_resource_link.py": ({"resource-link"}, set()),
    "conformance_unstable_list.py": ({"tools-list-stable"}, set()),
}
#: HTTP-only flaws (every HTTP server is run with a bearer token, so the 401 check applies).
EXPECTED_HTTP_ONLY = {
    "conformance_http_version.py": {"http-protocol-version"},
    "conformance_http_origin.py": {"http-origin"},
    "conformance_http_auth.py": {"http-auth-metadata"},
}
HTTP_CHECKS = {"http-protocol-version", "http-origin", "http-auth-metadata"}


@pytest.fixture(scope="module")
def pm() -> ToolscorePluginManager:
    import toolscore_mcp.plugin

    manager = ToolscorePluginManager()
    manager.register(toolscore_mcp.plugin, name="toolscore_mcp")
    return manager


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def http_server() -> Iterator[object]:
    started: list[subprocess.Popen[bytes]] = []

    def start(name: str) -> str:
        port = _free_port()
        process = subprocess.Popen(
            server_cmd(name, "http", str(port), TOKEN),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        started.append(process)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    return f"http://127.0.0.1:{port}/mcp"
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"{name} did not start")

    yield start
    for process in started:
        process.terminate()
        process.wait(timeout=10)


def _grade(target: ServerTarget, pm: ToolscorePluginManager) -> MCPScorecard:
    return run_sync(lambda: grade_server(target, TestOptions(cases=2), pm=pm))


def _fired(card: MCPScorecard) -> tuple[set[str], set[str]]:
    failing = {o.rule for o in card.conformance if o.status == "fail"}
    return failing, {issue.rule for issue in card.lint}


def _sdk_answers_tool_errors_as_protocol_errors() -> bool:
    """mcp 1.x's low-level ``Server`` turns any exception a tool handler raises (its
    ``McpError`` included) into an ``isError`` result, so a server on it cannot answer bad
    input with a JSON-RPC error; 2.x passes ``MCPError`` through as one."""
    import mcp.shared.exceptions as exceptions

    return hasattr(exceptions, "MCPError")


_NEEDS_PROTOCOL_ERRORS = pytest.mark.skipif(
    not _sdk_answers_tool_errors_as_protocol_errors(),
    reason="the mcp 1.x low-level Server cannot answer a tool call with a JSON-RPC error",
)


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=_NEEDS_PROTOCOL_ERRORS) if name == "conformance_bad_input.py"
        else name
        for name in sorted(EXPECTED)
    ],
)  # fmt: skip
def test_each_rule_fires_exactly_on_its_server_over_stdio(
    name: str, pm: ToolscorePluginManager
) -> None:
    card = _grade(ServerTarget(command=tuple(server_cmd(name))), pm)
    assert _fired(card) == EXPECTED[name]
    statuses = {o.rule: o.status for o in card.conformance}
    assert card.server.protocol_version == "2025-11-25"
    assert {statuses[rule] for rule in HTTP_CHECKS} == {"not-applicable"}  # stdio


def _sdk_serves_http() -> bool:
    """The conformance servers' HTTP mode uses the 2.x low-level ``streamable_http_app``."""
    from mcp.server.lowlevel import Server

    return hasattr(Server, "streamable_http_app")


@pytest.mark.skipif(not _sdk_serves_http(), reason="the mcp 1.x low-level server has no HTTP app")
@pytest.mark.parametrize("name", sorted({**EXPECTED, **EXPECTED_HTTP_ONLY}))
def test_each_rule_fires_exactly_on_its_server_over_http(
    name: str, pm: ToolscorePluginManager, http_server: object
) -> None:
    url = http_server(name)  # type: ignore[operator]
    target = ServerTarget(transport="http", url=url, headers={"Authorization": f"Bearer {TOKEN}"})
    card = _grade(target, pm)
    failing, lint = EXPECTED.get(name, (EXPECTED_HTTP_ONLY.get(name, set()), set()))
    assert _fired(card) == (failing, lint)
    statuses = {o.rule: o.status for o in card.conformance}
    assert {statuses[rule] for rule in HTTP_CHECKS - failing} == {"pass"}


@_NEEDS_PROTOCOL_ERRORS
def test_outcome_of_bad_input_is_recorded_and_reported(pm: ToolscorePluginManager) -> None:
    from toolscore_mcp.reports.json_report import scorecard_to_json
    from toolscore_mcp.reports.markdown import scorecard_to_markdown

    card = _grade(ServerTarget(command=tuple(server_cmd("conformance_bad_input.py"))), pm)
    data = scorecard_to_json(card)
    assert data["bad_input"]["protocol-error"] >= 4
    assert {c["outcome"] for c in data["bad_input"]["by_call"]} <= {
        "is-error", "protocol-error", "accepted", "crash"
    }  # fmt: skip
    assert data["protocol_version"] == "2025-11-25"
    markdown = scorecard_to_markdown(card)
    assert "Negotiated protocol: `2025-11-25`" in markdown
    assert "| `bad-input-error` | FAIL |" in markdown
    assert "## Provider compatibility" in markdown
    assert set(data["compatibility"]["providers"]) == {"openai-strict", "gemini", "anthropic"}


def test_checks_for_a_newer_revision_are_not_applicable(pm: ToolscorePluginManager) -> None:
    from toolscore_mcp.conformance import (
        ConformanceContext,
        collect_conformance_checks,
        run_conformance,
    )
    from toolscore_mcp.model import ServerDetails

    card = _grade(ServerTarget(command=tuple(server_cmd("conformance_bad_input.py"))), pm)
    old = ServerDetails(protocol_version="2025-06-18", transport="stdio")
    context = ConformanceContext(details=old, tools=card.tools, results=card.results)
    outcomes = {
        o.rule: o
        for o in run_sync(lambda: run_conformance(collect_conformance_checks(pm), context))
    }
    assert outcomes["bad-input-error"].status == "not-applicable"
    assert "2025-11-25" in outcomes["bad-input-error"].note


ODD_TOOLS = {
    "tools": [
        {
            "name": "remove_user",
            "description": "Remove a user account.",
            "inputSchema": {"type": "object", "properties": {}},
            "annotations": {"readOnlyHint": "yes", "destructiveHint": 1, "title": 5},
        },
        {
            "name": "purge_cache",
            "description": "Purge the cache.",
            "inputSchema": {"type": "object", "properties": {}},
            "annotations": {"readOnlyHint": True, "destructiveHint": True},
        },
    ]
}


def test_annotation_types_and_contradictions_from_a_tools_file(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(ODD_TOOLS), encoding="utf-8")
    result = run_cli("mcp", "lint", "--file", str(path))
    out = result.stdout + result.stderr
    assert "annotations.readOnlyHint is 'yes', not a boolean" in out
    assert "annotations.destructiveHint is 1, not a boolean" in out
    assert "annotations.title is 5, not a string" in out
    assert "readOnlyHint: true and destructiveHint: true" in out
    assert "its name says it deletes but it is annotated readOnlyHint: true" in out


def test_budget_gates_and_presets(tmp_path: Path) -> None:
    tools = [
        {"name": f"tool_{i}", "description": "Look up one record by its id in the store.",
         "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}}
        for i in range(41)
    ]  # fmt: skip
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    within = run_cli("mcp", "lint", "--file", str(path), "--budget", "100000")
    assert within.returncode == 0, within.stdout + within.stderr
    assert "near-duplicate descriptions: tool_0 / tool_1" in within.stderr
    over = run_cli("mcp", "lint", "--file", str(path), "--budget", "cursor")
    assert over.returncode == 1
    assert "advertises 41 tools, over the limit of 40 (cursor)" in over.stderr
    tokens = run_cli("mcp", "lint", "--file", str(path), "--budget", "50")
    assert tokens.returncode == 1
    assert "over the budget of 50" in tokens.stderr
    bad = run_cli("mcp", "lint", "--file", str(path), "--max-tools", "lots")
    assert bad.returncode == 2
    assert "--max-tools takes a positive number" in bad.stderr


def test_failed_conformance_checks_are_in_the_sarif_log(pm: ToolscorePluginManager) -> None:
    from toolscore_mcp.reports.sarif import scorecard_to_sarif

    card = _grade(ServerTarget(command=tuple(server_cmd("conformance_annotations.py"))), pm)
    log = scorecard_to_sarif(card)
    results = [r for r in log["runs"][0]["results"] if r["ruleId"] == "conformance/annotations"]
    assert results
    assert all("toolscoreConformance/v1" in r["partialFingerprints"] for r in results)
    clean = _grade(ServerTarget(command=tuple(server_cmd("conformance_clean.py"))), pm)
    rule_ids = {r["ruleId"] for r in scorecard_to_sarif(clean)["runs"][0]["results"]}
    assert not any(rule.startswith("conformance/") for rule in rule_ids)
