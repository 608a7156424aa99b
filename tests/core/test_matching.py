"""match_trajectory and evaluate(match=...): every mode and policy against a brute-force oracle.

The oracle enumerates every assignment of small random cases (itertools.permutations), with
its own reading of the argument policies; the library must agree on the verdict, and its
pairs must be real, distinct, compatible pairs. Cases where greedy first-fit pairing gives the
wrong verdict are pinned separately.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
import toolscore
from hypothesis import given, settings
from hypothesis import strategies as st
from toolscore import ANY, Regex, match_trajectory
from toolscore.matching.values import values_match

MODES = ("strict", "unordered", "subset", "superset", "in_order")


def _sum_is_3(actual: Mapping[str, Any], expected: Mapping[str, Any]) -> bool:
    return sum(v for v in actual.values() if isinstance(v, int)) % 3 == 0


POLICIES: list[Any] = ["exact", "ignore", "subset", "superset", ["x"], _sum_is_3]


# -- the oracle --------------------------------------------------------------------------------


def oracle_args(policy: Any, want: Mapping[str, Any] | None, got: Mapping[str, Any]) -> bool:
    if want is None or policy == "ignore":
        return True
    if callable(policy):
        return bool(policy(got, want))
    if isinstance(policy, list):
        # exactly these keys: absent on both sides agrees, on one side only does not
        return all(
            (k in want) == (k in got) and (k not in want or values_match(want[k], got[k]))
            for k in policy
        )
    if policy == "exact":
        return set(want) == set(got) and all(values_match(want[k], got[k]) for k in want)
    if policy == "superset":
        return all(k in got and values_match(want[k], got[k]) for k in want)
    assert policy == "subset"
    return all(k in want and values_match(want[k], got[k]) for k in got)


def oracle(mode: str, policy: Any, gold: list[dict[str, Any]], trace: list[dict[str, Any]]) -> bool:
    def ok(e: int, a: int) -> bool:
        return gold[e]["tool"] == trace[a]["tool"] and oracle_args(
            policy, gold[e].get("args"), trace[a].get("args") or {}
        )

    n, m = len(gold), len(trace)
    if mode == "strict":
        return n == m and all(ok(i, i) for i in range(n))
    if mode == "unordered":
        return n == m and any(
            all(ok(i, p[i]) for i in range(n)) for p in itertools.permutations(range(m))
        )
    if mode == "in_order":  # the expected calls, in order, at increasing actual positions
        return any(all(ok(i, c[i]) for i in range(n)) for c in itertools.combinations(range(m), n))
    if mode == "superset":  # every expected call gets a distinct actual call
        return (
            any(all(ok(i, p[i]) for i in range(n)) for p in itertools.permutations(range(m), n))
            if n <= m
            else False
        )
    # subset: every actual call gets a distinct expected call
    return (
        any(all(ok(p[j], j) for j in range(m)) for p in itertools.permutations(range(n), m))
        if m <= n
        else False
    )


def random_call(rng: random.Random, *, expected: bool) -> dict[str, Any]:
    call: dict[str, Any] = {"tool": rng.choice("ab")}
    if expected and rng.random() < 0.15:
        return call  # args not checked
    args: dict[str, Any] = {}
    for key in "xy":
        if rng.random() < 0.6:
            value: Any = rng.choice([1, 2, 3, "p", " p"])
            if expected and rng.random() < 0.15:
                value = rng.choice([ANY, Regex("p"), {"$regex": "[0-9]"}])
            args[key] = value
    call["args"] = args
    return call


def check_case(
    mode: str, policy: Any, gold: list[dict[str, Any]], trace: list[dict[str, Any]]
) -> None:
    got = match_trajectory(gold, trace, mode=mode, args=policy)
    want = oracle(mode, policy, _plain(gold), trace)
    assert bool(got) is want, (mode, policy, gold, trace, got.reason)
    assert got.matched is want
    assert (got.reason == "") is want
    # pairs are distinct, compatible pairs
    assert len({e for e, _ in got.pairs}) == len(got.pairs) == len({a for _, a in got.pairs})
    plain = _plain(gold)
    for e, a in got.pairs:
        assert plain[e]["tool"] == trace[a]["tool"]
        assert oracle_args(policy, plain[e].get("args"), trace[a].get("args") or {})


def _plain(gold: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The gold with ``$regex`` forms as matchers, for the oracle."""
    out = []
    for call in gold:
        args = call.get("args")
        if args is None:
            out.append(call)
            continue
        out.append(
            {
                **call,
                "args": {
                    k: Regex(v["$regex"]) if isinstance(v, dict) and "$regex" in v else v
                    for k, v in args.items()
                },
            }
        )
    return out


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: getattr(p, "__name__", str(p)))
def test_every_mode_and_policy_agrees_with_brute_force(mode: str, policy: Any) -> None:
    rng = random.Random(f"{mode}-{policy if isinstance(policy, str) else 'p'}")
    agreed_true = 0
    for _ in range(400):
        gold = [random_call(rng, expected=True) for _ in range(rng.randint(0, 4))]
        trace = [random_call(rng, expected=False) for _ in range(rng.randint(0, 4))]
        if rng.random() < 0.3:  # near-misses: a shuffled or thinned copy of the gold
            trace = [
                {
                    "tool": c["tool"],
                    "args": {
                        k: v for k, v in (c.get("args") or {}).items() if isinstance(v, (int, str))
                    },
                }
                for c in gold
                if rng.random() < 0.9
            ]
            rng.shuffle(trace)
        check_case(mode, policy, gold, trace)
        agreed_true += oracle(mode, policy, _plain(gold), trace)
    assert agreed_true > 10  # the random cases exercise both verdicts


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(MODES),
    st.sampled_from(["exact", "ignore", "subset", "superset"]),
    st.lists(
        st.tuples(
            st.sampled_from("ab"),
            st.dictionaries(st.sampled_from("xy"), st.sampled_from([1, 2, "p"])),
        ),
        max_size=4,
    ),
    st.lists(
        st.tuples(
            st.sampled_from("ab"),
            st.dictionaries(st.sampled_from("xy"), st.sampled_from([1, 2, "p"])),
        ),
        max_size=4,
    ),
)
def test_hypothesis_cases_agree_with_brute_force(
    mode: str,
    policy: str,
    gold: list[tuple[str, dict[str, Any]]],
    trace: list[tuple[str, dict[str, Any]]],
) -> None:
    check_case(
        mode,
        policy,
        [{"tool": t, "args": a} for t, a in gold],
        [{"tool": t, "args": a} for t, a in trace],
    )


