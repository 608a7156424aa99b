"""The commands as a user runs them: real `toolscore` subprocesses against real servers."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from mcp_support import FIXTURES, run_cli, server_cmd

SAMPLE = " ".join(
    [
        sys.executable,
        str(Path(__file__).parents[2] / "toolscore-mcp/src/toolscore_mcp/sample_server.py"),
    ]
)


def test_demo_grades_the_bundled_server_b_with_three_issues() -> None:
    done = run_cli("demo")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "toolscore demo - grading a bundled sample MCP server (no setup, no API key)." in out
    assert "Grade B   Score 85%" in out
    assert out.index("1. export_notes") < out.index("2. delete_note") < out.index("3. search_notes")
    assert 'toolscore mcp test "python your_server.py"' in out
    assert "Traceback" not in done.stderr


def test_mcp_test_writes_reports_and_gates_on_the_grade(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    report = tmp_path / "out" / "card.json"
    done = run_cli(
        "mcp",
        "test",
        SAMPLE,
        "--report",
        "json",
        "-o",
        str(report),
        "--ci",
        "--fail-under",
        "a",
        env={"GITHUB_STEP_SUMMARY": str(summary)},
    )
    assert done.returncode == 1, done.stderr
    assert "notes-server -> Grade B (score 85%). Report written to" in done.stdout
    assert "Wrote the scorecard to the GitHub Actions job summary." in done.stdout
    assert "Grade B is below the required A." in done.stdout
    card = json.loads(report.read_text())
    assert (
        card["grade"],
        round(card["scores"]["happy_pass_rate"], 3),
        card["total_tool_tokens"],
    ) == (
        "B",
        0.778,
        303,
    )
    assert [f["tool"] for f in card["fixes"]] == ["export_notes", "delete_note", "search_notes"]
    assert summary.read_text().startswith(
        "# MCP Scorecard: notes-server 1.0.0\n\n**Grade: B** &middot; Score 85%"
    )


def test_ci_without_fail_under_blocks_on_failures_and_sarif_lists_lint_and_scenarios(
    tmp_path: Path,
) -> None:
    sarif = tmp_path / "lint.sarif"
    done = run_cli("mcp", "test", SAMPLE, "--ci")
    assert done.returncode == 1
    assert "Blocking issues found (see 'Top issues to fix' above)." in done.stdout
    done = run_cli(
        "mcp", "test", SAMPLE, "--report", "sarif", "-o", str(sarif), "--fail-under", "B"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    log = json.loads(sarif.read_text())
    everything = log["runs"][0]["results"]
    results = [r for r in everything if not r["ruleId"].startswith("conformance/")]
    assert log["version"] == "2.1.0"
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("short-description", "warning"),
        ("prop-type", "error"),
        ("scenario/defect", "error"),  # export_notes fails on valid input, twice
        ("scenario/defect", "error"),
    ]
    assert all(r["message"]["text"].startswith("export_notes") for r in results[2:])
    # The sample's delete and write tools carry no annotations: conformance warnings last.
    conformance = everything[len(results) :]
    assert conformance
    assert {(r["ruleId"], r["level"]) for r in conformance} == {
        ("conformance/annotations", "warning")
    }


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        ((), 2, "ERROR Provide an MCP server command (quoted) or --config PATH [--server NAME]."),
        (
            ("x", "--config", "c.json"),
            2,
            "ERROR Provide exactly one of a server command or --config, not both.",
        ),
        (("x", "--fail-under", "Z"), 2, "ERROR --fail-under must be one of A-F, got 'Z'."),
        (("x", "--report", "md"), 2, "ERROR --report requires --output PATH."),
        (
            ("--config", "missing.json"),
            2,
            "ERROR Failed to load MCP config: MCP config file not found: missing.json",
        ),
        (
            ("/nonexistent/bin",),
            1,
            "ERROR Failed to test MCP server: Failed to launch MCP server ['/nonexistent/bin']",
        ),
    ],
)
def test_usage_and_launch_errors_are_one_line(
    args: tuple[str, ...], code: int, message: str
) -> None:
    done = run_cli("mcp", "test", *args)
    assert done.returncode == code
    assert done.stderr.startswith(message)
    assert done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


def test_list_lint_and_config_forms(tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    argv = server_cmd("misbehaving_server.py", "--only=echo,picky")
    config.write_text(
        json.dumps({"servers": {"odd": {"type": "stdio", "command": argv[0], "args": argv[1:]}}})
    )
    done = run_cli("mcp", "list", "--config", str(config))
    assert done.returncode == 0, done.stderr
    assert "misbehaving 0.1  (2 tools)" in done.stdout
    listed = run_cli("mcp", "list", "--config", str(config), "--server", "odd", "--json")
    saved = tmp_path / "tools.json"
    saved.write_text(listed.stdout)
    done = run_cli("mcp", "lint", str(saved))
    assert (done.returncode, done.stdout.strip()) == (0, "OK No lint issues across 2 tools.")


def test_offline_lint_of_a_saved_tool_list_exits_1_on_errors(tmp_path: Path) -> None:
    from toolscore_mcp.sample_server import TOOLS

    saved = tmp_path / "tools.json"
    saved.write_text(json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"tools": TOOLS}}))
    done = run_cli("mcp", "lint", "--file", str(saved))
    assert done.returncode == 1
    assert "Lint: 1 errors, 1 warnings" in done.stdout
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"tools": [{"description": "no name"}]}))
    done = run_cli("mcp", "lint", "--file", str(bad))
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        == f"ERROR {bad}: $.tools[0]: expected a tool object with a string 'name'"
    )
    assert (
        run_cli("mcp", "lint", "--file", str(FIXTURES / "mcp-server-time.tools.json")).returncode
        == 0
    )


def test_http_server_through_the_cli(fresh_http_url: str) -> None:
    http_url = fresh_http_url
    done = run_cli(
        "mcp",
        "test",
        "--url",
        http_url,
        "--header",
        "Authorization=Bearer ${MCP_TOKEN}",
        "--timeout",
        "10",
        env={"MCP_TOKEN": "s3cret"},
    )
    assert done.returncode == 0, done.stderr
    assert "MCP Scorecard: weather-http 2.0.0" in done.stdout
    # mcp 2.x hides the exception's message, 1.x appends it: either way a defect.
    assert "broken_lookup  fails on valid input (Error executing tool broken_lookup" in done.stdout


def test_a_url_given_as_the_command_reaches_the_remote_server(fresh_http_url: str) -> None:
    done = run_cli(
        "mcp",
        "list",
        fresh_http_url,
        "--header",
        "Authorization=Bearer s3cret",
        "--timeout",
        "10",
    )
    assert done.returncode == 0, done.stderr
    assert "broken_lookup" in done.stdout


def test_a_refused_connection_says_so() -> None:
    import socket

    with socket.socket() as probe:  # a port that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = run_cli("mcp", "test", f"http://127.0.0.1:{port}/mcp", "--timeout", "10")
    assert done.returncode == 1
    message = done.stderr.strip()
    assert message.startswith(
        f"ERROR Failed to test MCP server: Could not connect to MCP server at http://127.0.0.1:{port}/mcp: "
    )
    assert "cancel" not in message.lower()  # the transport's reason, not the cancellation


@pytest.mark.requires("toolscore_providers")  # the MCP session format is read by its extractor
def test_record_proxies_and_writes_a_session_that_scores(tmp_path: Path) -> None:
    session = tmp_path / "rec" / "session.json"
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "create_note", "arguments": {"title": "a"}},
        },
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "export_notes", "arguments": {"format": "json"}},
        },
    ]
    from mcp_support import CLI_SCRIPT

    process = subprocess.run(
        [
            sys.executable,
            str(CLI_SCRIPT),
            "mcp",
            "record",
            "-o",
            str(session),
            "--",
            *SAMPLE.split(),
        ],
        input="".join(json.dumps(m) + "\n" for m in lines),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert process.returncode == 0, process.stderr
    answers = [json.loads(line) for line in process.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, 2, 3]
    assert process.stderr.strip().endswith(f"toolscore: recorded 2 tool call(s) to {session}")
    data = json.loads(session.read_text())
    assert data["format"] == "mcp"
    assert data["recorded_by"] == "toolscore mcp record"
    kinds = [(m.get("method"), m["id"]) for m in data["messages"]]
    assert sorted(kinds, key=str) == sorted(
        [("tools/call", 2), (None, 2), ("tools/call", 3), (None, 3)], key=str
    )
    assert kinds.index(("tools/call", 2)) < kinds.index((None, 2))
    assert all("duration" in m for m in data["messages"] if "result" in m)
    gold = tmp_path / "gold.json"
    gold.write_text(
        json.dumps(
            [
                {"tool": "create_note", "args": {"title": "a"}},
                {"tool": "export_notes", "args": {"format": "json"}},
            ]
        )
    )
    scored = run_cli("eval", str(gold), str(session))
    assert scored.returncode == 0, scored.stdout + scored.stderr


def test_import_toolscore_and_help_do_not_import_the_sdk() -> None:
    code = (
        "import sys, toolscore\n"
        "from toolscore.cli import cli\n"
        "try:\n    cli.main(['--help'], standalone_mode=False)\nexcept SystemExit:\n    pass\n"
        "try:\n    cli.main(['mcp', '--help'], standalone_mode=False)\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'mcp_types', 'anyio', 'httpx2'))]\n"
        "print(heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"
    assert "Test, lint, and score MCP servers." in done.stdout


def test_verbose_explains_each_failed_happy_path_try_by_try(tmp_path: Path) -> None:
    report = tmp_path / "card.md"
    done = run_cli(
        "mcp", "test", "-v", "--report", "md", "-o", str(report),
        "--", *server_cmd("broken_server.py", "--mode=refuser"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert report.is_file()
    assert "Happy paths that failed or were inconclusive" in done.stdout
    assert re.search(r'try 1: \{.*"unit": "celsius"\} -> fail: Invalid unit', done.stdout)
