"""Entry-point discovery: one scan per process and group, filtered before anything is imported.

Why not ``importlib.metadata.entry_points()``: importing ``importlib.metadata`` pulls in the
``email`` package (about 35 ms, a fifth of ``toolscore --help``) to parse metadata that plugin
discovery never needs. Installed distributions are ``<name>-<version>.dist-info`` folders (or
``.egg-info``) on ``sys.path`` holding a plain ``entry_points.txt``; reading those directly is
what the stdlib does underneath. A ``sys.path`` entry that is not a folder (a zip archive)
makes the scan fall back to ``importlib.metadata``, which understands every layout.

A malformed distribution (bytes that are not UTF-8 in ``entry_points.txt`` or ``METADATA``, a
``METADATA`` without a ``Name``) that may declare plugins of the group is not allowed to break
the scan: it is skipped and reported as a :class:`BrokenDistribution` naming it, so that
``toolscore plugins list`` shows it as failed instead of every command dying on a decode error.

The value types are ``NamedTuple``s, not attrs classes: ``toolscore --help`` scans entry points
to list plugin commands and imports neither attrs nor pluggy (about 15 ms together).
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from collections.abc import Iterator
from functools import cache
from typing import Literal, NamedTuple

ENTRY_POINT_GROUP = "toolscore"

_EXTRAS = re.compile(r"\[.*\]\s*$")


def canonical_name(name: str) -> str:
    """PEP 503 normalisation, so ``Toolscore_MCP`` and ``toolscore-mcp`` compare equal."""
    return re.sub(r"[-_.]+", "-", name).lower()


class PluginEntryPoint(NamedTuple):
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


class BrokenDistribution(NamedTuple):
    """An installed distribution whose metadata cannot be read; its plugins are skipped."""

    #: ``Name`` from METADATA when readable, else the name in the metadata folder's name.
    distribution: str
    version: str
    #: The metadata folder (``.../name-1.0.dist-info``).
    location: str
    #: One line: which file is broken and why.
    error: str


class EntryPointScan(NamedTuple):
    """What one scan of ``sys.path`` found for a group."""

    entry_points: tuple[PluginEntryPoint, ...]
    broken: tuple[BrokenDistribution, ...] = ()


class _Malformed(ValueError):
    """A metadata file that cannot be read; the message names the file."""


def scan_entry_points(group: str = ENTRY_POINT_GROUP) -> tuple[PluginEntryPoint, ...]:
    """All entry points of ``group``, sorted by (distribution, name). Scanned once per process.

    A distribution found twice on ``sys.path`` counts once, the first found (as imports do).
    """
    return scan_group(group).entry_points


@cache
def scan_group(group: str = ENTRY_POINT_GROUP) -> EntryPointScan:
    """Entry points of ``group`` and the broken distributions that may declare some; cached."""
    broken: list[BrokenDistribution] = []
    if any(entry and os.path.isfile(entry) for entry in sys.path):
        found = list(_scan_with_importlib_metadata(group, broken))
    else:
        found = []
        for info, name, version in _distributions(group, broken):
            try:
                found.extend(_read(info, group, name, version))
            except _Malformed as exc:
                broken.append(BrokenDistribution(name, version, info, str(exc)))
    unique: dict[tuple[str, str], PluginEntryPoint] = {}
    for ep in sorted(found, key=lambda e: (canonical_name(e.distribution), e.name)):
        unique.setdefault((canonical_name(ep.distribution), ep.name), ep)
    ordered = sorted(broken, key=lambda b: (canonical_name(b.distribution), b.location))
    return EntryPointScan(tuple(unique.values()), tuple(ordered))


def _distributions(group: str, broken: list[BrokenDistribution]) -> Iterator[tuple[str, str, str]]:
    """``(metadata folder, name, version)`` of each distribution on ``sys.path`` that may
    declare entry points of ``group``; of two folders of one distribution, the first wins.

    Only those distributions' METADATA is read: it can run to hundreds of kilobytes (a long
    README), and an environment holds a hundred distributions, few of them plugins. One whose
    METADATA cannot be read goes to ``broken``.
    """
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
            folder_name, folder_version = _folder_name_and_version(name)
            if canonical_name(folder_name) in seen:
                continue
            seen.add(canonical_name(folder_name))
            info = os.path.join(folder, name)
            if not _may_declare(info, group):
                continue
            try:
                dist, version = _name_and_version(info)
            except _Malformed as exc:
                broken.append(BrokenDistribution(folder_name, folder_version, info, str(exc)))
                continue
            if dist:
                yield info, dist, version


def _folder_name_and_version(folder: str) -> tuple[str, str]:
    """``("name", "1.0")`` from ``name-1.0.dist-info``: how to name a distribution we cannot read."""
    stem = folder.rsplit(".", 1)[0]
    name, _, version = stem.partition("-")
    return name, version.partition("-")[0]


def _read_text(path: str) -> str:
    """A metadata file's text; undecodable bytes are an error naming the file and offset."""
    with open(path, "rb") as handle:
        raw = handle.read()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Malformed(
            f"{os.path.basename(path)} is not UTF-8 (byte 0x{raw[exc.start]:02x} at offset "
            f"{exc.start})"
        ) from None