# -- where greedy first-fit fails --------------------------------------------------------------


def greedy_first_fit(
    gold: Sequence[dict[str, Any]], trace: Sequence[dict[str, Any]], policy: Any
) -> int:
    used: set[int] = set()
    for call in gold:
        for j, other in enumerate(trace):
            if (
                j not in used
                and other["tool"] == call["tool"]
                and oracle_args(policy, call.get("args"), other.get("args") or {})
            ):
                used.add(j)
                break
    return len(used)


GREEDY_TRAPS = [
    # ANY takes the only call the exact expectation accepts
    (
        [{"tool": "a", "args": {"x": ANY}}, {"tool": "a", "args": {"x": 1}}],
        [{"tool": "a", "args": {"x": 1}}, {"tool": "a", "args": {"x": 2}}],
        "unordered",
        "exact",
    ),
    # "don't check" grabs the first call
    (
        [{"tool": "s"}, {"tool": "s", "args": {"q": "b"}}],
        [{"tool": "s", "args": {"q": "b"}}, {"tool": "s", "args": {"q": "z"}}],
        "superset",
        "exact",
    ),
    # superset policy: the looser expectation first
    (
        [{"tool": "s", "args": {"q": "a"}}, {"tool": "s", "args": {"q": "a", "n": 1}}],
        [{"tool": "s", "args": {"q": "a", "n": 1}}, {"tool": "s", "args": {"q": "a", "n": 2}}],
        "unordered",
        "superset",
    ),
    # a chain of three that needs an augmenting path of length five
    (
        [
            {"tool": "t", "args": {"k": Regex("[12]")}},
            {"tool": "t", "args": {"k": Regex("[23]")}},
            {"tool": "t", "args": {"k": "3"}},
        ],
        [
            {"tool": "t", "args": {"k": "2"}},
            {"tool": "t", "args": {"k": "3"}},
            {"tool": "t", "args": {"k": "1"}},
        ],
        "unordered",
        "exact",
    ),
]


