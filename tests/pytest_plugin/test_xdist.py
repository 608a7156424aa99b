"""Snapshots under ``pytest -n 4``: every snapshot written exactly once, none corrupt, and the
summary line counts the work of all workers."""

from __future__ import annotations

import json

import pytest
from toolscore.snapshots import Snapshot, SnapshotStore

pytest.importorskip("xdist")

TESTS = """
import os
import pytest

@pytest.mark.parametrize("n", range(16))
def test_unique(toolscore_snapshot, n):
    drift = os.environ.get("DRIFT") == str(n)
    toolscore_snapshot([{"tool": "lookup", "args": {"n": -1 if drift else n, "text": "x" * 2000}}])

@pytest.mark.parametrize("n", range(4))
def test_shared(toolscore_snapshot, n):
    toolscore_snapshot([{"tool": "shared", "args": {"v": 1}}], name="shared")
"""


def test_four_workers_record_once_and_count_everything(
    pytester: pytest.Pytester,
    helpers,
    monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
) -> None:
    pytester.makepyfile(test_many=TESTS)
    root = pytester.path / ".toolscore" / "snapshots"

    first = pytester.runpytest_subprocess(
        "-n", "4", "-p", "no:cacheprovider", "-p", "no:hypothesispytest"
    )
    first.assert_outcomes(passed=20)
    # the shared name is created by exactly one worker; the other three find it pending
    first.stdout.fnmatch_lines(["toolscore: 17 snapshots created (pending approval), 3 pending"])
    files = sorted(root.iterdir())
    assert len(files) == 17
    assert all(p.suffix == ".json" for p in files)
    store = SnapshotStore(root)
    names = {store.read_file(p).name for p in files}  # every file parses and is valid
    assert "shared" in names
    assert "test_many.py::test_unique[15]" in names
    for path in files:
        assert json.loads(path.read_text(encoding="utf-8"))["approved"] is False

    assert "Approved 17 snapshot(s)." in helpers.cli(["approve", "--all", "--dir", root]).output
    stale = store.save(Snapshot(name="test_many.py::test_removed", calls=[]))
    monkeypatch.setenv("DRIFT", "3")
    replay = pytester.runpytest_subprocess(
        "-n", "4", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "--toolscore-unused=warn"
    )
    replay.assert_outcomes(passed=19, failed=1)
    replay.stdout.fnmatch_lines(
        [
            "*Expected vs Actual Tool Calls*",
            "toolscore: 19 passed, 1 failed",
            "toolscore: 1 unused snapshot (--toolscore-unused=delete removes them):",
            f"*{stale.name}*(test_many.py::test_removed)",
        ]
    )
