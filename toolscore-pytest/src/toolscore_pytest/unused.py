"""Finding snapshot files that no test checked (``--toolscore-unused=warn|fail|delete``).

Like syrupy, the check only runs when the whole session ran: no ``-k``/``-m`` or other
deselection, no node ids on the command line, no early stop. Within such a run a snapshot is
*unused* when no test checked it and:

- its name is a node id (``tests/test_a.py::test_x``, ``...-2``) whose test file was collected,
  and that test did not fail or skip (a failing test may not have reached its snapshot call);
- or it has any other name (explicit ``name=``, ``snapshot_check()`` or ``toolscore record
  --from-trace``), the run was not narrowed to some paths, and no test failed or skipped.

Checks made without the fixture (``snapshot_check()`` in a test) count too: the tracker
listens to core's ``toolscore_snapshot_used`` hook.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from toolscore import hookimpl
from toolscore.redaction import redact
from toolscore.terminal_text import visible

from toolscore_pytest.state import UNUSED_LINES, state_for

if TYPE_CHECKING:
    from toolscore.snapshots import SnapshotStore

    from toolscore_pytest.state import SessionState

MODES = ("warn", "fail", "delete")
SNAPSHOT_FIXTURE = "toolscore_snapshot"


def _owned_by(name: str, nodeid: str) -> bool:
    """``name`` is the default snapshot name of test ``nodeid`` (``nodeid`` or ``nodeid-N``)."""
    if name == nodeid:
        return True
    suffix = name[len(nodeid) + 1 :] if name.startswith(nodeid + "-") else ""
    return suffix.isdigit()


def _test_file(name: str) -> str | None:
    head, sep, _ = name.partition("::")
    return head if sep and head.endswith(".py") else None


def find_unused(
    state: SessionState, store: SnapshotStore, *, whole_suite: bool
) -> list[tuple[Path, str]]:
    """``(file, snapshot name)`` of every unused snapshot, sorted by file."""
    from toolscore.errors import InputError

    if state.partial:
        return []
    used_paths = {store.path_for(name) for name in state.used}
    troubled = state.snapshot_items & state.not_passed
    unused: list[tuple[Path, str]] = []
    for path in store.files():
        if path in used_paths:
            continue
        try:
            name = store.read_file(path).name
        except InputError:
            continue  # reported to whoever loads it; never deleted blindly
        test_file = _test_file(name)
        if test_file is not None:
            if test_file not in state.collected_files:
                continue
            if any(_owned_by(name, nodeid) for nodeid in troubled):
                continue
        elif not whole_suite or state.not_passed:
            # Any failed or skipped test may have stopped before a snapshot_check() call.
            continue
        unused.append((path, name))
    return unused


def report_lines(unused: list[tuple[Path, str]], mode: str, rootdir: Path) -> list[str]:
    """The terminal lines for ``unused`` under ``mode`` (empty when nothing is unused)."""
    if not unused:
        return []
    count = len(unused)
    noun = "snapshot" if count == 1 else "snapshots"
    if mode == "delete":
        head = f"toolscore: deleted {count} unused {noun}:"
    elif mode == "fail":
        head = f"toolscore: {count} unused {noun} (failing the run; --toolscore-unused=delete removes them):"
    else:
        head = f"toolscore: {count} unused {noun} (--toolscore-unused=delete removes them):"
    lines = [head]
    for path, name in unused:
        try:
            shown = path.relative_to(rootdir)
        except ValueError:
            shown = path
        lines.append(visible(f"  {shown}  ({redact(name)})", one_line=True))
    return lines


def delete_files(unused: list[tuple[Path, str]]) -> None:
    for path, _ in unused:
        path.unlink(missing_ok=True)


class UnusedTracker:
    """Pytest hooks that watch the run; registered only with ``--toolscore-unused``."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.state = state_for(config)
        self._listener: _UsedListener | None = None

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        # Tests may call snapshot_check() without the fixture: hear of those checks too.
        from toolscore.plugins import get_plugin_manager

        self._listener = _UsedListener(self.state)
        get_plugin_manager().register(self._listener, name=_LISTENER_NAME)
        if any("::" in str(arg) for arg in self.config.args):
            self.state.partial = True

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if self._listener is not None:
            from toolscore.plugins import get_plugin_manager

            get_plugin_manager().unregister(self._listener)
            self._listener = None

    def pytest_deselected(self, items: list[pytest.Item]) -> None:
        if items:
            self.state.partial = True

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        for item in session.items:
            self.state.collected_files.add(item.nodeid.partition("::")[0])
            if SNAPSHOT_FIXTURE in getattr(item, "fixturenames", ()):
                self.state.snapshot_items.add(item.nodeid)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.outcome != "passed":
            self.state.not_passed.add(report.nodeid)

    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if session.shouldstop or session.shouldfail or exitstatus == pytest.ExitCode.INTERRUPTED:
            self.state.partial = True
        if getattr(self.config, "workeroutput", None) is None:  # not an xdist worker
            self.check(session)

    def check(self, session: pytest.Session) -> None:
        """Find, report and (per the mode) act on unused snapshots."""
        from toolscore.snapshots import SnapshotStore

        from toolscore_pytest.snapshot import snapshot_root

        config = self.config
        mode = str(config.getoption("toolscore_unused"))
        if self.state.partial:
            config.stash[UNUSED_LINES] = [
                "toolscore: unused-snapshot check skipped (only part of the suite ran)"
            ]
            return
        whole_suite = config.args_source != pytest.Config.ArgsSource.ARGS
        unused = find_unused(
            self.state, SnapshotStore(snapshot_root(config)), whole_suite=whole_suite
        )
        config.stash[UNUSED_LINES] = report_lines(unused, mode, Path(config.rootpath))
        if not unused:
            return
        if mode == "delete":
            delete_files(unused)
        elif mode == "fail" and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


_LISTENER_NAME = "toolscore-pytest-snapshot-listener"


class _UsedListener:
    """A toolscore plugin that notes every snapshot checked, with or without the fixture."""

    def __init__(self, state: SessionState) -> None:
        self.state = state

    @hookimpl
    def toolscore_snapshot_used(self, name: str) -> None:
        self.state.used.add(name)
