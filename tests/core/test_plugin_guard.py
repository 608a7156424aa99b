"""Plugin code runs inside the host's guard: a metric, reporter or hook that exits, raises,
hangs or returns nonsense is that plugin's failure, and never decides the run's exit code or
moves a score out of [0, 1]."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import toolscore
from click.testing import CliRunner
from toolscore.evaluation import evaluate
from toolscore.plugins import create_plugin_manager
from toolscore.specs import MetricSpec, ReporterSpec

GOLD = [{"tool": "search", "args": {"q": "paris"}}]
WRONG = [{"tool": "book", "args": {}}]


def _manager_with(**parts: Any) -> Any:
    pm = create_plugin_manager(load_entrypoints=False)

    class Plugin:
        if "compute" in parts:

            @toolscore.hookimpl
            def toolscore_register_metrics(self) -> Iterator[MetricSpec]:
                compute = parts["compute"]

                class Metric:
                    def compute(self, context: object) -> Any:
                        return compute()

                yield MetricSpec(name="custom", factory=Metric)

        if "render" in parts:

            @toolscore.hookimpl
            def toolscore_register_reporters(self) -> Iterator[ReporterSpec]:
                render = parts["render"]

                class Reporter:
                    def render(self, result: object, *, verbose: bool = False) -> Any:
                        return render()

                yield ReporterSpec(name="custom", factory=Reporter, extension=".txt")

        if "finished" in parts:

            @toolscore.hookimpl
            def toolscore_evaluation_finished(self, result: object) -> None:
                parts["finished"]()

    pm.register(Plugin(), name="hostile")
    return pm


def _exit() -> None:
    raise SystemExit(0)


def _hang() -> None:
    time.sleep(30)


def _eval(tmp_path: Path, pm: Any, *extra: str) -> Any:
    from toolscore.cli import cli

    (tmp_path / "gold.json").write_text(json.dumps(GOLD))
    (tmp_path / "trace.json").write_text(json.dumps(WRONG))
    args = ["eval", str(tmp_path / "gold.json"), str(tmp_path / "trace.json")]
    args += ["-o", str(tmp_path / "out.json"), "--fail-under", "0.9", *extra]
    return CliRunner().invoke(cli, args, obj={"plugin_manager": pm})


@pytest.mark.parametrize("compute", [_exit, lambda: 1 / 0], ids=["sys.exit(0)", "raises"])
def test_a_metric_that_exits_or_raises_never_changes_the_exit_code(
    tmp_path: Path, compute: Callable[[], Any]
) -> None:
    done = _eval(tmp_path, _manager_with(compute=compute))
    assert done.exit_code == 1  # the run's own verdict: score below --fail-under
    assert "metric 'custom' failed and is left out" in done.output
    assert json.loads((tmp_path / "out.json").read_text())["summary"]["score"] < 0.9


def test_a_reporter_that_exits_is_skipped_and_the_run_keeps_its_exit_code(tmp_path: Path) -> None:
    done = _eval(tmp_path, _manager_with(render=_exit), "--report", f"custom={tmp_path / 'r.txt'}")
    assert done.exit_code == 1
    assert "report 'custom' (plugin 'hostile') failed and is not written: SystemExit: 0" in (
        done.output
    )
    assert not (tmp_path / "r.txt").exists()
    assert (tmp_path / "out.json").exists()


def test_a_reporter_that_returns_no_text_is_a_clear_failure(tmp_path: Path) -> None:
    done = _eval(tmp_path, _manager_with(render=lambda: 42), "--report", "custom")
    assert done.exit_code == 1
    assert "render() returned int, expected text" in done.output


def test_hung_plugin_code_is_ended_by_the_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLSCORE_PLUGIN_TIMEOUT", "0.5")
    started = time.monotonic()
    with pytest.warns(RuntimeWarning, match="did not return within 0.5 s"):
        result = evaluate(GOLD, GOLD, plugin_manager=_manager_with(compute=_hang))
    assert result.score == 1.0
    assert "custom" not in result.metrics
    pm = _manager_with(finished=_hang)
    evaluate(GOLD, GOLD, plugin_manager=pm)  # the observer hook is bounded too
    assert time.monotonic() - started < 10


@pytest.mark.parametrize(
    "value", [float("nan"), float("inf"), 10**5000], ids=["nan", "inf", "10**5000"]
)
def test_metric_values_that_are_not_finite_are_kept_as_text(value: Any) -> None:
    pm = _manager_with(compute=lambda: value)
    with pytest.warns(RuntimeWarning, match="not a finite number"):
        result = evaluate(GOLD, GOLD, weights={"custom": 1.0}, plugin_manager=pm)
    assert 0.0 <= result.score <= 1.0
    assert isinstance(result.metrics["custom"], str)
    json.dumps(result.to_dict())  # the record stays writable


@pytest.mark.parametrize("value", [-5, 1e308, 7])
def test_numbers_outside_0_1_are_kept_but_never_move_the_score(value: Any) -> None:
    pm = _manager_with(compute=lambda: value)
    result = evaluate(GOLD, GOLD, weights={"custom": 1.0}, plugin_manager=pm)
    assert result.metrics["custom"] == value  # a metric may report a count
    # The weighted metric adds nothing: (1.0 of the default components + 0) / 2.
    assert result.score == 0.5


def test_a_metric_value_inside_0_1_counts() -> None:
    result = evaluate(
        GOLD, GOLD, weights={"custom": 1.0}, plugin_manager=_manager_with(compute=lambda: 0.25)
    )
    # Weights name the default components too: (1.0 of them + 1.0 x 0.25) / 2.
    assert result.score == 0.625


def test_a_plugin_that_claims_a_built_in_name_does_not_run_at_all(
    capsys: pytest.CaptureFixture[str],
) -> None:
    calls: list[str] = []
    pm = create_plugin_manager(load_entrypoints=False)

    class Metric:
        def compute(self, context: object) -> float:
            calls.append("compute")
            return 0.0

    class Squatter:
        @toolscore.hookimpl
        def toolscore_register_metrics(self) -> Iterator[MetricSpec]:
            yield MetricSpec(name="selection_accuracy", factory=Metric)
            yield MetricSpec(name="squatter_extra", factory=Metric)

        @toolscore.hookimpl
        def toolscore_evaluation_finished(self, result: object) -> None:
            calls.append("finished")

    pm.register(Squatter(), name="squatter")
    result = evaluate(GOLD, GOLD, plugin_manager=pm)
    assert result.selection_accuracy == 1.0  # the built-in's
    assert "squatter_extra" not in result.metrics
    assert calls == []
    (problem,) = pm.get_metrics().problems
    assert problem.plugin == "squatter"
    assert "metric 'selection_accuracy' is registered by both" in str(problem.error)
