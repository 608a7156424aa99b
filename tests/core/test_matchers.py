"""Matchers (``ANY``, ``Regex``, ...) and their JSON forms in gold, snapshot and rule files."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from toolscore import hookimpl
from toolscore.matching.matchers import (
    ANY,
    Approx,
    Contains,
    IsType,
    Matcher,
    OneOf,
    Regex,
    SearchRegex,
    matcher_from_json,
    matcher_to_json,
)
from toolscore.plugins import create_plugin_manager
from toolscore.specs import MatcherSpec


def test_any_is_a_singleton_that_matches_everything_including_none() -> None:
    assert type(ANY)() is ANY
    assert all(ANY.matches(v) for v in (None, 0, "", [], {}, object()))
    assert repr(ANY) == "ANY"


@pytest.mark.parametrize(
    ("matcher", "value", "expected"),
    [
        (Regex("NY"), "NYC", False),  # a full match, not a search
        (Regex("NY."), "NYC", True),
        (Regex(r"\d+"), 12, False),  # non-strings never match
        (Regex("nyc", flags=re.IGNORECASE), "NYC", True),
        (Approx(10), 10.000001, True),
        (Approx(10), 10.0001, False),
        (Approx(0), 0.0, True),
        (Approx(0), 1e-12, False),  # Approx(0) needs an exact 0
        (Approx(0, abs=0.5), 0.5, True),  # inclusive
        (Approx(1.5, rel=0.1), 1.65, True),
        (Approx(1), True, False),  # never a bool
        (Approx(1), "1", False),
        (Contains("a"), "cat", True),
        (Contains("x"), ["x", "y"], True),
        (Contains("k"), {"k": 1}, True),  # dict: key membership
        (Contains(1), 1, False),
        (Contains([1]), {1, 2}, False),  # unhashable item: TypeError means no match
        (OneOf(1, "a"), 1.0, True),
        (OneOf(1), True, True),  # plain ==
        (OneOf("a", Regex("b.")), "bc", True),  # candidates may be matchers
        (OneOf("a"), "b", False),
        (IsType(int), 3, True),
        (IsType(int), True, False),  # a bool is not an int here
        (IsType(int, bool), False, True),
        (IsType(float), 1, False),
        (IsType(str, type(None)), None, True),
    ],
)
def test_matcher_semantics(matcher: Matcher, value: Any, expected: bool) -> None:
    assert matcher.matches(value) is expected
    assert (matcher == value) is expected
    assert (matcher != value) is (not expected)


def test_matchers_work_inside_plain_equality_of_nested_values() -> None:
    assert {"q": Regex("a.*"), "n": [ANY, 2]} == {"q": "abc", "n": [None, 2]}
    assert {"q": Regex("a.*")} != {"q": "xyz"}


def test_matchers_are_hashable_by_identity() -> None:
    first, second = Regex("a"), Regex("a")
    assert len({first, second}) == 2
    assert {first: 1}[first] == 1


@pytest.mark.parametrize(
    ("matcher", "text"),
    [
        (Regex("a"), "Regex('a')"),
        (Regex("a", flags=re.IGNORECASE), "Regex('a', flags=re.IGNORECASE)"),
        (Approx(10), "Approx(10)"),
        (Approx(1.5, rel=0.1, abs=0.2), "Approx(1.5, rel=0.1, abs=0.2)"),
        (Contains("x"), "Contains('x')"),
        (OneOf(1, "a", ANY), "OneOf(1, 'a', ANY)"),
        (IsType(int, str), "IsType(int, str)"),
        (SearchRegex("rm -rf"), "$regex('rm -rf')"),
    ],
)
def test_reprs_are_the_references(matcher: Matcher, text: str) -> None:
    assert repr(matcher) == text


def test_search_regex_of_rule_files_searches_and_joins_lists() -> None:
    rule = SearchRegex("rm -rf")
    assert rule.matches("echo hi\nrm -rf /tmp")
    assert rule.matches(["rm", "-rf", "/"])
    assert not rule.matches(None)
    assert SearchRegex("^5$").matches(5)  # other values as str()
    with pytest.raises(ValueError, match=r"\$regex needs a pattern string, got 5"):
        SearchRegex(5)  # type: ignore[arg-type]


def test_json_forms_become_matchers_at_any_depth() -> None:
    value = matcher_from_json(
        {
            "city": {"$regex": "N.*"},
            "tags": [{"$contains": "a"}, "plain"],
            "cfg": {"mode": {"$one_of": [1, {"$regex": "x+"}]}},
            "any": {"$any": True},
            "near": {"$approx": 1.5},
            "close": {"$approx": {"value": 2, "rel": 0.1, "abs": 0.5}},
            "kind": {"$type": ["int", "null"]},
            "number": {"$type": "number"},
        }
    )
    assert isinstance(value["city"], Regex)
    assert value["city"].matches("NYC")
    assert not value["city"].matches("xNYC")
    assert isinstance(value["tags"][0], Contains)
    assert value["tags"][1] == "plain"
    assert value["cfg"]["mode"].matches("xxx")  # operands of $one_of are converted too
    assert value["any"] is ANY
    assert value["near"].matches(1.5000001)
    assert value["close"].matches(2.5)
    assert not value["close"].matches(2.6)
    assert value["kind"].matches(None)
    assert not value["kind"].matches("1")
    assert value["number"].matches(1)
    assert value["number"].matches(1.5)


def test_unknown_and_multi_key_dollar_objects_stay_literal() -> None:
    assert matcher_from_json({"$unknown": 1}) == {"$unknown": 1}
    assert matcher_from_json({"$regex": "a", "other": 1}) == {"$regex": "a", "other": 1}


def test_rule_files_read_regex_as_a_search() -> None:
    assert isinstance(matcher_from_json({"$regex": "a"}, rule_file=True), SearchRegex)
    assert isinstance(matcher_from_json({"$regex": "a"}), Regex)


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"$regex": 5}, r"\$regex needs a pattern string, got 5"),
        ({"$one_of": "a"}, r"\$one_of needs a list, got 'a'"),
        ({"$any": False}, r"\$any needs true"),
        ({"$approx": "x"}, r"\$approx needs a number"),
        ({"$approx": {"value": 1, "tol": 2}}, r"\$approx takes value, rel and abs, got tol"),
        ({"$type": "decimal"}, r"\$type needs a type name"),
    ],
)
def test_malformed_operands_are_one_line_value_errors(form: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        matcher_from_json(form)


def test_to_json_inverts_from_json() -> None:
    forms = {
        "a": {"$regex": "N.*"},
        "b": {"$contains": "x"},
        "c": {"$one_of": [1, {"$regex": "y"}]},
        "d": {"$any": True},
        "e": {"$approx": 1.5},
        "f": {"$approx": {"value": 2, "rel": 0.1, "abs": 0.5}},
        "g": {"$type": ["int", "null"]},
        "h": [1, {"k": {"$type": "str"}}],
    }
    assert matcher_to_json(matcher_from_json(forms)) == forms


def test_to_json_keeps_regex_flags_inline_and_refuses_what_json_cannot_say() -> None:
    written = matcher_to_json(Regex("nyc", flags=re.IGNORECASE))
    assert written == {"$regex": "(?i)nyc"}
    assert matcher_from_json(written).matches("NYC")
    assert matcher_to_json((1, Approx(2))) == [1, {"$approx": 2}]

    class Odd(Matcher):
        def matches(self, value: object) -> bool:
            return True

        def __repr__(self) -> str:
            return "Odd()"

    with pytest.raises(ValueError, match=r"cannot write Odd\(\) as JSON"):
        matcher_to_json(Odd())
    with pytest.raises(ValueError, match="no \\$type name"):
        matcher_to_json(IsType(bytes))


class StartsWith(Matcher):
    """A third-party matcher for the registry test."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def matches(self, value: object) -> bool:
        return isinstance(value, str) and value.startswith(self.prefix)

    def __repr__(self) -> str:
        return f"StartsWith({self.prefix!r})"


