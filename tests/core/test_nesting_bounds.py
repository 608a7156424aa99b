"""One nesting bound and one record-size bound on every input path, with a clear input error
that names where: ``validate`` never says OK to what ``eval`` cannot read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import toolscore
from toolscore.limits import MAX_INPUT_DEPTH, MAX_RECORD_BYTES, too_deep_at, too_deep_in_json

TOOLSCORE = [sys.executable, "-m", "toolscore"]


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TOOLSCORE, *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )


def test_the_check_is_iterative_and_names_where() -> None:
    assert too_deep_at(_nested(MAX_INPUT_DEPTH - 1)) is None
    assert too_deep_at({"a": [{"b": _nested(10_000)}]}) == "$.a[0].b[0][0][0][0][0][0][0][0][0]…"


@pytest.mark.parametrize("depth", [MAX_INPUT_DEPTH - 1, MAX_INPUT_DEPTH, MAX_INPUT_DEPTH + 1, 900])
@pytest.mark.parametrize("as_bytes", [False, True])
def test_counting_brackets_first_agrees_with_the_walk(depth: int, as_bytes: bool) -> None:
    # at the bound: as many brackets as levels, so the count alone cannot tell
    for value in (_nested(depth), {"a": [_nested(depth - 1)], "b": "[[{{"}):
        text = json.dumps(value)
        assert too_deep_in_json(text.encode() if as_bytes else text, value) == too_deep_at(value)


@pytest.mark.parametrize("depth", [MAX_INPUT_DEPTH + 5, 900])
def test_validate_and_eval_refuse_the_same_deep_file_alike(tmp_path: Path, depth: int) -> None:
    (tmp_path / "deep.json").write_text(json.dumps([{"tool": "a", "args": {"x": _nested(depth)}}]))
    checked = _cli("validate", "deep.json", cwd=tmp_path)
    scored = _cli("eval", "deep.json", "deep.json", cwd=tmp_path)
    for done in (checked, scored):
        assert done.returncode == 1
        assert "deep.json: $[0].args.x[0]" in done.stderr
        assert f"nested deeper than {MAX_INPUT_DEPTH} levels" in done.stderr
        assert "Traceback" not in done.stderr
        assert "recursion" not in done.stderr


def test_a_file_within_the_bound_is_read_by_both(tmp_path: Path) -> None:
    calls = [{"tool": "a", "args": {"x": _nested(MAX_INPUT_DEPTH - 10)}}]
    (tmp_path / "ok.json").write_text(json.dumps(calls))
    assert _cli("validate", "ok.json", cwd=tmp_path).returncode == 0
    assert _cli("eval", "ok.json", "ok.json", cwd=tmp_path).returncode == 0


def test_an_option_value_of_100000_brackets_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "g.json").write_text(json.dumps([{"tool": "a"}]))
    done = _cli("eval", "g.json", "g.json", "--option", "x=" + "[" * 100_000, cwd=tmp_path)
    assert done.returncode == 2
    assert "x: nested deeper than" in done.stderr


def test_dataset_records_too_deep_or_too_large_are_bad_records(tmp_path: Path) -> None:
    good = {"id": "ok", "expected": [{"tool": "a"}], "actual": [{"tool": "a"}]}
    deep = {
        "id": "deep",
        "expected": [{"tool": "a"}],
        "actual": [{"tool": "a", "args": {"x": _nested(900)}}],
    }
    with (tmp_path / "cases.jsonl").open("w") as handle:
        handle.write(json.dumps(good) + "\n")
        handle.write(json.dumps(deep) + "\n")
        handle.write('{"id": "big", "pad": "' + "x" * (MAX_RECORD_BYTES + 10) + '"}\n')
    done = _cli("eval-batch", "cases.jsonl", "-w", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "cases.jsonl:2: $.actual[0].args.x" in done.stderr
    assert "cases.jsonl:3: the record is over the 32 MiB size limit" in done.stderr
    assert json.loads((tmp_path / "toolscore-batch.json").read_text())["cases"] == 1


def test_a_snapshot_nested_100000_deep_is_a_corrupt_snapshot(tmp_path: Path) -> None:
    from toolscore.errors import InputError
    from toolscore.snapshots import SnapshotStore

    store = SnapshotStore(tmp_path)
    path = store.path_for("deep")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"name": "deep", "calls": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(InputError, match=r"Corrupt snapshot.*nested deeper than"):
        store.load("deep")


def test_evaluate_runs_says_what_k_must_be() -> None:
    with pytest.raises(TypeError, match="k must be a whole number of runs, got '2'"):
        toolscore.evaluate_runs([{"tool": "a"}], [[{"tool": "a"}]], k="2")  # type: ignore[arg-type]
