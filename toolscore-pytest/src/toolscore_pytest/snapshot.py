"""The callable behind the ``toolscore_snapshot`` fixture.

Each call runs :func:`toolscore.snapshots.run_snapshot` for the current test, names the
snapshot after the test's node id, and counts the outcome for the terminal summary.
"""

from __future__ import annotations

import contextlib
import os
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from toolscore_pytest.state import state_for

if TYPE_CHECKING:
    from toolscore.result import EvaluationResult
    from toolscore.snapshots import SnapshotStore

#: Set by ``toolscore record --update``; same effect as ``--toolscore-update``.
UPDATE_ENV = "TOOLSCORE_RECORD_UPDATE"


def update_from_env() -> bool:
    """``TOOLSCORE_RECORD_UPDATE`` is truthy unless empty, ``0``, ``false`` or ``no``."""
    return os.environ.get(UPDATE_ENV, "").strip().lower() not in {"", "0", "false", "no"}


def snapshot_root(config: pytest.Config) -> Path:
    """``--toolscore-snapshot-dir``, resolved against the pytest rootdir when relative."""
    root = Path(config.getoption("toolscore_snapshot_dir"))
    return root if root.is_absolute() else Path(config.rootpath) / root


@contextlib.contextmanager
def _without_ci(active: bool) -> Iterator[None]:
    """Hide ``CI`` for the duration of one check (``--toolscore-allow-pending``)."""
    saved = os.environ.pop("CI", None) if active else None
    try:
        yield
    finally:
        if saved is not None:
            os.environ["CI"] = saved


class SnapshotFixture:
    """Record, approve and replay tool-call snapshots for one test.

    Example::

        def test_books_a_flight(toolscore_snapshot):
            toolscore_snapshot(agent("book a flight to NYC"))

    The first unnamed call is named after the node id, the next ones get ``-2``, ``-3``...;
    an explicit ``name=`` is used as given.
    """

    def __init__(self, request: pytest.FixtureRequest) -> None:
        from toolscore.snapshots import SnapshotStore

        config = request.config
        self._nodeid = request.node.nodeid
        self._state = state_for(config)
        self._store: SnapshotStore = SnapshotStore(snapshot_root(config))
        self._update = bool(config.getoption("toolscore_update")) or update_from_env()
        self._allow_pending = bool(config.getoption("toolscore_allow_pending"))
        self._unnamed = 0

    @property
    def store(self) -> SnapshotStore:
        """The snapshot store of this session (``--toolscore-snapshot-dir``)."""
        return self._store

    def _next_name(self) -> str:
        self._unnamed += 1
        return self._nodeid if self._unnamed == 1 else f"{self._nodeid}-{self._unnamed}"

    def __call__(
        self,
        actual: Any,
        *,
        min_score: float = 1.0,
        weights: dict[str, float] | None = None,
        strict: bool = False,
        name: str | None = None,
    ) -> EvaluationResult | None:
        """Check ``actual`` against this test's snapshot; returns the result on replay.

        Drift raises ``ToolScoreAssertionError`` with the expected-vs-actual table; a broken
        snapshot file fails the test with one line naming the file and the JSON path.
        """
        __tracebackhide__ = True
        from toolscore.assertions import ToolScoreAssertionError
        from toolscore.errors import InputError
        from toolscore.snapshots import run_snapshot

        snapshot_name = name if name is not None else self._next_name()
        self._state.used.add(snapshot_name)
        problem: str | None = None
        try:
            with _without_ci(self._allow_pending):
                outcome = run_snapshot(
                    snapshot_name,
                    actual,
                    store=self._store,
                    update=self._update,
                    min_score=min_score,
                    weights=weights,
                    strict=strict,
                    update_hint=f"pytest {shlex.quote(self._nodeid)} --toolscore-update",
                )
        except ToolScoreAssertionError as exc:
            self._state.count("failed")
            raise exc.with_traceback(None) from None  # the table is the whole story
        except (InputError, ValueError) as exc:  # a broken file, or values that are not JSON
            problem = str(exc)
        if problem is not None:  # failed outside the except block: no exception chain shown
            self._state.count("failed")
            pytest.fail(problem, pytrace=False)
        self._state.count(outcome.status)
        return outcome.result
