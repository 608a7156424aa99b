"""Repair a name the server already has: give the new thing a fresh one.

    A sheet named 'Sheet1' already exists.
    Table "items" already exists

A tool that makes a thing under the name we gave it refuses one that is taken. The message
quotes the name; :func:`repair_taken_name` gives the argument that sent it a fresh name of
the run's own (``toolscore-item-7``). Paths are left to the path repairs: an existing file is
often the server's way of asking for ``overwrite``, and a fresh path has its own rules.
"""

from __future__ import annotations

import re
from typing import Any

from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.values.meaning import path_kind

__all__ = ["repair_taken_name"]

_TAKEN = lazy_pattern(
    r"already (?:exists?|in use|taken|used|defined|present)|is taken|duplicate (?:name|key)",
    re.I,
)
_QUOTED = lazy_pattern(r"[\"'`‘“]([^\"'`’”\n]{1,120})[\"'`’”]")


def repair_taken_name(
    synthesizer: Any, args: dict[str, Any], text: str, named: list[str]
) -> tuple[dict[str, Any], str] | None:
    """The arguments with the taken name the message quotes replaced by a fresh one."""
    if not _TAKEN.search(text):
        return None
    quoted = {q.strip() for q in _QUOTED.findall(text)}
    for name, value in args.items():
        if not isinstance(value, str) or value.strip() not in quoted:
            continue
        if name not in synthesizer.properties or path_kind(synthesizer.parameter(name)):
            continue
        fresh = f"toolscore-item-{synthesizer.context.next_serial()}"
        args[name] = fresh
        return args, f"{name} -> {fresh!r} (a fresh name: {value!r} is taken)"
    return None
