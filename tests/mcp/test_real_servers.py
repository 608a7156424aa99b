"""Real third-party servers, live (nox -s mcp_real installs them; skipped when absent).

Install the corpus outside the workspace venv and point MCP_REAL_BIN at what it prints::

    export MCP_REAL_BIN=$(uv run python tests/mcp/real/install.py /tmp/mcp-real | tail -1)
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from mcp_support import FIXTURES, run_cli

pytestmark = pytest.mark.realservers

SEARCH_PATH = os.environ.get(
    "MCP_REAL_BIN", "/tmp/mcp-real-venv/bin:/tmp/mcp-real-npm/node_modules/.bin"
)
SERVERS = {
    "mcp-server-time": "mcp-server-time",
    "mcp-server-fetch": "mcp-server-fetch",
    "server-everything": "mcp-server-everything",
}


def _binary(name: str) -> str:
    found = shutil.which(SERVERS[name], path=SEARCH_PATH) or shutil.which(SERVERS[name])
    if found is None:
        pytest.skip(f"{SERVERS[name]} is not installed (see nox -s mcp-real)")
    return found


@pytest.mark.parametrize("name", sorted(SERVERS))
def test_live_tool_list_matches_the_saved_fixture_and_lints_clean(name: str) -> None:
    binary = _binary(name)
    listed = run_cli("mcp", "list", binary, "--json", timeout=120)
    assert listed.returncode == 0, listed.stderr
    live = json.loads(listed.stdout)
    saved = json.loads((FIXTURES / f"{name}.tools.json").read_text())
    assert [t["name"] for t in live["tools"]] == [t["name"] for t in saved["tools"]]
    linted = run_cli("mcp", "lint", binary, "--json", timeout=120)
    issues = json.loads(linted.stdout)["issues"]
    assert [[i["tool"], i["severity"], i["message"]] for i in issues] == saved["expected_lint"]


@pytest.mark.parametrize("name", ["mcp-server-time", "server-everything"])
def test_live_scorecard_has_no_failures_on_valid_input(name: str, tmp_path: Path) -> None:
    binary = _binary(name)
    report = tmp_path / "card.json"
    done = run_cli(
        "mcp", "test", binary, "--report", "json", "-o", str(report), "--timeout", "20", timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    card = json.loads(report.read_text())
    # gzip-file-as-resource downloads a file from the internet by default; tests run offline.
    happy_failures = [
        r["tool"]
        for r in card["results"]
        if r["kind"] == "happy" and r["verdict"] == "fail" and r["tool"] != "gzip-file-as-resource"
    ]
    assert happy_failures == []
