"""Real pytest sessions through record -> approve -> replay -> drift -> update, in and out of CI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

TESTS = """
import json
from pathlib import Path

def agent(name):
    return json.loads(Path(__file__).with_name("agent.json").read_text())[name]

def test_search(toolscore_snapshot):
    toolscore_snapshot(agent("search"))

def test_booking(toolscore_snapshot):
    toolscore_snapshot(agent("book")[:1])
    toolscore_snapshot(agent("book"))
    toolscore_snapshot(agent("book"), name="booking [custom]")
"""

AGENT = {
    "search": [{"tool": "search", "args": {"q": "flights to NYC"}}],
    "book": [
        {"tool": "search_flights", "args": {"origin": "SFO", "destination": "NYC"}},
        {"tool": "book_flight", "args": {"flight_id": "FL-123"}},
    ],
}

NAMES = [
    "test_cycle.py::test_booking",
    "test_cycle.py::test_booking-2",
    "booking [custom]",
    "test_cycle.py::test_search",
]


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(test_cycle=TESTS)
    set_agent(pytester, AGENT)
    return pytester


def set_agent(pytester: pytest.Pytester, agent: dict[str, object]) -> None:
    (pytester.path / "agent.json").write_text(json.dumps(agent), encoding="utf-8")


def snapshot_dir(pytester: pytest.Pytester) -> Path:
    return pytester.path / ".toolscore" / "snapshots"


def stored(pytester: pytest.Pytester) -> dict[str, dict[str, object]]:
    docs = [
        json.loads(p.read_text(encoding="utf-8")) for p in snapshot_dir(pytester).glob("*.json")
    ]
    return {doc["name"]: doc for doc in docs}


def test_record_approve_replay_drift_update(project: pytest.Pytester, helpers, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # 1. first run records pending snapshots, passes and warns
    result = project.runpytest()
    result.assert_outcomes(passed=2, warnings=4)
    result.stdout.fnmatch_lines(["toolscore: 4 snapshots created (pending approval)"])
    result.stdout.fnmatch_lines(
        ["*snapshot 'test_cycle.py::test_search' created - review it, then approve*"]
    )
    files = stored(project)
    assert sorted(files) == sorted(NAMES)
    assert not any(doc["approved"] for doc in files.values())
    assert files["test_cycle.py::test_booking-2"]["calls"] == AGENT["book"]

    # 2. still pending: warns, nothing evaluated
    result = project.runpytest()
    result.assert_outcomes(passed=2, warnings=4)
    result.stdout.fnmatch_lines(["toolscore: 4 pending"])

    # 3. in CI a pending snapshot fails the test and nothing is written
    before = {p.name: p.read_bytes() for p in snapshot_dir(project).iterdir()}
    monkeypatch.setenv("CI", "true")
    result = project.runpytest()
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(
        ["*is pending approval; an unapproved snapshot cannot be used as a baseline in CI*"]
    )
    result.stdout.fnmatch_lines(["toolscore: 2 failed"])
    assert {p.name: p.read_bytes() for p in snapshot_dir(project).iterdir()} == before
    monkeypatch.delenv("CI")

    # 4. approve through the real CLI
    approved = helpers.cli(["approve", "--all", "--dir", snapshot_dir(project)])
    assert approved.exit_code == 0, approved.output
    assert "Approved 4 snapshot(s)." in approved.output
    assert all(doc["approved"] for doc in stored(project).values())

    # 5. replay passes, locally and in CI
    result = project.runpytest()
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["toolscore: 4 passed"])
    monkeypatch.setenv("CI", "1")
    project.runpytest().assert_outcomes(passed=2)
    monkeypatch.delenv("CI")

    # 6. drift fails with the expected-vs-actual table
    drifted = {**AGENT, "search": [{"tool": "search", "args": {"q": "flights to BOS"}}]}
    set_agent(project, drifted)
    result = project.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*Expected vs Actual Tool Calls*"])
    result.stdout.fnmatch_lines(["*q: 'flights to NYC' ≠ 'flights*"])
    result.stdout.fnmatch_lines(["toolscore: 3 passed, 1 failed"])
    result.stdout.no_fnmatch_line("*site-packages*")
    # ... and says where the file is, how to re-record it, and how to loosen a volatile value
    result.stdout.fnmatch_lines([f"*snapshot file: {snapshot_dir(project)}*"])
    result.stdout.fnmatch_lines(
        ["*re-record: pytest test_cycle.py::test_search --toolscore-update*"]
    )
    result.stdout.fnmatch_lines(['*{"$any": true}*'])

    # 7. --toolscore-update re-records and approves; the next run passes
    result = project.runpytest("--toolscore-update")
    result.assert_outcomes(passed=2, warnings=4)
    result.stdout.fnmatch_lines(["toolscore: 4 updated"])
    assert stored(project)["test_cycle.py::test_search"]["calls"] == drifted["search"]
    project.runpytest().stdout.fnmatch_lines(["toolscore: 4 passed"])


def test_ci_never_records_and_allow_pending_does(project: pytest.Pytester, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CI", "true")
    result = project.runpytest()
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(
        [
            "*snapshot 'test_cycle.py::test_search' does not exist; snapshots cannot be created in CI.*"
        ]
    )
    assert not snapshot_dir(project).exists()

    result = project.runpytest("--toolscore-allow-pending")
    result.assert_outcomes(passed=2, warnings=4)
    result.stdout.fnmatch_lines(["toolscore: 4 snapshots created (pending approval)"])
    result = project.runpytest("--toolscore-allow-pending")
    result.stdout.fnmatch_lines(["toolscore: 4 pending"])
    import os

    assert os.environ["CI"] == "true"  # only hidden during each check


def test_update_env_var_records_approved_snapshots(project: pytest.Pytester, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("TOOLSCORE_RECORD_UPDATE", "0")
    project.runpytest().stdout.fnmatch_lines(["toolscore: 4 snapshots created (pending approval)"])
    for path in snapshot_dir(project).iterdir():
        path.unlink()
    monkeypatch.setenv("TOOLSCORE_RECORD_UPDATE", "Yes")
    project.runpytest().stdout.fnmatch_lines(["toolscore: 4 updated"])
    assert all(doc["approved"] for doc in stored(project).values())
    monkeypatch.setenv("CI", "1")
    monkeypatch.delenv("TOOLSCORE_RECORD_UPDATE")
    project.runpytest().assert_outcomes(passed=2)


def test_matchers_in_snapshot_files_survive_volatile_values_and_updates(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        test_ids="""
import json
from pathlib import Path

