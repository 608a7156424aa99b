"""Forbidden-call rules (``check_forbidden_calls``): validation, matching, JSON forms and rule files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from toolscore.errors import InputError
from toolscore.evaluation import evaluate
from toolscore.matching.matchers import Contains, OneOf, Regex, SearchRegex
from toolscore.metrics.policy import (
    call_matches_rule,
    check_forbidden_calls,
    load_forbidden_rules,
    rules_from_json,
    validate_rules,
)
from toolscore.model import ToolCall, calls_from_dicts
from toolscore.plugins import create_plugin_manager


def trace(*items: dict[str, Any]) -> list[ToolCall]:
    return calls_from_dicts(list(items))


def test_a_rule_without_args_forbids_every_call_to_the_tool() -> None:
    report = check_forbidden_calls(
        trace({"tool": "delete_repo", "args": {"name": "x"}}, {"tool": "read"}),
        [{"tool": "delete_repo"}],
    )
    assert report == {
        "violation_count": 1,
        "rule_count": 1,
        "violations": [
            {"index": 0, "tool": "delete_repo", "args": {"name": "x"}, "rule": 0, "reason": None}
        ],
    }


def test_every_listed_arg_must_be_present_and_match_leniently() -> None:
    rule = {"tool": "run", "args": {"cmd": Contains("rm -rf"), "n": 1}}
    assert call_matches_rule("run", {"cmd": "sudo rm -rf /", "n": 1.0}, rule)
    assert not call_matches_rule("run", {"cmd": "sudo rm -rf /"}, rule)  # n absent
    assert not call_matches_rule("run", {"cmd": "ls", "n": 1}, rule)
    assert not call_matches_rule("other", {"cmd": "rm -rf", "n": 1}, rule)
    assert call_matches_rule("x", None, {"tool": "x", "args": {}})
    assert call_matches_rule("x", {"s": " a "}, {"tool": "x", "args": {"s": "a"}})  # lenient


def test_each_call_is_reported_once_with_the_first_matching_rule() -> None:
    rules = [
        {"tool": "run", "args": {"cmd": Regex("ls.*")}, "reason": "listing"},
        {"tool": "run", "reason": "any run"},
        {"tool": "run", "args": {"cmd": OneOf("ls", "pwd")}},
    ]
    report = check_forbidden_calls(
        trace({"tool": "run", "args": {"cmd": "pwd"}}, {"tool": "run", "args": {"cmd": "ls -l"}}),
        rules,
    )
    assert [(v["index"], v["rule"], v["reason"]) for v in report["violations"]] == [
        (0, 1, "any run"),
        (1, 0, "listing"),
    ]
    assert report["rule_count"] == 3


@pytest.mark.parametrize(
    ("rules", "kind", "message"),
    [
        ({"tool": "x"}, TypeError, "forbidden must be a list of rule dicts"),
        (
            [{"tool": ""}],
            ValueError,
            "forbidden rule 0 needs a non-empty 'tool' string: {'tool': ''}",
        ),
        ([{"tool": "a"}, "b"], ValueError, "forbidden rule 1 needs a non-empty 'tool' string: 'b'"),
        (
            [{"tool": "a", "args": ["x"]}],
            ValueError,
            "forbidden rule 0 'args' must be a dict: {'tool': 'a', 'args': ['x']}",
        ),
    ],
)
def test_validation_messages(rules: Any, kind: type[Exception], message: str) -> None:
    with pytest.raises(kind) as raised:
        validate_rules(rules)
    assert str(raised.value) == message


def test_json_rules_search_with_regex_and_join_argv_lists() -> None:
    rules = rules_from_json(
        [
            {"tool": "shell", "args": {"cmd": {"$regex": "rm -rf"}}, "reason": "destructive"},
            {"tool": "read", "args": {"path": {"$contains": ".ssh"}}},
            {"tool": "mode", "args": {"m": {"$one_of": ["a", "b"]}, "cfg": {"a": 1}}},
        ]
    )
    assert isinstance(rules[0]["args"]["cmd"], SearchRegex)
    assert repr(rules[0]["args"]["cmd"]) == "$regex('rm -rf')"
    report = check_forbidden_calls(
        trace(
            {"tool": "shell", "args": {"cmd": "echo hi\nrm -rf /tmp"}},
            {"tool": "shell", "args": {"cmd": ["rm", "-rf", "/"]}},
            {"tool": "shell", "args": {"cmd": None}},
            {"tool": "read", "args": {"path": "/home/u/.ssh/id_rsa"}},
            {"tool": "mode", "args": {"m": "b", "cfg": {"a": 1}}},
            {"tool": "mode", "args": {"m": "b", "cfg": {"a": 2}}},
        ),
        rules,
    )
    assert [v["index"] for v in report["violations"]] == [0, 1, 3, 4]
    with pytest.raises(ValueError, match=r"\$regex needs a pattern string, got 5"):
        rules_from_json([{"tool": "x", "args": {"a": {"$regex": 5}}}])
    with pytest.raises(ValueError, match=r"\$one_of needs a list, got 'a'"):
        rules_from_json([{"tool": "x", "args": {"a": {"$one_of": "a"}}}])


def test_rule_files_load_and_bad_ones_name_the_file_and_path(
    write_json: Callable[..., Path],
) -> None:
    good = write_json([{"tool": "shell", "args": {"cmd": {"$regex": "rm"}}}], "rules.json")
    rules = load_forbidden_rules(good)
    assert isinstance(rules[0]["args"]["cmd"], SearchRegex)
    cases: list[tuple[Any, str]] = [
        ({"tool": "x"}, r"bad\.json: \$: expected a JSON array of rule objects, got dict"),
        ([{"tool": "a"}, {"args": {}}], r"bad\.json: \$\[1\]: forbidden rule 1 needs a non-empty"),
        (
            [{"tool": "a", "args": {"cmd": {"$regex": 5}}}],
            r"bad\.json: \$\[0\]\.args\.cmd: invalid matcher: \$regex needs a pattern string",
        ),
        (
            [{"tool": "a", "args": {"cmd": {"$regex": "("}}}],
            r"bad\.json: \$\[0\]\.args\.cmd: invalid matcher: ",
        ),
    ]
    for data, message in cases:
        with pytest.raises(InputError, match=message):
            load_forbidden_rules(write_json(data, "bad.json"))
    with pytest.raises(FileNotFoundError, match="Forbidden rules file not found"):
        load_forbidden_rules(good.parent / "missing.json")
    broken = write_json("[{", "broken.json", raw=True)
    with pytest.raises(InputError, match=r"broken\.json:1:3: invalid JSON"):
        load_forbidden_rules(broken)


def test_violations_never_change_the_score() -> None:
    pm = create_plugin_manager(load_entrypoints=False)
    calls = [{"tool": "shell", "args": {"cmd": "rm -rf /"}}]
    plain = evaluate(calls, calls, plugin_manager=pm)
    policed = evaluate(calls, calls, forbidden=[{"tool": "shell"}], plugin_manager=pm)
    assert policed.score == plain.score == 1.0
    assert "policy_metrics" not in plain.metrics
    assert policed.metrics["policy_metrics"]["violation_count"] == 1
    assert json.loads(json.dumps(policed.to_dict()))["metrics"]["policy_metrics"]["violations"]
