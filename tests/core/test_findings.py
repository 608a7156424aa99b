"""Findings carry stable codes, in the API, the JSON report and the JUnit report."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import toolscore
from toolscore.findings import findings_for, known_codes, register_code


def _codes(expected: list[dict[str, object]], actual: list[dict[str, object]]) -> list[str]:
    return [f.code for f in findings_for(toolscore.evaluate(expected, actual))]


def test_call_and_argument_codes() -> None:
    assert _codes([{"tool": "a"}], []) == ["missing_call"]
    assert _codes([], [{"tool": "a"}]) == ["extra_call"]
    assert _codes([{"tool": "a"}], [{"tool": "b"}]) == ["wrong_tool"]
    assert _codes([{"tool": "a"}, {"tool": "b"}], [{"tool": "b"}, {"tool": "a"}]) == ["wrong_order"]
    codes = _codes(
        [{"tool": "s", "args": {"q": "x", "n": 1, "k": 2}}],
        [{"tool": "s", "args": {"q": "y", "n": "1", "z": 0}}],
    )
    assert sorted(codes) == ["extra_arg", "missing_arg", "type_mismatch", "wrong_value"]
    failed = _codes([{"tool": "a"}], [{"tool": "a", "error": "boom"}])
    assert failed == ["error_result"]


def test_forbidden_calls_and_trajectory_mismatch_have_codes() -> None:
    result = toolscore.evaluate(
        [{"tool": "a"}],
        [{"tool": "a"}, {"tool": "rm"}],
        forbidden=[{"tool": "rm"}],
        match="unordered",
    )
    codes = [f.code for f in findings_for(result)]
    assert "forbidden_call" in codes
    assert "trajectory_mismatch" in codes


def test_plugins_register_codes_and_report_them_in_metric_values() -> None:
    register_code("over_budget", "more calls than the budget allows")
    assert "over_budget" in known_codes()
    with pytest.raises(ValueError, match="already registered"):
        register_code("over_budget", "something else")
    with pytest.raises(ValueError, match="lower_snake_case"):
        register_code("Over-Budget", "x")
    result = toolscore.evaluate([{"tool": "a"}], [{"tool": "a"}])
    result.metrics["call_budget"] = {"findings": [{"code": "over_budget", "message": "3 > 2"}]}
    assert [f.code for f in findings_for(result)] == ["over_budget"]


def test_codes_in_json_and_junit_reports(tmp_path: Path) -> None:
    from toolscore.reporters import write_reports

    result = toolscore.evaluate(
        [{"tool": "a", "args": {"x": 1}}], [{"tool": "a", "args": {"x": 2}}]
    )
    write_reports(result, {"json": tmp_path / "r.json", "junit": tmp_path / "r.xml"})
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["findings"] == [
        {
            "code": "wrong_value",
            "message": "a: 'x' expected 1, got 2",
            "severity": "error",
            "tool": "a",
            "expected_index": 0,
            "actual_index": 0,
            "argument": "x",
        }
    ]
    xml = ET.parse(tmp_path / "r.xml").getroot()
    props = {p.get("name"): p.get("value") for p in xml.iter("property")}
    assert props["finding_codes"] == "wrong_value"
    assert "[wrong_value] a: 'x' expected 1, got 2" in (tmp_path / "r.xml").read_text()
