"""Every hook has a section in docs/plugins/hooks.md with its exact signature and options."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "plugins" / "hooks.md"

HOOKSPEC_MODULES = ("toolscore.hookspecs", "toolscore_mcp.hookspecs")


def _modules() -> Iterator[ModuleType]:
    for name in HOOKSPEC_MODULES:
        try:
            yield importlib.import_module(name)
        except ImportError:
            if name == "toolscore.hookspecs":
                raise


def _hookspecs() -> list[tuple[str, Callable[..., Any]]]:
    found = []
    for module in _modules():
        for name, value in vars(module).items():
            if name.startswith("toolscore_") and hasattr(value, "toolscore_spec"):
                found.append((name, value))
    return found


def signature_line(name: str, function: Callable[..., Any]) -> str:
    """``def name(arg: Type, ...) -> Return`` as the annotations spell it."""
    sig = inspect.signature(function)
    params = ", ".join(f"{p.name}: {p.annotation}" for p in sig.parameters.values())
    return f"def {name}({params}) -> {sig.return_annotation}"


def _sections() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^## (\S+)\s*$", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


HOOKS = _hookspecs()


def test_core_hooks_are_found() -> None:
    names = {name for name, _ in HOOKS}
    assert {
        "toolscore_register_metrics",
        "toolscore_detect_format",
        "toolscore_add_hookspecs",
    } <= names


@pytest.mark.parametrize(("name", "function"), HOOKS, ids=[name for name, _ in HOOKS])
def test_hook_has_a_section_with_its_signature(name: str, function: Callable[..., Any]) -> None:
    sections = _sections()
    assert name in sections, f"docs/plugins/hooks.md has no '## {name}' section"
    body = sections[name]
    assert signature_line(name, function) in body, (
        f"the {name} section must show `{signature_line(name, function)}`"
    )
    options = function.toolscore_spec  # type: ignore[attr-defined]
    for flag in ("firstresult", "historic"):
        if options.get(flag):
            assert f"`{flag}`" in body, f"{name} is {flag}; say so in its section"
    assert "@toolscore.hookimpl" in body, f"the {name} section needs an example"


def test_no_section_for_a_hook_that_does_not_exist() -> None:
    names = {name for name, _ in HOOKS}
    documented = {s for s in _sections() if s.startswith("toolscore_")}
    missing_module = [
        m for m in HOOKSPEC_MODULES if importlib.util.find_spec(m.split(".")[0]) is None
    ]
    if not missing_module:
        assert documented <= names, documented - names
