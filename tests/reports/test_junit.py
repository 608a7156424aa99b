"""The JUnit XML report validates against the common JUnit schema, in both layouts."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import toolscore
from toolscore.reporters import render_report, write_reports

xmlschema = pytest.importorskip("xmlschema")

XSD = Path(__file__).with_name("junit.xsd")
SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"

EXPECTED = [
    {"tool": "search", "args": {"q": "paris"}},
    {"tool": "book", "args": {"hotel": "H1"}},
    {"tool": "notify", "args": {"to": "me"}},
]
ACTUAL = [
    {"tool": "search", "args": {"q": "rome", "token": SECRET}},
    {"tool": "book", "args": {"hotel": "H1"}, "error": "sold out"},
    {"tool": "extra", "args": {"text": "bad \x00\x07 control <&> chars"}},
    {"tool": "extra", "args": {}},
]


@pytest.fixture(scope="module")
def schema() -> object:
    return xmlschema.XMLSchema(str(XSD))


def _cases(xml_text: str) -> dict[str, ET.Element]:
    root = ET.fromstring(xml_text.encode("utf-8"))
    return {case.get("name", ""): case for case in root.iter("testcase")}


def test_schema_rejects_what_ci_systems_reject(schema: object) -> None:
    # a testcase without classname, and a suite without its required attributes, are invalid
    assert not schema.is_valid("<testsuites><testsuite name='x'/></testsuites>")  # type: ignore[attr-defined]


def test_per_evaluation_report_is_valid_and_fails_below_min_score(
    schema: object, tmp_path: Path
) -> None:
    result = toolscore.evaluate(EXPECTED, ACTUAL)
    path = write_reports(result, {"junit": tmp_path / "j" / "junit.xml"})["junit"]
    text = path.read_text(encoding="utf-8")
    schema.validate(str(path))  # type: ignore[attr-defined]
    cases = _cases(text)
    assert list(cases) == ["evaluation"]
    failure = cases["evaluation"].find("failure")
    assert failure is not None
    assert failure.get("message", "").startswith(f"score {result.score:.2f} < 0.90 required")
    root = ET.fromstring(text.encode("utf-8"))
    suite = root.find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("1", "1", "0")
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["grade"] == result.grade
    assert props["secrets"] == "1"
    assert SECRET not in text


def test_passing_evaluation_has_no_failure(schema: object) -> None:
    text = render_report("junit", toolscore.evaluate(EXPECTED, EXPECTED[:3]))
    schema.validate(text)  # type: ignore[attr-defined]
    assert _cases(text)["evaluation"].find("failure") is None


def test_per_call_report(schema: object) -> None:
    result = toolscore.evaluate(EXPECTED, ACTUAL)
    text = render_report("junit", result, options={"per_call": True, "fail_on_violations": True})
    schema.validate(text)  # type: ignore[attr-defined]
    cases = _cases(text)
    assert list(cases) == [
        "call 1: search",
        "call 2: book",
        "call 3: notify",
        "unexpected calls",
        "forbidden calls and credentials",
    ]
    kinds = {
        name: (c.find("failure").get("type") if c.find("failure") is not None else None)
        for name, c in cases.items()
    }  # type: ignore[union-attr]
    assert kinds == {
        "call 1: search": "toolscore.ArgumentMismatch",
        "call 2: book": "toolscore.ToolCallFailed",
        "call 3: notify": "toolscore.WrongTool",
        "unexpected calls": "toolscore.UnexpectedCall",
        "forbidden calls and credentials": "toolscore.PolicyViolation",
    }
    assert "q: 'paris' ≠ 'rome'" in (cases["call 1: search"].find("failure").text or "")  # type: ignore[union-attr]
    assert SECRET not in text
    assert "\x00" not in text


def test_min_score_none_and_suite_name(schema: object) -> None:
    result = toolscore.evaluate(EXPECTED, ACTUAL[:1])
    text = render_report(
        "junit", result, options={"min_score": None, "suite_name": "booking agent"}
    )
    schema.validate(text)  # type: ignore[attr-defined]
    case = _cases(text)["evaluation"]
    assert case.find("failure") is None
    assert case.get("classname") == "toolscore.booking agent"
