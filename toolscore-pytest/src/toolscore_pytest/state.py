"""Per-session bookkeeping: snapshot outcome counts and what the unused-snapshot check needs.

One :class:`SessionState` lives in ``config.stash``. Under pytest-xdist every worker keeps its
own, ships it to the controller as plain data in ``workeroutput``, and the controller adds
them up, so the summary line counts every worker. Nothing here imports toolscore.
"""

from __future__ import annotations

from typing import Any

import pytest

#: Order and wording of the summary parts (the terminal summary lists them so).
OUTCOMES: tuple[str, ...] = ("created", "updated", "pending", "passed", "failed")

#: Key of our data inside xdist's ``workeroutput``.
WORKEROUTPUT_KEY = "toolscore"


class SessionState:
    """What the ``toolscore_snapshot`` fixture did in this session (or on this worker)."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = dict.fromkeys(OUTCOMES, 0)
        #: Snapshot names the fixture checked, whatever the outcome.
        self.used: set[str] = set()
        #: Something narrowed the run (deselection, node ids, early stop): no unused check.
        self.partial = False
        #: Test files of every collected item, as in node ids (``tests/test_a.py``).
        self.collected_files: set[str] = set()
        #: Node ids of collected items that request ``toolscore_snapshot``.
        self.snapshot_items: set[str] = set()
        #: Node ids of items that failed or were skipped in some phase.
        self.not_passed: set[str] = set()

    def count(self, outcome: str) -> None:
        self.counts[outcome] += 1

    def summary_line(self) -> str | None:
        """``toolscore: 3 passed, 1 failed``, or ``None`` when no snapshot was checked."""
        parts: list[str] = []
        created = self.counts["created"]
        if created:
            noun = "snapshot" if created == 1 else "snapshots"
            parts.append(f"{created} {noun} created (pending approval)")
        parts.extend(f"{self.counts[k]} {k}" for k in OUTCOMES[1:] if self.counts[k])
        return "toolscore: " + ", ".join(parts) if parts else None

    def to_workeroutput(self) -> dict[str, Any]:
        """Plain data that execnet can send from a worker to the controller."""
        return {
            "counts": dict(self.counts),
            "used": sorted(self.used),
            "partial": self.partial,
            "collected_files": sorted(self.collected_files),
            "snapshot_items": sorted(self.snapshot_items),
            "not_passed": sorted(self.not_passed),
        }

    def merge_workeroutput(self, data: dict[str, Any]) -> None:
        """Add one worker's data (see :meth:`to_workeroutput`) to this state."""
        for key, value in data.get("counts", {}).items():
            self.counts[key] = self.counts.get(key, 0) + int(value)
        self.used.update(data.get("used", ()))
        self.partial = self.partial or bool(data.get("partial"))
        self.collected_files.update(data.get("collected_files", ()))
        self.snapshot_items.update(data.get("snapshot_items", ()))
        self.not_passed.update(data.get("not_passed", ()))


STATE_KEY = pytest.StashKey[SessionState]()
#: Lines the unused-snapshot check wants printed in the terminal summary.
UNUSED_LINES = pytest.StashKey[list[str]]()


def state_for(config: pytest.Config) -> SessionState:
    """The session's state, created on first use."""
    state = config.stash.get(STATE_KEY, None)
    if state is None:
        state = config.stash[STATE_KEY] = SessionState()
    return state
