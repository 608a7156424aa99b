"""A server that says on stderr that a credential is missing: the report passes that on.

Offline, such a server's calls fail on the network before they could fail on the key, so the
tool results alone say "needs network"; the stderr line tells the reader the key is needed too.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from mcp_support import run_cli
from toolscore_mcp.grading.classify import missing_credential_line

SERVER = Path(__file__).parent / "servers" / "keyless_server.py"


@pytest.mark.parametrize("mode", ["keyless", "keyed"])
def test_the_report_quotes_a_missing_credential_from_stderr(tmp_path: Path, mode: str) -> None:
    report = tmp_path / "report.json"
    done = run_cli("mcp", "test", f"{sys.executable} {SERVER} {mode}", "-o", str(report))
    assert done.returncode == 0, done.stderr
    card = json.loads(report.read_text(encoding="utf-8"))
    assert card["coverage"]["line"] == "verified 0 of 1 tools; 1 need network"
    notes = [note for note in card["notes"] if "credential" in note]
    if mode == "keyless":
        assert notes == [
            "the server's stderr says a credential is missing: "
            "[search] no SEARCH_API_KEY set; running in keyless mode."
        ]
    else:
        assert notes == []


@pytest.mark.parametrize(
    ("stderr", "line"),
    [
        ("starting\nWARNING: OPENAI_API_KEY not set\n", "WARNING: OPENAI_API_KEY not set"),
        ("Error: missing API key. Set MAPS_TOKEN.\n", "Error: missing API key. Set MAPS_TOKEN."),
        (
            "GITHUB_TOKEN is required for private repositories\n",
            "GITHUB_TOKEN is required for private repositories",
        ),
        ("API key loaded from SEARCH_API_KEY\nserver running\n", ""),
        ("no cache folder set\nlistening\n", ""),
        ("", ""),
    ],
)
def test_missing_credential_lines(stderr: str, line: str) -> None:
    assert missing_credential_line(stderr) == line
