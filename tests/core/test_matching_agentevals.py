"""match_trajectory agrees with agentevals' trajectory match wherever greedy pairing is not the cause.

agentevals (PyPI) runs in its own throw-away environment (``uv run --no-project --with
agentevals``) in a subprocess, so it never enters the workspace's venv; the test is skipped
when uv or the package is not available.

Where they may differ, by design:

* agentevals pairs greedily (first fit), so it can say "no match" where a pairing exists;
  every disagreement must be of that kind, confirmed by brute force and by a first-fit replay.
* agentevals swaps the argument policy's sides in ``subset`` mode and in the second half of
  ``unordered`` (its ``_is_trajectory_superset(reference, outputs)``), so ``subset`` and
  ``superset`` *argument* policies are compared only in the ``strict`` and ``superset`` modes.
* values are plain (no whitespace, no floats): agentevals compares with ``==``, toolscore
  leniently (``" a" == "a"``).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from toolscore import match_trajectory

sys.path.insert(0, str(Path(__file__).parent))
from test_matching import greedy_first_fit, oracle

SCRIPT = r"""
import json, sys
from agentevals.trajectory.match import create_trajectory_match_evaluator

def messages(calls):
    out = [{"role": "user", "content": "go"}]
    for n, call in enumerate(calls):
        out.append({"role": "assistant", "content": "", "tool_calls": [{
            "id": f"c{n}", "type": "function",
            "function": {"name": call["tool"], "arguments": json.dumps(call["args"])}}]})
    return out

verdicts = []
for case in json.load(open(sys.argv[1])):
    evaluator = create_trajectory_match_evaluator(
        trajectory_match_mode=case["mode"], tool_args_match_mode=case["policy"])
    result = evaluator(outputs=messages(case["actual"]), reference_outputs=messages(case["expected"]))
    verdicts.append(bool(result["score"]))
print(json.dumps(verdicts))
"""

COMBOS = [
    (mode, policy)
    for mode in ("strict", "unordered", "subset", "superset")
    for policy in ("exact", "ignore", "subset", "superset")
    if policy in ("exact", "ignore") or mode in ("strict", "superset")
]


def _call(rng: random.Random) -> dict[str, Any]:
    args = {key: rng.choice([1, 2, "p"]) for key in "xy" if rng.random() < 0.6}
    return {"tool": rng.choice("ab"), "args": args}


def _cases() -> list[dict[str, Any]]:
    rng = random.Random(15)
    cases = []
    for mode, policy in COMBOS:
        for _ in range(120):
            expected = [_call(rng) for _ in range(rng.randint(0, 4))]
            actual = [_call(rng) for _ in range(rng.randint(0, 4))]
            if rng.random() < 0.4:
                actual = [dict(c) for c in expected if rng.random() < 0.85]
                rng.shuffle(actual)
                actual += [_call(rng) for _ in range(rng.randint(0, 1))]
            cases.append({"mode": mode, "policy": policy, "expected": expected, "actual": actual})
    return cases


def _agentevals(cases: list[dict[str, Any]], tmp_path: Path) -> list[bool]:
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not installed")
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    (tmp_path / "run.py").write_text(SCRIPT)
    try:
        done = subprocess.run(
            [uv, "run", "--no-project", "--quiet", "--with", "agentevals", "python",
             str(tmp_path / "run.py"), str(tmp_path / "cases.json")],
            capture_output=True, text=True, timeout=600, cwd=tmp_path, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.skip("agentevals could not be installed in time")
    if done.returncode != 0:
        pytest.skip(f"agentevals is not available: {done.stderr.strip()[-300:]}")
    verdicts: list[bool] = json.loads(done.stdout.strip().splitlines()[-1])
    return verdicts


def _first_fit(case: dict[str, Any]) -> bool:
    """agentevals' greedy verdict, replayed: each side takes the first compatible partner."""
    expected, actual, policy, mode = case["expected"], case["actual"], case["policy"], case["mode"]
    covers_expected = greedy_first_fit(expected, actual, policy) == len(expected)
    flipped = {"subset": "superset", "superset": "subset"}.get(policy, policy)
    covers_actual = greedy_first_fit(actual, expected, flipped) == len(actual)
    if mode == "superset":
        return covers_expected
    if mode == "subset":
        return covers_actual
    return covers_expected and covers_actual


def test_agrees_with_agentevals_except_where_greedy_pairing_misses(tmp_path: Path) -> None:
    cases = _cases()
    theirs = _agentevals(cases, tmp_path)
    greedy_misses = 0
    both_true = 0
    for case, their in zip(cases, theirs, strict=True):
        ours = bool(
            match_trajectory(
                case["expected"], case["actual"], mode=case["mode"], args=case["policy"]
            )
        )
        both_true += ours and their
        if ours == their:
            continue
        # the only admissible disagreement: a pairing exists, and first fit misses it
        assert ours, case
        assert not their, case
        assert oracle(case["mode"], case["policy"], case["expected"], case["actual"]), case
        assert not _first_fit(case), case
        greedy_misses += 1
    assert both_true > 50
    print(f"{len(cases)} cases, {both_true} both match, {greedy_misses} greedy misses")
    assert greedy_misses < len(cases) // 10


