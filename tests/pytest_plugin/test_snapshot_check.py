"""``snapshot_check`` without pytest: its life cycle (record, approve, replay; nothing written in CI)
and the matcher forms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import toolscore
from toolscore.snapshots import (
    Snapshot,
    SnapshotStore,
    merge_recorded_calls,
    run_snapshot,
    snapshot_check,
)

CALLS = [{"tool": "search", "args": {"q": "NYC"}}, {"tool": "book", "args": {"id": "FL-1"}}]
OPENAI = {
    "choices": [
        {"message": {"tool_calls": [{"function": {"name": "search", "arguments": '{"q": "NYC"}'}}]}}
    ]
}


@pytest.fixture
def store(tmp_path: Path) -> SnapshotStore:
    return SnapshotStore(tmp_path / "snaps")


def test_missing_locally_records_a_pending_snapshot(store: SnapshotStore) -> None:
    with pytest.warns(
        UserWarning,
        match=r"^snapshot 'n' created - review it, then approve with `toolscore approve`$",
    ):
        assert snapshot_check("n", CALLS, store=store) is None
    snapshot = store.load("n")
    assert snapshot is not None
    assert snapshot.calls == CALLS
    assert not snapshot.approved
    assert snapshot.source == "pytest"


def test_missing_in_ci_raises_and_writes_nothing(
    store: SnapshotStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI", "1")
    with pytest.raises(toolscore.ToolScoreAssertionError) as caught:
        snapshot_check("n", CALLS, store=store)
    assert str(caught.value) == (
        "snapshot 'n' does not exist; snapshots cannot be created in CI. Run the test locally to "
        "record it, review it, then approve with `toolscore approve`."
    )
    assert not store.root.exists()


def test_pending_warns_locally_and_raises_in_ci(
    store: SnapshotStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.save(Snapshot(name="n", calls=CALLS))
    with pytest.warns(
        UserWarning, match=r"pending approval - run `toolscore approve` to use it as a baseline"
    ):
        assert snapshot_check("n", [], store=store) is None
    monkeypatch.setenv("CI", "yes")
    with pytest.raises(
        toolscore.ToolScoreAssertionError, match=r"^snapshot 'n' is pending approval; an unapproved"
    ):
        snapshot_check("n", CALLS, store=store)


def test_approved_replays_and_reports_drift(
    store: SnapshotStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.save(Snapshot(name="n", calls=CALLS, approved=True))
    monkeypatch.setenv("CI", "1")  # replay works in CI too
    result = snapshot_check("n", CALLS, store=store)
    assert result is not None
    assert result.score == 1.0
    drifted = [{"tool": "search", "args": {"q": "BOS"}}, {"tool": "book", "args": {"id": "FL-1"}}]
    with pytest.raises(toolscore.ToolScoreAssertionError) as caught:
        snapshot_check("n", drifted, store=store)
    assert "Expected vs Actual Tool Calls" in str(caught.value)
    assert "q: 'NYC' ≠ 'BOS'" in str(caught.value)
    assert snapshot_check("n", drifted, store=store, min_score=0.5) is not None


def test_provider_responses_are_extracted_before_storing(store: SnapshotStore) -> None:
    pytest.importorskip("toolscore_providers")
    with pytest.warns(UserWarning, match="created"):
        snapshot_check("openai", OPENAI, store=store)
    snapshot = store.load("openai")
    assert snapshot is not None
    assert [(c["tool"], c["args"]) for c in snapshot.calls] == [("search", {"q": "NYC"})]


def test_update_overwrites_and_approves(store: SnapshotStore) -> None:
    store.save(Snapshot(name="n", calls=CALLS, created_at="2024-01-01T00:00:00+00:00"))
    with pytest.warns(
        UserWarning, match=r"^snapshot 'n' updated \(calls overwritten and approved\)$"
    ):
        outcome = run_snapshot("n", CALLS[:1], store=store, update=True)
    assert outcome.status == "updated"
    assert outcome.path == store.path_for("n")
    snapshot = store.load("n")
    assert snapshot is not None
    assert snapshot.approved
    assert snapshot.calls == CALLS[:1]
    assert snapshot.created_at == "2024-01-01T00:00:00+00:00"
    with pytest.warns(UserWarning, match="updated"):
        run_snapshot("fresh", CALLS, store=store, update=True)
    assert store.load("fresh").approved  # type: ignore[union-attr]


def test_matchers_in_the_file_are_used_on_replay(store: SnapshotStore) -> None:
    calls = [
        {
            "tool": "create",
            "args": {"id": {"$any": True}, "day": {"$regex": r"\d{4}-\d{2}-\d{2}"}, "n": 2},
        }
    ]
    store.save(Snapshot(name="m", calls=calls, approved=True))
    assert snapshot_check(
        "m", [{"tool": "create", "args": {"id": "x9", "day": "2025-01-02", "n": 2}}], store=store
    )
    with pytest.raises(toolscore.ToolScoreAssertionError):
        snapshot_check(
            "m", [{"tool": "create", "args": {"id": "x9", "day": "Jan 2", "n": 2}}], store=store
        )


def test_recorded_values_that_look_like_matchers_replay_as_themselves(store: SnapshotStore) -> None:
    mongo = [
        {"tool": "find", "args": {"filter": {"name": {"$regex": "^a"}}, "limit": {"$any": True}}}
    ]
    with pytest.warns(UserWarning, match="updated"):
        run_snapshot("mongo", mongo, store=store, update=True)
    stored = json.loads(store.path_for("mongo").read_text(encoding="utf-8"))
    assert stored["calls"][0]["args"]["filter"] == {"name": {"$literal": {"$regex": "^a"}}}
    assert snapshot_check("mongo", mongo, store=store) is not None
    with pytest.raises(toolscore.ToolScoreAssertionError):
        snapshot_check(
            "mongo",
            [{"tool": "find", "args": {"filter": {"name": "abc"}, "limit": 3}}],
            store=store,
        )


def test_re_recording_keeps_matchers_that_still_match() -> None:
    old = [
        {"tool": "a", "args": {"id": {"$any": True}, "q": "x"}},
        {
            "tool": "b",
            "args": {"when": {"$regex": r"\d+"}, "nested": {"ids": [{"$type": "int"}, 2]}},
        },
        {"tool": "b", "args": {"when": {"$regex": r"\d+"}}},
    ]
    new = [
        {"tool": "b", "args": {"when": "17", "nested": {"ids": [5, 3]}}},
        {"tool": "a", "args": {"id": "zz", "q": "y", "extra": 1}},
        {"tool": "b", "args": {"when": "later"}},
        {"tool": "c", "args": {}},
    ]
    assert merge_recorded_calls(old, new) == [
        {
            "tool": "b",
            "args": {"when": {"$regex": r"\d+"}, "nested": {"ids": [{"$type": "int"}, 3]}},
        },
        {"tool": "a", "args": {"id": {"$any": True}, "q": "y", "extra": 1}},
        {"tool": "b", "args": {"when": "later"}},
        {"tool": "c", "args": {}},
    ]


def test_extracted_calls_are_stored_without_volatile_ids(store: SnapshotStore) -> None:
    pytest.importorskip("toolscore_providers")
    anthropic = {
        "content": [
            {"type": "text", "text": "checking"},
            {"type": "tool_use", "id": "toolu_01XyZ", "name": "search", "input": {"q": "NYC"}},
        ]
    }
    with pytest.warns(UserWarning, match="created"):
        snapshot_check("a", anthropic, store=store)
    assert store.load("a").calls == [{"tool": "search", "args": {"q": "NYC"}}]  # type: ignore[union-attr]
    store.approve("a")
    anthropic["content"][1]["id"] = "toolu_02AbC"  # type: ignore[index]
    assert snapshot_check("a", anthropic, store=store) is not None
    # a list of call dicts is stored exactly as given
    given = [{"tool": "t", "args": {"x": 1}, "result": "ok", "id": "keep-me"}]
    with pytest.warns(UserWarning, match="created"):
        snapshot_check("given", given, store=store)
    assert store.load("given").calls == given  # type: ignore[union-attr]
    calls = toolscore.evaluate(CALLS, CALLS).trace_calls
    with pytest.warns(UserWarning, match="created"):
        snapshot_check("objects", calls, store=store)
    assert store.load("objects").calls == CALLS  # type: ignore[union-attr]


def test_updating_unchanged_calls_leaves_the_file_untouched(store: SnapshotStore) -> None:
    store.save(Snapshot(name="same", calls=CALLS, approved=True))
    before = store.path_for("same").read_bytes()
    with pytest.warns(UserWarning, match="updated"):
        assert run_snapshot("same", CALLS, store=store, update=True).status == "updated"
    assert store.path_for("same").read_bytes() == before  # no timestamp-only diff
