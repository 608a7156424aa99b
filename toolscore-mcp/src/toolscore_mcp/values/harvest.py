"""Values tools returned during the run, kept for the tools that consume them.

A producer's answer (``{"id": "abc"}``, a created path, a list of names) and the arguments it
accepted are what a reader or destroyer needs: a real id instead of a made-up one. Values are
kept by the key they came under (``id``, ``entity_id``, ``name``, ``path``), newest first, each
with the call that produced it, so a scenario that uses one can say which setup it needed.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.client.content import content_to_text
from toolscore_mcp.model import MCPToolResult
from toolscore_mcp.values.providers import name_tokens

__all__ = ["Harvest", "word_set"]

_MAX_VALUES_PER_KEY = 8
_MAX_NODES = 400
_MAX_GROUPS = 40
_UUID = lazy_pattern(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I)
_LABELLED_ID = lazy_pattern(r"\b(?:id|ID|Id)\s*[:=#]\s*[\"'`]?([\w.:/-]{1,80})")
_PREFIXED_ID = lazy_pattern(
    r"\b([A-Za-z]{2,30}?)[ _-]?(?:id|ID|Id)\s*[:=#]\s*[\"'`]?([\w.:/-]{1,80})"
)
_USEFUL = lazy_pattern(
    r"(?:^|_)(?:id|ids|uuid|key|name|names|path|paths|handle|uri|table|tables|column|columns|ref"
    r"|hash|sha|token|session|file|filename|index|idx)$"
)
#: Last words of a position (``shape_index``): kept under the whole name only, since a
#: shape's index is no slide's.
_POSITION_KEYS = frozenset({"index", "idx"})
#: Verbs of a tool that lists things: the names and ids in its answer are of its noun.
_GENERIC = frozenset({"new", "old", "target", "source", "src", "dest", "the", "of", "to", "by"})
_LISTING = frozenset({"list", "get", "show", "all", "enumerate", "available", "find", "search"})

Setup = tuple[tuple[str, Mapping[str, Any]], ...]


def _key(name: str) -> str:
    return "_".join(name_tokens(name))


def word_set(name: str) -> str:
    """A field name's words, sorted: ``line_start`` and ``start_line`` read the same."""
    return "_".join(sorted(name_tokens(name)))


