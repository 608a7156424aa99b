"""Rate limits, server errors, timeouts and garbage: the evaluation always completes."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone

import pytest
from judge_support import PROVIDERS, FakeLLM, Reply, calls
from toolscore.judging import run_judge
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore_judge.config import JudgeConfig

EXPECTED = calls(("search", {"q": "x"}), ("open", {"id": 1}), ("save", {"path": "/a"}))
ACTUAL = calls(("search", {"q": "x"}), ("open", {"id": 1}), ("store", {"path": "/a"}))


Judge = Callable[..., dict]


@pytest.fixture
def judge(
    make_config: Callable[..., JudgeConfig], judge_pm: ToolscorePluginManager
) -> Callable[..., dict]:
    def run(provider: str = "openai", **overrides: object) -> dict:
        result = run_judge(
            make_config(provider, **overrides), EXPECTED, ACTUAL, None, plugin_manager=judge_pm
        )
        assert result is not None
        return result

    return run


@pytest.mark.parametrize("provider", PROVIDERS)
def test_rate_limit_then_success_is_retried(provider: str, llm: FakeLLM, judge: Judge) -> None:
    llm.queue(Reply(429, headers={"Retry-After": "0"}), Reply(429))
    result = judge(provider)
    assert "error" not in result
    assert result["per_call_scores"] == [1.0, 1.0, 0.5]
    assert len(llm.seen) == 3


@pytest.mark.parametrize("status", [500, 502, 503, 529])
def test_server_errors_are_retried(status: int, llm: FakeLLM, judge: Judge) -> None:
    llm.queue(Reply(status))
    result = judge("anthropic")
    assert result["semantic_score"] == pytest.approx(2.5 / 3)
    assert len(llm.seen) == 2


def test_retries_are_bounded_and_the_error_recorded(llm: FakeLLM, judge: Judge) -> None:
    llm.queue(*[Reply(500, error="upstream exploded")] * 10)
    result = judge("gemini", max_retries=2)
    assert len(llm.seen) == 3
    assert result["semantic_score"] is None
    assert result["error"] == (
        f"HTTP 500 from {llm.url}/v1beta/models/gemini-2.0-flash:generateContent "
        "after 3 attempts: upstream exploded"
    )
    assert result["model_used"] == "gemini-2.0-flash"


def test_retry_after_is_honoured(llm: FakeLLM, judge: Judge) -> None:
    llm.queue(Reply(429, headers={"Retry-After": "0.3"}))
    started = time.monotonic()
    result = judge("openai", retry_backoff=0.0, max_retry_wait=5.0)
    assert "error" not in result
    assert time.monotonic() - started >= 0.3


def test_retry_after_is_capped(llm: FakeLLM, judge: Judge) -> None:
    llm.queue(
        Reply(429, headers={"Retry-After": "3600"}), Reply(429, headers={"retry-after-ms": "9e6"})
    )
    started = time.monotonic()
    result = judge("openai", max_retry_wait=0.05)
    assert "error" not in result
    # capped at 0.05 s, not the hour asked for (the bound leaves room for a loaded machine)
    assert time.monotonic() - started < 10.0


def test_client_errors_are_not_retried(llm: FakeLLM, judge: Judge) -> None:
    llm.queue(Reply(400, error="model 'gpt-4o-mini' does not support json_object"))
    result = judge("openai")
    assert len(llm.seen) == 1
    assert result["error"].endswith("does not support json_object")
    assert result["error"].startswith("HTTP 400 ")


def test_slow_answer_past_the_timeout(llm: FakeLLM, judge: Judge) -> None:
    llm.queue(Reply(delay=5), Reply(delay=5))
    started = time.monotonic()
    result = judge("anthropic", timeout=0.2, max_retries=1)
    elapsed = time.monotonic() - started
    assert elapsed < 1.5, "nothing hangs"
    assert len(llm.seen) == 2, "a timeout is retried, within the bound"
    assert result["semantic_score"] is None
    assert result["error"] == f"no answer within 0.2s from {llm.url}/v1/messages after 2 attempts"


def test_slow_answer_then_a_good_one(llm: FakeLLM, judge: Judge) -> None:
    llm.queue(Reply(delay=5))
    result = judge("openai", timeout=0.2)
    assert result["per_call_scores"] == [1.0, 1.0, 0.5]


def test_unreachable_server_is_an_error_not_a_hang(llm: FakeLLM, judge: Judge) -> None:
    llm.stop()
    started = time.monotonic()
    result = judge("openai", max_retries=1)
    assert time.monotonic() - started < 1.0
    assert result["semantic_score"] is None
    assert "request failed" in result["error"]
    assert "after 2 attempts" in result["error"]


def test_http_body_that_is_not_json(llm: FakeLLM, judge: Judge) -> None:
    llm.queue(Reply(raw=b"<html>502 Bad Gateway</html>"))
    result = judge("openai")
    assert result["semantic_score"] is None
    assert result["error"] == (
        f"the answer from {llm.url}/v1/chat/completions is not JSON: <html>502 Bad Gateway</html>"
    )


def test_unexpected_answer_shape(llm: FakeLLM, judge: Judge) -> None:
    llm.queue(Reply(raw=json.dumps({"object": "list", "data": []}).encode()))
    result = judge("openai")
    assert (
        result["error"]
        == f"unexpected answer from {llm.url}/v1/chat/completions: no choices[0].message"
    )


@pytest.mark.parametrize("provider", PROVIDERS)
def test_malformed_batch_answer_falls_back_per_pair(
    provider: str, llm: FakeLLM, judge: Judge
) -> None:
    llm.queue(Reply(text="I think they all look fine!"))
    result = judge(provider)
    assert len(llm.seen) == 1 + 3, "one batched request, then one per pair"
    assert all("## Pair" not in s.prompt for s in llm.seen[1:])
    assert result["per_call_scores"] == [1.0, 1.0, 0.5]
    assert result["explanations"][2] == "single save vs store"
    assert result["failed_pairs"] == 0


def test_only_the_garbled_pairs_are_asked_again(llm: FakeLLM, judge: Judge) -> None:
    partial = {
        "verdicts": [
            {"index": 0, "score": 0.9, "explanation": "batch 0"},
            {"index": 2, "score": "n/a"},
        ]
    }
    llm.queue(Reply(text="```json\n" + json.dumps(partial) + "\n```"))
    result = judge("openai")
    assert len(llm.seen) == 3, "pairs 1 and 2 are asked again, pair 0 is not"
    assert result["per_call_scores"] == [0.9, 1.0, 0.5]
    assert result["explanations"] == ["batch 0", "single open vs open", "single save vs store"]


def test_unreadable_answers_are_unknown_not_zero_and_the_error_is_recorded(
    llm: FakeLLM, judge: Judge
) -> None:
    llm.queue(Reply(text="[]"), Reply(text=""), Reply(text="no idea"), Reply(text='{"score": 1}'))
    result = judge("openai")
    assert result["per_call_scores"] == [None, None, 1.0]
    assert result["explanations"][0] == "No response from model"
    assert result["explanations"][1].startswith("Evaluation failed: no JSON in the answer")
    assert result["failed_pairs"] == 2
    assert result["semantic_score"] is None
    assert result["error"] == (
        "2 of 3 pair(s) could not be judged, so there is no semantic score "
        "(pair 0: No response from model)"
    )


def test_a_transport_failure_during_fallback_stops_the_fallback(llm: FakeLLM, judge: Judge) -> None:
    llm.queue(Reply(text="garbage"), *[Reply(401)] * 5)
    result = judge("openai", max_retries=0)
    assert len(llm.seen) == 2, "after one failed per-pair request the rest are not tried"
    assert result["failed_pairs"] == 3
    assert all(e.startswith("Evaluation failed: HTTP 401") for e in result["explanations"])


def test_failed_verdicts_are_not_cached(llm: FakeLLM, judge: Judge) -> None:
    llm.queue(Reply(text="garbage"), Reply(text=""), Reply(text=""), Reply(text=""))
    assert judge("openai")["failed_pairs"] == 3
    again = judge("openai")
    assert again["failed_pairs"] == 0
    assert again["cache_hits"] == 0


def test_retry_after_forms() -> None:
    from email.utils import format_datetime

    from toolscore_judge.transport import RetryPolicy, retry_after_seconds

    assert retry_after_seconds({"retry-after": "2"}) == 2.0
    assert retry_after_seconds({"retry-after-ms": "150", "retry-after": "9"}) == 0.15
    future = datetime.now(timezone.utc) + timedelta(seconds=30)
    assert (
        25 < (retry_after_seconds({"retry-after": format_datetime(future, usegmt=True)}) or 0) <= 30
    )
    assert retry_after_seconds({"retry-after": "soon"}) is None
    assert retry_after_seconds({}) is None
    policy = RetryPolicy(max_retries=5, backoff=0.5, max_wait=3.0)
    assert [policy.delay(n, None) for n in range(4)] == [0.5, 1.0, 2.0, 3.0]
    assert policy.delay(0, 60.0) == 3.0
    assert policy.delay(0, -5.0) == 0.0


def _many(n: int) -> tuple[list, list]:
    expected = calls(*[(f"tool_{i}", {"i": i}) for i in range(n)])
    actual = calls(*[(f"tool_{i}" if i % 3 else f"other_{i}", {"i": i}) for i in range(n)])
    return expected, actual


def test_a_long_trace_is_judged_in_bounded_batches(
    llm: FakeLLM, make_config: Callable[..., JudgeConfig], judge_pm: ToolscorePluginManager
) -> None:
    expected, actual = _many(23)
    config = make_config("openai", max_batch_pairs=10)
    result = run_judge(config, expected, actual, None, plugin_manager=judge_pm)
    assert result is not None
    sizes = [s.prompt.count("## Pair ") for s in llm.seen]
    assert sizes == [10, 10, 3], "three requests, none over ten pairs"
    assert result["per_call_scores"] == [0.5 if i % 3 == 0 else 1.0 for i in range(23)]
    assert result["failed_pairs"] == 0


def test_a_pair_over_the_character_budget_goes_alone(
    llm: FakeLLM, make_config: Callable[..., JudgeConfig], judge_pm: ToolscorePluginManager
) -> None:
    expected = calls(("a", {"q": 1}), ("big", {"text": "x" * 5000}), ("c", {"q": 3}))
    config = make_config("openai", max_batch_chars=2000)
    result = run_judge(config, expected, expected, None, plugin_manager=judge_pm)
    assert result is not None
    assert [s.prompt.count("## Pair ") for s in llm.seen] == [1, 1, 1]
    assert result["per_call_scores"] == [1.0, 1.0, 1.0]


def test_a_later_batch_that_cannot_be_sent_keeps_the_verdicts_already_received(
    llm: FakeLLM, make_config: Callable[..., JudgeConfig], judge_pm: ToolscorePluginManager
) -> None:
    expected, actual = _many(6)
    llm.queue(Reply(), Reply(401))  # the first batch is judged, the second is refused
    config = make_config("openai", max_batch_pairs=3, max_retries=0)
    result = run_judge(config, expected, actual, None, plugin_manager=judge_pm)
    assert result is not None
    assert result["per_call_scores"][:3] == [0.5, 1.0, 1.0]
    assert result["failed_pairs"] == 3
    assert result["per_call_scores"][3:] == [None, None, None]
    assert result["semantic_score"] is None
    assert all(e.startswith("Evaluation failed: HTTP 401") for e in result["explanations"][3:])
    # The verdicts received were cached: a rerun asks only for the three that failed.
    llm.seen.clear()
    again = run_judge(config, expected, actual, None, plugin_manager=judge_pm)
    assert again is not None
    assert again["cache_hits"] == 3
    assert [s.prompt.count("## Pair ") for s in llm.seen] == [3]