class StartsWithPlugin:
    @hookimpl
    def toolscore_register_matchers(self) -> Iterator[MatcherSpec]:
        yield MatcherSpec(
            name="startswith", factory=StartsWith, json_key="$startswith", from_json=StartsWith
        )


def test_matcher_plugins_add_json_forms_through_the_registry() -> None:
    builtin = create_plugin_manager(load_entrypoints=False)
    assert builtin.get_matchers().names() == [
        "any",
        "approx",
        "contains",
        "is_type",
        "one_of",
        "regex",
    ]
    pm = create_plugin_manager(load_entrypoints=False)
    pm.register(StartsWithPlugin(), name="startswith-plugin")
    converted = matcher_from_json({"q": {"$startswith": "we"}}, registry=pm)
    assert converted["q"].matches("weather")
    assert matcher_from_json({"$regex": "a"}, registry=pm.get_matchers()).matches("a")
    # without the plugin the form is just data
    assert matcher_from_json({"q": {"$startswith": "we"}}) == {"q": {"$startswith": "we"}}
    mapping = matcher_from_json({"$startswith": "x"}, registry={"$startswith": StartsWith})
    assert mapping.matches("xy")


def test_literal_form_is_the_value_itself_unconverted() -> None:
    from toolscore.matching.matchers import matcher_from_json

    stored = {"filter": {"$literal": {"$regex": "^a"}}, "ids": [{"$literal": {"$any": True}}]}
    assert matcher_from_json(stored) == {"filter": {"$regex": "^a"}, "ids": [{"$any": True}]}


def test_gold_file_reads_literal_values_like_snapshots_do(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    import toolscore

    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"tool": "find", "args": {"q": {"$literal": {"$regex": "^a"}}}}]))
    expected = toolscore.load_gold_standard(gold)
    # The loaded calls hold the literal dict; (a plain Python dict {"$regex": ...} given to
    # evaluate() is a matcher, see docs/matching.md, so they are passed as loaded).
    result = toolscore.evaluate(expected, [{"tool": "find", "args": {"q": {"$regex": "^a"}}}])
    assert result.argument_f1 == 1.0
