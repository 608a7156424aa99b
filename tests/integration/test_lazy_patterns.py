"""Patterns compiled on first use behave as compiled ones, and every one in the tree compiles.

``toolscore.lazy_pattern`` moves a bad expression's error from import time to first use, so
this test uses every module-level pattern of the installed first-party packages once.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest
from toolscore.lazy_pattern import lazy_pattern

PACKAGES = ("toolscore", "toolscore_mcp", "toolscore_example_values")


def test_a_lazy_pattern_answers_as_the_compiled_pattern() -> None:
    lazy = lazy_pattern(r"(?P<word>b\w+)", re.IGNORECASE)
    compiled = re.compile(r"(?P<word>b\w+)", re.IGNORECASE)
    text = "Alpha BETA gamma beta"
    assert lazy.search(text).group("word") == compiled.search(text).group("word")  # type: ignore[union-attr]
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert lazy.sub("x", text) == compiled.sub("x", text)
    assert lazy.pattern == compiled.pattern
    assert lazy.flags == compiled.flags


def test_a_bad_expression_fails_at_first_use() -> None:
    bad = lazy_pattern("(unclosed")
    with pytest.raises(re.error):
        bad.search("x")


def _modules(package_name: str) -> list[str]:
    try:
        package = importlib.import_module(package_name)
    except ImportError:
        return []
    names = [package_name]
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{package_name}."):
        if ".__main__" in info.name or info.name.endswith(".sample_server"):
            continue
        names.append(info.name)
    return names


def test_every_module_level_lazy_pattern_compiles() -> None:
    checked = 0
    for package_name in PACKAGES:
        for name in _modules(package_name):
            try:
                module = importlib.import_module(name)
            except ImportError:
                continue  # an optional dependency is missing: nothing of it runs either
            for value in list(vars(module).values()):
                if type(value).__name__ == "_CompiledOnUse":
                    value.search("")  # compiles it
                    checked += 1
    assert checked > 50
