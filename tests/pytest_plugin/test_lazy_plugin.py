"""A pytest session that uses none of toolscore does not import it (startup stays cheap)."""

from __future__ import annotations

import json

import pytest

CONFTEST = """
import json, sys
from pathlib import Path

def pytest_unconfigure(config):
    Path(str(config.rootpath), "modules.json").write_text(json.dumps(sorted(sys.modules)))
"""


def test_plugin_is_active_but_toolscore_is_not_imported(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile("def test_plain():\n    assert True\n")
    result = pytester.runpytest_subprocess("-p", "no:hypothesispytest", "--toolscore-update")
    result.assert_outcomes(passed=1)
    modules = set(json.loads((pytester.path / "modules.json").read_text(encoding="utf-8")))
    assert "toolscore_pytest.plugin" in modules  # the option above was accepted: plugin active
    assert "toolscore_pytest.state" not in modules
    assert not [m for m in modules if m == "toolscore" or m.startswith("toolscore.")]
    assert not {"rich", "click", "attrs"} & modules
