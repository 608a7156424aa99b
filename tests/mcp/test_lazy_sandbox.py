"""The sandbox is built only when a run needs it, and is the same either way.

Its folder is reserved (and announced as the MCP root) at launch; its files, repository,
database and web server are built the first time the command, a scenario file, a value
provider or a repair asks for something inside it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from mcp_support import server_cmd
from toolscore_mcp.client.target import ServerTarget
from toolscore_mcp.grading.harness import TestOptions, grade_server, run_sync
from toolscore_mcp.grading.scorecard import MCPScorecard
from toolscore_mcp.sandbox.lazy import LazySandbox


@pytest.fixture
def temp_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every temporary folder of the run goes here, so leftovers can be counted."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def grade(*args: str) -> MCPScorecard:
    target = ServerTarget(command=tuple(server_cmd("files_server.py", *args)))
    return run_sync(lambda: grade_server(target, TestOptions(timeout=10.0, client="lite")))


def test_a_server_without_paths_or_urls_gets_no_sandbox_built(temp_root: Path) -> None:
    card = grade("--no-files")
    assert card.sandbox == ()
    assert all(r.verdict == "pass" for r in card.results)
    assert list(temp_root.iterdir()) == []  # the reserved folder is gone too


def test_a_tool_that_reads_files_gets_a_real_sandbox_file(temp_root: Path) -> None:
    card = grade()
    placeholders = dict(card.sandbox)
    root = Path(placeholders["{sandbox}"])
    happy = [r for r in card.results if r.scenario.tool == "read_text_file"]
    happy = [r for r in happy if r.scenario.kind == "happy"]
    assert happy
    assert all(r.verdict == "pass" for r in happy)
    assert all(Path(r.scenario.arguments["path"]).is_relative_to(root) for r in happy)
    assert list(temp_root.iterdir()) == []  # built, then removed at the end


def test_placeholders_build_it_and_plain_text_does_not(tmp_path: Path) -> None:
    lazy = LazySandbox(tmp_path / "box")
    (tmp_path / "box").mkdir()
    assert lazy.substitute_all(["python", "server.py", {"x": "plain"}]) == [
        "python",
        "server.py",
        {"x": "plain"},
    ]
    assert not lazy.built
    assert lazy.substitute("{sandbox}/notes.txt") == f"{tmp_path / 'box'}/notes.txt"
    assert lazy.built
    assert (tmp_path / "box" / "notes.txt").is_file()
    lazy.close()
    assert not (tmp_path / "box").exists()
