"""``toolscore approve``, ``snapshots list|show|rm`` and ``record``, run through the real CLI."""

from __future__ import annotations

import json
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from toolscore.snapshots import Snapshot, SnapshotStore


@pytest.fixture
def store(tmp_path: Path) -> SnapshotStore:
    store = SnapshotStore(tmp_path / "snaps")
    old = (datetime.now(timezone.utc) - timedelta(days=3, hours=1)).isoformat()
    store.save(Snapshot(name="alpha", calls=[{"tool": "a", "args": {"x": 1}}]))
    store.save(
        Snapshot(name="beta", calls=[{"tool": "b", "args": {}}, {"tool": "c"}], created_at=old)
    )
    store.save(Snapshot(name="gamma", calls=[], approved=True, source="trace"))
    return store


def test_approve_needs_names_or_all(store: SnapshotStore, helpers) -> None:  # type: ignore[no-untyped-def]
    result = helpers.cli(["approve", "--dir", store.root])
    assert result.exit_code == 2
    assert "ERROR Provide snapshot NAME(s) or --all." in result.output


def test_approve_unknown_name_approves_nothing(store: SnapshotStore, helpers) -> None:  # type: ignore[no-untyped-def]
    result = helpers.cli(["approve", "alpha", "nope", "--dir", store.root])
    assert result.exit_code == 1
    assert "ERROR Snapshot 'nope' does not exist." in result.output
    assert [s.name for s in store.pending()] == ["alpha", "beta"]


def test_approve_by_name_and_all(store: SnapshotStore, helpers) -> None:  # type: ignore[no-untyped-def]
    result = helpers.cli(["approve", "beta", "--dir", store.root])
    assert result.exit_code == 0, result.output
    assert "3 days ago" in result.output
    assert "Approved 1 snapshot(s)." in result.output
    assert [s.name for s in store.pending()] == ["alpha"]
    result = helpers.cli(["approve", "--all", "--dir", store.root])
    assert "alpha" in result.output
    assert "today" in result.output
    assert "Approved 1 snapshot(s)." in result.output
    result = helpers.cli(["approve", "--all", "--dir", store.root])
    assert result.exit_code == 0
    assert "No pending snapshots found — nothing to approve." in result.output


def test_approve_reports_a_corrupt_file(store: SnapshotStore, helpers) -> None:  # type: ignore[no-untyped-def]
    store.path_for("alpha").write_text("{", encoding="utf-8")
    result = helpers.cli(["approve", "alpha", "--dir", store.root])
    assert result.exit_code == 1
    assert (
        f"ERROR Corrupt snapshot file at {store.path_for('alpha')}: invalid JSON" in result.output
    )


