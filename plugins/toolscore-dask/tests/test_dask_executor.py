"""toolscore-dask as its users see it: installed, found through the entry point, on a real
LocalCluster, producing the same results as the local executor."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from toolscore.batch import evaluate_dataset
from toolscore.plugins import create_plugin_manager

TOOLS = ("search", "book", "pay")


def _dataset(path: Path, n: int) -> None:
    rnd = random.Random(1)
    rows = []
    for i in range(n):
        expected = [
            {"tool": rnd.choice(TOOLS), "args": {"q": rnd.randint(0, 2)}}
            for _ in range(rnd.randint(1, 6))
        ]
        actual = [
            c if rnd.random() > 0.2 else {"tool": c["tool"], "args": {"q": 9}} for c in expected
        ]
        rows.append(
            {"id": f"d{i}", "expected": expected, "actual": actual[: rnd.randint(0, len(actual))]}
        )
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def _sorted(path: Path) -> list[str]:
    return sorted(
        json.dumps(json.loads(line), sort_keys=True) for line in path.read_text().splitlines()
    )


def test_entry_point_registers_the_dask_executor() -> None:
    pm = create_plugin_manager()
    assert "dask" in pm.get_executors()
    assert pm.get_executors().owners["dask"] == "toolscore_dask"
    record = next(r for r in pm.records() if r.name == "toolscore_dask")
    assert record.provides["executors"] == ("dask",)


def test_plugins_list_shows_the_executor() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "toolscore", "plugins", "list", "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    plugins = json.loads(proc.stdout)
    rows = plugins if isinstance(plugins, list) else plugins.get("plugins", [])
    row = next(p for p in rows if p["name"] == "toolscore_dask")
    assert row["provides"]["executors"] == ["dask"]


def test_dask_results_equal_the_local_executor_byte_for_byte(tmp_path: Path) -> None:
    _dataset(tmp_path / "cases.jsonl", 200)
    local = evaluate_dataset(tmp_path / "cases.jsonl", workers=1, out=tmp_path / "local.jsonl")
    local_aggregate = local.finish()
    run = evaluate_dataset(
        tmp_path / "cases.jsonl",
        workers=2,
        executor="dask",
        batch_size=16,
        out=tmp_path / "dask.jsonl",
    )
    ids = [result.id for result in run]
    assert ids == [f"d{i}" for i in range(200)]  # dataset order, whatever finished first
    assert (tmp_path / "dask.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert _sorted(tmp_path / "dask.jsonl") == _sorted(tmp_path / "local.jsonl")
    assert run.aggregate == local_aggregate


def test_cli_runs_on_dask_and_reports_bad_records(tmp_path: Path) -> None:
    _dataset(tmp_path / "cases.jsonl", 30)
    with (tmp_path / "cases.jsonl").open("a") as handle:
        handle.write('{"id": "broken", "expected": "nope", "actual": []}\n')
    proc = subprocess.run(
        [sys.executable, "-m", "toolscore", "eval-batch", "cases.jsonl", "--executor", "dask",
         "--workers", "1", "--batch-size", "8"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "bad record: cases.jsonl:31: $.expected" in proc.stderr
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 30


def test_scheduler_address_connects_to_a_running_cluster(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    _dataset(tmp_path / "cases.jsonl", 40)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        run = evaluate_dataset(
            tmp_path / "cases.jsonl", executor="dask", scheduler=cluster.scheduler_address
        )
        assert run.finish().cases == 40
