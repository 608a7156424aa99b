"""evaluate_dataset and ``toolscore eval-batch``: results, aggregate, bad records, resume."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import toolscore
from batch_support import make_dataset, sorted_lines
from toolscore.batch import BadRecordError, evaluate_dataset
from toolscore.batch.aggregate import percentiles

TOOLSCORE = [sys.executable, "-m", "toolscore"]


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TOOLSCORE, *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )


def test_workers_1_and_2_write_identical_results(tmp_path: Path) -> None:
    make_dataset(tmp_path / "cases.jsonl", 300)
    for workers in ("1", "2"):
        proc = _cli(
            "eval-batch", "cases.jsonl", "--workers", workers, "--batch-size", "16",
            "--out", f"w{workers}.jsonl", "--json", f"w{workers}.json", cwd=tmp_path,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
    one, two = tmp_path / "w1.jsonl", tmp_path / "w2.jsonl"
    assert one.read_bytes() == two.read_bytes()  # same order too, not only the same set
    assert sorted_lines(one) == sorted_lines(two)
    assert json.loads((tmp_path / "w1.json").read_text()) == json.loads(
        (tmp_path / "w2.json").read_text()
    )


def test_aggregate_equals_a_plain_loop_over_evaluate(tmp_path: Path) -> None:
    records = make_dataset(tmp_path / "cases.jsonl", 250, seed=11)
    run = evaluate_dataset(tmp_path / "cases.jsonl", workers=1, batch_size=32)
    results = list(run)
    aggregate = run.aggregate

    plain = [toolscore.evaluate(r["expected"], r["actual"]) for r in records]  # type: ignore[arg-type]
    scores = [r.score for r in plain]
    assert [r.id for r in results] == [r["id"] for r in records]
    assert [r.score for r in results] == scores
    assert [r.metrics for r in results] == [json.loads(json.dumps(r.metrics)) for r in plain]
    assert aggregate.cases == len(records)
    assert aggregate.mean == math.fsum(scores) / len(scores)
    ordered = sorted(scores)
    for p, value in aggregate.percentiles:
        rank = (len(ordered) - 1) * p / 100
        low = math.floor(rank)
        high = min(low + 1, len(ordered) - 1)
        assert value == pytest.approx(ordered[low] + (ordered[high] - ordered[low]) * (rank - low))
    assert dict(aggregate.grades) == {
        g: sum(1 for r in plain if r.grade == g) for g in ("A", "B", "C", "D", "F")
    }
    missing = sum(1 for r in plain if r.alignment and r.alignment.unmatched_expected)
    assert {f.code: f.cases for f in aggregate.findings}["missing_call"] == missing
    worst = sorted(range(len(scores)), key=lambda i: (scores[i], i))[:10]
    assert [c.id for c in aggregate.worst] == [records[i]["id"] for i in worst]
    assert aggregate.worst[0].source == f"{tmp_path / 'cases.jsonl'}:{worst[0] + 1}"
    expected_calls = {t.tool: t.expected for t in aggregate.tools}
    assert sum(expected_calls.values()) == sum(len(r["expected"]) for r in records)  # type: ignore[arg-type]


def test_matcher_forms_and_structured_golds_score_as_evaluate_does(tmp_path: Path) -> None:
    # The batch converts a plain gold list itself when the record cannot hold a "$" form;
    # records with forms (written plainly or escaped) and structured steps go to evaluate().
    actual = [{"tool": "a", "args": {"q": "hello"}}, {"tool": "b", "args": {"n": 2}}]
    golds = [
        [{"tool": "a", "args": {"q": {"$regex": "h.*"}}}, {"tool": "b", "args": {"n": 2}}],
        [{"tool": "a", "args": {"q": {"$regex": "x.*"}}}],
        [{"tool": "a", "args": {"q": "hello"}}, {"optional": {"tool": "c"}}, {"tool": "b"}],
        [{"tool": "a", "args": {"q": "hello"}}, {"tool": "b", "args": {"n": 3}}],
        [{"tool": "a", "args": {"q": {"$literal": {"$regex": "h.*"}}}}],
        [{"tool": "b", "args": None}, {"tool": "a", "args": {}}],
    ]
    lines = [
        json.dumps({"id": f"g{i}", "expected": g, "actual": actual}) for i, g in enumerate(golds)
    ]
    escaped = json.dumps({"id": "esc", "expected": golds[0], "actual": actual})
    lines.append(escaped.replace('"$regex"', '"\\u0024regex"'))
    (tmp_path / "cases.jsonl").write_text("\n".join(lines) + "\n")
    results = list(evaluate_dataset(tmp_path / "cases.jsonl", workers=1))
    plain = [toolscore.evaluate(g, actual) for g in [*golds, golds[0]]]
    assert [r.id for r in results] == [*(f"g{i}" for i in range(len(golds))), "esc"]
    assert [r.score for r in results] == [p.score for p in plain]
    assert [r.metrics for r in results] == [
        json.loads(json.dumps(p.metrics, default=repr)) for p in plain
    ]
    assert results[0].score == 1.0
    assert results[1].score < 1.0
    assert results[-1].score == 1.0  # the escaped "$regex" is a matcher too


def test_eval_options_match_tools_option_and_weights_score_as_evaluate(tmp_path: Path) -> None:
    # eval-batch takes eval's gold options and gives each case what evaluate() gives it.
    cases = [
        {"expected": [{"tool": "a", "args": {"q": 1}}, {"tool": "b"}],
         "actual": [{"tool": "b"}, {"tool": "a", "args": {"q": 1, "extra": True}}]},
        {"expected": [{"tool": "a", "args": {"q": 2}}],
         "actual": [{"tool": "a", "args": {"q": "two"}}, {"tool": "c"}]},
    ]  # fmt: skip
    rows = [{"id": f"o{i}", **case} for i, case in enumerate(cases)]
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    tools = [
        {"name": "a", "inputSchema": {"type": "object", "properties": {"q": {"type": "integer"}}}}
    ]
    (tmp_path / "tools.json").write_text(json.dumps(tools))
    proc = _cli(
        "eval-batch", "cases.jsonl", "-w", "1", "--match", "unordered", "--args", "subset",
        "--tools", "tools.json", "--option", "call_budget=1", "--weight", "argument_f1=0.5",
        cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    got = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    for row, case in zip(got, cases):
        want = toolscore.evaluate(
            case["expected"],
            case["actual"],
            weights={"argument_f1": 0.5},
            match={"mode": "unordered", "args": "subset"},
            tools=tools,
            options={"call_budget": 1},
        )
        assert row["score"] == want.score
        assert row["metrics"] == json.loads(json.dumps(want.metrics, default=repr))
        assert "trajectory_match" in row["metrics"]
        assert "schema_validity" in row["metrics"]
    plain = toolscore.evaluate(cases[0]["expected"], cases[0]["actual"])
    assert got[0]["score"] != plain.score  # the options did change the scoring

    bad = _cli("eval-batch", "cases.jsonl", "--match", "sideways", cwd=tmp_path)
    assert bad.returncode == 2


def test_fail_on_violations_gates_on_forbidden_calls(tmp_path: Path) -> None:
    rows = [
        {"id": "ok", "expected": [{"tool": "a"}], "actual": [{"tool": "a"}]},
        {"id": "bad", "expected": [{"tool": "a"}], "actual": [{"tool": "a"}, {"tool": "rm"}]},
    ]
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (tmp_path / "rules.json").write_text(json.dumps([{"tool": "rm"}]))
    args = ("eval-batch", "cases.jsonl", "-w", "1", "--forbidden", "rules.json")
    assert _cli(*args, cwd=tmp_path).returncode == 0
    gated = _cli(*args, "--fail-on-violations", "--overwrite", cwd=tmp_path)
    assert gated.returncode == 1
    assert "1 forbidden call(s) or credential(s) found" in gated.stderr
    report = json.loads((tmp_path / "toolscore-batch.json").read_text())
    assert {f["code"]: f["count"] for f in report["findings"]}["forbidden_call"] == 1


def test_percentiles_interpolate_like_numpy_linear() -> None:
    counts = {0.0: 1, 0.5: 2, 1.0: 1}  # 0, .5, .5, 1
    assert percentiles(counts, 4, (0, 25, 50, 100)) == [0.0, 0.375, 0.5, 1.0]


def test_bad_records_are_reported_skipped_and_counted(tmp_path: Path) -> None:
    good = json.dumps({"id": "ok", "expected": [{"tool": "a"}], "actual": [{"tool": "a"}]})
    lines = [
        good,
        "{not json",
        json.dumps({"id": "e1", "expected": [{"args": {}}], "actual": []}),
        json.dumps({"expected": [], "actual": []}),
        json.dumps({"id": "e3", "expected": [], "actual": [{"args": {}}]}),
        json.dumps({"id": "ok2", "expected": [{"tool": "b"}], "actual": []}),
    ]
    (tmp_path / "cases.jsonl").write_text("\n".join(lines) + "\n")
    proc = _cli("eval-batch", "cases.jsonl", "--workers", "1", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    bad = [line for line in proc.stderr.splitlines() if line.startswith("bad record:")]
    name = "cases.jsonl"
    assert bad[0].startswith(f"bad record: {name}:2: invalid JSON")
    assert bad[1].startswith(f"bad record: {name}:3: $.expected[0]")
    assert (
        bad[2]
        == f"bad record: {name}:4: $.id: expected a non-empty string or integer id, got nothing"
    )
    assert bad[3].startswith(f"bad record: {name}:5: $.actual")
    assert len(bad) == 4
    ids = [json.loads(line)["id"] for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert ids == ["ok", "ok2"]
    report = json.loads((tmp_path / "toolscore-batch.json").read_text())
    assert report["cases"] == 2
    assert report["bad_records"] == 4


def _call_case(case_id: str, tool: str = "a") -> str:
    return json.dumps({"id": case_id, "expected": [{"tool": tool}], "actual": [{"tool": "a"}]})


def test_duplicate_ids_are_bad_records(tmp_path: Path) -> None:
    ids = ["a", "b", "a", "c", "b", "d", "a"]
    (tmp_path / "cases.jsonl").write_text("".join(_call_case(i) + "\n" for i in ids))
    for workers in ("1", "2"):
        out = f"w{workers}.jsonl"
        proc = _cli(
            "eval-batch", "cases.jsonl", "-w", workers, "--batch-size", "2", "--out", out,
            "--json", f"w{workers}.json", cwd=tmp_path,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        bad = [line for line in proc.stderr.splitlines() if line.startswith("bad record:")]
        assert bad == [
            "bad record: cases.jsonl:3: $.id: duplicate id 'a': an earlier record has it",
            "bad record: cases.jsonl:5: $.id: duplicate id 'b': an earlier record has it",
            "bad record: cases.jsonl:7: $.id: duplicate id 'a': an earlier record has it",
        ]
        kept = [json.loads(line) for line in (tmp_path / out).read_text().splitlines()]
        assert [(r["id"], r["source"]) for r in kept] == [
            ("a", "cases.jsonl:1"), ("b", "cases.jsonl:2"), ("c", "cases.jsonl:4"),
            ("d", "cases.jsonl:6"),
        ]  # fmt: skip
        report = json.loads((tmp_path / f"w{workers}.json").read_text())
        assert (report["cases"], report["bad_records"]) == (4, 3)
    assert (tmp_path / "w1.jsonl").read_bytes() == (tmp_path / "w2.jsonl").read_bytes()

    proc = _cli("eval-batch", "cases.jsonl", "-w", "1", "--fail-fast", cwd=tmp_path)
    assert proc.returncode == 1
    assert "cases.jsonl:3: $.id: duplicate id 'a'" in proc.stderr
    ids_written = [json.loads(line)["id"] for line in (tmp_path / "results.jsonl").open()]
    assert ids_written == ["a", "b"]


def test_resume_skips_each_done_id_once_and_still_reports_duplicates(tmp_path: Path) -> None:
    ids = ["a", "b", "a", "c", "b", "d"]
    (tmp_path / "cases.jsonl").write_text("".join(_call_case(i) + "\n" for i in ids))
    full = _cli("eval-batch", "cases.jsonl", "-w", "1", "--out", "full.jsonl", cwd=tmp_path)
    assert full.returncode == 0, full.stderr
    lines = (tmp_path / "full.jsonl").read_text().splitlines(keepends=True)
    (tmp_path / "part.jsonl").write_text("".join(lines[:2]))  # "a" and "b" were done
    resumed = _cli(
        "eval-batch", "cases.jsonl", "-w", "1", "--out", "part.jsonl", "--resume", cwd=tmp_path
    )
    assert resumed.returncode == 0, resumed.stderr
    assert (tmp_path / "part.jsonl").read_text() == (tmp_path / "full.jsonl").read_text()
    bad = [line for line in resumed.stderr.splitlines() if line.startswith("bad record:")]
    assert [line.split(": $.id")[0] for line in bad] == [
        "bad record: cases.jsonl:3",
        "bad record: cases.jsonl:5",
    ]
    report = json.loads((tmp_path / "toolscore-batch.json").read_text())
    assert (report["cases"], report["bad_records"], report["resumed"]) == (4, 2, 2)


def test_results_writer_appends_each_batch_whole_before_close(tmp_path: Path) -> None:
    from toolscore.batch.results_file import ResultsWriter

    out = tmp_path / "out.jsonl"
    writer = ResultsWriter(out, append=False, sync_interval=0.05)
    try:
        writer.write_chunks([b'{"id": 1}\n', b'{"id": 2}\n'])
        writer.write_lines(['{"id": 3}\n'])
        deadline = time.monotonic() + 10
        while out.read_bytes().count(b"\n") < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert out.read_bytes() == b'{"id": 1}\n{"id": 2}\n{"id": 3}\n'  # not held until close
        time.sleep(0.1)  # the fsync that falls due with nothing new to write
    finally:
        writer.close()
    assert out.read_bytes() == b'{"id": 1}\n{"id": 2}\n{"id": 3}\n'


def test_seen_ids_remembers_many_ids_exactly() -> None:
    from toolscore.batch.ids import MAX_LOAD, SeenIds

    ids = [f"case-{i:07d}" for i in range(50_000)]
    for seen in (SeenIds(), SeenIds(buckets=1)):  # the second doubles its buckets 9 times
        assert all(seen.add(i) for i in ids)
        assert not any(seen.add(i) for i in ids[::7])
        assert len(seen) == len(ids)
        assert all(i in seen for i in ids)
        assert "case-x" not in seen
        # a lookup scans one bucket: growing keeps them short whatever the number of ids
        assert max(len(bucket) for bucket in seen._buckets) // 8 < 4 * MAX_LOAD


def test_fail_fast_stops_and_keeps_what_was_written(tmp_path: Path) -> None:
    rows = [
        {"id": f"g{i}", "expected": [{"tool": "a"}], "actual": [{"tool": "a"}]} for i in range(5)
    ]
    text = "".join(json.dumps(r) + "\n" for r in rows[:3]) + "[]\n" + json.dumps(rows[3]) + "\n"
    (tmp_path / "cases.jsonl").write_text(text)
    proc = _cli(
        "eval-batch",
        "cases.jsonl",
        "--workers",
        "1",
        "--batch-size",
        "2",
        "--fail-fast",
        cwd=tmp_path,
    )
    assert proc.returncode == 1
    assert "cases.jsonl:4: $: expected an object" in proc.stderr
    ids = [json.loads(line)["id"] for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert ids == ["g0", "g1", "g2"]
    with pytest.raises(BadRecordError):
        list(evaluate_dataset(tmp_path / "cases.jsonl", workers=1, fail_fast=True))


def test_resume_after_kill_9_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    make_dataset(tmp_path / "cases.jsonl", 3000, seed=5)
    reference = _cli(
        "eval-batch", "cases.jsonl", "--workers", "1", "--out", "ref.jsonl", cwd=tmp_path
    )
    assert reference.returncode == 0, reference.stderr
    out = tmp_path / "killed.jsonl"
    proc = subprocess.Popen(
        [*TOOLSCORE, "eval-batch", "cases.jsonl", "--workers", "2", "--batch-size", "8",
         "--out", str(out)],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists() or out.stat().st_size < 200_000):
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)  # the CLI and its pool workers, mid-run
    proc.wait()
    written = out.read_text().count("\n")
    assert 0 < written < 3000, "the kill must land mid-run"
    with out.open("ab") as handle:  # simulate a write torn by the kill
        handle.write(b'{"id": "c02999", "score": 0.5, "gra')
    resumed = _cli(
        "eval-batch", "cases.jsonl", "--workers", "2", "--resume", "--out", str(out), cwd=tmp_path
    )
    assert resumed.returncode == 0, resumed.stderr
    assert sorted_lines(out) == sorted_lines(tmp_path / "ref.jsonl")
    report = json.loads((tmp_path / "toolscore-batch.json").read_text())
    assert report["cases"] == 3000
    assert report["resumed"] == written


def test_baseline_lists_regressions(tmp_path: Path) -> None:
    old = [
        {
            "id": f"r{i}",
            "expected": [{"tool": "a", "args": {"x": 1}}],
            "actual": [{"tool": "a", "args": {"x": 1}}],
        }
        for i in range(3)
    ]
    (tmp_path / "old.jsonl").write_text("".join(json.dumps(r) + "\n" for r in old))
    assert (
        _cli(
            "eval-batch", "old.jsonl", "-w", "1", "--out", "old-results.jsonl", cwd=tmp_path
        ).returncode
        == 0
    )
    new = [dict(r) for r in old]
    new[1] = {**new[1], "actual": [{"tool": "a", "args": {"x": 2}}]}
    (tmp_path / "new.jsonl").write_text("".join(json.dumps(r) + "\n" for r in new))
    proc = _cli(
        "eval-batch", "new.jsonl", "-w", "1", "--baseline", "old-results.jsonl",
        "--html", "r.html", "--markdown", "r.md", "--fail-under", "0.95", cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 1
    assert "below the required" in proc.stderr
    report = json.loads((tmp_path / "toolscore-batch.json").read_text())
    assert report["baseline"]["regressed"] == 1
    assert report["baseline"]["regressions"][0]["id"] == "r1"
    assert report["baseline"]["regressions"][0]["source"].endswith("new.jsonl:2")
    page = (tmp_path / "r.html").read_text()
    assert page.count("<svg") == 2
    assert "<script" not in page
    assert "r1" in page
    assert "## Regressions" in (tmp_path / "r.md").read_text()


def test_html_escapes_text_from_the_data(tmp_path: Path) -> None:
    row = {"id": "<img src=x>", "expected": [{"tool": "<b>t</b>"}], "actual": []}
    (tmp_path / "cases.jsonl").write_text(json.dumps(row) + "\n")
    proc = _cli("eval-batch", "cases.jsonl", "-w", "1", "--html", "r.html", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    page = (tmp_path / "r.html").read_text()
    assert "<img" not in page
    assert "<b>t</b>" not in page
    assert "&lt;img src=x&gt;" in page
    assert "&lt;b&gt;t&lt;/b&gt;" in page


def test_folder_pair_dataset(tmp_path: Path) -> None:
    (tmp_path / "gold").mkdir()
    (tmp_path / "traces").mkdir()
    (tmp_path / "gold" / "one.json").write_text(
        json.dumps([{"tool": "a", "args": {"q": {"$regex": "h.*"}}}])
    )
    (tmp_path / "traces" / "one.json").write_text(
        json.dumps([{"tool": "a", "args": {"q": "hello"}}])
    )
    (tmp_path / "traces" / "two.json").write_text(json.dumps([{"tool": "a"}]))
    errors: list[str] = []
    run = evaluate_dataset(tmp_path, workers=1, on_error=lambda e: errors.append(e.message))
    results = list(run)
    assert [(r.id, r.score) for r in results] == [("one", 1.0)]
    assert len(errors) == 1
    assert "two.json" in errors[0]
    assert "no gold file" in errors[0]


def test_folder_pairs_score_as_toolscore_eval_scores_the_two_files(tmp_path: Path) -> None:
    """A gold/ + traces/ pair is the input of ``toolscore eval GOLD TRACE``: the gold file's
    ``match`` object and the trace's durations and costs count in the batch as they do there."""
    (tmp_path / "gold").mkdir()
    (tmp_path / "traces").mkdir()
    gold = {
        "match": {"mode": "superset", "args": "superset"},
        "calls": [{"tool": "search", "args": {"q": "paris"}}],
    }
    trace = [
        {"tool": "search", "args": {"q": "paris", "page": 2}, "duration": 0.5, "cost": 0.01},
        {"tool": "book", "args": {"id": 7}, "duration": 1.5, "cost": 0.03},
    ]
    (tmp_path / "gold" / "case.json").write_text(json.dumps(gold))
    (tmp_path / "traces" / "case.json").write_text(json.dumps(trace))
    [result] = list(evaluate_dataset(tmp_path, workers=1))
    alone = toolscore.evaluate_trace(
        tmp_path / "gold" / "case.json", tmp_path / "traces" / "case.json"
    )
    assert result.score == pytest.approx(alone.score)
    assert result.metrics["trajectory_match"]["matched"] is True
    # metrics of files only, which evaluate() on the same calls leaves out
    assert {"latency_metrics", "cost_metrics"} <= result.metrics.keys()
    assert json.loads(json.dumps(alone.metrics, default=repr)) == result.metrics


