"""The one comparison of an expected argument value with an actual one.

:func:`values_match` decides whether two values match, for the argument metric, the pairing
of calls, diffs, fix lists and forbidden-call rules alike, so that they never disagree.

Rules:

* An expected :class:`~toolscore.matching.matchers.Matcher` decides by itself, first, at any depth and
  in both modes.
* Lenient (default): Python ``==`` (so ``1 == 1.0 == True`` and nested matchers work), or two
  numbers equal as floats, or two strings equal after stripping outer whitespace (top level
  only). No case folding; ``"1"`` never equals ``1``.
* Strict: identical types all the way down (``int`` is not ``float``, ``bool`` is not
  ``int``, ``list`` is not ``tuple``), dicts with the same keys, sequences of the same length.

:func:`match_key` gives, for plain values, a hashable key that is equal for two values exactly
when they match; the alignment uses it to find candidate pairs without comparing every
expected call with every actual call.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, Final

from toolscore.matching.matchers import Matcher

__all__ = [
    "NO_KEY",
    "count_correct",
    "key_function",
    "lenient_key",
    "match_key",
    "values_match",
]

#: :func:`match_key` result for values that must be compared one by one.
NO_KEY: Final = None


#: Exact scalar types, whose equal values match under both modes.
_SCALAR_TYPES: Final = frozenset({str, int, float, bool, type(None)})
#: Exact types whose values are ``==`` themselves (no NaN, no matcher; a container is ``==``
#: itself as its items are compared with identity first).
_SELF_EQUAL: Final = frozenset({str, int, bool, type(None), dict, list, tuple})
#: Exact types no matcher can have: values of these skip the (abstract-class) matcher check.
_NEVER_MATCHERS: Final = frozenset({str, int, float, bool, type(None), dict, list, tuple})


def values_match(expected: Any, actual: Any, *, strict: bool = False) -> bool:
    """Whether ``actual`` satisfies ``expected`` (see the module docstring for the rules)."""
    if type(expected) not in _NEVER_MATCHERS and isinstance(expected, Matcher):
        return expected.matches(actual)
    if strict:
        return _strict_match(expected, actual)
    if expected == actual:
        return True
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        try:
            return float(expected) == float(actual)
        except OverflowError:
            return False
    if isinstance(expected, str) and isinstance(actual, str):
        return expected.strip() == actual.strip()
    return False


def _strict_match(expected: Any, actual: Any) -> bool:
    if isinstance(expected, Matcher):
        return expected.matches(actual)
    if type(expected) is not type(actual):
        return False
    if isinstance(expected, dict):
        if set(expected.keys()) != set(actual.keys()):
            return False
        return all(_strict_match(expected[k], actual[k]) for k in expected)
    if isinstance(expected, (list, tuple)):
        if len(expected) != len(actual):
            return False
        return all(_strict_match(e, a) for e, a in zip(expected, actual))
    return bool(expected == actual)


def count_correct(
    expected_args: Mapping[str, Any] | None, actual_args: Mapping[str, Any] | None, *, strict: bool
) -> int:
    """How many expected keys are present in ``actual_args`` with a matching value."""
    if not expected_args:
        return 0
    got = actual_args or {}
    if (
        not strict
        and type(expected_args) is dict
        and type(got) is dict
        and _SELF_EQUAL.issuperset(map(type, expected_args.values()))
        and expected_args == got
    ):
        # Equal plain dicts: each expected value is ``==`` its actual one (the dicts'
        # comparison skips only values that are the same object, which for these types are
        # ``==`` too), so every key counts, as the loop below would find.
        return len(expected_args)
    correct = 0
    if not strict:
        # Lenient: a plain expected value (never a matcher) that is ``==`` matches, as
        # values_match would decide first; only the others need the call.
        for key, want in expected_args.items():
            if key in got:
                have = got[key]
                if (type(want) in _NEVER_MATCHERS and want == have) or values_match(want, have):
                    correct += 1
        return correct
    for key, want in expected_args.items():
        if key in got:
            have = got[key]
            kind = type(want)
            # Equal scalars of one exact type match in both modes: decided without a call.
            if (kind is type(have) and kind in _SCALAR_TYPES and want == have) or values_match(
                want, have, strict=True
            ):
                correct += 1
    return correct


# -- hashable keys -----------------------------------------------------------------------------


_NONE_KEY: Final = ("z",)


def match_key(value: Any, *, strict: bool = False) -> Hashable | None:
    """A hashable stand-in for ``value``: two values match exactly when their keys are equal.

    Returns :data:`NO_KEY` (``None``) for values that need a real comparison: matchers,
    objects of other types, a top-level NaN, subclasses of the plain types. Lenient keys of
    scalars are plain values (a stripped string, a float), so computing them is cheap.
    """
    return _strict_key(value) if strict else lenient_key(value)


def key_function(strict: bool) -> Callable[[Any], Hashable | None]:
    """:func:`match_key` for one mode, as a one-argument function (for tight loops)."""
    return _strict_key if strict else lenient_key


def lenient_key(value: Any) -> Hashable | None:
    """:func:`match_key` in lenient mode."""
    kind = type(value)
    if kind is str:
        stripped: str = value.strip()
        return stripped
    if kind is int or kind is bool:
        try:
            return float(value)
        except OverflowError:
            return ("N", value)
    if kind is float:
        return value if value == value else NO_KEY
    if value is None:
        return _NONE_KEY
    if kind is dict or kind is list or kind is tuple:
        return _plain_key(value)
    return NO_KEY


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _plain_key(value: Any) -> Hashable | None:
    """Key of a dict, list or tuple under Python ``==``.

    Scalars inside stay raw: hashing and equality agree across int, float and bool, and
    frozensets and tuples compare their items the way dicts and lists do (identity first,
    then ``==``). Containers inside are keyed recursively and tagged, so they never equal a
    scalar. Anything else inside (a matcher, an object) means no key.
    """
    kind = type(value)
    if kind is dict:
        if not _SCALARS.issuperset(map(type, value)):
            return NO_KEY
        if _SCALARS.issuperset(map(type, value.values())):
            return ("d", frozenset(value.items()))
        pairs = []
        for k, item in value.items():
            if type(item) in _SCALARS:
                pairs.append((k, item))
            else:
                key = _plain_key(item)
                if key is None:
                    return NO_KEY
                pairs.append((k, key))
        return ("d", frozenset(pairs))
    if kind is list or kind is tuple:
        tag = "l" if kind is list else "t"
        if _SCALARS.issuperset(map(type, value)):
            return (tag, tuple(value))
        items = []
        for item in value:
            if type(item) in _SCALARS:
                items.append(item)
            else:
                key = _plain_key(item)
                if key is None:
                    return NO_KEY
                items.append(key)
        return (tag, tuple(items))
    return NO_KEY


def _strict_key(value: Any) -> Hashable | None:
    """Key under strict comparison: the exact type is part of the key, at every level."""
    kind = type(value)
    if kind is str or kind is int or kind is bool:
        return (kind, value)
    if kind is float:
        return (kind, value) if value == value else NO_KEY
    if value is None:
        return (kind,)
    if kind is list or kind is tuple:
        items = []
        for item in value:
            key = _strict_key(item)
            if key is None:
                return NO_KEY
            items.append(key)
        return (kind, tuple(items))
    if kind is dict:
        pairs = []
        for k, item in value.items():
            if type(k) not in _SCALARS or k != k:
                return NO_KEY
            key = _strict_key(item)
            if key is None:
                return NO_KEY
            pairs.append((k, key))
        return (kind, frozenset(pairs))
    return NO_KEY
