"""Argument matchers: values in expected arguments that accept more than one actual value.

Put a matcher where an expected argument value goes::

    evaluate(expected=[{"tool": "search", "args": {"q": Regex(r"weather .*"), "n": ANY}}], ...)

``Matcher.__eq__`` delegates to :meth:`Matcher.matches`, so matchers also work inside plain
``==`` on nested dicts and lists. :func:`toolscore.matching.values.values_match` checks for a matcher
before any other rule, at any depth and in strict mode too.

Files (gold files, snapshots, forbidden-call rules) spell matchers as one-key JSON objects
(``{"$regex": "\\\\d+"}``); :func:`matcher_from_json` reads those forms and
:func:`matcher_to_json` writes them. Plugins add forms through ``toolscore_register_matchers``.
"""

from __future__ import annotations

import math
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any

__all__ = [
    "ANY",
    "Approx",
    "Contains",
    "IsType",
    "Matcher",
    "OneOf",
    "Regex",
    "SearchRegex",
    "builtin_json_forms",
    "json_forms",
    "matcher_from_json",
    "matcher_to_json",
]


class Matcher(ABC):
    """Base class of every matcher: implement :meth:`matches` and ``__repr__``.

    Equality delegates to :meth:`matches`; hashing stays identity based, so matchers can
    be dict keys and set members.
    """

    @abstractmethod
    def matches(self, value: object) -> bool:
        """Whether the actual ``value`` satisfies this matcher."""

    def __eq__(self, other: object) -> bool:
        return self.matches(other)

    def __ne__(self, other: object) -> bool:
        return not self.matches(other)

    __hash__ = object.__hash__

    @abstractmethod
    def __repr__(self) -> str: ...


class _AnyMatcher(Matcher):
    """Matches every value, ``None`` included (but not an absent key)."""

    _instance: _AnyMatcher | None = None

    def __new__(cls) -> _AnyMatcher:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def matches(self, value: object) -> bool:
        return True

    def __repr__(self) -> str:
        return "ANY"


#: Matches any value; ``type(ANY)() is ANY``.
ANY: _AnyMatcher = _AnyMatcher()


class Regex(Matcher):
    """A string that matches ``pattern`` in full (``re.fullmatch``); non-strings never match.

    The pattern is the user's, so each match is time-bounded
    (:data:`~toolscore.limits.REGEX_TIMEOUT_SECONDS`): a pattern that backtracks for longer
    raises :class:`~toolscore.bounded_regex.PatternTimeoutError` naming it, instead of hanging.
    """

    def __init__(self, pattern: str, flags: int = 0) -> None:
        from toolscore.bounded_regex import bounded_pattern

        self.pattern = pattern
        self.flags = flags
        self._compiled = bounded_pattern(pattern, int(flags))

    def matches(self, value: object) -> bool:
        return isinstance(value, str) and self._compiled.fullmatch(value)

    def __repr__(self) -> str:
        if self.flags:
            return f"Regex({self.pattern!r}, flags={self.flags})"
        return f"Regex({self.pattern!r})"


class SearchRegex(Matcher):
    """The ``$regex`` of forbidden-call rule files: the pattern found anywhere (``re.search``).

    A rule must not be dodged by a prefix or a second line, hence a search rather than a full
    match. Lists and tuples read as their items joined with spaces (``["rm", "-rf", "/"]``
    reads ``rm -rf /``), ``None`` never matches, anything else is matched as ``str(value)``.
    Each search is time-bounded like :class:`Regex`'s; running out of time is an error, not
    a "no match", so a rule cannot be dodged by a string that makes it backtrack.
    """

    def __init__(self, pattern: str) -> None:
        from toolscore.bounded_regex import bounded_pattern

        if not isinstance(pattern, str):
            raise ValueError(f"$regex needs a pattern string, got {pattern!r}")
        self.pattern = pattern
        self._compiled = bounded_pattern(pattern)

    def matches(self, value: object) -> bool:
        if value is None:
            return False
        if isinstance(value, (list, tuple)):
            text = " ".join(str(item) for item in value)
        elif isinstance(value, str):
            text = value
        else:
            text = str(value)
        return self._compiled.search(text)

    def __repr__(self) -> str:
        return f"$regex({self.pattern!r})"