@pytest.mark.parametrize(("gold", "trace", "mode", "policy"), GREEDY_TRAPS)
def test_optimal_pairing_where_greedy_first_fit_fails(
    gold: list[dict[str, Any]], trace: list[dict[str, Any]], mode: str, policy: str
) -> None:
    assert greedy_first_fit(gold, trace, policy) < len(gold)  # greedy gets it wrong
    assert oracle(mode, policy, gold, trace)
    result = match_trajectory(gold, trace, mode=mode, args=policy)
    assert result, result.reason
    assert len(result.pairs) == len(gold)


# -- reasons, overrides, validation ------------------------------------------------------------


def test_reason_names_the_failing_call_and_why() -> None:
    gold = [{"tool": "search", "args": {"q": "paris"}}, {"tool": "book", "args": {"id": 7}}]
    trace = [{"tool": "search", "args": {"q": "paris"}}, {"tool": "book", "args": {"id": 8}}]
    strict = match_trajectory(gold, trace)
    assert not strict
    assert strict.reason == "call #2 book: argument 'id': expected 7, got 8"
    loose = match_trajectory(gold, trace, mode="superset")
    assert "expected call #2 book(id=7) has no matching actual call" in loose.reason
    assert "argument 'id': expected 7, got 8" in loose.reason
    extra = match_trajectory(gold[:1], trace, mode="subset")
    assert "actual call #2 book(id=8) matches no expected call" in extra.reason
    assert match_trajectory(gold, trace[::-1]).reason == "call #1: expected 'search', got 'book'"
    short = match_trajectory(gold, trace[:1])
    assert short.reason == "expected call #2 book(id=7) never happened"


def test_args_overrides_per_tool() -> None:
    gold = [
        {"tool": "search", "args": {"q": "paris", "request_id": "r1"}},
        {"tool": "book", "args": {"hotel": {"id": 7, "name": "H"}}},
        {"tool": "log", "args": {"line": "x"}},
    ]
    trace = [
        {"tool": "search", "args": {"q": "paris", "request_id": "r9"}},
        {"tool": "book", "args": {"hotel": {"id": 7, "name": "Hotel H"}, "nights": 2}},
        {"tool": "log", "args": {"line": "anything at all"}},
    ]
    assert not match_trajectory(gold, trace)
    result = match_trajectory(
        gold,
        trace,
        args_overrides={
            "search": {"mode": "exact", "ignore": ["request_id"]},
            "book": ["hotel.id"],
            "log": lambda actual, expected: "line" in actual,
        },
    )
    assert result, result.reason


def test_bad_mode_and_policy_are_named() -> None:
    with pytest.raises(ValueError, match="unknown match mode 'sorted'"):
        match_trajectory([], [], mode="sorted")
    with pytest.raises(
        ValueError, match="args_overrides\\['s'\\]: unknown argument policy 'loose'"
    ):
        match_trajectory([], [], args_overrides={"s": "loose"})


def test_strict_values_option() -> None:
    assert match_trajectory([{"tool": "a", "args": {"n": 1}}], [{"tool": "a", "args": {"n": 1.0}}])
    assert not match_trajectory(
        [{"tool": "a", "args": {"n": 1}}], [{"tool": "a", "args": {"n": 1.0}}], strict=True
    )


# -- evaluate(match=...) -----------------------------------------------------------------------


