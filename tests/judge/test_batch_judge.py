"""``eval-batch --llm-judge``: the judge scores every case, in the worker processes, through
the same ``--llm-*`` options as ``eval``; a case the judge could not score is counted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import toolscore_judge.plugin
from judge_support import FakeLLM
from toolscore.evaluation import add_judgement, evaluate
from toolscore.plugins import create_plugin_manager
from toolscore_judge.config import JudgeConfig

CASES = [
    {
        "id": "same-tools",
        "expected": [{"tool": "search", "args": {"q": "paris"}}],
        "actual": [{"tool": "search", "args": {"q": "Paris"}}],
    },
    {
        "id": "another-tool",
        "expected": [{"tool": "search", "args": {"q": "paris"}}],
        "actual": [{"tool": "web_search", "args": {"query": "paris"}}],
    },
    {
        "id": "two-calls",
        "expected": [{"tool": "a", "args": {"x": 1}}, {"tool": "b", "args": {"y": 2}}],
        "actual": [{"tool": "a", "args": {"x": 2}}, {"tool": "c", "args": {"y": 2}}],
    },
]


def _batch(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscore", "eval-batch", "cases.jsonl", "--out", "out.jsonl",
         "--json", "report.json", *args],
        cwd=cwd, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_every_case_is_judged_in_the_workers_as_evaluate_would_be(
    llm: FakeLLM, tmp_path: Path
) -> None:
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in CASES))
    llm.api_key = "not-needed"  # a keyless OpenAI-compatible server
    proc = _batch(
        tmp_path, "--workers", "2", "--batch-size", "1", "--llm-judge",
        "--llm-model", "llama3.1", "--llm-base-url", f"{llm.url}/v1", "--llm-cache", "off",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [line["id"] for line in lines] == [case["id"] for case in CASES]
    assert len(llm.seen) == len(CASES)  # one request per case, from the worker processes

    pm = create_plugin_manager(load_entrypoints=False)
    pm.register(toolscore_judge.plugin, name="toolscore_judge")
    config = JudgeConfig("llama3.1", base_url=f"{llm.url}/v1", cache_dir="off")
    for case, line in zip(CASES, lines):
        alone = evaluate(case["expected"], case["actual"], plugin_manager=pm)
        add_judgement(alone, config, pm)
        semantic = line["metrics"]["semantic_metrics"]
        assert semantic["per_call_scores"] == alone.metrics["semantic_metrics"]["per_call_scores"]
        assert semantic["semantic_score"] == alone.metrics["semantic_metrics"]["semantic_score"]
    assert lines[1]["metrics"]["semantic_metrics"]["per_call_scores"] == [0.5]
    report = json.loads((tmp_path / "report.json").read_text())
    assert "judge_error" not in {f["code"] for f in report["findings"]}


def test_without_a_judge_flag_no_request_is_made(llm: FakeLLM, tmp_path: Path) -> None:
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in CASES))
    proc = _batch(tmp_path, "--workers", "1", "--llm-base-url", f"{llm.url}/v1")
    assert proc.returncode == 0, proc.stderr
    assert llm.seen == []
    line = json.loads((tmp_path / "out.jsonl").read_text().splitlines()[0])
    assert "semantic_metrics" not in line["metrics"]


def test_cases_the_judge_cannot_score_are_counted_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in CASES))
    proc = _batch(tmp_path, "--workers", "1", "--llm-judge", "--llm-cache", "off")  # no API key
    assert proc.returncode == 0, proc.stderr
    assert "LLM judge gave no verdict on 3 case(s)" in proc.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    findings = {f["code"]: f["count"] for f in report["findings"]}
    assert findings["judge_error"] == 3
    line = json.loads((tmp_path / "out.jsonl").read_text().splitlines()[0])
    assert "API key required" in line["metrics"]["semantic_metrics"]["error"]
    assert line["score"] > 0