def test_unknown_executor_says_which_distribution(tmp_path: Path) -> None:
    make_dataset(tmp_path / "cases.jsonl", 2)
    proc = _cli("--no-plugins", "eval-batch", "cases.jsonl", "--executor", "dask", cwd=tmp_path)
    assert proc.returncode == 1
    assert "pip install toolscore-dask" in proc.stderr


def test_import_toolscore_and_help_do_not_import_batch() -> None:
    code = (
        "import sys, toolscore\n"
        "from toolscore.cli import cli\n"
        "try:\n    cli.main(['--help'], standalone_mode=False)\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('toolscore.batch.') or m.startswith('distributed')))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # toolscore.batch.local is the built-in plugin module (a hookimpl and a spec), which the
    # plugin manager may import; nothing else.
    assert proc.stdout.strip().splitlines()[-1] in ("[]", "['toolscore.batch.local']")


def _tool_span(trace: str, span: str, tool: str, args: str) -> dict[str, object]:
    def attr(key: str, value: str) -> dict[str, object]:
        return {"key": key, "value": {"stringValue": value}}

    return {
        "traceId": trace,
        "spanId": span,
        "name": f"execute_tool {tool}",
        "startTimeUnixNano": "1000",
        "endTimeUnixNano": "2000",
        "attributes": [
            attr("gen_ai.operation.name", "execute_tool"),
            attr("gen_ai.tool.name", tool),
            attr("gen_ai.tool.call.arguments", args),
        ],
    }


@pytest.mark.requires("toolscore_providers")
def test_otlp_exports_make_one_case_per_trace_id(tmp_path: Path) -> None:
    spans = [
        _tool_span("t1", "s1", "search", '{"q": "x"}'),
        _tool_span("t2", "s2", "book", '{"id": 1}'),
        _tool_span("t1", "s3", "pay", "{}"),
        _tool_span("t3", "s4", "book", "{}"),
    ]
    export = {"resourceSpans": [{"resource": {}, "scopeSpans": [{"scope": {}, "spans": spans}]}]}
    (tmp_path / "exports.jsonl").write_text(json.dumps(export) + "\n")
    gold = tmp_path / "gold"
    gold.mkdir()
    (gold / "t1.json").write_text(
        json.dumps([{"tool": "search", "args": {"q": "x"}}, {"tool": "pay"}])
    )
    (gold / "t2.json").write_text(json.dumps([{"tool": "book", "args": {"id": 2}}]))
    errors: list[str] = []
    run = evaluate_dataset(
        tmp_path / "exports.jsonl",
        gold_dir=gold,
        workers=1,
        on_error=lambda e: errors.append(str(e)),
    )
    results = {r.id: r for r in run}
    assert sorted(results) == ["t1", "t2"]
    assert results["t1"].score == 1.0
    assert results["t2"].score < 1.0
    assert results["t1"].source == f"{tmp_path / 'exports.jsonl'}:1"
    assert len(errors) == 1
    assert "t3" in errors[0]
    assert "no gold file" in errors[0]


class _SizedExecutor:
    """An in-process executor that asks for work units of 7 cases and records their sizes."""

    batch_size = 7

    def __init__(self, options: object) -> None:
        self.sizes: list[int] = []
        _SizedExecutor.last = self

    def map_batches(self, function, batches):  # type: ignore[no-untyped-def]
        for batch in batches:
            self.sizes.append(batch.lines.count(b"\n"))
            yield function(batch)

    def close(self) -> None:
        pass


class _SizedExecutorPlugin:
    @toolscore.hookimpl
    def toolscore_register_executors(self):  # type: ignore[no-untyped-def]
        from toolscore.specs import ExecutorSpec

        yield ExecutorSpec(name="sized", factory=_SizedExecutor, summary="test")


def test_the_executor_chooses_the_batch_size_unless_the_run_does(tmp_path: Path) -> None:
    from toolscore.plugins import create_plugin_manager

    make_dataset(tmp_path / "cases.jsonl", 30)
    pm = create_plugin_manager(load_entrypoints=False)
    pm.register(_SizedExecutorPlugin(), name="sized-executor")
    expected = [
        json.loads(line)["id"] for line in (tmp_path / "cases.jsonl").read_text().splitlines()
    ]
    for batch_size, sizes in ((None, [7, 7, 7, 7, 2]), (10, [10, 10, 10])):
        run = evaluate_dataset(
            tmp_path / "cases.jsonl", executor="sized", batch_size=batch_size, plugin_manager=pm
        )
        assert [result.id for result in run] == expected
        assert _SizedExecutor.last.sizes == sizes