def test_superset_extra_calls_do_not_lower_selection_accuracy() -> None:
    gold = [{"tool": "search_flights", "args": {"destination": "JFK"}}]
    trace = [
        {"tool": "get_time", "args": {}},
        {"tool": "search_flights", "args": {"destination": "JFK", "date": "2025-01-01"}},
    ]
    default = toolscore.evaluate(gold, trace)
    assert default.selection_accuracy == 0.5
    result = toolscore.evaluate(gold, trace, match={"mode": "superset", "args": "superset"})
    assert result.selection_accuracy == 1.0
    assert result.argument_f1 == 1.0
    assert result.score == 1.0
    assert result.metrics["trajectory_match"]["matched"] is True


def test_unordered_order_does_not_lower_sequence_accuracy() -> None:
    gold = [{"tool": t} for t in "abc"]
    trace = [{"tool": t} for t in "cba"]
    assert toolscore.evaluate(gold, trace).sequence_accuracy < 0.5
    assert toolscore.evaluate(gold, trace, match="unordered").score == 1.0


def test_a_mode_keeps_the_penalties_of_real_mistakes() -> None:
    gold = [{"tool": "a", "args": {"x": 1}}, {"tool": "b", "args": {"y": 1}}]
    trace = [{"tool": "b", "args": {"y": 1}}, {"tool": "a", "args": {"x": 2}}, {"tool": "z"}]
    result = toolscore.evaluate(gold, trace, match="superset")
    assert result.metrics["trajectory_match"]["matched"] is False
    assert result.argument_f1 == 0.5  # a(x=2) is still a wrong-value attempt at a(x=1)
    assert result.selection_accuracy == 1.0  # the extra z is allowed
    subset = toolscore.evaluate(gold, trace[:1], match="subset")
    assert subset.score == 1.0  # the agent may skip a


def test_matched_trajectories_score_one_and_default_numbers_stay() -> None:
    rng = random.Random(7)
    for _ in range(300):
        gold = [random_call(rng, expected=True) for _ in range(rng.randint(1, 4))]
        trace = [random_call(rng, expected=False) for _ in range(rng.randint(1, 4))]
        mode = rng.choice(MODES)
        policy = rng.choice(["exact", "ignore", "subset", "superset", ["x"]])
        spec = {"mode": mode, "args": policy}
        before = toolscore.evaluate(gold, trace).score
        result = toolscore.evaluate(gold, trace, match=spec)
        assert toolscore.evaluate(gold, trace).score == before
        if match_trajectory(gold, trace, mode=mode, args=policy):
            assert result.score == 1.0, (spec, gold, trace)


# -- $ forms in Python dicts (item 7) ----------------------------------------------------------


def test_dollar_forms_in_python_dicts_score_as_in_gold_files(tmp_path: Any) -> None:
    import json

    gold = [{"tool": "search", "args": {"q": {"$regex": "weather in .*"}, "n": {"$any": True}}}]
    trace = [{"tool": "search", "args": {"q": "weather in Paris", "n": 3}}]
    api = toolscore.evaluate(gold, trace)
    (tmp_path / "gold.json").write_text(json.dumps(gold))
    (tmp_path / "trace.json").write_text(json.dumps(trace))
    files = toolscore.evaluate_trace(tmp_path / "gold.json", tmp_path / "trace.json")
    assert api.score == files.score == 1.0


def test_dollar_literal_is_the_escape() -> None:
    query = {"$regex": "^a"}  # a MongoDB filter the agent must pass as is
    gold = [{"tool": "find", "args": {"filter": {"$literal": query}}}]
    assert toolscore.evaluate(gold, [{"tool": "find", "args": {"filter": query}}]).score == 1.0
    assert (
        toolscore.evaluate(gold, [{"tool": "find", "args": {"filter": "abc"}}]).argument_f1 == 0.0
    )


# -- expect() ----------------------------------------------------------------------------------


