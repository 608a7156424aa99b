"""Broken servers keep bad grades: the evidence-based verdicts must not excuse real defects.

Making the scorecard fair to working servers (inconclusive results, repairs, environment
needs) must not let a broken one through. Each server here is run the way a user runs it,
``toolscore mcp test --ci`` in a subprocess, and must come out with a bad grade, a failing
exit code and every broken tool marked as a defect:

* the crashing, hanging and junk-printing server (misbehaving_server.py);
* a server whose tools all report their errors as success (broken_server.py --mode=liar);
* a server that refuses valid input, with no reason or blaming values its schema vouches for
  (broken_server.py --mode=refuser).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcp_support import run_cli, server_cmd

BAD_GRADES = ("D", "F")


def scorecard(tmp_path: Path, *command: str, timeout: str = "5") -> tuple[int, dict[str, Any]]:
    """Run ``mcp test --ci`` on a server; return the exit code and the JSON report."""
    report = tmp_path / "report.json"
    done = run_cli(
        "mcp", "test", "--ci", "--timeout", timeout, "--report", "json", "-o", str(report),
        "--", *command, timeout=240,
    )  # fmt: skip
    assert report.is_file(), done.stdout + done.stderr
    return done.returncode, json.loads(report.read_text())


def statuses(report: dict[str, Any]) -> dict[str, str]:
    return {row["tool"]: row["status"] for row in report["coverage"]["tools"]}


def test_crashing_hanging_and_lying_server_keeps_a_bad_grade(tmp_path: Path) -> None:
    code, report = scorecard(tmp_path, *server_cmd("misbehaving_server.py"), timeout="2")
    assert code == 1
    assert report["grade"] in BAD_GRADES
    status = statuses(report)
    for broken in ("fail", "crash", "hang", "lies", "structured"):
        assert status[broken] == "defect", broken
    for working in ("echo", "slow", "noisy"):
        assert status[working] == "works", working


def test_server_reporting_errors_as_success_keeps_a_bad_grade(tmp_path: Path) -> None:
    code, report = scorecard(tmp_path, *server_cmd("broken_server.py", "--mode=liar"))
    assert code == 1
    assert report["grade"] in BAD_GRADES
    assert set(statuses(report).values()) == {"defect"}
    happy = [r for r in report["results"] if r["kind"] == "happy"]
    assert happy
    assert all(r["finding"] == "error-as-success" for r in happy)
    # Bad input answered with a lie is no resilience either.
    assert report["scores"]["edge_resilience_rate"] == 0.0


def test_server_refusing_valid_input_keeps_a_bad_grade(tmp_path: Path) -> None:
    code, report = scorecard(tmp_path, *server_cmd("broken_server.py", "--mode=refuser"))
    assert code == 1
    assert report["grade"] in BAD_GRADES
    # Every enum value refused is the server's fault, even after the repairs tried each one.
    assert set(statuses(report).values()) == {"defect"}
    converted = [r for r in report["results"] if r["tool"] == "convert_temperature"]
    refused_units = {r["arguments"]["unit"] for r in converted if r["kind"] == "happy"}
    assert refused_units == {"celsius", "fahrenheit"}
    assert report["scores"]["happy_pass_rate"] == 0.0
