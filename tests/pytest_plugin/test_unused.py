"""``--toolscore-unused=warn|fail|delete``: only whole runs judge, and nothing in doubt goes."""

from __future__ import annotations

from pathlib import Path

import pytest
from toolscore.snapshots import Snapshot, SnapshotStore

TESTS = """
import os

def test_a(toolscore_snapshot):
    if os.environ.get("BREAK_A"):
        raise RuntimeError("broken before the snapshot call")
    toolscore_snapshot([{"tool": "a"}])

def test_b(toolscore_snapshot):
    toolscore_snapshot([{"tool": "b"}], name="b-explicit")

def test_plain():
    pass
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(test_app=TESTS)
    pytester.runpytest("--toolscore-update").assert_outcomes(passed=3, warnings=2)
    store = SnapshotStore(root(pytester))
    store.save(Snapshot(name="test_app.py::test_gone", calls=[]))  # its test was deleted
    store.save(Snapshot(name="test_app.py::test_a-2", calls=[]))  # a second call that went away
    store.save(Snapshot(name="orphan", calls=[]))  # an explicit name nobody uses
    store.save(Snapshot(name="elsewhere/test_x.py::test_y", calls=[]))  # a file not collected
    return pytester


def root(pytester: pytest.Pytester) -> Path:
    return pytester.path / ".toolscore" / "snapshots"


def names(pytester: pytest.Pytester) -> set[str]:
    return {s.name for s in SnapshotStore(root(pytester)).list()}


def test_warn_lists_unused_snapshots_and_keeps_the_exit_code(project: pytest.Pytester) -> None:
    result = project.runpytest("--toolscore-unused=warn")
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        [
            "toolscore: 2 passed",
            "toolscore: 3 unused snapshots (--toolscore-unused=delete removes them):",
            "  .toolscore/snapshots/orphan-*.json  (orphan)",
            "  .toolscore/snapshots/test_app.py__test_a-2-*.json  (test_app.py::test_a-2)",
            "  .toolscore/snapshots/test_app.py__test_gone-*.json  (test_app.py::test_gone)",
        ]
    )
    result.stdout.no_fnmatch_line("*elsewhere*")


def test_fail_fails_an_otherwise_green_run(project: pytest.Pytester) -> None:
    result = project.runpytest("--toolscore-unused=fail")
    result.assert_outcomes(passed=3)
    assert result.ret == 1
    result.stdout.fnmatch_lines(["toolscore: 3 unused snapshots (failing the run; *"])


def test_delete_removes_them(project: pytest.Pytester) -> None:
    result = project.runpytest("--toolscore-unused=delete")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["toolscore: deleted 3 unused snapshots:"])
    assert names(project) == {"test_app.py::test_a", "b-explicit", "elsewhere/test_x.py::test_y"}
    project.runpytest("--toolscore-unused=fail").assert_outcomes(passed=3)


@pytest.mark.parametrize(
    "narrowing", [("-k", "test_a"), ("-m", "not slow"), ("test_app.py::test_a",)]
)
def test_partial_runs_are_not_judged(project: pytest.Pytester, narrowing: tuple[str, ...]) -> None:
    project.makepyfile(test_slow="import pytest\n\n@pytest.mark.slow\ndef test_slow():\n    pass\n")
    project.makeini("[pytest]\nmarkers = slow\n")
    result = project.runpytest("--toolscore-unused=delete", *narrowing)
    result.stdout.fnmatch_lines(
        ["toolscore: unused-snapshot check skipped (only part of the suite ran)"]
    )
    assert len(names(project)) == 6


def test_stopping_early_is_partial(project: pytest.Pytester) -> None:
    project.makepyfile(test_0first="def test_fails():\n    assert False\n")
    result = project.runpytest("--toolscore-unused=delete", "-x")
    result.stdout.fnmatch_lines(
        ["toolscore: unused-snapshot check skipped (only part of the suite ran)"]
    )
    assert len(names(project)) == 6


def test_a_test_that_failed_early_keeps_its_snapshots(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BREAK_A", "1")
    result = project.runpytest("--toolscore-unused=delete")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(
        ["toolscore: deleted 1 unused snapshot:", "*(test_app.py::test_gone)"]
    )
    # test_a's own snapshots and every explicit name stay while a snapshot test is failing
    assert names(project) == {
        "test_app.py::test_a",
        "test_app.py::test_a-2",
        "b-explicit",
        "orphan",
        "elsewhere/test_x.py::test_y",
    }


def test_explicit_names_are_judged_only_when_the_whole_suite_ran(project: pytest.Pytester) -> None:
    result = project.runpytest("--toolscore-unused=warn", "test_app.py")
    result.stdout.fnmatch_lines(["toolscore: 2 unused snapshots *"])
    result.stdout.no_fnmatch_line("*(orphan)*")


DIRECT = """
import os
from pathlib import Path

from toolscore.snapshots import SnapshotStore, snapshot_check

STORE = SnapshotStore(Path(__file__).parent / ".toolscore" / "snapshots")

def test_direct():
    if os.environ.get("BREAK_DIRECT"):
        raise RuntimeError("broken before the snapshot call")
    snapshot_check("checked-directly", [{"tool": "direct"}], store=STORE)
"""


def test_snapshots_checked_without_the_fixture_are_used(project: pytest.Pytester) -> None:
    project.makepyfile(test_direct=DIRECT)
    project.runpytest("test_direct.py", "--toolscore-update").assert_outcomes(passed=1)
    result = project.runpytest("--toolscore-unused=delete")
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["toolscore: deleted 3 unused snapshots:"])
    assert "checked-directly" in names(project)


def test_a_failing_test_keeps_every_explicitly_named_snapshot(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    project.makepyfile(test_direct=DIRECT)
    project.runpytest("test_direct.py", "--toolscore-update").assert_outcomes(passed=1)
    monkeypatch.setenv("BREAK_DIRECT", "1")
    result = project.runpytest("--toolscore-unused=delete")
    result.assert_outcomes(passed=3, failed=1)
    # The failing test uses no fixture, yet it may have been about to check any named snapshot.
    assert {"checked-directly", "orphan"} <= names(project)