def test_expect_calls_means_at_least_these_arguments() -> None:
    trace = [{"tool": "search_flights", "args": {"destination": "JFK", "date": "2025-05-01"}}]
    result = (
        toolscore.expect(trace).calls("search_flights", destination="JFK").with_score(1.0).run()
    )
    assert result.score == 1.0
    with pytest.raises(toolscore.ToolScoreAssertionError):
        toolscore.expect(trace).calls(
            "search_flights", destination="JFK"
        ).with_exact_args().with_score(1.0).run()


def test_expect_modes() -> None:
    trace = [{"tool": "b"}, {"tool": "log"}, {"tool": "a"}]
    toolscore.expect(trace).calls("a").calls("b").allowing_extra_calls().with_score(1.0).run()
    toolscore.expect(trace[::2]).calls("a").calls("b").in_any_order().with_score(1.0).run()
    with pytest.raises(ValueError, match="unknown match mode"):
        toolscore.expect(trace).matching(mode="nope")


# -- pairing by keys under the exact policy -----------------------------------------------------

_KEYED_VALUES = [1, 1.0, True, 2, "p", " p", None, [1], [1.0], {"n": 1}, {"n": True}, ("p",)]


@settings(max_examples=300, deadline=None)
@given(
    st.booleans(),
    st.lists(st.dictionaries(st.sampled_from("xy"), st.sampled_from(_KEYED_VALUES)), max_size=6),
    st.lists(st.dictionaries(st.sampled_from("xy"), st.sampled_from(_KEYED_VALUES)), max_size=6),
)
def test_pairs_by_key_are_the_pairs_of_the_flow(
    strict: bool, gold: list[dict[str, Any]], trace: list[dict[str, Any]]
) -> None:
    """Matching by canonical keys (plain values, exact policy) reports the very pairs the
    maximum flow reports, lenient duplicates (1, 1.0, True; "p", " p") included."""
    from toolscore.matching._keyed import pair_by_key
    from toolscore.matching._pairing import pair_by_flow
    from toolscore.matching.policies import ArgsRule
    from toolscore.matching.values import key_function
    from toolscore.model import ToolCall

    expected = [(i, ToolCall(tool="t", args=a)) for i, a in enumerate(gold)]
    actual = [(j, ToolCall(tool="t", args=a)) for j, a in enumerate(trace)]
    rule, keyf = ArgsRule("exact"), key_function(strict)
    keyed = pair_by_key(expected, actual, rule, keyf, strict=strict)
    flow = pair_by_flow(expected, actual, rule, keyf, strict=strict)
    if keyed is None:  # left to the flow: lenient duplicates on both sides
        assert not strict
    else:
        assert keyed == flow


def test_a_nan_argument_never_counts_even_when_both_sides_hold_the_same_object() -> None:
    # Equal dicts are counted in one comparison, which treats a value and itself as equal;
    # a NaN must still not match (values_match says so), not even shared by both sides.
    from toolscore.matching.values import count_correct

    nan = float("nan")
    assert count_correct({"x": nan, "q": "a"}, {"x": nan, "q": "a"}, strict=False) == 1
    shared = [1, {"k": "v"}]
    assert count_correct({"l": shared, "n": 2}, {"l": shared, "n": 2}, strict=False) == 2
    assert count_correct({"n": 1}, {"n": 1.0}, strict=True) == 0
    assert (
        toolscore.evaluate(
            [{"tool": "t", "args": {"x": nan}}], [{"tool": "t", "args": {"x": nan}}]
        ).argument_f1
        == 0.0
    )


def test_calls_built_by_from_fields_are_frozen_tool_calls_like_constructed_ones() -> None:
    import pickle

    import attrs
    from toolscore.model import ToolCall

    built = ToolCall.from_fields("search", {"q": "x"}, None, None, False, None, None, None, "7")
    made = ToolCall(tool="search", args={"q": "x"}, id="7")
    assert type(built) is ToolCall
    assert built == made
    assert repr(built) == repr(made)
    assert pickle.loads(pickle.dumps(built)) == made
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.tool = "other"  # type: ignore[misc]
    assert attrs.evolve(built, tool="other").tool == "other"
