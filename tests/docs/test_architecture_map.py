"""docs/architecture.md names only paths and modules that exist, so the map cannot go stale.

Checked: every file or folder of its layout blocks (a code block whose first line is a folder,
``toolscore-mcp/src/toolscore_mcp/``, with one entry a line, nested by indentation); every
path in backticks (``cli/test.py``, ``tests/docs/``), relative to the repository or to the
layout block of its section; every ``toolscore.x.y`` or ``toolscore_<dist>.x`` name in
backticks, which must import (a module, then attributes). Every distribution has a layout block.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
TEXT = DOC.read_text(encoding="utf-8")
CORE = "toolscore-core/src/toolscore/"

BLOCK = re.compile(r"^```\n(.*?)^```", re.S | re.M)
ROOT_LINE = re.compile(r"^([\w.-]+(?:/[\w.-]+)*/)(?:\s|$)")
NAME = re.compile(r"^[\w.-]+(?:/[\w.-]+)*(?:\.py|/)$")
SPAN = re.compile(r"`([^`\n]+)`")
DOTTED = re.compile(r"^toolscore(?:_\w+)?(?:\.\w+)+(?::\w+)?$")


def sections() -> list[tuple[str, str]]:
    """``(heading, text)`` of each ``##`` section (the text before the first: heading "")."""
    parts = re.split(r"^## (.+)$", TEXT, flags=re.M)
    return [("", parts[0]), *zip(parts[1::2], parts[2::2], strict=True)]


def layout_entries(block: str) -> tuple[str, list[str]] | None:
    """The root folder of a layout block and every path its entries name, or None."""
    lines = block.splitlines()
    first = ROOT_LINE.match(lines[0]) if lines else None
    if first is None:
        return None
    root = first.group(1)
    stack: list[tuple[int, str]] = [(-1, root)]
    paths: list[str] = []
    for line in lines[1:]:
        indent = len(line) - len(line.lstrip())
        names = []
        for token in re.split(r"[,\s]+", line.strip()):
            if not NAME.match(token):
                break
            names.append(token)
        if not names:
            continue  # a description's continuation line
        while stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1]
        for name in names:
            paths.append(parent + name)
        if names[-1].endswith("/"):
            stack.append((indent, parent + names[-1]))
    return root, paths


LAYOUTS = [
    (heading, found)
    for heading, text in sections()
    for block in BLOCK.findall(text)
    if (found := layout_entries(block)) is not None
]


def section_bases() -> dict[str, str]:
    """Each section's base folder for short paths: its layout block's root, else core's."""
    bases = dict.fromkeys((heading for heading, _ in sections()), CORE)
    for heading, (root, _) in LAYOUTS:
        if bases[heading] == CORE:
            bases[heading] = root
    bases["Layout"] = CORE
    return bases


def spans() -> list[tuple[str, str]]:
    return [
        (heading, span)
        for heading, text in sections()
        for span in SPAN.findall(BLOCK.sub("", text))
    ]


def test_every_distribution_has_a_layout_block() -> None:
    roots = {root for _, (root, _) in LAYOUTS}
    packages = {
        f"{package.relative_to(ROOT).as_posix()}/"
        for package in ROOT.glob("toolscore-*/src/*")
        if package.is_dir() and not package.name.endswith(".egg-info")
    }
    assert packages | {"plugins/"} <= roots


def test_every_layout_entry_exists() -> None:
    entries = [path for _, (_, paths) in LAYOUTS for path in paths]
    assert len(entries) > 100
    assert [path for path in entries if not (ROOT / path).exists()] == []
    plugins = {path for _, (root, paths) in LAYOUTS if root == "plugins/" for path in paths}
    on_disk = {f"plugins/{p.name}/" for p in ROOT.glob("plugins/*") if p.is_dir()}
    assert plugins == on_disk


def test_every_path_in_backticks_exists() -> None:
    bases = section_bases()
    named = [
        (heading, span)
        for heading, span in spans()
        if NAME.match(span) and ("/" in span or span.endswith(".py"))
    ]
    assert len(named) > 40
    missing = [
        (heading, span)
        for heading, span in named
        if not (ROOT / span).exists() and not (ROOT / bases[heading] / span).exists()
    ]
    assert missing == []


def _resolve(name: str) -> object:
    name = name.replace(":", ".")
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            value = getattr(value, attribute)
        return value
    raise ModuleNotFoundError(name)


DOTTED_NAMES = sorted({span for _, span in spans() if DOTTED.match(span)})


def test_the_map_names_modules() -> None:
    assert len(DOTTED_NAMES) > 20


@pytest.mark.parametrize("name", DOTTED_NAMES)
def test_every_named_module_imports(name: str) -> None:
    assert _resolve(name) is not None