class Harvest:
    """Values seen in successful answers (and the arguments that got them)."""

    def __init__(self) -> None:
        self._values: dict[str, list[tuple[Any, Setup]]] = {}
        #: Things this run's producers made, by noun (``sheet``, ``task``, ``file``).
        self._created: dict[str, list[tuple[Any, Setup]]] = {}
        #: noun -> the calls that made one, newest first (``sheet`` -> create_sheet's).
        self._creations: dict[str, list[tuple[str, dict[str, Any]]]] = {}
        #: Every value a producer accepted or returned (see :meth:`made`).
        self._made: set[Any] = set()
        self._producing = False
        self._groups: list[dict[str, Any]] = []

    def __bool__(self) -> bool:
        return bool(self._values)

    def _add(
        self, key: str, value: Any, setup: Setup, store: dict[str, list[Any]] | None = None
    ) -> None:
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            return
        if isinstance(value, str) and not (0 < len(value) <= 300):
            return
        if self._producing:
            self._made.add(value)
        bucket = (self._values if store is None else store).setdefault(key, [])
        if any(existing == value for existing, _ in bucket):
            return
        bucket.insert(0, (value, setup))
        del bucket[_MAX_VALUES_PER_KEY:]

    def _walk(self, data: Any, setup: Setup, budget: list[int], key: str = "") -> None:
        if budget[0] <= 0:
            return
        budget[0] -= 1
        if isinstance(data, Mapping):
            self._keep_group(data)
            for name, value in data.items():
                self._walk(value, setup, budget, _key(str(name)))
        elif isinstance(data, list):
            singular = key[:-1] if key.endswith("s") else key
            for item in data[:20]:
                self._walk(item, setup, budget, singular)
                if isinstance(item, Mapping) and "name" in item and "type" in item:
                    # A list of {name, type, ...}: a table's column descriptions.
                    self._add("column", item["name"], setup)
        elif key and _USEFUL.search(key):
            self._add(key, data, setup)
            last = key.rsplit("_", 1)[-1]
            if last != key and last not in _POSITION_KEYS:
                self._add(last, data, setup)

    def add_call(
        self,
        tool: str,
        arguments: Mapping[str, Any],
        result: MCPToolResult,
        *,
        include_arguments: bool = True,
    ) -> None:
        """Keep what a successful call returned, and (for producers) what it accepted.

        ``include_arguments`` marks the call as a producer's: what it accepted and returned
        also counts as made by this run (:meth:`made`).
        """
        self._producing = include_arguments
        try:
            self._add_call(tool, arguments, result, include_arguments)
        finally:
            self._producing = False

    def _add_call(
        self,
        tool: str,
        arguments: Mapping[str, Any],
        result: MCPToolResult,
        include_arguments: bool,
    ) -> None:
        setup: Setup = ((tool, dict(arguments)),)
        budget = [_MAX_NODES]
        if include_arguments:
            self._walk(dict(arguments), setup, budget)
        answers: list[Any] = []
        if result.structured is not None:
            answers.append(result.structured)
        text = content_to_text(result.content).strip()
        parsed = _parsed(text)
        if parsed is not None:
            answers.append(parsed)
        for answer in answers:
            self._walk(answer, setup, budget)
        for match in _UUID.finditer(text[:20000]):
            self._add("id", match.group(0), setup)
        for match in _LABELLED_ID.finditer(text[:20000]):
            self._add("id", match.group(1), setup)
        for match in _PREFIXED_ID.finditer(text[:20000]):
            self._add(f"{match.group(1).lower()}_id", match.group(2), setup)
        noun = _listed_noun(tool)
        if noun:
            for suffix, value in _listed(answers, text, noun):
                self._add(noun + suffix, value, setup)

    def _keep_group(self, data: Mapping[str, Any]) -> None:
        """Keep an answer object's plain fields together (a range's hash with its first and
        last line), newest first, when one of them is a value worth keeping."""
        fields = {
            _key(str(name)): value
            for name, value in data.items()
            if isinstance(value, (str, int, float)) and not isinstance(value, bool)
        }
        if len(fields) >= 2 and any(_USEFUL.search(name) for name in fields):
            self._groups.insert(0, fields)
            del self._groups[_MAX_GROUPS:]

    def companions(self, value: Any) -> dict[str, Any]:
        """The other fields of the newest answer object that held ``value``, keyed by their
        name's words in sorted order (``start_line`` and ``line_start`` are one key)."""
        for group in self._groups:
            if value in group.values():
                return {word_set(name): field for name, field in group.items()}
        return {}

    def made(self, value: Any) -> bool:
        """Did one of this run's producers make ``value`` (accept it, or return it)?

        What a reader listed is not enough: a listing of processes, users or records names
        things that were there before the run, which a destructive call must never touch.
        """
        return isinstance(value, (str, int)) and not isinstance(value, bool) and value in self._made

    def mark_made(self, values: list[Any]) -> None:
        """Count ``values`` as made by this run (the new name a renamer gave a thing)."""
        self._made.update(
            v for v in values if isinstance(v, (str, int)) and not isinstance(v, bool)
        )

    def add_created(self, noun: str, value: Any, tool: str, arguments: Mapping[str, Any]) -> None:
        """Remember a thing a producer made: a file at a path, a sheet or a task by name."""
        self._add(noun, value, ((tool, dict(arguments)),), self._created)

    def created(self, noun: str) -> Iterator[tuple[Any, Setup]]:
        """What this run's producers made of ``noun``, newest first."""
        yield from self._created.get(noun, ())

    def add_creation(self, nouns: Iterator[str] | list[str], tool: str, arguments: Any) -> None:
        """Remember the call that made a thing of each noun (``create_sheet`` -> ``sheet``)."""
        for noun in nouns:
            calls = self._creations.setdefault(noun, [])
            calls.insert(0, (tool, dict(arguments)))
            del calls[_MAX_VALUES_PER_KEY:]

    def creation(self, noun: str) -> tuple[str, dict[str, Any]] | None:
        """The newest successful call that made a thing of ``noun``, or None."""
        calls = self._creations.get(noun)
        return calls[0] if calls else None

    def lookup(
        self,
        parameter: str,
        tool: str,
        fallbacks: tuple[str, ...],
        *,
        made_only: bool = False,
        accept: Callable[[Any, Setup], bool] | None = None,
    ) -> Iterator[tuple[Any, Setup]]:
        """Values for ``parameter``: under its own name, then its last word, then ``fallbacks``
        (with ``made_only``, only those this run's producers made: a destroyer's targets;
        with ``accept``, only the values and producing calls it accepts).

        The producing call is never ``tool`` itself with the same value it sent.
        """
        key = _key(parameter)
        singular = key[:-1] if key.endswith("s") else key
        last = singular.rsplit("_", 1)[-1]
        # ``table_name``: the tables a listing named before any name at all.
        nouns = [word for word in singular.split("_")[:-1] if word not in _GENERIC]
        if last in _POSITION_KEYS:
            nouns, last = [], key  # a position is only ever a position of its own kind
        seen: list[Any] = []
        for candidate in dict.fromkeys((key, singular, *nouns, last, *fallbacks)):
            for value, setup in self._values.get(candidate, ()):
                if value in seen or (made_only and not self.made(value)):
                    continue
                if accept is not None and not accept(value, setup):
                    continue
                if candidate == last != key and nouns and _of_another_kind(setup, nouns):
                    continue  # a presentation's bare ``id`` is no ``template_id``
                seen.append(value)
                yield value, setup
                if len(seen) >= 3:
                    return


