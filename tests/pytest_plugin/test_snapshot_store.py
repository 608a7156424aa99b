"""The snapshot file: naming, layout, atomic and exactly-once writes, clear errors."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest
from toolscore.errors import InputError
from toolscore.snapshots import Snapshot, SnapshotStore


def test_file_names_match_the_reference(tmp_path: Path) -> None:
    store = SnapshotStore(tmp_path)
    assert store.path_for("tests/test_x.py::test_a[p 1]").name == (
        "tests__test_x.py__test_a__p__1__-a9f2f9b6.json"
    )
    assert store.path_for("custom-name").name == "custom-name-ed556c1b.json"
    assert store.path_for("").name.startswith("snapshot-")
    long_name = "x" * 300
    assert len(store.path_for(long_name).name) == 100 + 1 + 8 + len(".json")


@pytest.mark.parametrize(
    "name", ["../../etc/passwd", "/abs/path", "..", "a/../../b", "C:\\x\\..\\y"]
)
def test_names_cannot_escape_the_root(tmp_path: Path, name: str) -> None:
    store = SnapshotStore(tmp_path / "snaps")
    path = store.path_for(name)
    assert path.parent == tmp_path / "snaps"
    store.save(Snapshot(name=name, calls=[{"tool": "t", "args": {}}]))
    assert store.load(name) is not None
    assert [p.parent for p in (tmp_path / "snaps").iterdir()] == [tmp_path / "snaps"]


def test_layout_is_indented_json_in_a_fixed_key_order(tmp_path: Path) -> None:
    store = SnapshotStore(tmp_path / "snaps")
    assert not (tmp_path / "snaps").exists()  # nothing is created before a save
    path = store.save(
        Snapshot(name="café", calls=[{"tool": "search", "args": {"q": "ü"}, "result": 3}])
    )
    text = path.read_text(encoding="utf-8")
    assert text.endswith("}\n")
    assert '"q": "ü"' in text
    data = json.loads(text)
    assert list(data) == [
        "schema_version",
        "name",
        "created_at",
        "updated_at",
        "toolscore_version",
        "approved",
        "source",
        "calls",
    ]
    assert data["created_at"].endswith("+00:00")
    assert data["calls"] == [{"tool": "search", "args": {"q": "ü"}, "result": 3}]
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temp files left behind


def test_round_trip_approve_delete_and_list(tmp_path: Path) -> None:
    store = SnapshotStore(tmp_path)
    store.save(Snapshot(name="b", calls=[{"tool": "x"}]))
    store.save(Snapshot(name="a", calls=[]))
    loaded = store.load("b")
    assert loaded == Snapshot.from_dict(loaded.to_dict()) if loaded else False
    assert [s.name for s in store.list()] == ["a", "b"]
    approved = store.approve("a")
    assert approved.approved
    assert approved.updated_at >= approved.created_at
    assert [s.name for s in store.pending()] == ["b"]
    with pytest.raises(KeyError):
        store.approve("missing")
    store.delete("a")
    store.delete("a")  # absent: nothing happens
    assert [s.name for s in store.list()] == ["b"]


def test_values_that_are_not_json_leave_the_old_file_alone(tmp_path: Path) -> None:
    store = SnapshotStore(tmp_path)
    path = store.save(Snapshot(name="n", calls=[{"tool": "t", "args": {"a": 1}}]))
    before = path.read_bytes()
    # "JSON-serializable" is the documented message's phrase, and users match on it.
    with pytest.raises(ValueError, match="JSON-serializable plain JSON values"):
        store.save(Snapshot(name="n", calls=[{"tool": "t", "args": {"when": object()}}]))
    assert path.read_bytes() == before


def _create(args: tuple[str, int]) -> bool:
    root, worker = args
    return SnapshotStore(root).create(
        Snapshot(name="shared", calls=[{"tool": "t", "args": {"w": worker}}])
    )


def test_create_is_exactly_once_across_processes(tmp_path: Path) -> None:
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with multiprocessing.get_context(method).Pool(4) as pool:
        won = pool.map(_create, [(str(tmp_path), i) for i in range(8)])
    assert won.count(True) == 1
    snapshot = SnapshotStore(tmp_path).load("shared")
    assert snapshot is not None
    assert snapshot.calls[0]["args"]["w"] == won.index(True)
    assert len(list(tmp_path.iterdir())) == 1


@pytest.mark.parametrize(
    ("content", "where", "problem"),
    [
        ("{not json", "", "invalid JSON at line 1 column 2"),
        ("[]", "$: ", "expected a JSON object with 'name' and 'calls' keys, got array"),
        ('{"name": "n"}', "$.calls: ", "expected the snapshot's calls, got nothing"),
        ('{"name": "n", "calls": {}}', "$.calls: ", "expected an array of tool calls, got object"),
        (
            '{"name": "n", "calls": [{"tool": "a"}, 3]}',
            "$.calls[1]: ",
            "expected a tool call object, got integer",
        ),
        (
            '{"name": "n", "calls": [{"tool": ""}]}',
            "$.calls[0].tool: ",
            "expected a non-empty tool name",
        ),
        ('{"name": "n", "calls": [{"args": {}}]}', "$.calls[0].tool: ", "got nothing"),
        (
            '{"name": "n", "calls": [{"tool": "a", "args": "x=1"}]}',
            "$.calls[0].args: ",
            "got string",
        ),
        ('{"name": "n", "approved": "yes", "calls": []}', "$.approved: ", "expected true or false"),
        (
            '{"name": "other", "calls": []}',
            "$.name: ",
            "expected 'n' (the name this file is stored under)",
        ),
        (
            '{"name": "n", "schema_version": 9, "calls": []}',
            "$.schema_version: ",
            "newer toolscore",
        ),
    ],
)
def test_a_broken_file_names_the_file_and_the_json_path(
    tmp_path: Path, content: str, where: str, problem: str
) -> None:
    store = SnapshotStore(tmp_path)
    path = store.path_for("n")
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        store.load("n")
    message = str(caught.value)
    assert message.startswith(f"Corrupt snapshot file at {path}: {where}")
    assert problem in message
    assert "\n" not in message
    assert caught.value.source == str(path)
    assert isinstance(caught.value, ValueError)
    assert store.list() == []  # listing skips the broken file


def test_a_broken_matcher_names_its_json_path(tmp_path: Path) -> None:
    store = SnapshotStore(tmp_path)
    path = store.path_for("n")
    path.write_text(
        json.dumps(
            {
                "name": "n",
                "calls": [
                    {"tool": "a", "args": {"q": "x"}},
                    {"tool": "b", "args": {"id": {"$regex": "("}}},
                ],
            }
        ),
        encoding="utf-8",
    )
    with pytest.raises(InputError) as caught:
        store.load("n")
    assert str(caught.value).startswith(
        f"Corrupt snapshot file at {path}: $.calls[1].args.id: invalid matcher"
    )
    assert caught.value.path == "$.calls[1].args.id"
