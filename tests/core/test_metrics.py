"""The metrics: a table of worked examples (calls in, score, grade and metrics out), then each
metric's edge cases."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from toolscore import hookimpl
from toolscore.context import NOT_APPLICABLE, EvaluationContext
from toolscore.evaluation import evaluate
from toolscore.matching.matchers import Approx, Contains, IsType, OneOf
from toolscore.metrics import (
    calculate_edit_distance,
    calculate_partial_trajectory_accuracy,
    calculate_redundant_call_rate,
    calculate_required_call_recall,
    calculate_selection_accuracy,
    calculate_tool_correctness,
    calculate_tool_correctness_with_args,
    calculate_trajectory_accuracy,
    levenshtein,
)
from toolscore.model import ToolCall, calls_from_dicts
from toolscore.plugins import create_plugin_manager
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore.specs import MetricSpec


def c(tool: str, **args: Any) -> dict[str, Any]:
    return {"tool": tool, "args": args}


def bare(tool: str) -> dict[str, Any]:
    return {"tool": tool}


def failed(call: dict[str, Any]) -> dict[str, Any]:
    return {**call, "error": "boom"}


GUARDRAILS_GOLD = [c("run_shell", command="ls"), c("deploy", env="prod")]
GUARDRAILS_TRACE = [
    c("run_shell", command="ls"),
    c("run_shell", command="rm -rf /"),
    c("http_post", url="https://example.invalid"),
    failed(c("deploy", env="prod")),
    failed(c("deploy", env="prod")),
]

# (row, expected, actual, options, score, grade, {metric: value}). A naive weighted sum gives
# 0.9999999999999999 for the "1.0" rows and 0.7999999999999999 (grade C) for rows 18 and 23;
# the score is rounded to 12 places before grading (docs/compat.md#perfect-score).
ROWS: list[tuple[str, list[Any], list[Any], dict[str, Any], float, str, dict[str, Any]]] = [
    ("1", [c("s", q="test")], [c("s", q="test")], {}, 1.0, "A",
     {"sel": 1, "p": 1, "r": 1, "f1": 1, "seq": 1, "red": 0, "traj": 1, "rcr": 1}),
    ("2 README", [c("get_weather", city="NYC"), c("send_email", to="u")],
     [c("get_weather", city="New York"), c("send_email", to="u")], {}, 0.85, "B",
     {"sel": 1, "p": 0.5, "r": 0.5, "f1": 0.5, "seq": 1, "red": 0, "traj": 0.5, "rcr": 1}),
    ("3 both empty", [], [], {}, 1.0, "A",
     {"sel": 1, "p": 1, "r": 1, "f1": 1, "seq": 1, "red": 0, "traj": 1, "rcr": None}),
    ("4 nothing expected", [], [c("a")], {}, 0.0, "F",
     {"sel": 0, "p": 0, "r": 0, "f1": 0, "seq": 0, "red": 1, "traj": 0, "rcr": None}),
    ("5 nothing called", [c("a", x=1)], [], {}, 0.1, "F",
     {"sel": 0, "p": 0, "r": 0, "f1": 0, "seq": 0, "red": 0, "traj": 0, "rcr": 0}),
    ("6 wrong tool", [c("a", x=1)], [c("b", x=1)], {}, 0.0, "F",
     {"sel": 0, "f1": 0, "seq": 0, "red": 1, "traj": 0, "rcr": 0}),
    ("7 extra arg", [c("a", x=1)], [c("a", x=1, y=2)], {}, 0.9, "A",
     {"sel": 1, "p": 0.5, "r": 1, "f1": 2 / 3, "seq": 1, "red": 0, "traj": 1, "rcr": 1}),
    ("8 missing arg", [c("a", x=1, y=2)], [c("a", x=1)], {}, 0.9, "A",
     {"sel": 1, "p": 1, "r": 0.5, "f1": 2 / 3, "seq": 1, "red": 0, "traj": 0, "rcr": 1}),
    ("9 int vs float", [c("a", x=1)], [c("a", x=1.0)], {}, 1.0, "A", {"f1": 1, "traj": 1}),
    ("9 strict", [c("a", x=1)], [c("a", x=1.0)], {"strict": True}, 0.7, "C", {"f1": 0, "traj": 1}),
    ("10 spaces", [c("a", x="NYC")], [c("a", x=" NYC ")], {}, 1.0, "A", {"f1": 1, "traj": 0}),
    ("10 strict", [c("a", x="NYC")], [c("a", x=" NYC ")], {"strict": True}, 0.7, "C",
     {"f1": 0, "traj": 0}),
    ("11 case", [c("a", x="NYC")], [c("a", x="nyc")], {}, 0.7, "C", {"sel": 1, "f1": 0, "traj": 0}),
    ("11 str vs int", [c("a", x="1")], [c("a", x=1)], {}, 0.7, "C", {"f1": 0, "traj": 0}),
    ("12 int vs bool", [c("a", x=1)], [c("a", x=True)], {}, 1.0, "A", {"f1": 1, "traj": 1}),
    ("12 strict", [c("a", x=1)], [c("a", x=True)], {"strict": True}, 0.7, "C", {"f1": 0}),
    ("13 nested", [c("a", x={"n": 1})], [c("a", x={"n": 1.0})], {}, 1.0, "A", {"f1": 1}),
    ("13 strict", [c("a", x={"n": 1})], [c("a", x={"n": 1.0})], {"strict": True}, 0.7, "C",
     {"f1": 0}),
    ("14 nested spaces", [c("a", x=[" a"])], [c("a", x=["a"])], {}, 0.7, "C", {"f1": 0, "traj": 0}),
    ("15 args omitted", [bare("a")], [c("a", x=1)], {}, 1.0, "A",
     {"sel": 1, "p": 1, "r": 1, "f1": 1, "seq": 1, "red": 0, "traj": 1, "rcr": 1}),
    ("16 expect none", [c("a")], [c("a", x=1)], {}, 0.7, "C",
     {"sel": 1, "p": 0, "r": 0, "f1": 0, "seq": 1, "red": 0, "traj": 1, "rcr": 1}),
    ("17 none and none", [c("a")], [c("a")], {}, 1.0, "A", {"p": 1, "r": 1, "f1": 1}),
    ("18 one missing", [c("s", q="a"), c("s", q="b")], [c("s", q="a")], {}, 0.8, "B",
     {"sel": 1, "p": 1, "r": 0.5, "f1": 2 / 3, "seq": 0.5, "red": 0, "traj": 0.5, "rcr": 0.5}),
    ("19 swapped", [c("s", q="a"), c("s", q="b")], [c("s", q="b"), c("s", q="a")], {}, 1.0, "A",
     {"sel": 1, "p": 1, "r": 1, "f1": 1, "seq": 1, "red": 0, "traj": 0, "rcr": 1}),
    ("20 reversed", [bare("a"), bare("b"), bare("c")], [bare("c"), bare("b"), bare("a")], {},
     0.8666666666666667, "B",
     {"sel": 1, "f1": 1, "seq": 1 / 3, "ed": 2.0, "red": 0, "traj": 1 / 3, "rcr": 1}),
    ("21 repeated", [c("a", x=1)], [c("a", x=1), c("a", x=1)], {}, 0.85, "B",
     {"sel": 1, "f1": 1, "seq": 0.5, "red": 0.5, "traj": 0.5, "rcr": 1, "identical": 1}),
    ("22 extra tool", [c("a", x=1)], [c("a", x=1), c("b", x=1)], {}, 0.65, "D",
     {"sel": 0.5, "f1": 1, "seq": 0.5, "red": 0.5, "traj": 0.5, "rcr": 1}),
    ("23 first missing", [c("a", x=1), c("b", y=1)], [c("b", y=1)], {}, 0.8, "B",
     {"sel": 1, "p": 1, "r": 0.5, "f1": 2 / 3, "seq": 0.5, "red": 0, "traj": 0, "rcr": 0.5,
      "inv": 0.25, "tc": 0.5}),
    ("24 README matchers",
     [c("w", unit=OneOf("c", "f"), q=Contains("weather"), lat=Approx(40.71, rel=1e-2),
        days=IsType(int))],
     [c("w", unit="c", q="weather in NYC", lat=40.7128, days=3)], {}, 1.0, "A",
     {"sel": 1, "f1": 1, "seq": 1, "red": 0, "traj": 1, "rcr": 1}),
    ("25 recall weight", [bare("a"), bare("b")], [bare("a")],
     {"weights": {"required_call_recall": 0.3}}, 0.8076923076923077, "B",
     {"sel": 1, "f1": 1, "seq": 0.5, "red": 0, "traj": 0.5, "rcr": 0.5}),
    ("26 argument weight", [c("a", x=1)], [c("a", x=2)], {"weights": {"argument_f1": 1.0}},
     0.4117647058823529, "F", {"sel": 1, "f1": 0, "seq": 1, "red": 0, "traj": 0, "rcr": 1}),
    ("27 guardrails", GUARDRAILS_GOLD, GUARDRAILS_TRACE, {}, 0.74, "C",
     {"sel": 0.8, "f1": 1, "seq": 0.4, "ed": 3.0, "red": 0.6, "rcr": 0.5, "inv": 0.75}),
    ("27 guardrails, recall weight", GUARDRAILS_GOLD, GUARDRAILS_TRACE,
     {"weights": {"required_call_recall": 0.3}}, 0.6846153846153846, "D", {"rcr": 0.5}),
    ("28 flights",
     [c("search_flights", origin="SFO", destination="NYC"), c("book_flight", flight_id="FL-123"),
      bare("notify")],
     [c("search_flights", origin="SFO", destination="BOS"), c("cancel_booking", booking_id="B-9"),
      c("log", m="a"), c("log", m="b")], {}, 0.295, "F",
     {"sel": 0.25, "p": 0.5, "r": 1 / 3, "f1": 0.4, "seq": 0.25, "rcr": 1 / 3}),
]  # fmt: skip


def read(metrics: dict[str, Any], name: str) -> Any:
    return {
        "sel": lambda: metrics["selection_accuracy"],
        "p": lambda: metrics["argument_metrics"]["precision"],
        "r": lambda: metrics["argument_metrics"]["recall"],
        "f1": lambda: metrics["argument_metrics"]["f1"],
        "seq": lambda: metrics["sequence_metrics"]["sequence_accuracy"],
        "ed": lambda: metrics["sequence_metrics"]["edit_distance"],
        "red": lambda: metrics["efficiency_metrics"]["redundant_rate"],
        "identical": lambda: metrics["efficiency_metrics"]["identical_count"],
        "traj": lambda: metrics["trajectory_metrics"]["trajectory_accuracy"],
        "rcr": lambda: metrics["required_call_recall"],
        "inv": lambda: metrics["invocation_accuracy"],
        "tc": lambda: metrics["tool_correctness_metrics"]["tool_correctness"],
    }[name]()


@pytest.fixture(scope="module")
def pm() -> ToolscorePluginManager:
    return create_plugin_manager(load_entrypoints=False)


@pytest.mark.parametrize(
    ("row", "expected", "actual", "options", "score", "grade", "values"),
    ROWS,
    ids=[row[0] for row in ROWS],
)
def test_worked_examples(
    pm: ToolscorePluginManager,
    row: str,
    expected: list[Any],
    actual: list[Any],
    options: dict[str, Any],
    score: float,
    grade: str,
    values: dict[str, Any],
) -> None:
    result = evaluate(expected, actual, plugin_manager=pm, **options)
    assert result.score == pytest.approx(score, abs=1e-9)
    assert result.grade == grade
    for name, want in values.items():
        got = read(result.metrics, name)
        if want is None:
            assert got is None, name
        else:
            assert got == pytest.approx(want, abs=1e-9), name


def test_a_perfect_match_scores_exactly_one(pm: ToolscorePluginManager) -> None:
    assert evaluate([c("s", q="x")], [c("s", q="x")], plugin_manager=pm).score == 1.0
    assert evaluate([], [], plugin_manager=pm).score == 1.0


def test_metric_keys_come_in_the_references_order(pm: ToolscorePluginManager) -> None:
    result = evaluate([c("a", x=1)], [c("a", x=1)], plugin_manager=pm)
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
    ]
    with_rules = evaluate([c("a", x=1)], [c("a", x=1)], forbidden=[], plugin_manager=pm)
    assert list(with_rules.metrics)[-1] == "policy_metrics"
    assert with_rules.metrics["policy_metrics"] == {
        "violation_count": 0,
        "rule_count": 0,
        "violations": [],
    }


def test_evaluate_rejects_what_the_reference_rejects(pm: ToolscorePluginManager) -> None:
    with pytest.raises(TypeError, match="expected must be a list of dicts, got tuple"):
        evaluate((), [], plugin_manager=pm)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Item at index 1 is missing 'tool' key"):
        evaluate([c("a"), {"args": {}}], [], plugin_manager=pm)
    with pytest.raises(ValueError, match="Item at index 0 is not a dict"):
        evaluate(["a"], [], plugin_manager=pm)
    with pytest.raises(TypeError, match="forbidden must be a list of rule dicts"):
        evaluate([], [], forbidden={"tool": "x"}, plugin_manager=pm)  # type: ignore[arg-type]


def test_error_fields_follow_the_reference(pm: ToolscorePluginManager) -> None:
    actual = [
        {"tool": "a", "error": "boom", "is_error": False},  # a message wins
        {"tool": "a", "error": {"code": 1}},
        {"tool": "a", "error": ""},
        {"tool": "a", "is_error": True},
        {"tool": "a", "is_error": "yes"},  # a non-bool flag is ignored
    ]
    result = evaluate([bare("a")], actual, plugin_manager=pm)
    assert result.metrics["efficiency_metrics"]["error_count"] == 3
    assert [call.is_error for call in result.trace_calls] == [True, True, False, True, False]
    assert result.to_dict()["calls"]["actual"][1]["error"] == "{'code': 1}"


# -- each metric ------------------------------------------------------------------------------


def calls(*items: dict[str, Any]) -> list[ToolCall]:
    return calls_from_dicts(list(items))


def test_selection_accuracy_counts_repeats_and_ignores_missing_calls() -> None:
    gold = calls(bare("a"), bare("b"))
    assert calculate_selection_accuracy(gold, calls(bare("a"), bare("a"))) == 1.0
    assert calculate_selection_accuracy(gold, calls(bare("a"), bare("x"), bare("y"))) == 1 / 3
    assert calculate_selection_accuracy([], calls(bare("a"))) == 0.0
    assert calculate_selection_accuracy(gold, []) == 0.0


def test_tool_correctness_variants() -> None:
    gold = calls(bare("a"), bare("b"))
    trace = calls(bare("b"), bare("c"))
    plain = calculate_tool_correctness(gold, trace)
    assert plain == {
        "tool_correctness": 0.5,
        "expected_tools": ["a", "b"],
        "called_tools": ["b", "c"],
        "missing_tools": ["a"],
        "extra_tools": ["c"],
        "correct_count": 1,
        "total_expected": 2,
        "strict_order": False,
    }
    assert "strict_order" not in calculate_tool_correctness([], trace)
    assert calculate_tool_correctness([], trace)["tool_correctness"] == 0.0
    ordered = calculate_tool_correctness(gold, calls(bare("a"), bare("c")), strict_order=True)
    assert ordered["tool_correctness"] == 0.5
    assert ordered["expected_sequence"] == ["a", "b"]
    assert ordered["strict_order"] is True
    with_args = calculate_tool_correctness_with_args(
        calls(c("a", x=1), bare("b")), calls(c("a", x=2), c("b", y=1), c("a", x=1))
    )
    assert with_args["tool_correctness_strict"] == 1.0
    assert with_args["match_count"] == 2
    assert [call.args for call in with_args["mismatches"]] == [{"x": 2}]


def test_sequence_distance_is_a_float_and_matches_a_plain_dynamic_program() -> None:
    assert calculate_edit_distance(calls(bare("a")), [])["edit_distance"] == 1.0
    assert calculate_edit_distance([], []) == {
        "edit_distance": 0.0,
        "normalized_distance": 0.0,
        "sequence_accuracy": 1.0,
    }

    def slow(a: list[str], b: list[str]) -> int:
        row = list(range(len(b) + 1))
        for i, x in enumerate(a, 1):
            new = [i]
            for j, y in enumerate(b, 1):
                new.append(min(row[j] + 1, new[j - 1] + 1, row[j - 1] + (x != y)))
            row = new
        return row[-1]

    rng = random.Random(3)
    for _ in range(400):
        alphabet = rng.choice(["ab", "abc", "abcdefgh"])
        a = [rng.choice(alphabet) for _ in range(rng.randint(0, 70))]
        b = [rng.choice(alphabet) for _ in range(rng.randint(0, 70))]
        assert levenshtein(a, b) == slow(a, b)


def test_efficiency_counts() -> None:
    trace = calls(
        failed(c("a", x=1)), c("a", x=1), c("b", y={"k": [1, 2]}), c("b", y={"k": [1, 2]})
    )
    metrics = calculate_redundant_call_rate(calls(c("a", x=1)), trace)
    assert metrics == {
        "redundant_count": 3,
        "total_calls": 4,
        "redundant_rate": 0.75,
        "identical_count": 2,
        "identical_rate": 0.5,
        "error_count": 1,
        "error_rate": 0.25,
        "retry_after_error_count": 1,
    }
    empty = calculate_redundant_call_rate(calls(bare("a")), [])
    assert empty["total_calls"] == 0
    assert empty["redundant_rate"] == 0.0


def test_identical_calls_compare_as_sorted_key_json() -> None:
    trace = calls(
        c("a", x=1, y=2),
        c("a", y=2, x=1),  # key order does not matter
        c("a", x=1.0, y=2),  # 1.0 is not 1 in JSON
        bare("a"),
        c("a"),  # None and {} are the same signature
        c("a", x=True, y=2),  # true is not 1 in JSON
    )
    assert calculate_redundant_call_rate([], trace)["identical_count"] == 2


def test_required_call_recall_counts_repeats_and_failures() -> None:
    gold = calls(bare("search"), bare("search"), bare("book"))
    assert calculate_required_call_recall(gold, calls(bare("search"))) == 1 / 3
    assert (
        calculate_required_call_recall(gold, calls(bare("search"), failed(bare("book")))) == 1 / 3
    )
    assert calculate_required_call_recall([], calls(bare("a"))) is None


def test_trajectory_details_and_plain_equality() -> None:
    gold = calls(c("a", x=1), c("b", q="NYC"), bare("c"))
    trace = calls(c("a", x=1.0, extra=1), c("b", q=" NYC"))
    metrics = calculate_trajectory_accuracy(gold, trace)
    assert metrics["correct_steps"] == 1  # 1 == 1.0 counts, " NYC" vs "NYC" does not
    assert metrics["trajectory_details"][2] == {
        "step": 3,
        "expected_tool": "c",
        "actual_tool": None,
        "matches": False,
        "expected_args": {},
        "actual_args": {},
        "error": "Agent stopped early - step not executed",
    }
    longer = calculate_trajectory_accuracy(calls(bare("a")), calls(bare("a"), c("b", z=1)))
    assert longer["path_efficiency"] == 0.5
    assert longer["trajectory_details"][1]["error"] == "Unnecessary step - not in expected path"
    assert longer["trajectory_details"][1]["actual_args"] == {"z": 1}
    missing = calculate_trajectory_accuracy(calls(c("a", x=1)), [])
    assert missing["trajectory_details"][0]["error"] == "Agent did not execute this step"
    assert missing["path_efficiency"] == 0.0


def test_partial_trajectory_accuracy() -> None:
    gold = calls(bare("web_search"), bare("Read-File"), bare("x"))
    trace = calls(bare("websearch"), bare("read_file"), bare("x"))
    assert calculate_partial_trajectory_accuracy(gold, trace) == {
        "partial_trajectory_accuracy": 1 / 3
    }
    assert calculate_partial_trajectory_accuracy(gold, trace, allow_tool_name_variations=True) == {
        "partial_trajectory_accuracy": 1.0
    }


def test_argument_metrics_use_the_shared_alignment(pm: ToolscorePluginManager) -> None:
    """Gold [s (args omitted), s({})] vs [s(y=5)]: F1 0; with the gold calls swapped: 1."""
    first = evaluate([bare("s"), c("s")], [c("s", y=5)], plugin_manager=pm)
    second = evaluate([c("s"), bare("s")], [c("s", y=5)], plugin_manager=pm)
    assert first.argument_f1 == 0.0
    assert second.argument_f1 == 1.0
    assert first.alignment is not None
    assert first.alignment.pairs == ((1, 0),)
    assert second.alignment is not None
    assert second.alignment.pairs == ((1, 0),)


# -- metrics as plugins ---------------------------------------------------------------------------


class CallCount:
    def compute(self, context: EvaluationContext) -> Any:
        return len(context.actual) if context.actual else NOT_APPLICABLE


class Broken:
    def compute(self, context: EvaluationContext) -> Any:
        raise RuntimeError("kaput")


class ExtraMetrics:
    @hookimpl
    def toolscore_register_metrics(self) -> Iterator[MetricSpec]:
        yield MetricSpec(name="call_count", factory=CallCount, order=15)
        yield MetricSpec(name="broken", factory=Broken, order=5)


def test_third_party_metrics_run_in_order_and_a_failing_one_is_left_out() -> None:
    pm = create_plugin_manager(load_entrypoints=False)
    pm.register(ExtraMetrics(), name="extra-metrics")
    with pytest.warns(RuntimeWarning, match="metric 'broken' failed and is left out"):
        result = evaluate([bare("a")], [bare("a")], plugin_manager=pm)
    assert list(result.metrics)[:3] == ["invocation_accuracy", "call_count", "selection_accuracy"]
    assert "broken" not in result.metrics
    with pytest.warns(RuntimeWarning):
        assert "call_count" not in evaluate([], [], plugin_manager=pm).metrics
    strict_pm = create_plugin_manager(load_entrypoints=False, strict=True)
    strict_pm.register(ExtraMetrics(), name="extra-metrics")
    with pytest.raises(RuntimeError, match="kaput"):
        evaluate([bare("a")], [bare("a")], plugin_manager=strict_pm)


class Recorder:
    def __init__(self) -> None:
        self.scores: list[float] = []

    @hookimpl
    def toolscore_evaluation_finished(self, result: Any) -> None:
        self.scores.append(result.score)


def test_the_finished_hook_sees_every_result() -> None:
    pm = create_plugin_manager(load_entrypoints=False)
    recorder = Recorder()
    pm.register(recorder, name="recorder")
    evaluate([bare("a")], [bare("a")], plugin_manager=pm)
    evaluate([bare("a")], [bare("b")], plugin_manager=pm)
    assert recorder.scores == [1.0, 0.0]