class Approx(Matcher):
    """A number within ``max(rel * |value|, abs)`` of ``value`` (inclusive); never a bool.

    ``Approx(0)`` therefore needs an exact 0 unless ``abs`` is given.
    """

    def __init__(self, value: float, rel: float = 1e-6, abs: float = 0.0) -> None:
        self.value = value
        self.rel = rel
        self.abs = abs

    def matches(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        tolerance = max(self.rel * math.fabs(self.value), self.abs)
        return math.fabs(float(value) - float(self.value)) <= tolerance

    def __repr__(self) -> str:
        parts = [repr(self.value)]
        if self.rel != 1e-6:
            parts.append(f"rel={self.rel!r}")
        if self.abs != 0.0:
            parts.append(f"abs={self.abs!r}")
        return f"Approx({', '.join(parts)})"


class Contains(Matcher):
    """``item in value`` for a str, list, tuple, set, frozenset or dict (key membership)."""

    def __init__(self, item: object) -> None:
        self.item = item

    def matches(self, value: object) -> bool:
        if not isinstance(value, (str, list, tuple, set, frozenset, dict)):
            return False
        try:
            return self.item in value
        except TypeError:
            return False

    def __repr__(self) -> str:
        return f"Contains({self.item!r})"


class OneOf(Matcher):
    """Equal (plain ``==``) to one of ``values``, which may themselves be matchers.

    Plain ``==`` means ``OneOf(1)`` matches ``1.0`` and ``True`` too.
    """

    def __init__(self, *values: object) -> None:
        self.values: tuple[object, ...] = values

    def matches(self, value: object) -> bool:
        return any(candidate == value for candidate in self.values)

    def __repr__(self) -> str:
        return f"OneOf({', '.join(repr(v) for v in self.values)})"


class IsType(Matcher):
    """``isinstance(value, types)``, except that a bool matches only when ``bool`` is listed."""

    def __init__(self, *types: type) -> None:
        self.types: tuple[type, ...] = types

    def matches(self, value: object) -> bool:
        if isinstance(value, bool) and bool not in self.types:
            return False
        return isinstance(value, self.types)

    def __repr__(self) -> str:
        return f"IsType({', '.join(t.__name__ for t in self.types)})"


# -- JSON forms ------------------------------------------------------------------------------

#: ``$type`` names and the Python types they stand for.
_TYPE_NAMES: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "string": (str,),
    "int": (int,),
    "integer": (int,),
    "float": (float,),
    "number": (int, float),
    "bool": (bool,),
    "boolean": (bool,),
    "list": (list,),
    "array": (list,),
    "dict": (dict,),
    "object": (dict,),
    "null": (type(None),),
    "none": (type(None),),
}
#: The name written back for each type by :func:`matcher_to_json`.
_TYPE_WRITE: dict[type, str] = {
    str: "str",
    int: "int",
    float: "float",
    bool: "bool",
    list: "list",
    dict: "dict",
    type(None): "null",
}
_FLAG_LETTERS: tuple[tuple[int, str], ...] = (
    (re.IGNORECASE, "i"),
    (re.MULTILINE, "m"),
    (re.DOTALL, "s"),
    (re.VERBOSE, "x"),
    (re.ASCII, "a"),
)


def _regex_from_json(operand: Any) -> Regex:
    if not isinstance(operand, str):
        raise ValueError(f"$regex needs a pattern string, got {operand!r}")
    return Regex(operand)


def _contains_from_json(operand: Any) -> Contains:
    return Contains(operand)


def _one_of_from_json(operand: Any) -> OneOf:
    if not isinstance(operand, list):
        raise ValueError(f"$one_of needs a list, got {operand!r}")
    return OneOf(*operand)


def _any_from_json(operand: Any) -> Matcher:
    if operand is not True:
        raise ValueError(f"$any needs true, got {operand!r}")
    return ANY


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _approx_from_json(operand: Any) -> Approx:
    if _is_number(operand):
        return Approx(operand)
    if isinstance(operand, Mapping) and _is_number(operand.get("value")):
        unknown = sorted(set(operand) - {"value", "rel", "abs"})
        if unknown:
            raise ValueError(f"$approx takes value, rel and abs, got {', '.join(unknown)}")
        rel = operand.get("rel", 1e-6)
        tol = operand.get("abs", 0.0)
        if not _is_number(rel) or not _is_number(tol):
            raise ValueError(f"$approx rel and abs must be numbers, got {operand!r}")
        return Approx(operand["value"], rel=rel, abs=tol)
    raise ValueError(
        f'$approx needs a number or {{"value": number, "rel": ..., "abs": ...}}, got {operand!r}'
    )


def _type_from_json(operand: Any) -> IsType:
    names = operand if isinstance(operand, list) else [operand]
    types: list[type] = []
    for name in names:
        found = _TYPE_NAMES.get(name.lower()) if isinstance(name, str) else None
        if found is None:
            known = ", ".join(sorted(_TYPE_NAMES))
            raise ValueError(f"$type needs a type name or a list of names ({known}), got {name!r}")
        types.extend(t for t in found if t not in types)
    if not types:
        raise ValueError("$type needs at least one type name")
    return IsType(*types)


#: The JSON forms of the built-in matchers: key -> builder of the matcher from the operand.
_BUILTIN_FORMS: dict[str, Callable[[Any], Matcher]] = {
    "$regex": _regex_from_json,
    "$contains": _contains_from_json,
    "$one_of": _one_of_from_json,
    "$any": _any_from_json,
    "$approx": _approx_from_json,
    "$type": _type_from_json,
}


def builtin_json_forms() -> dict[str, Callable[[Any], Matcher]]:
    """The built-in ``$`` forms and their builders (used by the matcher plugin module)."""
    return dict(_BUILTIN_FORMS)