def test_order(toolscore_snapshot):
    toolscore_snapshot(json.loads(Path(__file__).with_name("agent.json").read_text()), name="order")
"""
    )
    set_agent(
        pytester,
        [
            {
                "tool": "create_order",
                "args": {"order_id": "ord-1", "item": "book", "at": "2024-05-01"},
            }
        ],
    )  # type: ignore[arg-type]
    pytester.runpytest("--toolscore-update").assert_outcomes(passed=1, warnings=1)
    (path,) = snapshot_dir(pytester).glob("*.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["calls"][0]["args"]["order_id"] = {"$any": True}
    doc["calls"][0]["args"]["at"] = {"$regex": r"\d{4}-\d{2}-\d{2}"}
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")

    # volatile values change: the matchers accept them
    set_agent(
        pytester,
        [
            {
                "tool": "create_order",
                "args": {"order_id": "ord-77", "item": "book", "at": "2025-01-31"},
            }
        ],
    )  # type: ignore[arg-type]
    pytester.runpytest().assert_outcomes(passed=1)
    # a value the regex rejects is drift
    set_agent(
        pytester,
        [{"tool": "create_order", "args": {"order_id": "ord-8", "item": "book", "at": "soon"}}],
    )  # type: ignore[arg-type]
    pytester.runpytest().assert_outcomes(failed=1)

    # re-recording keeps the matchers that still match and takes the new plain values
    set_agent(
        pytester,
        [
            {
                "tool": "create_order",
                "args": {"order_id": "ord-9", "item": "pen", "at": "2026-02-02"},
            }
        ],
    )  # type: ignore[arg-type]
    pytester.runpytest("--toolscore-update").assert_outcomes(passed=1, warnings=1)
    args = json.loads(path.read_text(encoding="utf-8"))["calls"][0]["args"]
    assert args == {
        "order_id": {"$any": True},
        "item": "pen",
        "at": {"$regex": r"\d{4}-\d{2}-\d{2}"},
    }
    pytester.runpytest().assert_outcomes(passed=1)


def test_a_hand_broken_snapshot_fails_with_one_clear_line(
    project: pytest.Pytester, helpers
) -> None:  # type: ignore[no-untyped-def]
    project.runpytest("--toolscore-update")
    from toolscore.snapshots import SnapshotStore

    path = SnapshotStore(snapshot_dir(project)).path_for("test_cycle.py::test_search")
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["calls"][0]["tool"] = 42
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    result = project.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    expected = f"Corrupt snapshot file at {path}: $.calls[0].tool: expected a non-empty tool name, got integer"
    header = next(i for i, line in enumerate(result.outlines) if line.strip("_ ") == "test_search")
    failure = result.outlines[header + 1 :]
    assert failure[0] == expected  # the whole report of the failing test is this one line
    assert failure[1].startswith("toolscore: ")
    result.stdout.no_fnmatch_line("*Traceback*")
    result.stdout.fnmatch_lines(["toolscore: 3 passed, 1 failed"])


def test_a_volatile_value_gets_the_matcher_that_fits_it(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_ids="""
import json
from pathlib import Path

def test_create(toolscore_snapshot):
    toolscore_snapshot(json.loads(Path(__file__).with_name("agent.json").read_text()))
"""
    )
    first = [{"tool": "create", "args": {"id": "0f8fad5b-d9cb-469f-a165-70867728950e"}}]
    (pytester.path / "agent.json").write_text(json.dumps(first), encoding="utf-8")
    pytester.runpytest("--toolscore-update").assert_outcomes(passed=1, warnings=1)
    again = [{"tool": "create", "args": {"id": "7c9e6679-7425-40de-944b-e07fc1f90ae7"}}]
    (pytester.path / "agent.json").write_text(json.dumps(again), encoding="utf-8")
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*create.id looks like a UUID that changes per run*"])
    result.stdout.fnmatch_lines(['*write {"$regex": "^[[]0-9a-fA-F[]]{8}-*'])
    # Following the hint makes the snapshot accept any UUID there.
    from toolscore.snapshots.hints import VOLATILE_SHAPES

    (path,) = (pytester.path / ".toolscore" / "snapshots").glob("*.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["calls"][0]["args"]["id"] = {"$regex": dict(VOLATILE_SHAPES)["a UUID"]}
    path.write_text(json.dumps(doc), encoding="utf-8")
    pytester.runpytest().assert_outcomes(passed=1)
