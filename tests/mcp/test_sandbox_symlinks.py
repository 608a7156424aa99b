"""A server cannot move the sandbox: symlinks planted in it never make toolscore create,
copy, delete or hand out anything outside it.

The end-to-end cases run ``mcp test`` against a real hostile stdio server
(tests/mcp/servers/symlink_server.py) that replaces ``scratch/``, ``notes.txt``, ``data.db``
and ``repo/`` with symlinks to an outside folder, during ``tools/list`` or after its first
``tools/call``; the others plant the same symlinks with the file system and use the sandbox.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from mcp_support import run_cli, server_cmd
from toolscore_mcp.sandbox.files import NOTES
from toolscore_mcp.sandbox.sandbox import Sandbox, SandboxEscapeError

SECRET = "TOP-SECRET-outside-the-sandbox\n"

pytestmark = pytest.mark.skipif(os.name == "nt", reason="symlinks need privileges on Windows")


def _outside(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text(SECRET, encoding="utf-8")
    return outside


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("when", ["list", "call"])
def test_a_server_that_plants_symlinks_moves_nothing_outside(tmp_path: Path, when: str) -> None:
    outside = _outside(tmp_path)
    before = _snapshot(outside)
    log = tmp_path / "log.jsonl"
    card = tmp_path / "card.json"
    done = run_cli(
        "mcp", "test",
        *server_cmd("symlink_server.py", "{sandbox}", str(outside), str(log), when),
        "--report", f"json={card}",
        timeout=120,
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    assert _snapshot(outside) == before  # nothing created, deleted or changed outside
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
    entries = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    sandbox = entries[0]["sandbox"]
    calls = [e for e in entries[1:] if e["path"].startswith(sandbox)]
    assert {e["tool"] for e in calls} >= {"write_file", "read_file", "delete_file"}
    for entry in calls:
        # Every sandbox path a tool got stayed in the sandbox and held nothing from outside.
        assert entry["real"].startswith(sandbox + os.sep), entry
        assert not entry["secret"], entry
    destroyed = [e for e in calls if e["tool"] == "delete_file"]
    assert all("/scratch/" in e["path"] for e in destroyed)
    assert not os.path.lexists(sandbox)  # cleaned up, without following the links out
    # The read of the planted notes.txt was not made, and says why.
    details = [r["detail"] for r in json.loads(card.read_text(encoding="utf-8"))["results"]]
    assert any("resolves outside the sandbox" in detail for detail in details)


def test_new_paths_never_follow_a_planted_scratch_link(tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    with Sandbox.create(http=False) as sandbox:
        scratch = sandbox.root / "scratch"
        scratch.rmdir()
        scratch.symlink_to(outside)
        path = sandbox.new_path("item", ".txt")
        assert sandbox.contains(path)
        assert not scratch.is_symlink()
        copy = sandbox.disposable("file")
        assert copy.parent == scratch
        assert copy.read_text(encoding="utf-8") == NOTES
    assert _snapshot(outside) == {"secret.txt": SECRET.encode()}


def test_a_planted_notes_link_is_never_copied_in(tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    with Sandbox.create(http=False) as sandbox:
        notes = sandbox.root / "notes.txt"
        notes.unlink()
        notes.symlink_to(outside / "secret.txt")
        for kind in ("file", ".log", "text"):
            copy = sandbox.disposable(kind)
            assert not copy.is_symlink()
            assert copy.read_text(encoding="utf-8") == NOTES  # made afresh, not the secret
        assert sandbox.escaping_value({"path": [str(notes)]}) == str(notes)
        assert sandbox.escaping_value({"path": str(sandbox.root / "README.md")}) is None
    assert _snapshot(outside) == {"secret.txt": SECRET.encode()}


def test_a_planted_directory_link_is_refused_and_cleanup_leaves_the_target(
    tmp_path: Path,
) -> None:
    outside = _outside(tmp_path)
    (outside / "keep").mkdir()
    (outside / "keep" / "file.txt").write_text("keep me", encoding="utf-8")
    sandbox = Sandbox.create(http=False)
    docs = sandbox.root / "docs"
    docs.rename(sandbox.root / "docs-moved")
    docs.symlink_to(outside)
    (sandbox.root / "data.db").unlink()
    (sandbox.root / "data.db").symlink_to(outside / "secret.txt")
    (sandbox.root / "deep-link").symlink_to(outside / "keep")
    with pytest.raises(SandboxEscapeError, match="replaced by a symlink"):
        sandbox.disposable("directory")
    with pytest.raises(SandboxEscapeError):
        sandbox.disposable("database")
    before = _snapshot(outside)
    sandbox.close()
    assert not sandbox.root.exists()
    assert _snapshot(outside) == before
    assert sorted(p.name for p in outside.iterdir()) == ["keep", "secret.txt"]
