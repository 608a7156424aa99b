"""The HTML report opened in a real headless Chromium (Debian's ``chromium`` package).

Install with ``apt-get install -y chromium``; without it these tests skip. Chromium prints the
page's console messages to stderr with ``--enable-logging=stderr`` (lines containing
``:CONSOLE``), which is how "no console errors" is checked; a control page with a script error
shows the check can fail.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
import toolscore
from pngread import pixels_near, read_png
from toolscore.reporters import write_reports

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

WINDOW = (1000, 700)
BAD = (0xCF, 0x22, 0x2E)  # the "bad" band colour of a failing score
GOOD = (0x1A, 0x7F, 0x37)  # the "good" band colour of a passing score
SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"

EXPECTED = [
    {"tool": "search_flights", "args": {"origin": "SFO", "destination": "NYC"}},
    {"tool": "book_flight", "args": {"flight_id": "FL-123"}},
]


def _chromium(tmp_path: Path, page: Path, *mode: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    # Chromium's singleton socket lives in TMPDIR: a UNIX socket path must fit 108 bytes.
    short = Path(tempfile.mkdtemp(prefix="ts-chromium-", dir="/tmp"))
    try:
        return _run_chromium(short, page, *mode)
    finally:
        shutil.rmtree(short, ignore_errors=True)


def _run_chromium(short: Path, page: Path, *mode: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    return subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={short / 'profile'}",
            "--enable-logging=stderr",
            "--v=0",
            f"--window-size={WINDOW[0]},{WINDOW[1]}",
            *mode,
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "TMPDIR": str(short)},
    )


def _console_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def _report(tmp_path: Path, actual: list[dict[str, object]]) -> tuple[Path, float]:
    result = toolscore.evaluate(EXPECTED, actual)
    return write_reports(result, {"html": tmp_path / "report.html"})["html"], result.score


def test_failing_report_renders_with_score_and_no_console_errors(tmp_path: Path) -> None:
    page, expected_score = _report(
        tmp_path,
        [
            {
                "tool": "search_flights",
                "args": {"origin": "SFO", "destination": "<script>alert(1)</script>"},
            },
            {"tool": "cancel_booking", "args": {"token": SECRET}},
        ],
    )
    shot = tmp_path / "shot.png"
    run = _chromium(tmp_path, page, "--dump-dom", f"--screenshot={shot}")
    assert run.returncode == 0, run.stderr[-2000:]
    assert _console_lines(run.stderr) == []
    text = run.stdout
    assert f'class="score">{expected_score:.1%}<' in text
    assert expected_score < 0.7
    assert "Top issues to fix" in text
    assert "Expected vs actual calls" in text
    assert "<script" not in text  # the argument value was escaped, not executed
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert SECRET not in text  # redacted
    assert "REDACTED github_token" in text

    width, height, rows = read_png(shot, max_rows=260)
    assert (width, height) == WINDOW
    # not blank: many colours, and the failing score is painted in the "bad" colour near the top
    assert len({row[i : i + 3] for row in rows[::3] for i in range(0, len(row), 9)}) > 20
    assert pixels_near(rows[:260], BAD) > 500
    assert pixels_near(rows[:260], GOOD) < 50


def test_passing_report_shows_a_green_score(tmp_path: Path) -> None:
    page, _ = _report(tmp_path, EXPECTED)
    shot = tmp_path / "ok.png"
    run = _chromium(tmp_path, page, "--dump-dom", f"--screenshot={shot}")
    assert run.returncode == 0, run.stderr[-2000:]
    assert _console_lines(run.stderr) == []
    assert 'class="score">100.0%<' in run.stdout
    assert ">A<" in run.stdout
    assert "PASS" in run.stdout
    _, _, rows = read_png(shot, max_rows=260)
    assert pixels_near(rows[:260], GOOD) > 500
    assert pixels_near(rows[:260], BAD) < 50


def test_the_console_check_catches_script_errors(tmp_path: Path) -> None:
    page = tmp_path / "broken.html"
    page.write_text("<html><body><script>notDefined();</script></body></html>", encoding="utf-8")
    run = _chromium(tmp_path, page, "--dump-dom")
    assert any("notDefined" in line for line in _console_lines(run.stderr))


def test_report_is_self_contained(tmp_path: Path) -> None:
    text = _report(tmp_path, EXPECTED[:1])[0].read_text(encoding="utf-8")
    assert "<script" not in text
    assert not re.search(r"""(src|href)\s*=\s*["'](?!data:|#)""", text)
    assert "@import" not in text
    assert "url(" not in text
