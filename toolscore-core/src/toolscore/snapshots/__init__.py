"""Snapshot testing for tool calls: record once, approve, then replay as a regression test.

A snapshot is one JSON file holding the tool calls an agent made for one test. The life cycle:

1. **record**: the first run writes an *unapproved* (pending) snapshot and warns;
2. **approve**: a person reviews the file and runs ``toolscore approve NAME`` (or ``--all``);
3. **replay**: later runs evaluate the agent's calls against the approved baseline and fail
   with the expected-vs-actual table when they drift.

In CI (the ``CI`` environment variable is non-empty) nothing is ever written: a missing or
pending snapshot fails the test, so a baseline can only come from a reviewed local run.

Snapshot files may hold matchers where values are volatile (ids, timestamps)::

    "args": {"order_id": {"$any": true}, "when": {"$regex": "\\\\d{4}-\\\\d{2}-\\\\d{2}"}}

They are kept when the snapshot is re-recorded, as long as they still match. A recorded value
that would read back as a matcher (a MongoDB-style ``{"$regex": ...}`` argument) is stored as
``{"$literal": value}`` so that it replays as itself.

This module needs no pytest; the fixture in ``toolscore-pytest`` is built on top of it::

    from toolscore.snapshots import snapshot_check

    result = snapshot_check("booking", agent("book a flight to NYC"))
"""

# The modules: ``record`` (the file layout and its checks), ``store`` (files on disk) and
# ``check`` (the state machine). Names outside ``__all__`` are re-exported (``X as X``)
# because the pytest plugin and tests import them from here.
from toolscore.snapshots.check import SnapshotOutcome, in_ci, run_snapshot, snapshot_check
from toolscore.snapshots.check import Status as Status
from toolscore.snapshots.check import merge_recorded_calls as merge_recorded_calls
from toolscore.snapshots.check import recordable_calls as recordable_calls
from toolscore.snapshots.record import SCHEMA_VERSION, Snapshot
from toolscore.snapshots.record import expected_from_json as expected_from_json
from toolscore.snapshots.store import DEFAULT_ROOT, SnapshotStore
from toolscore.snapshots.store import MAX_NAME_BYTES as MAX_NAME_BYTES
from toolscore.snapshots.store import sanitize_name as sanitize_name

__all__ = [
    "DEFAULT_ROOT",
    "SCHEMA_VERSION",
    "Snapshot",
    "SnapshotOutcome",
    "SnapshotStore",
    "in_ci",
    "run_snapshot",
    "snapshot_check",
]
