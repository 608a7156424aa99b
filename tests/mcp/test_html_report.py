"""``mcp test --report html``: one self-contained, inert page of the scorecard.

The page is built from a hand-made scorecard (every section, a hostile tool), written by the
command against the bundled sample server and a hostile test server, and opened in a real
headless Chromium (Debian's ``chromium`` package; those tests skip without it).
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from mcp_support import run_cli, server_cmd
from toolscore_mcp.conformance import ConformanceFinding, ConformanceOutcome
from toolscore_mcp.grading.scorecard import MCPScorecard
from toolscore_mcp.model import (
    Attempt,
    Evidence,
    LintIssue,
    MCPToolDef,
    MCPToolResult,
    Scenario,
    ScenarioResult,
    ServerDetails,
)
from toolscore_mcp.reports.html_report import scorecard_to_html

SAMPLE = [
    sys.executable,
    str(Path(__file__).parents[2] / "toolscore-mcp/src/toolscore_mcp/sample_server.py"),
]
SAMPLE_TOOLS = ["create_note", "list_notes", "search_notes", "delete_note", "export_notes"]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")

TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
HOSTILE = f'<script>alert(1)</script> "onerror=alert(2) x=" \x1b[2J\x1b[31mRED \u202eevil {TOKEN}'
TOOL = f"get<script>alert(0)</script>\u202e{TOKEN}"
RAW = ("<script", "\x1b", "\u202e", TOKEN, '"onerror=')


def _answer(text: str, *, error: bool = False) -> MCPToolResult:
    return MCPToolResult(content=[{"type": "text", "text": text}], is_error=error, duration=0.01)


def _card(*, evidence: bool = True) -> MCPScorecard:
    """Two tools: a hostile one that works after a repair, and a defect."""
    good = ScenarioResult(
        Scenario(TOOL, {"path": "notes.txt", "key": TOKEN}, "happy", f"happy path {HOSTILE}"),
        ok=True,
        is_error=False,
        duration=0.01,
        detail="ok",
        attempts=(
            Attempt(
                {"path": "sample_path"}, f"Expected a .txt file {HOSTILE}", "path -> 'notes.txt'"
            ),
        ),
        evidence=Evidence("round-trip", f"wrote then read {HOSTILE}") if evidence else None,
        response=_answer(f"contents {HOSTILE}"),
    )
    bad = ScenarioResult(
        Scenario("export", {"format": "json"}, "happy", "happy path #1"),
        ok=False,
        is_error=True,
        duration=0.02,
        detail="export failed: storage backend not configured",
        verdict="fail",
        finding="failure",
        category="defect",
        response=_answer("export failed: storage backend not configured", error=True),
    )
    return MCPScorecard(
        server=ServerDetails(name=f"srv{HOSTILE}", version="1.0", protocol_version="2025-06-18"),
        tools=(
            MCPToolDef(TOOL, description=f"Reads a file. {HOSTILE}"),
            MCPToolDef("export", description="Export every note."),
            MCPToolDef("search", description="Search notes."),
            MCPToolDef("fetch", description="Fetch a page."),
            MCPToolDef("ping", description="Ping."),
        ),
        results=(good, bad),
        lint=(LintIssue(TOOL, "warning", f"says {HOSTILE}", "Say less.", "poisoning"),),
        notes=(f"the server's stderr says {HOSTILE}",),
        skipped=(("search", "scenario file"), ("fetch", "scenario file")),
        conformance=(
            ConformanceOutcome("annotations", "fail", findings=(
                ConformanceFinding(TOOL, f"no readOnlyHint {HOSTILE}", "Annotate it."),
            )),
            ConformanceOutcome("http-origin", "not-applicable", note="streamable HTTP only"),
        ),
    )  # fmt: skip


def _assert_inert(page: str) -> None:
    for raw in RAW:
        assert raw not in page, raw
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&quot;onerror=alert(2)" in page
    assert "\\x1b[2J" in page  # the escape is shown as text
    assert "\\u202e" in page
    assert "REDACTED github_token" in page


def _assert_self_contained(page: str) -> None:
    assert "<script" not in page
    assert not re.search(r"""(src|href)\s*=\s*["'](?!data:|#)""", page)
    assert "@import" not in page
    assert "url(" not in page


def test_page_has_every_section_and_nothing_from_the_server_is_live() -> None:
    card = _card()
    page = scorecard_to_html(card, version="9.9")
    _assert_inert(page)
    _assert_self_contained(page)
    # grade, verified count (works or defect) and the provisional mark (2 of 5 conclusive)
    assert f'title="grade">{card.grade}<' in page
    assert "verified 2 of 5 tools" in page
    assert 'id="provisional">provisional<' in page
    # each tool's verdict, evidence, or that none was recorded
    assert len(re.findall(r'<tr class="tool-row"', page)) == 5
    assert ">works<" in page
    assert ">defect<" in page
    assert ">skipped: scenario file<" in page
    assert ">skipped: not called<" in page
    assert "round-trip" in page
    assert "wrote then read" in page
    assert page.count("no evidence recorded") == 4
    # every try: the rejected one with its repair, then the call the verdict rests on
    assert "sample_path" in page
    assert "Expected a .txt file" in page
    assert "path -&gt; &#x27;notes.txt&#x27;" in page
    assert "contents &lt;script&gt;" in page
    assert "export failed: storage backend not configured" in page
    # fixes, lint, conformance, notes
    assert "Top issues to fix" in page
    assert "fails on valid input" in page
    assert "Say less." in page
    assert "poisoning" in page
    assert "annotations" in page
    assert "Annotate it." in page
    assert "streamable HTTP only" in page
    assert "the server&#x27;s stderr says" in page
    assert "Generated with toolscore 9.9" in page


