"""What only ``evaluate_trace`` computes: schema, latency, cost, side effects, the judge hook-up."""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from toolscore.evaluation import evaluate, evaluate_trace
from toolscore.metrics.trace_extras import (
    calculate_cost_attribution,
    calculate_latency,
    calculate_side_effect_success_rate,
)
from toolscore.model import ToolCall, calls_from_dicts
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore.validators import (
    FileSystemValidator,
    HTTPValidator,
    SQLValidator,
    calculate_schema_validation_metrics,
    validate_argument_schema,
)


def one(**fields: Any) -> ToolCall:
    return calls_from_dicts([{"tool": "t", **fields}])[0]


def test_evaluate_trace_adds_its_metrics_in_the_references_order(
    builtin_pm: ToolscorePluginManager,
    write_json: Callable[..., Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "report.txt").write_text("done", encoding="utf-8")
    gold = write_json(
        [
            {
                "tool": "search",
                "args": {"q": {"$regex": "weather.*"}},
                "schema": {"q": {"type": "string", "minLength": 3}},
            },
            {
                "tool": "write",
                "args": {"path": "report.txt"},
                "side_effects": {"file_exists": "report.txt", "http_ok": True, "frobnicate": 1},
            },
            {"tool": "query", "side_effects": {"sql_rows": {"min": 1}}},
            {"tool": "notify", "side_effects": {"http_ok": True}},
        ],
        "gold.json",
    )
    trace = write_json(
        {
            "calls": [
                {
                    "tool": "search",
                    "args": {"q": "weather in Paris"},
                    "duration": 0.25,
                    "cost": 0.01,
                },
                {"tool": "search", "args": {"q": 12}, "duration": 0.75},
                {"tool": "write", "args": {"path": "report.txt"}, "result": {"status": 201}},
                {"tool": "query", "args": {"sql": "select 1"}, "result": [{"a": 1}], "cost": 0.02},
            ]
        },
        "trace.json",
    )
    result = evaluate_trace(gold, trace, plugin_manager=builtin_pm)
    assert list(result.metrics) == [
        "invocation_accuracy",
        "selection_accuracy",
        "tool_correctness_metrics",
        "sequence_metrics",
        "trajectory_metrics",
        "argument_metrics",
        "efficiency_metrics",
        "required_call_recall",
        "security_metrics",
        "schema_metrics",
        "latency_metrics",
        "cost_metrics",
        "side_effect_metrics",
    ]
    schema = result.metrics["schema_metrics"]
    assert schema["total_validated"] == 2
    assert schema["error_details"] == [
        "search: Argument 'q' has wrong type: expected string, got int"
    ]
    assert result.metrics["latency_metrics"] == {
        "total_duration": 1.0,
        "average_duration": 0.5,
        "max_duration": 0.75,
        "min_duration": 0.25,
    }
    assert result.metrics["cost_metrics"] == {
        "total_cost": 0.03,
        "average_cost": 0.015,
        "cost_by_tool": {"search": 0.01, "query": 0.02},
    }
    effects = result.metrics["side_effect_metrics"]
    assert [(d["tool"], d["check"], d["passed"], d["reason"]) for d in effects["details"]] == [
        ("write", "file_exists", True, "Validator passed"),
        ("write", "http_ok", True, "Validator passed"),
        ("write", "frobnicate", False, "No validator available"),
        ("query", "sql_rows", True, "Validator passed"),
        ("notify", "http_ok", False, "Tool call not found in trace"),
    ]
    assert effects["success_rate"] == 3 / 5
    # the $regex form in a gold file is a matcher (docs/compat.md#gold-files)
    assert result.metrics["argument_metrics"]["recall"] > 0

    quiet = evaluate_trace(gold, trace, validate_side_effects=False, plugin_manager=builtin_pm)
    assert "side_effect_metrics" not in quiet.metrics


def test_zero_checks_still_report_side_effects_and_empty_extras_stay_out(
    builtin_pm: ToolscorePluginManager, write_json: Callable[..., Path]
) -> None:
    calls = [{"tool": "a", "args": {"x": 1}}]
    result = evaluate_trace(
        write_json(calls, "g.json"), write_json(calls, "t.json"), plugin_manager=builtin_pm
    )
    assert result.metrics["side_effect_metrics"] == {
        "total_checks": 0,
        "passed_checks": 0,
        "success_rate": 1.0,
        "details": [],
    }
    for absent in ("schema_metrics", "latency_metrics", "cost_metrics", "semantic_metrics"):
        assert absent not in result.metrics
    assert result.score == 1.0


def test_in_memory_evaluation_has_none_of_them(builtin_pm: ToolscorePluginManager) -> None:
    actual = [{"tool": "a", "duration": 2.0, "cost": 1.0}]
    metrics = evaluate([{"tool": "a"}], actual, plugin_manager=builtin_pm).metrics
    assert not {"latency_metrics", "cost_metrics", "side_effect_metrics", "schema_metrics"} & set(
        metrics
    )


def test_the_judge_needs_its_distribution(
    builtin_pm: ToolscorePluginManager,
    write_json: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = [{"tool": "a"}]
    gold, trace = write_json(calls, "g.json"), write_json(calls, "t.json")
    monkeypatch.setitem(sys.modules, "toolscore_judge", None)  # as if not installed
    monkeypatch.setitem(sys.modules, "toolscore_judge.config", None)
    with pytest.warns(UserWarning, match="toolscore-judge"):
        result = evaluate_trace(gold, trace, judge=True, plugin_manager=builtin_pm)
    assert "semantic_metrics" not in result.metrics


def test_the_alignment_decides_which_call_a_side_effect_checks() -> None:
    gold = calls_from_dicts(
        [{"tool": "get", "args": {"id": 2}, "metadata": {"side_effects": {"http_ok": 200}}}]
    )
    trace = calls_from_dicts(
        [
            {"tool": "get", "args": {"id": 1}, "result": {"status": 500}},
            {"tool": "get", "args": {"id": 2}, "result": {"status": 200}},
        ]
    )
    report = calculate_side_effect_success_rate(gold, trace, {"http_ok": HTTPValidator().validate})
    assert report["passed_checks"] == 1  # paired with the id=2 call, not the first one

    def explode(call: ToolCall, expected: Any) -> bool:
        raise RuntimeError("no network")

    failing = calculate_side_effect_success_rate(gold, trace, {"http_ok": explode})
    assert failing["details"][0]["reason"] == "Validator error: no network"


@pytest.mark.parametrize(
    ("fields", "expected", "passed"),
    [
        ({"result": {"status": 204}}, True, True),
        ({"result": {"status_code": "404"}}, True, False),
        ({"result": {"status": 404}}, 404, True),
        ({"result": 201}, True, True),
        ({"result": 500}, 500, True),
        ({"metadata": {"http_status": 200}}, True, True),
        ({"args": {"url": "https://x.invalid"}, "result": "ok"}, True, True),
        ({"args": {"url": "https://x.invalid"}}, True, False),
        ({"result": "ok"}, True, False),
    ],
)
def test_http_ok(fields: dict[str, Any], expected: Any, passed: bool) -> None:
    assert HTTPValidator().validate(one(**fields), expected) is passed


def test_file_exists(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello world", encoding="utf-8")
    (tmp_path / "dir").mkdir()
    plain = FileSystemValidator(base_path=str(tmp_path))
    assert plain.validate(one(), "a.txt")
    assert plain.validate(one(args={"file_path": "a.txt"}), True)
    assert plain.validate(one(result="a.txt"), True)
    assert plain.validate(one(result={"path": str(tmp_path / "a.txt")}), True)
    assert not plain.validate(one(args={"path": "missing.txt"}), True)
    assert not plain.validate(one(), True)
    assert plain.validate(one(), "dir")
    assert FileSystemValidator(str(tmp_path), contains="world").validate(one(), "a.txt")
    assert not FileSystemValidator(str(tmp_path), contains=["nope"]).validate(one(), "a.txt")
    assert not FileSystemValidator(str(tmp_path), min_size=100).validate(one(), "a.txt")
    assert not FileSystemValidator(str(tmp_path), max_size=3).validate(one(), "a.txt")
    assert not FileSystemValidator(str(tmp_path), min_size=1).validate(one(), "dir")


def test_sql_rows_from_a_real_query() -> None:
    connection = sqlite3.connect(":memory:")
    connection.execute("create table t (status text)")
    connection.executemany("insert into t values (?)", [("active",), ("active",), ("gone",)])
    rows = [{"status": s} for (s,) in connection.execute("select status from t")]
    inserted = connection.execute("insert into t values ('new')").rowcount
    validator = SQLValidator()
    assert validator.validate(one(result=rows), True)
    assert validator.validate(one(result=rows), 3)
    assert validator.validate(one(result={"rows": rows}), {"min": 2, "max": 3})
    assert not validator.validate(one(result={"rows": rows}), {"max": 2})
    assert validator.validate(one(result={"rowcount": inserted}), 1)
    assert validator.validate(one(metadata={"rows_affected": 0}), 0)
    assert not validator.validate(one(), True)
    assert not validator.validate(one(result=rows), "many")
    assert SQLValidator(contains_row={"status": "gone"}).validate(one(result=rows), True)
    assert not SQLValidator(where={"status": "active"}).validate(one(result=rows), True)


def test_schema_validation_messages() -> None:
    schema = {
        "q": {"type": "string", "minLength": 2, "maxLength": 5, "pattern": "^[a-z]+$"},
        "n": {"type": "integer", "minimum": 1, "maximum": 10},
        "tags": {"type": "array", "minItems": 1, "maxItems": 2, "required": False},
        "mode": {"enum": ["a", "b"]},
        "flag": {"type": "boolean"},
        "any": {"type": "whatever"},
    }
    ok, errors = validate_argument_schema(
        one(args={"q": "ABCDEFG", "n": 0, "tags": [1, 2, 3], "mode": "c", "flag": 1, "any": None}),
        schema,
    )
    assert not ok
    assert errors == [
        "Argument 'q' is too long: 7 > 5",
        "Argument 'q' doesn't match pattern: ^[a-z]+$",
        "Argument 'n' is below minimum: 0 < 1",
        "Argument 'tags' has too many items: 3 > 2",
        "Argument 'mode' has invalid value: 'c' not in ['a', 'b']",
        "Argument 'flag' has wrong type: expected boolean, got int",
    ]
    assert validate_argument_schema(one(args={}), {"n": {"type": "integer"}})[1] == [
        "Missing required argument: n"
    ]
    assert validate_argument_schema(one(args={"n": True}), {"n": {"type": "integer"}})[1] == [
        "Argument 'n' has wrong type: expected integer, got bool"
    ]
    none = calculate_schema_validation_metrics([], [one()])
    assert none["total_validated"] == 0
    assert none["schema_compliance_rate"] == 1.0


def test_latency_and_cost_ignore_calls_without_numbers() -> None:
    calls = calls_from_dicts(
        [{"tool": "a", "duration": 1.5}, {"tool": "b"}, {"tool": "a", "cost": 0.5}]
    )
    assert calculate_latency(calls)["average_duration"] == 1.5
    assert calculate_cost_attribution(calls) == {
        "total_cost": 0.5,
        "average_cost": 0.5,
        "cost_by_tool": {"a": 0.5},
    }
    assert calculate_latency([])["total_duration"] == 0.0
    assert calculate_cost_attribution([])["total_cost"] == 0.0