# -- agentevals' own trajectory-match test cases -------------------------------------------------
#
# Each case of agentevals' python/tests/test_trajectory.py (its async twin checks the same
# verdicts), translated: the same messages (LangChain message objects written as the OpenAI
# dicts they convert to), the same trajectory mode, argument policy and per-tool overrides, and
# the verdict agentevals asserts. 14 parametrized tests x 4 modes, plus the 8 "without the
# override it fails" checks of two of them: 64 verdicts, all agreeing.

MATCH_MODES = ("unordered", "superset", "subset", "strict")
Batch = list[tuple[str, dict[str, Any]]]


def _conversation(*turns: Batch | str) -> list[dict[str, Any]]:
    """A user message, then per item an assistant message (its calls, answered by tool
    messages) or, for a string, an assistant text answer."""
    out: list[dict[str, Any]] = [{"role": "user", "content": "go"}]
    n = 0
    for turn in turns:
        if isinstance(turn, str):
            out.append({"role": "assistant", "content": turn})
            continue
        ids = [f"call{n + k}" for k in range(len(turn))]
        n += len(turn)
        out.append({"role": "assistant", "content": "", "tool_calls": [
            {"id": i, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            for i, (name, args) in zip(ids, turn, strict=True)
        ]})  # fmt: skip
        out.extend({"role": "tool", "tool_call_id": i, "content": "..."} for i in ids)
    return out


def _w(city: str) -> tuple[str, dict[str, Any]]:
    return ("get_weather", {"city": city})


def _either_sf(actual: dict[str, Any], expected: dict[str, Any]) -> bool:
    return actual["city"] in ("SF", "San Francisco") and expected["city"] in ("SF", "San Francisco")


def _upgrade_query(actual: dict[str, Any], expected: dict[str, Any]) -> bool:
    if "upgrade" in expected.get("query", ""):
        return "upgrade" in actual.get("query", "")
    return True


_FETCH = ("fetch_user_flight_information", {})
_SEARCH = ("search_flights", {"start_time": "2025-03-22T18:34:40Z", "departure_airport": "CDG",
                              "arrival_airport": "BSL"})  # fmt: skip
_SPAN = {"start": "2025-03-22T18:34:40Z", "end": "2025-03-22T20:34:40Z"}
_SPAN_REF = {"start": "2025-03-22T18:34:40Z", "end": "baz"}


def _by_mode(verdicts: str) -> dict[str, bool]:
    """``"1101"``: the verdicts of unordered, superset, subset, strict."""
    return {mode: flag == "1" for mode, flag in zip(MATCH_MODES, verdicts, strict=True)}


# (name, actual, expected, {mode: verdict}, args policy, overrides)
AGENTEVALS_CASES: list[tuple[str, Any, Any, dict[str, bool], str, dict[str, Any] | None]] = [
    ("trajectory_match", _conversation([_w("San Francisco")], "80 and sunny"),
     _conversation([_w("San Francisco")], "80˚ and sunny"), _by_mode("1111"), "exact", None),
    ("different_tool_message_order", _conversation([_w("SF"), _w("London")], "..."),
     _conversation([_w("London"), _w("SF")], "..."), _by_mode("1111"), "exact", None),
    ("different_message_count", _conversation([_w("SF")], [_w("London")], "..."),
     _conversation([_w("London"), _w("SF")], "..."), _by_mode("1110"), "exact", None),
    ("subset_tool_call", _conversation([_w("SF")], "..."),
     _conversation([_w("London"), _w("SF")], "..."), _by_mode("0010"), "exact", None),
    ("exact_matcher_with_different_called_tools", _conversation([_w("SF")], "..."),
     _conversation([("accuweather_forecast", {"city": "San Francisco"})], "..."),
     _by_mode("0000"), "exact", None),
    ("extra_tool_calls_and_override", _conversation([_w("San Francisco"), _w("London")], "..."),
     _conversation([_w("SF and London")], "..."), _by_mode("0100"), "exact",
     {"get_weather": "ignore"}),
    ("subset_tool_calls_and_override", _conversation([_w("SF and London")], "..."),
     _conversation([_w("San Francisco"), _w("London")], "..."), _by_mode("0010"), "exact",
     {"get_weather": "ignore"}),
    ("langchain_messages_and_override", _conversation([_w("SF")], "..."),
     _conversation([_w("San Francisco")], "..."), _by_mode("1111"), "exact",
     {"get_weather": _either_sf}),
    ("langchain_messages_failure", _conversation([_w("SF")], "..."),
     _conversation([("accuweather_forecast", {"city": "San Francisco"})], "..."),
     _by_mode("0000"), "exact", None),
    ("match_with_overrides, no override",
     _conversation([_FETCH], "...", [_SEARCH],
                   [("lookup_policy", {"query": "flight upgrades"}),
                    ("lookup_policy", {"query": "first class"})], "..."),
     _conversation([_FETCH], "...", [("lookup_policy", {"query": "upgrade to first class"}),
                                     ("lookup_policy", {"query": "foo"})], "..."),
     _by_mode("0000"), "exact", None),
    ("match_with_overrides",
     _conversation([_FETCH], "...", [_SEARCH],
                   [("lookup_policy", {"query": "flight upgrades"}),
                    ("lookup_policy", {"query": "first class"})], "..."),
     _conversation([_FETCH], "...", [("lookup_policy", {"query": "upgrade to first class"}),
                                     ("lookup_policy", {"query": "foo"})], "..."),
     _by_mode("0100"), "exact", {"lookup_policy": _upgrade_query}),
    ("nested_field_overrides, no override",
     _conversation([("fetch_user_flight_information", {"user_id": "123"})], "...",
                   [("lookup_policy", {"query": "flight upgrades", "time": _SPAN}),
                    ("lookup_policy", {"query": "first class", "time": _SPAN})], "..."),
     _conversation([("fetch_user_flight_information", {"user_id": "123"})], "...",
                   [("lookup_policy", {"query": "foo", "time": _SPAN_REF}),
                    ("lookup_policy", {"query": "bar", "time": _SPAN_REF})], "..."),
     _by_mode("0000"), "exact", None),
    ("nested_field_overrides",
     _conversation([("fetch_user_flight_information", {"user_id": "123"})], "...",
                   [("lookup_policy", {"query": "flight upgrades", "time": _SPAN}),
                    ("lookup_policy", {"query": "first class", "time": _SPAN})], "..."),
     _conversation([("fetch_user_flight_information", {"user_id": "123"})], "...",
                   [("lookup_policy", {"query": "foo", "time": _SPAN_REF}),
                    ("lookup_policy", {"query": "bar", "time": _SPAN_REF})], "..."),
     _by_mode("1111"), "exact", {"lookup_policy": ["time.start"]}),
]  # fmt: skip

_FLIGHT = ("get_flight_info", {"flight_no": "LX0112"})
# tool_args_match_mode tests: the default (strict) trajectory mode, one policy per verdict
for _name, _actual_args, _expected_args, _verdicts in [
    ("args_superset", {"is_cool": True, "flight_no": "LX0112"}, {"flight_no": "LX0112"},
     {"exact": False, "ignore": True, "subset": False, "superset": True}),
    ("args_subset", {"flight_no": "LX0112"}, {"flight_no": "LX0112", "foo": "bar"},
     {"exact": False, "ignore": True, "subset": True, "superset": False}),
    ("args_exact", {"flight_no": "LX0112"}, {"flight_no": "LX0112"},
     {"exact": True, "ignore": True, "subset": True, "superset": True}),
]:  # fmt: skip
    for _policy, _verdict in _verdicts.items():
        AGENTEVALS_CASES.append((
            f"tool_args_match_mode_{_name}",
            _conversation([("get_flight_info", _actual_args)], "Your flight is at 10:00 AM."),
            _conversation([("get_flight_info", _expected_args)], "Your flight is at 10:00 AM."),
            {"strict": _verdict}, _policy, None,
        ))  # fmt: skip


def _agentevals_verdicts() -> list[tuple[str, str, str, Any, Any, bool, dict[str, Any] | None]]:
    return [
        (name, mode, policy, actual, expected, verdict, overrides)
        for name, actual, expected, verdicts, policy, overrides in AGENTEVALS_CASES
        for mode, verdict in verdicts.items()
    ]


def test_every_agentevals_case_is_translated() -> None:
    assert len(_agentevals_verdicts()) == 64


@pytest.mark.requires("toolscore_providers")  # the cases are OpenAI chat messages
@pytest.mark.parametrize(
    ("name", "mode", "policy", "actual", "expected", "verdict", "overrides"),
    _agentevals_verdicts(),
    ids=[f"{case[0]}-{case[1]}-{case[2]}" for case in _agentevals_verdicts()],
)
def test_agentevals_case(
    name: str,
    mode: str,
    policy: str,
    actual: Any,
    expected: Any,
    verdict: bool,
    overrides: dict[str, Any] | None,
) -> None:
    got = match_trajectory(expected, actual, mode=mode, args=policy, args_overrides=overrides)
    assert bool(got) is verdict, got.reason


@pytest.mark.requires("toolscore_providers")  # provider payloads
def test_strict_batch_order_was_the_disagreement() -> None:
    """The two verdicts that used to differ (this case, sync and async): a parallel batch in
    another order. The same calls as a plain list (no message boundaries) keep strict order."""
    actual = _conversation([_w("SF"), _w("London")])
    expected = _conversation([_w("London"), _w("SF")])
    assert match_trajectory(expected, actual)
    flat = [{"tool": "get_weather", "args": {"city": c}} for c in ("SF", "London")]
    assert not match_trajectory(flat[::-1], flat)