def json_forms(registry: Any = None) -> Mapping[str, Callable[[Any], Any]]:
    """Every ``$`` form a registry reads and its builder: the built-in ones, plus the forms
    registered in ``registry`` (a plugin manager, its matcher registry or a mapping)."""
    return _forms_from(registry)


def _forms_from(registry: Any) -> Mapping[str, Callable[[Any], Any]]:
    """``$`` forms from a plugin manager, a matcher registry or a plain mapping."""
    if registry is None:
        return _BUILTIN_FORMS
    if hasattr(registry, "get_matchers"):
        registry = registry.get_matchers()
    specs = getattr(registry, "specs", None)
    if isinstance(specs, Mapping):
        forms: dict[str, Callable[[Any], Any]] = dict(_BUILTIN_FORMS)
        for spec in specs.values():
            if spec.json_key and spec.from_json is not None:
                forms.setdefault(spec.json_key, spec.from_json)
        return forms
    if isinstance(registry, Mapping):
        return {**_BUILTIN_FORMS, **registry}
    raise TypeError(
        f"registry must be a plugin manager, a matcher registry or a mapping, got {registry!r}"
    )


def matcher_from_json(obj: Any, *, registry: Any = None, rule_file: bool = False) -> Any:
    """Turn the JSON matcher forms inside ``obj`` into matchers, at any depth.

    A one-key object whose key is a known form (``$regex``, ``$contains``, ``$one_of``,
    ``$any``, ``$approx``, ``$type`` and any form a plugin registered) becomes that matcher;
    operands of ``$contains`` and ``$one_of`` are converted too. ``{"$literal": value}`` is
    ``value`` itself, unconverted: the escape snapshots use for recorded values that look like
    matcher forms (a MongoDB ``{"$regex": ...}`` argument), so gold files read them the same way.
    Other objects and lists are rebuilt with their items converted; everything else is
    returned as is.

    ``rule_file=True`` reads ``$regex`` as :class:`SearchRegex` (forbidden-call rules);
    otherwise it is a full match (:class:`Regex`).

    :param registry: ``None`` for the built-in forms, or a plugin manager, its matcher
        registry, or a mapping ``{"$key": builder}``.
    :raises ValueError: a malformed operand, e.g. ``$regex needs a pattern string, got 5``.
    """
    return _convert(obj, _forms_from(registry), rule_file)


def _convert(obj: Any, forms: Mapping[str, Callable[[Any], Any]], rule_file: bool) -> Any:
    if isinstance(obj, dict):
        if len(obj) == 1:
            ((key, operand),) = obj.items()
            if isinstance(key, str) and key.startswith("$"):
                if key == "$literal":
                    return operand
                if rule_file and key == "$regex":
                    return SearchRegex(operand)
                build = forms.get(key)
                if build is not None:
                    if key in ("$contains", "$one_of"):
                        operand = _convert(operand, forms, rule_file)
                    return build(operand)
        return {k: _convert(v, forms, rule_file) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_convert(item, forms, rule_file) for item in obj]
    return obj


def _regex_to_json(pattern: str, flags: int) -> dict[str, Any]:
    letters = ""
    rest = flags & ~re.UNICODE
    for flag, letter in _FLAG_LETTERS:
        if rest & flag:
            letters += letter
            rest &= ~flag
    if rest:
        raise ValueError(f"cannot write Regex({pattern!r}, flags={flags}) as JSON")
    return {"$regex": f"(?{letters}){pattern}" if letters else pattern}


def matcher_to_json(value: Any) -> Any:
    """The JSON form of ``value``: matchers become ``$`` objects, at any depth.

    The inverse of :func:`matcher_from_json` (used when re-recording snapshots). Tuples become
    lists. A third-party matcher is written through its ``to_json()`` method if it has one.

    :raises ValueError: a matcher that has no JSON form.
    """
    if isinstance(value, Matcher):
        return _matcher_json(value)
    if isinstance(value, Mapping):
        return {k: matcher_to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [matcher_to_json(item) for item in value]
    return value


def _matcher_json(value: Matcher) -> Any:
    if value is ANY:
        return {"$any": True}
    if isinstance(value, Regex):
        return _regex_to_json(value.pattern, value.flags)
    if isinstance(value, SearchRegex):
        return {"$regex": value.pattern}
    if isinstance(value, Approx):
        if value.rel == 1e-6 and value.abs == 0.0:
            return {"$approx": value.value}
        return {"$approx": {"value": value.value, "rel": value.rel, "abs": value.abs}}
    if isinstance(value, Contains):
        return {"$contains": matcher_to_json(value.item)}
    if isinstance(value, OneOf):
        return {"$one_of": [matcher_to_json(v) for v in value.values]}
    if isinstance(value, IsType):
        names = []
        for t in value.types:
            name = _TYPE_WRITE.get(t)
            if name is None:
                raise ValueError(f"cannot write {value!r} as JSON: no $type name for {t.__name__}")
            names.append(name)
        return {"$type": names[0] if len(names) == 1 else names}
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_json()
    raise ValueError(f"cannot write {value!r} as JSON: it has no JSON form")
