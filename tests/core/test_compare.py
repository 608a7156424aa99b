"""The one comparison function (``values_match``: lenient and strict) and the match keys behind
the index."""

from __future__ import annotations

import random
from typing import Any

import pytest
from toolscore.matching.matchers import ANY, Approx, Contains, OneOf, Regex
from toolscore.matching.values import count_correct, match_key, values_match


@pytest.mark.parametrize(
    ("expected", "actual", "lenient", "strict"),
    [
        (1, 1.0, True, False),
        (1, True, True, False),
        (True, 1, True, False),
        ("NYC", " NYC ", True, False),
        ("NYC", "nyc", False, False),  # no case folding
        ("1", 1, False, False),
        ({"n": 1}, {"n": 1.0}, True, False),
        ({"n": 1}, {"n": 1}, True, True),
        ({"n": 1}, {"n": 1, "m": 2}, False, False),
        ([" a"], ["a"], False, False),  # stripping is top level only
        ([1, 2], (1, 2), False, False),
        ([1, [2]], [1, [2]], True, True),
        ([1, [2]], [1.0, [2]], True, False),
        (None, None, True, True),
        (None, 0, False, False),
        (float("nan"), float("nan"), False, False),
        (2**1100, 2**1100, True, True),
        (2**1100, 1e300, False, False),  # no OverflowError (docs/compat.md#huge-numbers)
        (0.1 + 0.2, 0.3, False, False),
    ],
)
def test_lenient_and_strict_rules(expected: Any, actual: Any, lenient: bool, strict: bool) -> None:
    assert values_match(expected, actual) is lenient
    assert values_match(expected, actual, strict=True) is strict


@pytest.mark.parametrize("strict", [False, True])
def test_matchers_decide_first_at_any_depth_and_in_strict_mode(strict: bool) -> None:
    assert values_match(Regex(r"\d+"), "12", strict=strict)
    assert values_match(ANY, None, strict=strict)
    assert values_match({"a": [OneOf(1, 2)]}, {"a": [2]}, strict=strict)
    assert values_match({"a": Approx(1.0)}, {"a": 1}, strict=strict)
    assert not values_match({"a": Contains("x")}, {"a": "yyy"}, strict=strict)


def test_count_correct_counts_present_and_matching_keys() -> None:
    assert count_correct({"a": 1, "b": 2, "c": 3}, {"a": 1.0, "b": 3}, strict=False) == 1
    assert count_correct({"a": ANY}, {}, strict=False) == 0  # an absent key never matches
    assert count_correct({"a": ANY}, {"a": None}, strict=False) == 1
    assert count_correct(None, {"a": 1}, strict=False) == 0
    assert count_correct({"a": 1}, None, strict=False) == 0


# -- match keys agree with values_match ------------------------------------------------------

_POOL: list[Any] = [
    0,
    1,
    2,
    -1,
    10**30,
    2**1100,
    True,
    False,
    0.0,
    -0.0,
    1.0,
    2.5,
    float("inf"),
    "a",
    " a ",
    "a ",
    "A",
    "1",
    "",
    "1.0",
    None,
    [],
    [1],
    [1.0],
    [True],
    ["a"],
    [" a"],
    [1, [2]],
    [1, [2.0]],
    (1,),
    (1.0,),
    ((1,),),
    {},
    {"a": 1},
    {"a": 1.0},
    {"a": True},
    {"a": "1"},
    {"a": [1]},
    {"a": {"b": 1}},
    {"a": {"b": 1.0}},
    {1: "x"},
    {1.0: "x"},
    {True: "x"},
    {"a": None},
    {"a": 1, "b": 2},
    {"b": 2, "a": 1},
    [{"a": 1}],
    [{"a": 1.0}],
]


@pytest.mark.parametrize("strict", [False, True])
def test_match_keys_are_equal_exactly_when_values_match(strict: bool) -> None:
    for expected in _POOL:
        for actual in _POOL:
            want = values_match(expected, actual, strict=strict)
            k_exp = match_key(expected, strict=strict)
            k_act = match_key(actual, strict=strict)
            if k_exp is not None and k_act is not None:
                assert (k_exp == k_act) is want, (expected, actual, strict)
                if want:
                    assert hash(k_exp) == hash(k_act)


def test_values_that_need_a_real_comparison_have_no_key() -> None:
    assert match_key(Regex("a")) is None
    assert match_key({"a": Regex("a")}) is None
    assert match_key([ANY]) is None
    assert match_key(float("nan")) is None
    assert match_key(object()) is None

    class Text(str):
        pass

    assert match_key(Text("a")) is None


def test_match_keys_agree_on_random_nested_values() -> None:
    rng = random.Random(5)

    def value(depth: int = 0) -> Any:
        roll = rng.random()
        if depth > 2 or roll < 0.5:
            return rng.choice([1, 1.0, True, 0, False, "x", " x", None, 2])
        if roll < 0.75:
            return [value(depth + 1) for _ in range(rng.randint(0, 2))]
        return {rng.choice("ab"): value(depth + 1) for _ in range(rng.randint(0, 2))}

    values = [value() for _ in range(150)]
    for strict in (False, True):
        for expected in values:
            for actual in values:
                k_exp = match_key(expected, strict=strict)
                k_act = match_key(actual, strict=strict)
                assert k_exp is not None
                assert k_act is not None
                assert (k_exp == k_act) is values_match(expected, actual, strict=strict)
