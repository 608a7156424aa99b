"""The ``toolscore`` pytest plugin (registered under ``pytest11``).

Kept thin on purpose: this module imports only pytest, and toolscore is imported inside the
fixtures and hooks that need it, so a session that uses none of it pays almost nothing.

Fixtures: ``toolscore_snapshot``, ``toolscore_eval``, ``toolscore_runs`` (with the
``toolscore_repeat`` marker), ``toolscore_assert``,
``toolscore_assert_tools``, ``toolscore_gold_dir``, ``toolscore_trace_dir``, and for plugin
authors ``toolscore_plugin_manager`` and ``register_toolscore_plugin``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from toolscore.plugins import ToolscorePluginManager
    from toolscore.result import EvaluationResult

    from toolscore_pytest.assertions import ToolscoreAssertions
    from toolscore_pytest.authoring import PluginRegistrar
    from toolscore_pytest.snapshot import SnapshotFixture


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("toolscore", "LLM tool usage evaluation")
    group.addoption(
        "--toolscore-gold-dir",
        default="tests/gold_standards",
        help="Directory of gold standard files for toolscore_eval (default: tests/gold_standards).",
    )
    group.addoption(
        "--toolscore-trace-dir",
        default="tests/traces",
        help="Directory of trace files for toolscore_eval (default: tests/traces).",
    )
    group.addoption(
        "--toolscore-update",
        action="store_true",
        default=False,
        help="Re-record the snapshots checked by toolscore_snapshot and approve them "
        "(also TOOLSCORE_RECORD_UPDATE=1).",
    )
    group.addoption(
        "--toolscore-snapshot-dir",
        default=".toolscore/snapshots",
        help="Snapshot folder, relative to the rootdir (default: .toolscore/snapshots).",
    )
    group.addoption(
        "--toolscore-allow-pending",
        action="store_true",
        default=False,
        help="Record missing snapshots and accept pending ones with a warning, even in CI.",
    )
    group.addoption(
        "--toolscore-unused",
        choices=("warn", "fail", "delete"),
        default=None,
        help="After a whole-suite run, report snapshot files no test checked: warn, fail the "
        "run, or delete them.",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "toolscore: mark test as a Toolscore evaluation test")
    config.addinivalue_line(
        "markers",
        "toolscore_repeat(n=5, k=None, threshold=0.9, gate=1.0): run the test n times and pass "
        "when pass^k (k defaults to n) is at least gate; a run passes when it raises nothing "
        "and every result recorded with toolscore_runs scores at least threshold",
    )
    if config.getoption("toolscore_unused", None) is not None:
        from toolscore_pytest.unused import UnusedTracker

        config.pluginmanager.register(UnusedTracker(config), "toolscore-unused-tracker")


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run a ``toolscore_repeat`` test's body n times and gate on pass^k (repeat.py)."""
    mark = pyfuncitem.get_closest_marker("toolscore_repeat")
    if mark is None:
        return None
    from toolscore_pytest.repeat import RepeatSpec, RunRecorder, run_repeated

    try:
        spec = RepeatSpec.from_marker(mark)
    except ValueError as exc:
        pytest.fail(str(exc), pytrace=False)
    funcargs = pyfuncitem.funcargs
    kwargs = {name: funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
    recorder = funcargs.get("toolscore_runs")
    if not isinstance(recorder, RunRecorder):
        recorder = RunRecorder()
    try:
        ok, report, hat = run_repeated(pyfuncitem.obj, kwargs, spec, recorder)
    except ValueError as exc:
        pytest.fail(str(exc), pytrace=False)
    pyfuncitem.user_properties.append((f"toolscore_pass_hat_{spec.k}", hat))
    if not ok:
        pytest.fail(report, pytrace=False)
    return True


@pytest.fixture
def toolscore_runs() -> Any:
    """Records each repetition's evaluations for ``@pytest.mark.toolscore_repeat``.

    ``toolscore_runs.evaluate(expected, actual, ...)`` scores and records;
    ``toolscore_runs.record(result_or_bool)`` records a result made elsewhere.
    """
    from toolscore_pytest.repeat import RunRecorder

    return RunRecorder()


def _state(config: pytest.Config) -> Any:
    from toolscore_pytest.state import state_for

    return state_for(config)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """On an xdist worker, hand this worker's counts to the controller."""
    config = session.config
    workeroutput = getattr(config, "workeroutput", None)
    if workeroutput is not None:
        from toolscore_pytest.state import STATE_KEY, WORKEROUTPUT_KEY

        state = config.stash.get(STATE_KEY, None)
        if state is not None:
            workeroutput[WORKEROUTPUT_KEY] = state.to_workeroutput()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """xdist controller: add up what each worker did."""
    from toolscore_pytest.state import WORKEROUTPUT_KEY

    data = getattr(node, "workeroutput", {}).get(WORKEROUTPUT_KEY)
    if data:
        _state(node.config).merge_workeroutput(data)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Give a failed tool-call check a one-line crash message: its score line.

    The assertion's message is a whole expected-vs-actual table; pytest's short summary
    (``FAILED test_x.py::test_y - ...``) and ``--tb=line`` show the crash message, where the
    score line (``score 0.90 < 1.00 required · selection 1.00 · args 0.67 · ...``) says more
    in less room. The full table still shows in the failure's traceback section.
    """
    report = yield
    error = call.excinfo.value if call.excinfo is not None else None
    crash = getattr(report.longrepr, "reprcrash", None)
    if (
        crash is not None
        and type(error).__name__ == "ToolScoreAssertionError"
        and type(error).__module__.startswith("toolscore")
    ):
        crash.message = f"ToolScoreAssertionError: {_score_line(str(error))}"
    return report


def _score_line(message: str) -> str:
    """The ``score ...`` line of a tool-call assertion message, else its first line."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    return next((line for line in lines if line.startswith("score ")), lines[0] if lines else "")


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state_module = sys.modules.get("toolscore_pytest.state")
    if state_module is None:  # nothing of ours ran in this session: import nothing
        return
    state = config.stash.get(state_module.STATE_KEY, None)
    line = state.summary_line() if state is not None else None
    if line:
        terminalreporter.write_line(line)
    for extra in config.stash.get(state_module.UNUSED_LINES, []):
        terminalreporter.write_line(extra)


# -- fixtures -------------------------------------------------------------------------------------


@pytest.fixture
def toolscore_gold_dir(request: pytest.FixtureRequest) -> Path:
    """``--toolscore-gold-dir`` as a Path (default ``tests/gold_standards``)."""
    return Path(request.config.getoption("toolscore_gold_dir"))


@pytest.fixture
def toolscore_trace_dir(request: pytest.FixtureRequest) -> Path:
    """``--toolscore-trace-dir`` as a Path (default ``tests/traces``)."""
    return Path(request.config.getoption("toolscore_trace_dir"))


@pytest.fixture
def toolscore_eval(
    toolscore_gold_dir: Path, toolscore_trace_dir: Path
) -> Callable[..., EvaluationResult]:
    """``fn(gold_file, trace_file, format="auto", validate_side_effects=True)`` -> result.

    Relative paths resolve against the gold and trace folders.
    """

    def evaluate(
        gold_file: str | Path,
        trace_file: str | Path,
        format: str = "auto",
        validate_side_effects: bool = True,
    ) -> EvaluationResult:
        from toolscore.evaluation import evaluate_trace

        gold = Path(gold_file)
        trace = Path(trace_file)
        return evaluate_trace(
            gold if gold.is_absolute() else toolscore_gold_dir / gold,
            trace if trace.is_absolute() else toolscore_trace_dir / trace,
            format=format,
            validate_side_effects=validate_side_effects,
        )

    return evaluate


@pytest.fixture
def toolscore_assert() -> ToolscoreAssertions:
    """Threshold assertions on results (``assert_selection_accuracy(result, 0.9)``, ...)."""
    from toolscore_pytest.assertions import ToolscoreAssertions

    return ToolscoreAssertions()


@pytest.fixture
def toolscore_assert_tools() -> Callable[..., Any]:
    """``toolscore.assert_tools``, for tests that prefer a fixture to an import."""
    from toolscore.assertions import assert_tools

    return assert_tools


@pytest.fixture
def toolscore_snapshot(request: pytest.FixtureRequest) -> SnapshotFixture:
    """Record the test's tool calls on the first run, replay them once approved.

    ``toolscore_snapshot(actual, *, min_score=1.0, weights=None, strict=False, name=None)``
    returns the evaluation on replay and ``None`` while recording or pending.
    """
    from toolscore_pytest.snapshot import SnapshotFixture

    return SnapshotFixture(request)


@pytest.fixture
def toolscore_plugin_manager() -> Iterator[ToolscorePluginManager]:
    """A fresh plugin manager with only core's built-ins, used by ``toolscore.evaluate`` in
    this test (the previous process-wide manager comes back afterwards)."""
    from toolscore_pytest.authoring import builtin_plugin_manager

    with builtin_plugin_manager() as pm:
        yield pm


@pytest.fixture
def register_toolscore_plugin(
    toolscore_plugin_manager: ToolscorePluginManager,
) -> Iterator[PluginRegistrar]:
    """``register_toolscore_plugin(plugin, name=None)``: a plugin for this test only."""
    from toolscore_pytest.authoring import PluginRegistrar

    registrar = PluginRegistrar(toolscore_plugin_manager)
    yield registrar
    registrar.unregister_all()
