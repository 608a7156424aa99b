"""Production capture: TraceCapture files are written safely and read back as traces."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import pytest
from toolscore.capture import TraceCapture, capture_trace
from toolscore.model import ToolCall

CALLS = [
    {"tool": "search", "args": {"q": "paris"}, "result": {"hits": 3}},
    {"tool": "book", "args": {"id": 7}, "error": "sold out"},
]


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix == ".json")


def test_decorator_writes_the_returned_tools(tmp_path: Path) -> None:
    capture = TraceCapture(dataset_dir=tmp_path / "traces")

    @capture.trace(name="trip")
    def agent(city: str, *, budget: int) -> dict[str, object]:
        return {"tools": CALLS, "answer": "done"}

    assert agent("paris", budget=3) == {"tools": CALLS, "answer": "done"}
    [path] = _files(tmp_path / "traces")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert path.name == f"{data['id']}.json"
    assert data["id"].startswith("trip_")
    assert data["name"] == "trip"
    assert data["tools"] == CALLS
    assert data["metadata"] == {"args": "('paris',)", "kwargs": {"budget": 3}, "error": False}
    assert not [p for p in (tmp_path / "traces").iterdir() if p.name.endswith(".tmp")]


def test_nothing_is_created_until_something_is_captured(tmp_path: Path) -> None:
    TraceCapture(dataset_dir=tmp_path / "later")
    assert not (tmp_path / "later").exists()


def test_captures_in_the_same_second_never_overwrite_each_other(tmp_path: Path) -> None:
    capture = TraceCapture(dataset_dir=tmp_path)

    @capture.trace(name="burst")
    def agent(i: int) -> list[dict[str, object]]:
        return [{"tool": "step", "args": {"i": i}}]

    threads = [threading.Thread(target=agent, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    files = _files(tmp_path)
    assert len(files) == 12
    seen = sorted(json.loads(p.read_text(encoding="utf-8"))["tools"][0]["args"]["i"] for p in files)
    assert seen == list(range(12))


def test_errors_are_saved_and_reraised(tmp_path: Path) -> None:
    capture = TraceCapture(dataset_dir=tmp_path)

    @capture.trace(name="broken")
    def agent() -> None:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        agent()
    [path] = _files(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["metadata"]["error"] is True
    assert data["tools"] == []


def test_save_on_error_false_saves_nothing(tmp_path: Path) -> None:
    capture = TraceCapture(dataset_dir=tmp_path / "t")

    @capture.trace(save_on_error=False)
    def agent() -> None:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        agent()
    assert not (tmp_path / "t").exists()


def test_async_functions_are_captured(tmp_path: Path) -> None:
    capture = TraceCapture(dataset_dir=tmp_path)

    @capture.trace(name="async_agent")
    async def agent() -> list[dict[str, object]]:
        await asyncio.sleep(0)
        return [{"tool": "lookup", "args": {}}]

    assert asyncio.run(agent()) == [{"tool": "lookup", "args": {}}]
    [path] = _files(tmp_path)
    assert json.loads(path.read_text(encoding="utf-8"))["tools"] == [{"tool": "lookup", "args": {}}]


def test_memory_mode_and_save_all(tmp_path: Path) -> None:
    capture = TraceCapture(dataset_dir=tmp_path, auto_save=False)

    @capture.trace(name="m")
    def agent() -> list[object]:
        return [
            ToolCall(tool="a", args={"x": 1}, result="ok"),
            {"tool": "b", "args": {"s": {1, 2}}},
        ]

    agent()
    agent()
    assert _files(tmp_path) == []
    assert len(capture.captured_traces) == 2
    paths = capture.save_all()
    assert len(paths) == 2
    assert capture.captured_traces == []
    data = json.loads(paths[0].read_text(encoding="utf-8"))
    # ToolCall objects and values JSON cannot hold are written, not crashed on
    assert data["tools"] == [
        {"tool": "a", "args": {"x": 1}, "result": "ok"},
        {"tool": "b", "args": {"s": [1, 2]}},
    ]


def test_names_cannot_escape_the_folder(tmp_path: Path) -> None:
    capture = TraceCapture(dataset_dir=tmp_path / "inside")
    path = capture.capture_tools(CALLS, name="../../etc/passwd")
    assert path.parent == tmp_path / "inside"


def test_capture_file_is_a_trace_format(tmp_path: Path) -> None:
    from toolscore.loading import load_trace

    capture = TraceCapture(dataset_dir=tmp_path)
    path = capture.capture_tools(CALLS, name="manual", description="a good run")
    calls = load_trace(path)
    assert [c.tool for c in calls] == ["search", "book"]
    assert calls[0].args == {"q": "paris"}
    assert calls[0].result == {"hits": 3}
    assert calls[1].is_error
    assert calls[1].error == "sold out"
    assert load_trace(path, format="capture") == calls


def test_capture_file_evaluates_against_its_own_gold(tmp_path: Path) -> None:
    from toolscore.evaluation import evaluate_trace

    capture = TraceCapture(dataset_dir=tmp_path / "traces")
    trace = capture.capture_tools(CALLS[:1], name="run")
    gold = capture.to_gold_standard(trace, tmp_path / "gold" / "run.json", description="search")
    assert json.loads(gold.read_text(encoding="utf-8")) == [
        {"tool": "search", "args": {"q": "paris"}, "description": "search"}
    ]
    result = evaluate_trace(gold, trace)
    assert result.score == 1.0
    # no `side_effects.result` check that could never pass (docs/compat.md#capture-gold)
    assert result.metrics.get("side_effect_metrics", {}).get("total_checks", 0) == 0


def test_default_capture_trace_writes_under_traces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    @capture_trace(name="default")
    def agent() -> list[dict[str, object]]:
        return [{"tool": "x", "args": {}}]

    agent()
    assert len(_files(tmp_path / "traces")) == 1
