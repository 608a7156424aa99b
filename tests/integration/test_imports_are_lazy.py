"""`import toolscore`, `evaluate()` and `toolscore --help` stay light: no plugin's heavy deps."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = (
    "mcp",
    "anyio",
    "httpx",
    "openai",
    "anthropic",
    "google.genai",
    "langchain_core",
    "pydantic_ai",
)


def modules_after(code: str) -> set[str]:
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_import_toolscore_imports_no_ui_or_plugin_dependencies() -> None:
    loaded = modules_after("import toolscore")
    for name in ("rich", "click", "cattrs", *HEAVY):
        assert name not in loaded, f"import toolscore imported {name}"
    assert not any(m.startswith("toolscore_") for m in loaded)


def test_evaluate_imports_no_ui_or_heavy_dependencies() -> None:
    loaded = modules_after(
        "import toolscore\n"
        "r = toolscore.evaluate([{'tool': 'a', 'args': {'x': 1}}], [{'tool': 'a', 'args': {'x': 1}}])\n"
        "assert r.score == 1.0"
    )
    for name in ("rich", "click", *HEAVY):
        assert name not in loaded, f"evaluate() imported {name}"


def test_help_does_not_import_heavy_plugin_dependencies() -> None:
    loaded = modules_after(
        "import sys\nfrom toolscore.cli import cli\n"
        "try:\n    cli.main(['--help'], standalone_mode=False)\nexcept SystemExit:\n    pass"
    )
    for name in HEAVY:
        assert name not in loaded, f"toolscore --help imported {name}"
