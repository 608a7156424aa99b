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
from collections.abc import Iterator, Mapping
from typing import Any

from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.client.content import content_to_text
from toolscore_mcp.model import MCPToolResult
from toolscore_mcp.values.providers import name_tokens

__all__ = ["Harvest"]

_MAX_VALUES_PER_KEY = 8
_MAX_NODES = 400
_UUID = lazy_pattern(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I)
_LABELLED_ID = lazy_pattern(r"\b(?:id|ID|Id)\s*[:=#]\s*[\"'`]?([\w.:/-]{1,80})")
_USEFUL = lazy_pattern(r"(?:^|_)(?:id|ids|uuid|key|name|names|path|paths|handle|uri|table|ref)$")

Setup = tuple[tuple[str, Mapping[str, Any]], ...]


def _key(name: str) -> str:
    return "_".join(name_tokens(name))


class Harvest:
    """Values seen in successful answers (and the arguments that got them)."""

    def __init__(self) -> None:
        self._values: dict[str, list[tuple[Any, Setup]]] = {}

    def __bool__(self) -> bool:
        return bool(self._values)

    def _add(self, key: str, value: Any, setup: Setup) -> None:
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            return
        if isinstance(value, str) and not (0 < len(value) <= 300):
            return
        bucket = self._values.setdefault(key, [])
        if any(existing == value for existing, _ in bucket):
            return
        bucket.insert(0, (value, setup))
        del bucket[_MAX_VALUES_PER_KEY:]

    def _walk(self, data: Any, setup: Setup, budget: list[int], key: str = "") -> None:
        if budget[0] <= 0:
            return
        budget[0] -= 1
        if isinstance(data, Mapping):
            for name, value in data.items():
                self._walk(value, setup, budget, _key(str(name)))
        elif isinstance(data, list):
            singular = key[:-1] if key.endswith("s") else key
            for item in data[:20]:
                self._walk(item, setup, budget, singular)
        elif key and _USEFUL.search(key):
            self._add(key, data, setup)
            last = key.rsplit("_", 1)[-1]
            if last != key:
                self._add(last, data, setup)

    def add_call(
        self,
        tool: str,
        arguments: Mapping[str, Any],
        result: MCPToolResult,
        *,
        include_arguments: bool = True,
    ) -> None:
        """Keep what a successful call returned, and (for producers) what it accepted."""
        setup: Setup = ((tool, dict(arguments)),)
        budget = [_MAX_NODES]
        if include_arguments:
            self._walk(dict(arguments), setup, budget)
        if result.structured is not None:
            self._walk(result.structured, setup, budget)
        text = content_to_text(result.content).strip()
        if text[:1] in "[{":
            with contextlib.suppress(ValueError):
                self._walk(json.loads(text), setup, budget)
        for match in _UUID.finditer(text[:20000]):
            self._add("id", match.group(0), setup)
        for match in _LABELLED_ID.finditer(text[:20000]):
            self._add("id", match.group(1), setup)

    def lookup(
        self, parameter: str, tool: str, fallbacks: tuple[str, ...]
    ) -> Iterator[tuple[Any, Setup]]:
        """Values for ``parameter``: under its own name, then its last word, then ``fallbacks``.

        The producing call is never ``tool`` itself with the same value it sent.
        """
        key = _key(parameter)
        singular = key[:-1] if key.endswith("s") else key
        last = singular.rsplit("_", 1)[-1]
        seen: list[Any] = []
        for candidate in dict.fromkeys((key, singular, last, *fallbacks)):
            for value, setup in self._values.get(candidate, ()):
                if value in seen:
                    continue
                seen.append(value)
                yield value, setup
                if len(seen) >= 3:
                    return
