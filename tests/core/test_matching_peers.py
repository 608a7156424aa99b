"""Issue 26's matching items: payloads and gold steps in ``match_trajectory``, ``any_order`` in
every mode, parallel calls under ``strict``, the ``in_order`` mode and exact key lists."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import toolscore
from click.testing import CliRunner
from toolscore import match_trajectory
from toolscore.cli import cli
from toolscore.extraction import calls_from_payload
from toolscore.matching import MODES


def _openai(*batches: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"role": "user", "content": "go"}]
    for b, batch in enumerate(batches):
        out.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{b}_{k}", "type": "function",
             "function": {"name": name, "arguments": json.dumps(args)}}
            for k, (name, args) in enumerate(batch)
        ]})  # fmt: skip
    return out


def _anthropic(*batches: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"role": "user", "content": "go"}]
    for b, batch in enumerate(batches):
        out.append({"role": "assistant", "content": [
            {"type": "tool_use", "id": f"t{b}_{k}", "name": name, "input": args}
            for k, (name, args) in enumerate(batch)
        ]})  # fmt: skip
    return out


SF = ("weather", {"city": "SF"})
LONDON = ("weather", {"city": "London"})
CLOCK = ("clock", {})


def _calls(*pairs: tuple[str, dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"tool": name, "args": args} for name, args in pairs]


# -- 1. payloads and gold steps ----------------------------------------------------------------


@pytest.mark.requires("toolscore_providers")  # provider payloads
@pytest.mark.parametrize(
    "payload",
    [_openai([SF], [CLOCK]), {"messages": _openai([SF], [CLOCK])}, _anthropic([SF], [CLOCK])],
    ids=["openai messages", "messages document", "anthropic messages"],
)
def test_any_payload_evaluate_reads(payload: Any) -> None:
    gold = _calls(SF, CLOCK)
    assert toolscore.evaluate(gold, payload).score == 1.0
    assert match_trajectory(gold, payload)
    assert not match_trajectory(_calls(CLOCK, SF), payload)


@pytest.mark.requires("toolscore_providers")  # provider payloads
def test_raw_completion_is_read() -> None:
    completion = {"object": "chat.completion", "choices": [{"index": 0, "message": {
        "role": "assistant", "tool_calls": [{"id": "1", "type": "function", "function": {
            "name": "weather", "arguments": "{\"city\": \"SF\"}"}}]}}]}  # fmt: skip
    assert match_trajectory(_calls(SF), completion)


def test_gold_steps_and_gold_documents() -> None:
    gold = [
        {"tool": "login"},
        {"optional": {"tool": "log"}},
        {"repeat": {"tool": "poll"}, "min": 1, "max": 3},
        {"one_of": {"email": [{"tool": "send_email"}], "sms": [{"tool": "send_sms"}]}},
    ]
    actual = [{"tool": t, "args": {}} for t in ("login", "poll", "poll", "send_sms")]
    verdict = match_trajectory(gold, actual)
    assert verdict
    assert {"path": "$[3]", "one_of": "sms"} in verdict.choices
    assert not match_trajectory(gold, [*actual, {"tool": "log", "args": {}}])
    # a gold document: its match object applies unless a keyword says otherwise
    document = {"match": {"mode": "superset"}, "calls": gold}
    assert match_trajectory(document, [*actual, {"tool": "log", "args": {}}])
    assert not match_trajectory(document, [*actual, {"tool": "log", "args": {}}], mode="strict")


def test_malformed_steps_are_reported() -> None:
    with pytest.raises(ValueError, match=r"\$\[0\]"):
        match_trajectory([{"repeat": {"tool": "a"}, "min": -1}], [])


# -- 2. any_order in every mode ----------------------------------------------------------------


def test_any_order_group_matches_under_strict() -> None:
    gold = [{"any_order": _calls(("search", {"q": 1}), ("search", {"q": 2}))}]
    actual = _calls(("search", {"q": 2}), ("search", {"q": 1}))
    for mode in MODES:
        result = toolscore.evaluate(gold, actual, match={"mode": mode})
        assert result.metrics["trajectory_match"]["matched"], mode
        assert result.score == 1.0
        assert match_trajectory(gold, actual, mode=mode), mode
    # the plain numbers keep choosing by score alone
    assert toolscore.evaluate(gold, actual).metrics["expectations"]["choices"] == [
        {"path": "$[0]", "order": [0, 1]}
    ]


def test_any_order_in_a_gold_file_under_strict(tmp_path: Path) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps({"match": {"mode": "strict"}, "calls": [
        {"tool": "login", "args": {}},
        {"any_order": _calls(("search", {"q": 1}), ("search", {"q": 2}))}]}))  # fmt: skip
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps(_calls(("login", {}), ("search", {"q": 2}), ("search", {"q": 1}))))
    result = toolscore.evaluate_trace(gold, trace)
    assert result.metrics["trajectory_match"]["matched"]
    assert result.score == 1.0


# -- 3. strict and parallel calls --------------------------------------------------------------


@pytest.mark.requires("toolscore_providers")  # provider payloads
@pytest.mark.parametrize("build", [_openai, _anthropic], ids=["openai", "anthropic"])
def test_extractors_record_the_message_of_each_call(build: Any) -> None:
    calls = calls_from_payload(build([SF, LONDON], [CLOCK]))
    assert [c.metadata["message"] for c in calls][:2] == [calls[0].metadata["message"]] * 2
    assert calls[2].metadata["message"] != calls[0].metadata["message"]


@pytest.mark.requires("toolscore_providers")  # provider payloads
@pytest.mark.parametrize("build", [_openai, _anthropic], ids=["openai", "anthropic"])
def test_strict_takes_a_batch_in_any_order(build: Any) -> None:
    gold = _calls(LONDON, SF, CLOCK)
    assert match_trajectory(gold, build([SF, LONDON], [CLOCK]))
    assert not match_trajectory(gold, build([SF], [LONDON], [CLOCK]))  # three messages
    assert not match_trajectory(gold, build([CLOCK], [SF, LONDON]))  # the batch moved
    result = toolscore.evaluate(gold, build([SF, LONDON], [CLOCK]), match="strict")
    assert result.metrics["trajectory_match"]["matched"]
    assert result.score == 1.0


def test_plain_lists_keep_strict_order() -> None:
    assert not match_trajectory(_calls(LONDON, SF), _calls(SF, LONDON))


@pytest.mark.requires("toolscore_providers")  # provider payloads
def test_both_sides_with_messages_need_the_same_batches() -> None:
    expected = calls_from_payload(_openai([LONDON, SF]))
    assert match_trajectory(expected, _openai([SF, LONDON]))
    verdict = match_trajectory(expected, _openai([SF], [LONDON]))
    assert not verdict
    assert "one message" in verdict.reason


# -- 4. in_order -------------------------------------------------------------------------------


@pytest.mark.requires("toolscore_providers")  # provider payloads
def test_in_order_allows_calls_between_but_not_reordering() -> None:
    gold = _calls(SF, CLOCK)
    assert match_trajectory(gold, _calls(LONDON, SF, LONDON, CLOCK), mode="in_order")
    verdict = match_trajectory(gold, _calls(CLOCK, SF), mode="in_order")
    assert not verdict
    assert (
        verdict.reason
        == "expected call #2 clock() has no matching actual call after actual call #2"
    )
    assert match_trajectory(gold, _openai([CLOCK, SF], [LONDON]), mode="in_order")  # one batch


def test_in_order_scores(tmp_path: Path) -> None:
    gold = _calls(SF, CLOCK)
    actual = _calls(LONDON, SF, CLOCK)
    plain = toolscore.evaluate(gold, actual).score
    result = toolscore.evaluate(gold, actual, match="in_order")
    assert plain < 1.0
    assert result.score == 1.0
    reordered = toolscore.evaluate(gold, _calls(CLOCK, SF), match="in_order")
    assert not reordered.metrics["trajectory_match"]["matched"]
    assert reordered.score < 1.0
    # the gold file's match object and the CLI's --match
    (tmp_path / "gold.json").write_text(json.dumps({"match": {"mode": "in_order"}, "calls": gold}))
    (tmp_path / "trace.json").write_text(json.dumps(actual))
    assert toolscore.evaluate_trace(tmp_path / "gold.json", tmp_path / "trace.json").score == 1.0
    (tmp_path / "plain.json").write_text(json.dumps(gold))
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        runner = CliRunner()
        out = runner.invoke(cli, ["eval", "plain.json", "trace.json", "--match", "in_order",
                                  "-o", "r.json", "--fail-under", "1.0"])  # fmt: skip
    finally:
        os.chdir(old)
    assert out.exit_code == 0, out.output
    report = json.loads((tmp_path / "r.json").read_text())
    assert "in_order" in json.dumps(report)


# -- 5. key lists ------------------------------------------------------------------------------


def test_key_lists_compare_absent_keys() -> None:
    want = [{"tool": "search", "args": {"q": "x"}}]
    extra = [{"tool": "search", "args": {"q": "x", "page": 2}}]
    assert match_trajectory(want, extra, args_overrides={"search": ["q"]})
    assert not match_trajectory(want, extra, args_overrides={"search": ["q", "page"]})
    assert not match_trajectory(extra, want, args_overrides={"search": ["q", "page"]})
    assert match_trajectory(want, want, args_overrides={"search": ["q", "page"]})
    result = toolscore.evaluate(want, extra, match={"args_overrides": {"search": ["q", "page"]}})
    assert not result.metrics["trajectory_match"]["matched"]
    assert result.score < 1.0
    assert toolscore.evaluate(want, extra, match={"args_overrides": {"search": ["q"]}}).score == 1.0
