"""The JSON report is built call by call, and reads exactly like one indented dump."""

from __future__ import annotations

import json

import pytest
from toolscore import evaluate
from toolscore.reporters.json import JsonReporter, report_dict

CALLS = [
    {"tool": "search", "args": {"q": 'line\nbreak "quoted" é', "n": [1, {"z": None}]}},
    {"tool": "open", "args": {"empty": {}, "none": [], "flag": True, "x": 1.5}},
    {"tool": "search", "args": {}},
]


@pytest.mark.parametrize(
    ("gold", "trace"), [(CALLS[:2], CALLS), ([], CALLS[1:]), (CALLS, []), ([], [])]
)
def test_the_text_equals_one_indented_dump_of_the_report(
    gold: list[dict[str, object]], trace: list[dict[str, object]]
) -> None:
    result = evaluate(gold, trace)
    text = JsonReporter().render(result)
    expected = json.dumps(report_dict(result), indent=2, ensure_ascii=False) + "\n"
    # The timestamp (the first key) is taken when each is built.
    assert text.splitlines()[2:] == expected.splitlines()[2:]
    assert json.loads(text)["trace_calls"] == report_dict(result)["trace_calls"]
