"""End to end: ``toolscore mcp test`` against a real MCP server over stdio."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

SERVER = Path(__file__).with_name("quote_server.py")
KNOWN_TICKERS = {"AAPL", "MSFT", "GOOGL", "AMZN", "NVDA"}


def _scorecard(tmp_path: Path, env: dict[str, str] | None = None) -> dict[str, Any]:
    card = tmp_path / "card.json"
    command = shlex.join([sys.executable, str(SERVER)])
    proc = subprocess.run(
        [str(Path(sys.executable).parent / "toolscore"), "mcp", "test", command, "-o", str(card)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, **(env or {})},
        timeout=180,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    document: dict[str, Any] = json.loads(card.read_text(encoding="utf-8"))
    return document


def _happy(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in document["results"] if r["tool"] == "get_quote" and r["kind"] == "happy"]


def test_happy_paths_pass_with_finance_values(tmp_path: Path) -> None:
    happy = _happy(_scorecard(tmp_path))
    assert happy
    for result in happy:
        assert result["verdict"] == "pass", result
        assert result["evidence"] == {"symbol": "finance"}
        assert result["arguments"]["symbol"] in KNOWN_TICKERS
    assert len({r["arguments"]["symbol"] for r in happy}) == len(happy)


def test_without_the_plugin_the_symbol_is_a_guess(tmp_path: Path) -> None:
    # Only toolscore-mcp loaded: the built-in providers have nothing better than a generated
    # string, which the server rejects.
    document = _scorecard(tmp_path, {"TOOLSCORE_LOAD_PLUGINS": "toolscore-mcp"})
    happy = _happy(document)
    assert happy
    assert all(r["evidence"].get("symbol") != "finance" for r in happy)
    assert not any(
        r["verdict"] == "pass" and r["arguments"].get("symbol") in KNOWN_TICKERS for r in happy
    )