def test_without_evidence_every_tool_says_so_and_a_full_run_is_not_provisional() -> None:
    card = _card(evidence=False)
    page = scorecard_to_html(card)
    assert page.count("no evidence recorded") == 5
    import attrs

    page = scorecard_to_html(attrs.evolve(card, tools=card.tools[:2], skipped=()))
    assert "verified 2 of 2 tools" in page
    assert "provisional" not in page


def test_report_html_equals_path_writes_the_page_and_keeps_the_console_scorecard(
    tmp_path: Path,
) -> None:
    page = tmp_path / "out" / "card.html"
    done = run_cli("mcp", "test", "--report", f"html={page}", "--", *SAMPLE)
    assert done.returncode == 0, done.stderr
    assert "Grade B   Score 85%" in done.stdout  # the scorecard, not just one line
    assert "Top issues to fix" in done.stdout
    assert done.stdout.rstrip().endswith(
        f"notes-server -> Grade B (score 85%). Report written to {page}."
    )
    text = page.read_text(encoding="utf-8")
    _assert_self_contained(text)
    assert "verified 5 of 5 tools" in text
    for tool in SAMPLE_TOOLS:
        assert f"<b>{tool}</b>" in text
    # the format also follows from the output file's name
    other = tmp_path / "other.html"
    done = run_cli("mcp", "test", "-o", str(other), "--", *SAMPLE)
    assert done.returncode == 0, done.stderr
    assert other.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--report", "pdf", "-o", "x.pdf"), "ERROR --report must be one of md, json, sarif, html, got 'pdf'."),
        (("--report", "html=a.html", "-o", "b.html"), "ERROR Give the report's path once"),
    ],
)  # fmt: skip
def test_bad_report_options_are_one_line(args: tuple[str, ...], message: str) -> None:
    done = run_cli("mcp", "test", "x", *args)
    assert done.returncode == 2
    assert done.stderr.startswith(message)
    assert done.stderr.count("\n") == 1


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
            CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", f"--user-data-dir={short / 'profile'}",
            "--enable-logging=stderr", "--v=0", "--window-size=1280,2000", *mode, page.as_uri(),
        ],
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "TMPDIR": str(short)},
    )  # fmt: skip


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _open(tmp_path: Path, page: Path) -> str:
    """The page's DOM as Chromium built it, after checking it rendered without console errors
    into a screenshot that is not blank."""
    shot = tmp_path / "shot.png"
    run = _chromium(tmp_path, page, "--dump-dom", f"--screenshot={shot}")
    assert run.returncode == 0, run.stderr[-2000:]
    assert [line for line in run.stderr.splitlines() if ":CONSOLE" in line] == []
    assert _png_size(shot) == (1280, 2000)
    assert shot.stat().st_size > 30_000  # a blank page compresses to a few kB
    return run.stdout


@needs_chromium
def test_sample_server_page_in_chromium(tmp_path: Path) -> None:
    page = tmp_path / "sample.html"
    done = run_cli("mcp", "test", "--report", f"html={page}", "--", *SAMPLE)
    assert done.returncode == 0, done.stderr
    dom = _open(tmp_path, page)
    assert re.search(r'<div class="grade" title="grade">B</div>', dom)
    assert "verified 5 of 5 tools" in dom
    rows = re.findall(r'<tr class="tool-row"[^>]*>.*?</tr>', dom, flags=re.S)
    assert [re.search(r"<b>(.*?)</b>", row).group(1) for row in rows] == SAMPLE_TOOLS  # type: ignore[union-attr]
    assert "defect" in rows[-1]
    assert "<script" not in dom


@needs_chromium
def test_hostile_server_page_in_chromium(tmp_path: Path) -> None:
    page = tmp_path / "hostile.html"
    done = run_cli(
        "mcp", "test", "--report", f"html={page}", "--", *server_cmd("html_hostile_server.py")
    )
    assert done.returncode == 0, done.stderr
    text = page.read_text(encoding="utf-8")
    _assert_self_contained(text)
    assert "ghp_" + "Z9y8" not in text
    for raw in ("<script", "\x1b", "\u202e"):
        assert raw not in text
    dom = _open(tmp_path, page)
    assert "<script" not in dom  # no element was made from the server's text
    assert "onerror" not in re.sub(r"&quot;onerror=|>[^<]*<", "><", dom)  # never an attribute
    assert re.search(r'<div class="grade" title="grade">[A-F]</div>', dom)
    assert "verified 3 of 3 tools" in dom
    assert len(re.findall(r'<tr class="tool-row"', dom)) == 3
    assert "echo&lt;script&gt;alert(1)&lt;/script&gt;" in dom
    assert "at -&gt; '14:30'" in dom  # the repair of schedule's first try
    assert "REDACTED github_token" in dom