def _read_headers(path: str) -> str:
    """The header block of a metadata file (up to its first blank line), read in chunks."""
    chunks: list[bytes] = []
    with open(path, "rb") as handle:
        while chunk := handle.read(8192):
            chunks.append(chunk)
            if b"\n\n" in chunk or b"\r\n\r\n" in chunk:
                break
    raw = b"".join(chunks)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start >= len(raw) - 4:  # a character cut at the chunk's end
            return raw[: exc.start].decode("utf-8", "replace")
        raise _Malformed(
            f"{os.path.basename(path)} is not UTF-8 (byte 0x{raw[exc.start]:02x} at offset "
            f"{exc.start})"
        ) from None


def _name_and_version(info: str) -> tuple[str, str]:
    """``Name`` and ``Version`` from the metadata headers (they come first; no parser needed).

    :raises _Malformed: METADATA is not UTF-8 or has no ``Name``.
    """
    for filename in ("METADATA", "PKG-INFO"):
        try:
            text = _read_headers(os.path.join(info, filename))
        except OSError:
            continue
        fields: dict[str, str] = {}
        for line in text.splitlines():
            if not line.strip():
                break
            key, sep, value = line.partition(":")
            if sep and key in ("Name", "Version"):
                fields.setdefault(key, value.strip())
        if not fields.get("Name"):
            raise _Malformed(f"{filename} has no Name header")
        return fields["Name"], fields.get("Version", "")
    return "", ""


def _may_declare(info: str, group: str) -> bool:
    """Whether ``info``'s ``entry_points.txt`` mentions a ``[group]`` section, read leniently."""
    try:
        with open(os.path.join(info, "entry_points.txt"), "rb") as handle:
            text = handle.read().decode("utf-8", "replace")
    except OSError:
        return False
    return any(line.strip() == f"[{group}]" for line in text.splitlines())


def _read(info: str, group: str, dist: str, version: str) -> list[PluginEntryPoint]:
    """The entry points of ``group`` in one ``entry_points.txt`` (an INI file).

    :raises _Malformed: the file is not UTF-8 and may declare entry points of ``group``.
    """
    try:
        text = _read_text(os.path.join(info, "entry_points.txt"))
    except OSError:
        return []
    except _Malformed:
        if _may_declare(info, group):
            raise
        return []
    found: list[PluginEntryPoint] = []
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == group and "=" in line:
            name, _, value = line.partition("=")
            found.append(PluginEntryPoint(name.strip(), value.strip(), group, dist, version))
    return found


def _scan_with_importlib_metadata(
    group: str, broken: list[BrokenDistribution]
) -> Iterator[PluginEntryPoint]:
    """The slow path (zip archives on ``sys.path``): one distribution at a time, so that one
    unreadable distribution is reported instead of failing the whole scan."""
    from importlib.metadata import distributions

    for dist in distributions():
        try:
            for ep in dist.entry_points.select(group=group):
                yield PluginEntryPoint(ep.name, ep.value, group, dist.name, dist.version)
        except Exception as exc:
            location = str(getattr(dist, "_path", ""))
            if os.path.isdir(location) and not _may_declare(location, group):
                continue
            name, version = _folder_name_and_version(os.path.basename(location))
            broken.append(
                BrokenDistribution(name, version, location, f"{type(exc).__name__}: {exc}")
            )


def allow_list_from_env() -> frozenset[str] | None:
    """``TOOLSCORE_LOAD_PLUGINS``: unset means all, ``""`` means none, ``a,b`` allows those."""
    raw = os.environ.get("TOOLSCORE_LOAD_PLUGINS")
    if raw is None:
        return None
    return frozenset(canonical_name(p.strip()) for p in raw.split(",") if p.strip())


#: What the user's choice of plugins makes of one: load it, list it as disabled, or ignore it.
Selection = Literal["load", "blocked", "skipped"]


def selection(
    name: str, distribution: str, *, allow: frozenset[str] | None, blocked: frozenset[str]
) -> Selection:
    """Whether to load the plugin ``name`` of ``distribution``, decided before it is imported.

    ``allow`` holds canonical distribution names (``None`` = every one; not allowed means
    ignored, as if not installed); ``blocked`` holds canonical entry-point or distribution
    names (``--disable-plugin``: listed as disabled). The plugin manager and ``toolscore
    --help``'s command listing decide through this one function, so they cannot disagree.
    """
    if allow is not None and canonical_name(distribution) not in allow:
        return "skipped"
    if canonical_name(name) in blocked or canonical_name(distribution) in blocked:
        return "blocked"
    return "load"


def env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no", "off")
