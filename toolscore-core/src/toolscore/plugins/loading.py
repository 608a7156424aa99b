"""Entry-point discovery: one scan per process and group, filtered before anything is imported.

Why not ``importlib.metadata.entry_points()``: importing ``importlib.metadata`` pulls in the
``email`` package (about 35 ms, a fifth of ``toolscore --help``) to parse metadata that plugin
discovery never needs. Installed distributions are ``<name>-<version>.dist-info`` folders (or
``.egg-info``) on ``sys.path`` holding a plain ``entry_points.txt``; reading those directly is
what the stdlib does underneath. A ``sys.path`` entry that is not a folder (a zip archive)
makes the scan fall back to ``importlib.metadata``, which understands every layout.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Iterator
from functools import cache

import attrs

ENTRY_POINT_GROUP = "toolscore"

_EXTRAS = re.compile(r"\[.*\]\s*$")


def canonical_name(name: str) -> str:
    """PEP 503 normalisation, so ``Toolscore_MCP`` and ``toolscore-mcp`` compare equal."""
    return re.sub(r"[-_.]+", "-", name).lower()


@attrs.frozen
class PluginEntryPoint:
    """One ``[toolscore]`` entry point and the distribution that declares it."""

    name: str
    #: ``module`` or ``module:attribute``.
    value: str
    group: str
    distribution: str
    version: str

    def load(self) -> object:
        """Import the module (and attribute) the entry point names."""
        module_name, _, attribute = _EXTRAS.sub("", self.value).partition(":")
        loaded: object = importlib.import_module(module_name.strip())
        for part in filter(None, attribute.strip().split(".")):
            loaded = getattr(loaded, part)
        return loaded


@cache
def scan_entry_points(group: str = ENTRY_POINT_GROUP) -> tuple[PluginEntryPoint, ...]:
    """All entry points of ``group``, sorted by (distribution, name). Scanned once per process.

    A distribution found twice on ``sys.path`` counts once, the first found (as imports do).
    """
    if any(entry and os.path.isfile(entry) for entry in sys.path):
        found = list(_scan_with_importlib_metadata(group))
    else:
        found = [
            ep
            for info, name, version in _distributions()
            for ep in _read(info, group, name, version)
        ]
    unique: dict[tuple[str, str], PluginEntryPoint] = {}
    for ep in sorted(found, key=lambda e: (canonical_name(e.distribution), e.name)):
        unique.setdefault((canonical_name(ep.distribution), ep.name), ep)
    return tuple(unique.values())


def _distributions() -> Iterator[tuple[str, str, str]]:
    """``(metadata folder, name, version)`` of each distribution on ``sys.path``, first wins."""
    seen: set[str] = set()
    for entry in sys.path:
        folder = entry or os.curdir
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            if not name.endswith((".dist-info", ".egg-info")):
                continue
            info = os.path.join(folder, name)
            dist, version = _name_and_version(info)
            if dist and canonical_name(dist) not in seen:
                seen.add(canonical_name(dist))
                yield info, dist, version


def _name_and_version(info: str) -> tuple[str, str]:
    """``Name`` and ``Version`` from the metadata headers (they come first; no parser needed)."""
    fields: dict[str, str] = {}
    for filename in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(info, filename), encoding="utf-8", errors="replace") as handle:
                for line in handle:
                    if not line.strip():
                        break
                    key, sep, value = line.partition(":")
                    if sep and key in ("Name", "Version"):
                        fields.setdefault(key, value.strip())
        except OSError:
            continue
        break
    return fields.get("Name", ""), fields.get("Version", "")


def _read(info: str, group: str, dist: str, version: str) -> Iterator[PluginEntryPoint]:
    """The entry points of ``group`` in one ``entry_points.txt`` (an INI file)."""
    try:
        with open(os.path.join(info, "entry_points.txt"), encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return
    section = None
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == group and "=" in line:
            name, _, value = line.partition("=")
            yield PluginEntryPoint(name.strip(), value.strip(), group, dist, version)


def _scan_with_importlib_metadata(group: str) -> Iterator[PluginEntryPoint]:
    from importlib.metadata import entry_points

    for ep in entry_points(group=group):
        dist = ep.dist
        yield PluginEntryPoint(
            ep.name, ep.value, group, dist.name if dist else "", dist.version if dist else ""
        )


def allow_list_from_env() -> frozenset[str] | None:
    """``TOOLSCORE_LOAD_PLUGINS``: unset means all, ``""`` means none, ``a,b`` allows those."""
    raw = os.environ.get("TOOLSCORE_LOAD_PLUGINS")
    if raw is None:
        return None
    return frozenset(canonical_name(p.strip()) for p in raw.split(",") if p.strip())


def env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no", "off")
