"""``mcp lock`` and ``mcp diff`` print server-provided names and descriptions safely.

Tool names and descriptions come from the server (or from a lock file that came from one):
an OSC-8 link, BEL, a bidi override (U+202E) or a credential in them must be shown as escapes
or redacted, in the text and the Markdown output, from a lock file or a live stdio server
(tests/mcp/servers/tools_from_file_server.py, a real process). A lone surrogate in a tool name
(JSON ``"e\\ud800"``) is escaped, never a crash.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp_support import run_cli, server_cmd

GITHUB = "ghp_" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z0AbC"
OPENAI = "sk-proj-" + "AbCdEfGhIjKlMnOpQrStUvWxYz_-AbCdEfGhIjKl"
LINK = "\x1b]8;;https://attacker.example/\x07click me\x1b]8;;\x07"
HOSTILE_NAME = f"gone{LINK}"
ADDED_NAME = f"new\u202etool_{GITHUB}"
SURROGATE_NAME = "e\ud800"
RAW = ("\x1b", "\x07", "\u202e", GITHUB, OPENAI)


def _tool(name: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": {}},
    }


def _lock(tools: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "version": 1,
        "server": {"name": "s", "version": "1"},
        "protocolVersion": "2025-06-18",
        "tools": {t["name"]: {"hash": "sha256:0", "definition": t} for t in tools},
    }


OLD_TOOLS = [
    _tool("keep", "Reads a file."),
    _tool(HOSTILE_NAME, "Removed."),
    _tool(SURROGATE_NAME, "A name with a lone surrogate."),
]
NEW_TOOLS = [
    _tool("keep", f"Reads a file. \u202eevil {GITHUB} {OPENAI}"),
    _tool(ADDED_NAME, "Added."),
    _tool(SURROGATE_NAME, "A name with a lone surrogate, changed."),
]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {
        "old": tmp_path / "old.lock.json",
        "new": tmp_path / "new.lock.json",
        "tools": tmp_path / "tools.json",
    }
    paths["old"].write_text(json.dumps(_lock(OLD_TOOLS)), encoding="utf-8")
    paths["new"].write_text(json.dumps(_lock(NEW_TOOLS)), encoding="utf-8")
    paths["tools"].write_text(json.dumps({"tools": NEW_TOOLS}), encoding="utf-8")
    return paths


def _assert_safe(output: str) -> None:
    for raw in RAW:
        assert raw not in output
    assert "\\x1b]8;;https://attacker.example/\\x07click me" in output
    assert "\\u202e" in output
    assert "[REDACTED github_token" in output
    assert "[REDACTED openai_api_key" in output
    assert "e\\ud800" in output


@pytest.mark.parametrize("fmt", ["text", "md"])
@pytest.mark.parametrize("source", ["lock", "server"])
def test_diff_escapes_and_redacts_what_the_server_wrote(
    files: dict[str, Path], fmt: str, source: str
) -> None:
    new = (
        [str(files["new"])]
        if source == "lock"
        else server_cmd("tools_from_file_server.py", str(files["tools"]))
    )
    done = run_cli("mcp", "diff", str(files["old"]), "--format", fmt, *new)
    assert done.returncode == 1, done.stderr  # the removals are breaking
    assert "Traceback" not in done.stderr
    assert "codec" not in done.stderr
    _assert_safe(done.stdout)
    assert "removed" in done.stdout
    assert "added" in done.stdout


def test_markdown_cells_escape_html_and_pipes(tmp_path: Path) -> None:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(_lock([])), encoding="utf-8")
    new.write_text(json.dumps(_lock([_tool("a|b`c<img src=x>", "x")])), encoding="utf-8")
    done = run_cli("mcp", "diff", str(old), str(new), "--format", "md", "--fail-on", "never")
    assert done.returncode == 0, done.stderr
    row = done.stdout.splitlines()[-1]
    assert row == "| compatible | ``a\\|b`c<img src=x>`` | tool was added |  |"


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_machine_formats_escape_what_a_terminal_would_obey(
    files: dict[str, Path], fmt: str
) -> None:
    done = run_cli("mcp", "diff", str(files["old"]), str(files["new"]), "--format", fmt)
    assert done.returncode == 1, done.stderr
    for raw in ("\x1b", "\x07", "\u202e"):
        assert raw not in done.stdout
    document = json.loads(done.stdout)  # the escapes read back as the same characters
    if fmt == "json":
        assert {c["tool"] for c in document["changes"]} >= {HOSTILE_NAME, ADDED_NAME}
        assert SURROGATE_NAME in {c["tool"] for c in document["changes"]}


def test_lock_and_diff_survive_a_lone_surrogate_in_a_tool_name(tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps({"tools": OLD_TOOLS}), encoding="utf-8")
    lock = tmp_path / "mcp.lock.json"
    done = run_cli(
        "mcp", "lock", "-o", str(lock), *server_cmd("tools_from_file_server.py", str(tools))
    )
    assert done.returncode == 0, done.stderr
    assert "Locked 3 tool(s)" in done.stdout
    written = lock.read_text(encoding="utf-8")  # valid UTF-8: the surrogate is escaped
    assert '"e\\ud800"' in written
    assert SURROGATE_NAME in json.loads(written)["tools"]
    same = run_cli("mcp", "diff", str(lock), *server_cmd("tools_from_file_server.py", str(tools)))
    assert same.returncode == 0, same.stderr
    assert same.stdout.startswith("No changes")
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(_lock(NEW_TOOLS)), encoding="utf-8")
    diff = run_cli("mcp", "diff", str(lock), str(changed))
    assert "codec" not in diff.stderr
    assert "Traceback" not in diff.stderr
    assert "e\\ud800: tool description changed" in diff.stdout
