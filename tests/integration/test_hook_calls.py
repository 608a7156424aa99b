"""Every hook call goes through the plugin host, never through ``pm.hook.<name>(...)`` directly.

The host (``toolscore/plugins/`` in toolscore-core) calls each implementation one plugin at a
time (``ToolscorePluginManager.call_each`` and the registry getters), so a failing plugin is
recorded and named instead of taking the command down. A direct ``pm.hook.<name>(...)`` call
anywhere else skips that isolation; this test lists every such line in the shipped source
trees (the first-party distributions and the plugins in this repo).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Every shipped source tree.
SOURCE_TREES = sorted([*ROOT.glob("*/src"), *ROOT.glob("plugins/*/src")])
#: The host: the only place allowed to touch ``.hook.`` directly.
HOST = ROOT / "toolscore-core" / "src" / "toolscore" / "plugins"
DIRECT_HOOK = re.compile(r"\.hook\b")


def direct_hook_calls(path: Path) -> list[str]:
    """``file:line: text`` of each line of ``path`` that uses ``.hook.`` (comments excluded)."""
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        code = line.split("#", 1)[0]
        if DIRECT_HOOK.search(code):
            found.append(f"{path}:{number}: {line.strip()}")
    return found


def offenders(trees: list[Path], host: Path) -> list[str]:
    """Direct hook uses in ``trees`` outside ``host``."""
    found: list[str] = []
    for tree in trees:
        for path in sorted(tree.rglob("*.py")):
            if path.is_relative_to(host):
                continue
            found.extend(direct_hook_calls(path))
    return found


def test_the_source_trees_are_found() -> None:
    names = {tree.parent.name for tree in SOURCE_TREES}
    assert {"toolscore-core", "toolscore-providers", "toolscore-mcp"} <= names
    assert HOST.is_dir()


def test_no_hook_is_called_around_the_host() -> None:
    found = offenders(SOURCE_TREES, HOST)
    assert not found, "call hooks through the plugin host (call_each):\n" + "\n".join(found)


def test_the_guard_catches_a_direct_call(tmp_path: Path) -> None:
    src = tmp_path / "pkg" / "src"
    (src / "pkg").mkdir(parents=True)
    (src / "pkg" / "bad.py").write_text(
        "def run(pm):\n    # pm.hook.in_a_comment() is fine\n    return pm.hook.toolscore_x()\n",
        encoding="utf-8",
    )
    host = tmp_path / "host"
    host.mkdir()
    (host / "manager.py").write_text("pm.hook.toolscore_x()\n", encoding="utf-8")
    found = offenders([src, host], host)
    assert len(found) == 1
    assert found[0].endswith("bad.py:3: return pm.hook.toolscore_x()")
