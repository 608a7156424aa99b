"""Entry-point discovery: one scan per process and group, filtered before anything is imported."""

from __future__ import annotations

import os
import re
from functools import cache
from importlib.metadata import EntryPoint, entry_points

ENTRY_POINT_GROUP = "toolscore"


def canonical_name(name: str) -> str:
    """PEP 503 normalisation, so ``Toolscore_MCP`` and ``toolscore-mcp`` compare equal."""
    return re.sub(r"[-_.]+", "-", name).lower()


@cache
def scan_entry_points(group: str = ENTRY_POINT_GROUP) -> tuple[EntryPoint, ...]:
    """All entry points of ``group``, sorted by (distribution, name). Scanned once per process."""
    found = entry_points(group=group)

    def key(ep: EntryPoint) -> tuple[str, str]:
        dist = ep.dist.name if ep.dist is not None else ""
        return (canonical_name(dist), ep.name)

    unique: dict[tuple[str, str], EntryPoint] = {}
    for ep in sorted(found, key=key):
        unique.setdefault(key(ep), ep)
    return tuple(unique.values())


def allow_list_from_env() -> frozenset[str] | None:
    """``TOOLSCORE_LOAD_PLUGINS``: unset means all, ``""`` means none, ``a,b`` allows those."""
    raw = os.environ.get("TOOLSCORE_LOAD_PLUGINS")
    if raw is None:
        return None
    return frozenset(canonical_name(p.strip()) for p in raw.split(",") if p.strip())


def env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no", "off")