def test_snapshots_list(store: SnapshotStore, helpers, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result = helpers.cli(["snapshots", "list", "--dir", store.root])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    row = next(line for line in lines if "gamma" in line)
    assert "v" in row.split("gamma")[0]
    assert "trace" in row
    assert " 0 " in row
    assert any("beta" in line and "o" in line.split("beta")[0] for line in lines)
    legend = next(line for line in lines if "pending approval" in line)
    assert "v approved (1)" in legend
    assert "o pending approval (2)" in legend
    assert "toolscore approve" in legend
    pending = helpers.cli(["snapshots", "list", "--pending", "--dir", store.root]).output
    assert "alpha" in pending
    assert "gamma" not in pending
    empty = helpers.cli(["snapshots", "list", "--dir", tmp_path / "none"])
    assert empty.exit_code == 0
    assert "No snapshots found." in empty.output


def test_snapshots_show(store: SnapshotStore, helpers) -> None:  # type: ignore[no-untyped-def]
    result = helpers.cli(["snapshots", "show", "beta", "--dir", store.root])
    assert result.exit_code == 0
    assert "Snapshot: beta  pending" in result.output
    assert "Calls:   2" in result.output
    assert "Call 1 — b" in result.output
    assert "Call 2 — c" in result.output
    missing = helpers.cli(["snapshots", "show", "nope", "--dir", store.root])
    assert missing.exit_code == 1
    assert "ERROR Snapshot 'nope' not found." in missing.output


def test_names_with_brackets_are_shown_verbatim(tmp_path: Path, helpers) -> None:  # type: ignore[no-untyped-def]
    store = SnapshotStore(tmp_path)
    store.save(
        Snapshot(name="tests/t.py::test_a[p 1]", calls=[{"tool": "a", "args": {"k": "[b]"}}])
    )
    shown = helpers.cli(["snapshots", "show", "tests/t.py::test_a[p 1]", "--dir", tmp_path]).output
    assert "tests/t.py::test_a[p 1]" in shown
    assert '"k": "[b]"' in shown


def test_snapshots_rm(store: SnapshotStore, helpers) -> None:  # type: ignore[no-untyped-def]
    aborted = helpers.cli(["snapshots", "rm", "alpha", "--dir", store.root], input="n\n")
    assert aborted.exit_code == 0
    assert "Delete snapshot 'alpha'? [y/N]" in aborted.output
    assert "Aborted." in aborted.output
    assert store.exists("alpha")
    confirmed = helpers.cli(["snapshots", "rm", "alpha", "--dir", store.root], input="yes\n")
    assert "Deleted snapshot 'alpha'." in confirmed.output
    assert not store.exists("alpha")
    store.path_for("beta").write_text("garbage", encoding="utf-8")  # corrupt files can be removed
    assert helpers.cli(["snapshots", "rm", "beta", "--yes", "--dir", store.root]).exit_code == 0
    assert not store.exists("beta")
    missing = helpers.cli(["snapshots", "rm", "beta", "--yes", "--dir", store.root])
    assert missing.exit_code == 1
    assert "ERROR Snapshot 'beta' not found." in missing.output


# -- record -------------------------------------------------------------------------------------


@pytest.fixture
def trace(tmp_path: Path) -> Path:
    path = tmp_path / "trace.json"
    path.write_text(
        json.dumps([{"tool": "search", "args": {"q": "x"}, "result": "ok"}, {"tool": "ping"}]),
        encoding="utf-8",
    )
    return path


def test_record_argument_errors(trace: Path, helpers, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    both = helpers.cli(["record", "--from-trace", trace, "--name", "n", "--", "echo", "hi"])
    assert both.exit_code == 2
    assert (
        "ERROR --from-trace and a trailing command are mutually exclusive; use one or the other."
        in both.output
    )
    neither = helpers.cli(["record"])
    assert neither.exit_code == 2
    assert "ERROR Provide either --from-trace FILE or a command after --." in neither.output
    nameless = helpers.cli(["record", "--from-trace", trace])
    assert nameless.exit_code == 2
    assert "ERROR --name is required when using --from-trace." in nameless.output
    missing = helpers.cli(["record", "--from-trace", tmp_path / "nope.json", "--name", "n"])
    assert missing.exit_code == 2
    assert "does not exist" in missing.output


def test_record_from_trace(trace: Path, helpers, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "snaps"
    result = helpers.cli(["record", "--from-trace", trace, "--name", "login", "--dir", root])
    assert result.exit_code == 0, result.output
    assert "Recorded snapshot 'login' (2 calls) — pending approval." in result.output
    assert "Run toolscore approve login to approve it." in result.output
    snapshot = SnapshotStore(root).load("login")
    assert snapshot is not None
    assert snapshot.source == "trace"
    assert not snapshot.approved
    assert snapshot.calls == [{"tool": "search", "args": {"q": "x"}}, {"tool": "ping", "args": {}}]

    again = helpers.cli(["record", "--from-trace", trace, "--name", "login", "--dir", root])
    assert again.exit_code == 1
    assert (
        "ERROR Snapshot 'login' already exists. Use --update to overwrite and approve it."
        in again.output
    )

    updated = helpers.cli(
        ["record", "--update", "--from-trace", trace, "--name", "login", "--dir", root]
    )
    assert updated.exit_code == 0
    assert "Updated snapshot 'login' (2 calls) — approved." in updated.output
    assert SnapshotStore(root).load("login").approved  # type: ignore[union-attr]


def test_record_from_a_bad_trace(tmp_path: Path, helpers) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.json"
    bad.write_text("{oops", encoding="utf-8")
    result = helpers.cli(["record", "--from-trace", bad, "--name", "n", "--dir", tmp_path / "s"])
    assert result.exit_code == 1
    assert "ERROR Failed to load trace:" in result.output
    assert not (tmp_path / "s").exists()


def test_record_runs_the_command_and_exits_with_its_code(helpers, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    seen = tmp_path / "env.txt"
    probe = (
        "import os, sys; from pathlib import Path; "
        f"Path({str(seen)!r}).write_text(os.environ['TOOLSCORE_RECORD'] + "
        "os.environ.get('TOOLSCORE_RECORD_UPDATE', '-')); sys.exit(3)"
    )
    result = helpers.cli(["record", "--update", "--", sys.executable, "-c", probe])
    assert result.exit_code == 3
    assert f"Recording snapshots via: {sys.executable} -c import os" in result.output
    assert (
        "Command exited with code 3. Run toolscore approve --all to approve any recorded snapshots."
        in result.output
    )
    assert seen.read_text() == "11"
    ok = helpers.cli(["record", "--", sys.executable, "-c", probe.replace("sys.exit(3)", "None")])
    assert ok.exit_code == 0
    assert seen.read_text() == "1-"
    assert "Done. Run toolscore approve --all to approve any new snapshots." in ok.output


def test_record_a_missing_program(helpers) -> None:  # type: ignore[no-untyped-def]
    result = helpers.cli(["record", "--", "definitely-not-a-program-xyz"])
    assert result.exit_code == 1
    assert "ERROR Cannot run 'definitely-not-a-program-xyz'" in result.output
