"""Reports agree with the reference product (tool-scorer 1.10.0) on the same files.

Runs ``toolscore eval`` of the reference (in its own interpreter, ``TOOLSCORE_REFERENCE_PYTHON``,
e.g. ``/opt/refvenv/bin/python``) and ours on the same gold and trace files, and compares the
console summary (compact and ``-v``), the CSV report and the Markdown report. The only
differences allowed are the documented departures (docs/compat.md#reports): the Markdown
side-effect row that the reference never fills, JSON text in Markdown written as UTF-8 rather
than ``\\u`` escapes, and CSV reports redacted.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REFERENCE = os.environ.get("TOOLSCORE_REFERENCE_PYTHON") or (
    "/opt/refvenv/bin/python" if Path("/opt/refvenv/bin/python").exists() else None
)
pytestmark = pytest.mark.skipif(
    REFERENCE is None,
    reason="set TOOLSCORE_REFERENCE_PYTHON to an interpreter with tool-scorer 1.10.0",
)
OURS = str(Path(sys.executable).parent / "toolscore")

SECRET = "AKIA" + "IOSFODNN7EXAMPLE"

SCENARIOS: dict[str, tuple[list[dict[str, Any]], list[dict[str, Any]]]] = {
    "perfect": (
        [{"tool": "search", "args": {"q": "paris"}}, {"tool": "book", "args": {"id": 1}}],
        [{"tool": "search", "args": {"q": "paris"}}, {"tool": "book", "args": {"id": 1}}],
    ),
    "mixed": (
        [
            {"tool": "search_flights", "args": {"origin": "SFO", "destination": "NYC"}},
            {"tool": "book_flight", "args": {"flight_id": "FL-123"}},
            {"tool": "send_email", "args": {"to": "a@b.c"}},
        ],
        [
            {
                "tool": "search_flights",
                "args": {"origin": "SFO", "destination": "BOS"},
                "duration": 0.5,
            },
            {
                "tool": "cancel_booking",
                "args": {"booking_id": "B-9"},
                "error": "nope",
                "duration": 0.25,
            },
            {"tool": "cancel_booking", "args": {"booking_id": "B-9"}, "duration": 0.125},
        ],
    ),
    "many_missing": (
        [{"tool": f"step_{i}", "args": {"n": i}} for i in range(11)],
        [{"tool": "step_0", "args": {"n": 0}}],
    ),
    "credential": (
        [{"tool": "deploy", "args": {"env": "prod"}}],
        [
            {"tool": "deploy", "args": {"env": "prod", "key": SECRET}, "error": "denied"},
            {"tool": "deploy", "args": {"env": "prod", "key": SECRET}, "error": "denied"},
        ],
    ),
    "empty_trace": ([{"tool": "search", "args": None}], []),
}

# The closing "> X report: path" lines, and the reference's verbose "> X report saved to:" lines
# for the extra reports (the eval command's progress lines, not the reports themselves).
_REPORT_LINE = re.compile(
    r"^> (JSON|HTML|CSV|Markdown|JUnit XML) report: .*\n|^> (HTML|CSV|Markdown) report saved to: .*\n",
    re.M,
)


def _eval(
    command: list[str], folder: Path, gold: Path, trace: Path, *extra: str
) -> tuple[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "COLUMNS": "100", "TERM": "dumb"}
    env.pop("FORCE_COLOR", None)
    proc = subprocess.run(
        [
            *command,
            "eval",
            str(gold),
            str(trace),
            "-o",
            str(folder / "r.json"),
            "--csv",
            str(folder / "r.csv"),
            "--markdown",
            str(folder / "r.md"),
            *extra,
        ],
        capture_output=True,
        text=True,
        cwd=folder,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return _REPORT_LINE.sub("", proc.stdout), folder


def _markdown(path: Path) -> str:
    lines = path.read_text(encoding="utf-8").rstrip("\n").splitlines()
    lines = [line for line in lines if not line.startswith("**Generated:**")]
    text = "\n".join(line for line in lines if not line.startswith("| Checks Passed |"))
    return re.sub(r"\\u([0-9a-f]{4})", lambda m: chr(int(m.group(1), 16)), text)


@pytest.mark.parametrize("verbose", [False, True], ids=["compact", "verbose"])
@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_reports_match_the_reference(tmp_path: Path, scenario: str, verbose: bool) -> None:
    assert REFERENCE is not None
    gold_calls, trace_calls = SCENARIOS[scenario]
    gold = tmp_path / "gold.json"
    trace = tmp_path / "trace.json"
    gold.write_text(json.dumps(gold_calls), encoding="utf-8")
    trace.write_text(json.dumps(trace_calls), encoding="utf-8")
    extra = ("-v",) if verbose else ()
    ref_out, ref_dir = _eval(
        [REFERENCE, "-c", "from toolscore.cli import main; main()"],
        tmp_path / "refs",  # as long as "ours": rich wraps long paths at the same place
        gold,
        trace,
        *extra,
    )
    our_out, our_dir = _eval([OURS, "--no-plugins"], tmp_path / "ours", gold, trace, *extra)
    ref_out = ref_out.replace(str(ref_dir), "<dir>")
    our_out = our_out.replace(str(our_dir), "<dir>")
    assert our_out == ref_out
    if scenario != "credential":  # CSV is redacted: docs/compat.md#reports
        assert (our_dir / "r.csv").read_text(encoding="utf-8") == (ref_dir / "r.csv").read_text(
            encoding="utf-8"
        )
    assert _markdown(our_dir / "r.md") == _markdown(ref_dir / "r.md")
