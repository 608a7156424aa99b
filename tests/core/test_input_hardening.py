"""Hardened input handling in core: JSON Lines files, uncoerced names, lone surrogates in
``validate`` output, and snapshot names that are long, non-ASCII or hold control characters."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from toolscore.cli import cli
from toolscore.errors import InputError
from toolscore.loading import load_gold_standard, load_trace
from toolscore.plugins import create_plugin_manager
from toolscore.snapshots import SnapshotStore, sanitize_name, snapshot_check

PM = create_plugin_manager(load_entrypoints=False)


def validate(*args: str) -> Result:
    return CliRunner().invoke(cli, ["validate", *args], obj={"plugin_manager": PM})


def lines(*docs: object) -> str:
    return "".join(json.dumps(doc) + "\n" for doc in docs)


# -- JSON Lines ------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".jsonl", ".json"])
def test_a_jsonl_trace_loads_by_extension_or_by_content(tmp_path: Path, suffix: str) -> None:
    trace = tmp_path / f"trace{suffix}"
    trace.write_text(
        lines({"tool": "search", "args": {"q": "x"}}, {"tool": "open", "args": {}}) + "\n",
        encoding="utf-8",
    )
    calls = load_trace(trace, plugin_manager=PM)
    assert [(c.tool, dict(c.args or {})) for c in calls] == [("search", {"q": "x"}), ("open", {})]
    result = validate(str(trace))
    assert result.exit_code == 0, result.output
    assert "Total calls: 2" in result.output


def test_a_jsonl_gold_file_loads_and_scores(tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text(lines({"tool": "search", "args": {"q": "x"}}), encoding="utf-8")
    trace = tmp_path / "trace.jsonl"
    trace.write_text(lines({"tool": "search", "args": {"q": "x"}}), encoding="utf-8")
    assert [c.tool for c in load_gold_standard(gold, plugin_manager=PM)] == ["search"]
    result = CliRunner().invoke(
        cli,
        ["eval", str(gold), str(trace), "-o", str(tmp_path / "r.json")],
        obj={"plugin_manager": PM},
    )
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["summary"]["score"] == 1.0


def test_jsonl_errors_name_the_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text(lines({"tool": "a", "args": {}}) + '{"tool": \n', encoding="utf-8")
    with pytest.raises(InputError, match=r"broken\.jsonl:2:\d+: invalid JSON on line 2"):
        load_trace(broken, plugin_manager=PM)
    bad_item = tmp_path / "bad.jsonl"
    bad_item.write_text(lines({"tool": "a", "args": {}}, {}, {"tool": 5}), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_gold_standard(bad_item, plugin_manager=PM)
    assert str(caught.value).startswith(f"{bad_item}:2: $[1]")


# -- names are never coerced -----------------------------------------------------------------


@pytest.mark.parametrize("key", ["tool", "name"])
def test_custom_format_refuses_a_number_as_tool_name(tmp_path: Path, key: str) -> None:
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps({"calls": [{key: 5, "args": {}}]}), encoding="utf-8")
    result = validate("-f", "custom", str(trace))
    assert result.exit_code == 1, result.output
    assert f"$.calls[0].{key}: expected a string, got integer" in result.output


# -- lone surrogates -------------------------------------------------------------------------


def test_validate_prints_lone_surrogates_escaped(tmp_path: Path) -> None:
    trace = tmp_path / "trace.json"
    trace.write_text('[{"tool": "s\\ud800", "args": {"q": "\\udc00"}}]', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONIOENCODING"}
    env["TOOLSCORE_NO_PLUGINS"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "toolscore", "validate", str(trace)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "First tool: s\\ud800" in done.stdout
    assert "Unexpected error" not in done.stderr


# -- snapshot names --------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:snapshot")
def test_long_non_ascii_snapshot_names_fit_a_file_name(tmp_path: Path) -> None:
    store = SnapshotStore(tmp_path)
    first, second = "😀" * 100, "😀" * 99 + "x"
    for name in (first, second):
        path = store.path_for(name)
        assert len(path.name.encode("utf-8")) <= 255 - 14  # room for the atomic write's temp
        snapshot_check(name, [{"tool": "a", "args": {}}], store=store, update=True)
        replay = snapshot_check(name, [{"tool": "a", "args": {}}], store=store)
        assert replay is not None
        assert replay.score == 1.0
    assert store.path_for(first) != store.path_for(second)  # the hash keeps them apart
    assert sorted(s.name for s in store.list()) == sorted([first, second])


def test_ascii_snapshot_file_names_are_unchanged() -> None:
    store = SnapshotStore("snaps")
    assert store.path_for("tests/test_x.py::test_a[p 1]").name == (
        "tests__test_x.py__test_a__p__1__-a9f2f9b6.json"
    )
    assert store.path_for("custom-name").name == "custom-name-ed556c1b.json"
    assert len(store.path_for("a" * 300).name) == 100 + 14


@pytest.mark.filterwarnings("ignore:snapshot")
@pytest.mark.parametrize("name", ["a\x00b", "tab\x1bescape\x7f", "lone\ud800", "../\x00"])
def test_control_characters_in_snapshot_names_are_mapped(tmp_path: Path, name: str) -> None:
    assert not any(ch < " " or ch == "\x7f" for ch in sanitize_name(name))
    store = SnapshotStore(tmp_path)
    snapshot_check(name, [{"tool": "a", "args": {}}], store=store, update=True)
    (path,) = tmp_path.glob("*.json")
    assert path.parent == tmp_path
    assert [s.name for s in store.list()] == [name]
