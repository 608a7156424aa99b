"""Entry-point loading with fake distributions: broken plugins never take the host down."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import toolscore
from toolscore.errors import PluginLoadError
from toolscore.plugins import create_plugin_manager
from toolscore.plugins.manager import ToolscorePluginManager

GROUP = "toolscore_testing"


def load(**kwargs: object) -> ToolscorePluginManager:
    pm = ToolscorePluginManager(strict=bool(kwargs.pop("strict", False)))
    pm.load_entry_points(GROUP, **kwargs)  # type: ignore[arg-type]
    return pm


def by_name(pm: ToolscorePluginManager) -> dict[str, object]:
    return {r.name: r for r in pm.records()}


def test_good_plugin_is_active_with_distribution_version_and_what_it_provides() -> None:
    records = by_name(load())
    good = records["fake_good"]
    assert good.status == "active"
    assert good.distribution == "toolscore_fake_good"
    assert good.version == "1.2.3"
    assert good.provides["metrics"] == ("fake_call_count",)
    assert good.location.endswith("fake_good_plugin.py")
    assert "toolscore_register_metrics" in good.hooks


def test_import_error_is_recorded_as_failed_with_its_message(
    capsys: pytest.CaptureFixture[str],
) -> None:
    records = by_name(load())
    failed = records["fake_import_error"]
    assert failed.status == "failed"
    assert "fake_import_error needs a library that is not installed" in failed.error
    assert "ImportError" in failed.traceback
    assert "failed to load" in capsys.readouterr().err


def test_wrong_signature_and_unknown_hook_fail_only_that_plugin() -> None:
    pm = load()
    records = by_name(pm)
    assert records["fake_bad_signature"].status == "failed"
    assert "no_such_argument" in records["fake_bad_signature"].error
    assert records["fake_unknown_hook"].status == "failed"
    assert "toolscore_register_metricz" in records["fake_unknown_hook"].error
    assert not pm.has_plugin("fake_bad_signature")
    assert not pm.has_plugin("fake_unknown_hook")
    assert "fake_call_count" in pm.get_metrics()


def test_registration_hook_that_raises_marks_plugin_failed_and_keeps_others() -> None:
    pm = load()
    metrics = pm.get_metrics()
    assert "fake_call_count" in metrics
    records = by_name(pm)
    assert records["fake_register_raises"].status == "failed"
    assert "metric registry exploded" in records["fake_register_raises"].error


def test_duplicate_names_are_an_error_naming_both_distributions() -> None:
    pm = load()
    metrics = pm.get_metrics()
    assert metrics["dup_metric"].summary == "from dup a"  # sorted order: the first one keeps it
    loser = by_name(pm)["fake_dup_b"]
    assert loser.status == "failed"
    assert "toolscore_fake_dup_a" in loser.error
    assert "toolscore_fake_dup_b" in loser.error
    assert "dup_metric" in loser.error


def test_strict_mode_raises_on_the_first_failure() -> None:
    with pytest.raises(PluginLoadError, match=r"fake_bad_signature|fake_import_error"):
        load(
            strict=True,
            allow=frozenset({"toolscore-fake-import-error", "toolscore-fake-bad-signature"}),
        )


def test_strict_mode_raises_on_name_conflicts() -> None:
    pm = load(strict=True, allow=frozenset({"toolscore-fake-dup-a", "toolscore-fake-dup-b"}))
    with pytest.raises(PluginLoadError, match=r"toolscore_fake_dup_a.*toolscore_fake_dup_b"):
        pm.get_metrics()


def test_allow_list_filters_before_import(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TOOLSCORE_FAKE_BLOCKED_IMPORTED", raising=False)
    pm = load(allow=frozenset({"toolscore-fake-good"}))
    assert [r.name for r in pm.records()] == ["fake_good"]
    assert "TOOLSCORE_FAKE_BLOCKED_IMPORTED" not in os.environ


def test_blocked_plugin_is_listed_disabled_and_never_imported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("TOOLSCORE_FAKE_BLOCKED_IMPORTED", raising=False)
    records = by_name(load(blocked=["fake_blocked"]))
    assert records["fake_blocked"].status == "disabled"
    assert "TOOLSCORE_FAKE_BLOCKED_IMPORTED" not in os.environ
    # blocking by distribution name works too
    records = by_name(load(blocked=["toolscore-fake-blocked"]))
    assert records["fake_blocked"].status == "disabled"


def test_env_allow_list_empty_means_no_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLSCORE_LOAD_PLUGINS", "")
    pm = create_plugin_manager(group=GROUP)
    assert all(r.builtin for r in pm.records())


def test_env_allow_list_names_distributions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLSCORE_LOAD_PLUGINS", "toolscore-fake-good")
    pm = create_plugin_manager(group=GROUP)
    assert [r.name for r in pm.records() if not r.builtin] == ["fake_good"]


def test_no_plugins_env_keeps_builtins_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLSCORE_NO_PLUGINS", "1")
    pm = create_plugin_manager(group=GROUP)
    records = pm.records()
    assert records
    assert all(r.builtin for r in records)
    assert "selection_accuracy" in pm.get_metrics()


def test_strict_env_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLSCORE_STRICT_PLUGINS", "1")
    monkeypatch.setenv("TOOLSCORE_LOAD_PLUGINS", "toolscore-fake-import-error")
    with pytest.raises(PluginLoadError, match="fake_import_error"):
        create_plugin_manager(group=GROUP)


def test_trace_hooks_prints_hook_calls(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TOOLSCORE_TRACE_HOOKS", "1")
    pm = create_plugin_manager(load_entrypoints=False)
    pm.detect_format([{"tool": "x"}])
    assert "toolscore_detect_format" in capsys.readouterr().err


def test_failed_plugins_do_not_break_evaluate() -> None:
    from toolscore.evaluation import evaluate

    pm = create_plugin_manager(group=GROUP)
    result = evaluate([{"tool": "a"}], [{"tool": "a"}, {"tool": "b"}], plugin_manager=pm)
    assert result.metrics["fake_call_count"] == 2
    assert result.selection_accuracy == 0.5


def test_builtins_register_through_the_same_path() -> None:
    pm = create_plugin_manager(load_entrypoints=False)
    records = pm.records()
    assert all(r.status == "builtin" and r.distribution == "toolscore-core" for r in records)
    owners = {name for r in records for name in r.provides.get("metrics", ())}
    assert {"selection_accuracy", "argument_metrics", "sequence_metrics"} <= owners


def test_each_lazily_registered_builtin_implements_exactly_its_listed_hook() -> None:
    import importlib

    from toolscore.plugins import DEFAULT_PLUGINS
    from toolscore.plugins.lazy_builtins import LAZY_BUILTIN_HOOKS

    assert set(LAZY_BUILTIN_HOOKS) <= set(DEFAULT_PLUGINS)
    pm = ToolscorePluginManager()
    for module_name, hook_name in LAZY_BUILTIN_HOOKS.items():
        module = importlib.import_module(module_name)
        implemented = {
            name for name in dir(module) if pm.parse_hookimpl_opts(module, name) is not None
        }
        assert implemented == {hook_name}, module_name
        assert pm.parse_hookimpl_opts(module, hook_name) == {
            "wrapper": False,
            "hookwrapper": False,
            "optionalhook": False,
            "tryfirst": False,
            "trylast": False,
            "specname": None,
        }, f"{module_name}'s hook has options its stand-in would lose"


def test_builtins_are_imported_only_when_their_hook_is_called() -> None:
    code = (
        "import sys\n"
        "from toolscore.plugins import create_plugin_manager\n"
        "pm = create_plugin_manager(load_entrypoints=False)\n"
        "before = 'toolscore.metrics.security' in sys.modules\n"
        "records = {r.name: r for r in pm.records()}\n"
        "record = records['toolscore.metrics.security']\n"
        "assert record.location.endswith('security.py'), record.location\n"
        "assert record.hooks == ('toolscore_register_metrics',), record.hooks\n"
        "assert 'security_metrics' in pm.get_metrics()\n"
        "print(before, 'toolscore.metrics.security' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


def test_disabling_a_builtin_metric_removes_it_but_essentials_stay() -> None:
    pm = create_plugin_manager(
        load_entrypoints=False,
        disabled=("toolscore.metrics.security", "toolscore.builtin.canonical"),
    )
    assert "security_metrics" not in pm.get_metrics()
    assert pm.has_plugin("toolscore.builtin.canonical")


def test_a_plugin_registered_after_first_use_is_seen_and_forgotten_when_unregistered() -> None:
    from toolscore.evaluation import evaluate
    from toolscore.specs import MetricSpec

    pm = create_plugin_manager(load_entrypoints=False)
    assert "late_metric" not in evaluate([], [], plugin_manager=pm).metrics

    class Late:
        def compute(self, context: object) -> str:
            return "seen"

    class LatePlugin:
        @toolscore.hookimpl
        def toolscore_register_metrics(self):  # type: ignore[no-untyped-def]
            yield MetricSpec(name="late_metric", factory=Late)

    pm.register(LatePlugin(), name="late")
    assert evaluate([], [], plugin_manager=pm).metrics["late_metric"] == "seen"
    pm.unregister(name="late")
    assert "late_metric" not in evaluate([], [], plugin_manager=pm).metrics


@pytest.mark.parametrize("group", ["toolscore_testing", "console_scripts", "pytest11"])
def test_fast_entry_point_scan_agrees_with_importlib_metadata(group: str) -> None:
    from importlib.metadata import entry_points

    from toolscore.plugins.loading import canonical_name, scan_entry_points

    ours = {
        (canonical_name(ep.distribution), ep.name, ep.value, ep.version)
        for ep in scan_entry_points(group)
    }
    stdlib = {
        (canonical_name(ep.dist.name), ep.name, ep.value, ep.dist.version)
        for ep in entry_points(group=group)
        if ep.dist is not None
    }
    assert ours == stdlib
    assert ours


def test_entry_point_load_resolves_module_and_attribute() -> None:
    from toolscore.plugins.loading import PluginEntryPoint

    ep = PluginEntryPoint("x", "toolscore.plugins.loading:PluginEntryPoint.load", "g", "d", "1")
    assert ep.load() is PluginEntryPoint.load
    assert (
        PluginEntryPoint("y", "toolscore.errors [extra]", "g", "d", "1").load().__name__
        == "toolscore.errors"
    )


class _Describer:
    """Answers for a hook it would have added itself, as toolscore-mcp does for lint rules."""

    @toolscore.hookimpl
    def toolscore_describe_provided(self, plugin_manager):  # type: ignore[no-untyped-def]
        assert isinstance(plugin_manager, ToolscorePluginManager)
        return {"fake_good": {"widgets": ["b_widget", "a_widget"]}, "nobody": {"widgets": ["x"]}}


class _BrokenDescriber:
    @toolscore.hookimpl
    def toolscore_describe_provided(self):  # type: ignore[no-untyped-def]
        raise RuntimeError("cannot describe")


def test_what_plugins_add_through_a_plugins_own_hooks_is_listed_with_them() -> None:
    pm = load()
    pm.register(_Describer(), name="describer")
    good = by_name(pm)["fake_good"]
    assert good.provides["widgets"] == ("a_widget", "b_widget")
    assert good.provides["metrics"] == ("fake_call_count",)  # what core's hooks found stays


def test_a_describer_that_raises_never_breaks_the_listing_but_strict_mode_raises() -> None:
    pm = load()
    pm.register(_BrokenDescriber(), name="broken_describer")
    assert by_name(pm)["fake_good"].status == "active"
    strict = create_plugin_manager(load_entrypoints=False)
    strict.strict = True
    strict.register(_BrokenDescriber(), name="broken_describer")
    with pytest.raises(PluginLoadError, match="cannot describe"):
        strict.records()


class _ExitsWhenNotified:
    """A third-party observer that calls sys.exit() where it should only listen."""

    calls = 0

    @toolscore.hookimpl
    def toolscore_evaluation_finished(self, result):  # type: ignore[no-untyped-def]
        _ExitsWhenNotified.calls += 1
        raise SystemExit("observer quits")


def test_sys_exit_in_a_notification_hook_is_recorded_and_the_evaluation_returns(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from toolscore.evaluation import evaluate

    _ExitsWhenNotified.calls = 0
    pm = create_plugin_manager(load_entrypoints=False)
    pm.register(_ExitsWhenNotified(), name="quitter")
    assert evaluate([{"tool": "a"}], [{"tool": "a"}], plugin_manager=pm).score == 1.0
    assert evaluate([{"tool": "a"}], [{"tool": "a"}], plugin_manager=pm).score == 1.0
    assert _ExitsWhenNotified.calls == 1, "skipped for the rest of the run"
    err = " ".join(capsys.readouterr().err.split())
    assert (
        "toolscore: plugin 'quitter' toolscore_evaluation_finished raised SystemExit: observer "
        "quits; it is skipped in toolscore_evaluation_finished for the rest of this run"
    ) in err


def test_keyboard_interrupt_raised_by_a_plugin_is_its_failure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A plugin's hook runs in the host's guard thread: a ``KeyboardInterrupt`` it raises
    itself is not the user's Ctrl-C (which arrives in the main thread and still interrupts),
    so it is that plugin's failure and the evaluation returns."""

    class Interrupts:
        @toolscore.hookimpl
        def toolscore_evaluation_finished(self, result):  # type: ignore[no-untyped-def]
            raise KeyboardInterrupt

    from toolscore.evaluation import evaluate

    pm = create_plugin_manager(load_entrypoints=False)
    pm.register(Interrupts(), name="interrupts")
    assert evaluate([{"tool": "a"}], [{"tool": "a"}], plugin_manager=pm).score == 1.0
    assert "KeyboardInterrupt raised by the plugin itself" in capsys.readouterr().err


def test_the_active_manager_is_per_context() -> None:
    """``use_plugin_manager`` in one context (a thread's, a task's) is not seen in another."""
    import contextvars

    from toolscore.plugins import (
        create_plugin_manager,
        current_plugin_manager,
        use_plugin_manager,
    )

    outside = current_plugin_manager()
    pm = create_plugin_manager(load_entrypoints=False)
    seen: list[object] = []

    def inside() -> None:
        with use_plugin_manager(pm):
            seen.append(current_plugin_manager())
            seen.append(contextvars.copy_context().run(current_plugin_manager))

    contextvars.copy_context().run(inside)
    assert seen == [pm, pm]
    assert current_plugin_manager() is outside
