"""Parameter descriptions written in the tool's description, docstring style.

Servers built from Python functions often put what each parameter means in the function's
docstring, which becomes the tool's description, and leave the schema's properties without
any::

    Args:
        operation: Operation type ("list", "get_layouts", "get_info")
        master_index: Index of the slide master (0-based)

A parameter whose schema says nothing takes its line from there, so the value providers
read "list" as an option of ``operation`` as they would from the schema.
"""

from __future__ import annotations

import functools
import re

from toolscore.lazy_pattern import lazy_pattern

__all__ = ["documented_arguments"]

_SECTION = lazy_pattern(
    r"^[ \t]*(?:args|arguments|parameters|params|inputs?)[ \t]*:[ \t]*$", re.I | re.M
)
#: ``name: text``, ``name (int): text``, ``- name: text``, ``name -- text``.
_ENTRY = lazy_pattern(r"^[-*]?\s*`?(\w+)`?\s*(?:\([^)\n]{0,60}\))?\s*(?::|--|-)\s*(.*)$")
#: The next section of a docstring ("Returns:", "Raises:", "Example:").
_NEXT_SECTION = lazy_pattern(r"^[A-Z][\w ]{0,30}:\s*$")
_MAX_CHARS = 20_000


def documented_arguments(description: str) -> dict[str, str]:
    """Parameter name -> the text its ``Args:`` entry gives (continuation lines joined)."""
    if not description or len(description) > _MAX_CHARS:
        return {}
    return dict(_parse(description))


@functools.lru_cache(maxsize=256)
def _parse(description: str) -> tuple[tuple[str, str], ...]:
    section = _SECTION.search(description)
    if section is None:
        return ()
    entries: dict[str, list[str]] = {}
    current: str | None = None
    indent: int | None = None
    for line in description[section.end() :].splitlines():
        if not line.strip():
            continue
        stripped = line.strip()
        width = len(line) - len(line.lstrip())
        if indent is None:
            indent = width
        if width < indent or (width == indent and _NEXT_SECTION.match(stripped)):
            break
        entry = _ENTRY.match(stripped) if width == indent else None
        if entry is not None:
            current = entry.group(1)
            entries[current] = [entry.group(2).strip()]
        elif current is not None:
            entries[current].append(stripped)
    return tuple(
        (name, " ".join(part for part in parts if part)) for name, parts in entries.items()
    )