def _of_another_kind(setup: Setup, nouns: list[str]) -> bool:
    """Was a bare ``id`` (or ``name``) made by a tool whose name speaks of things, none of
    them ``nouns``? (``create_presentation``'s id, for a ``template_id``.)"""
    if not setup:
        return False
    words = {
        word[:-1] if word.endswith("s") and len(word) > 3 else word
        for word in name_tokens(setup[0][0])
    }
    return len(words) > 1 and not words & set(nouns)


def _parsed(text: str) -> Any:
    """A JSON answer, or a Python literal one (``[{'name': 'items'}]``), or None."""
    if text[:1] not in "[{" or len(text) > 200_000:
        return None
    try:
        return json.loads(text)
    except ValueError:
        pass
    import ast

    with contextlib.suppress(ValueError, SyntaxError, MemoryError, RecursionError):
        return ast.literal_eval(text)
    return None


def _listed_noun(tool: str) -> str:
    """``list_tables`` -> ``table``; "" for a tool that does not list things."""
    tokens = name_tokens(tool)
    if len(tokens) < 2 or tokens[0] not in _LISTING:
        return ""
    noun = tokens[-1]
    if not noun.endswith("s") or len(noun) < 4:
        return ""
    return noun[:-3] + "y" if noun.endswith("ies") else noun[:-1]


_IDENTIFIER = lazy_pattern(r"^[\w.:/@-]{1,120}$")


def _wrapped_list(answer: Mapping[str, Any], noun: str) -> list[Any]:
    """The list a listing wrapped in one object (``{"presentations": [...], "total": 1}``):
    the one named after the listed noun, else the first list of objects, else the first."""
    lists = [(str(key), value) for key, value in answer.items() if isinstance(value, list)]
    for key, value in lists:
        if _key(key) in (noun, noun + "s", noun[:-1] + "ies" if noun.endswith("y") else noun):
            return value
    objects = [value for _, value in lists if value and isinstance(value[0], Mapping)]
    return (objects or [value for _, value in lists] or [[]])[0]


def _listed(answers: list[Any], text: str, noun: str = "") -> list[tuple[str, Any]]:
    """What a listing answered with, as (key suffix, value): the strings of a list and the
    ``name`` of each object (suffix ""), each object's ``id`` (suffix ``_id``); for a
    plain-text answer, its lines when each is one identifier."""
    found: list[tuple[str, Any]] = []
    for answer in answers:
        items = answer
        if isinstance(answer, Mapping):
            items = _wrapped_list(answer, noun)
        if not isinstance(items, list):
            continue
        for item in items[:20]:
            pairs = (
                [("", item.get("name")), ("_id", item.get("id"))]
                if isinstance(item, Mapping)
                else [("", item)]
            )
            found += [
                (suffix, value)
                for suffix, value in pairs
                if isinstance(value, (str, int)) and not isinstance(value, bool)
            ]
    if not found and not answers:
        lines = [line.strip().lstrip("-*• ").strip() for line in text.splitlines()]
        lines = [line for line in lines if line]
        if 0 < len(lines) <= 50 and all(_IDENTIFIER.match(line) for line in lines):
            found = [("", line) for line in lines[:20]]
    return found
