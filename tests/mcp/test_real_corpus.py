"""The scorecard against the corpus of real public MCP servers, judged by hand-made ground truth.

Each ``real/servers/*.json`` was written by calling every tool by hand with valid arguments,
before any scorecard was looked at (see ``real/README.md``). For every server this checks the
promises a server author relies on:

* no tool that works offline with valid arguments is failed;
* no tool that needs the network, credentials or a missing program is called a defect;
* a tool that needs a credential is reported as such (its need, or a note from its stderr);
* every failure the server reports with ``isError: false`` is caught, and at least 90 % of the
  tools that answer failures so are flagged by the run itself;
* no tool is called working without recorded evidence;
* every tool the table calls broken is found;
* at most 15 % of the tools that work here are left inconclusive;
* the grade falls within the fair range.

The servers are installed by ``nox -s mcp_real`` (``real/install.py``); absent ones skip.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp_support import run_cli

pytestmark = pytest.mark.realservers

REAL = Path(__file__).parent / "real" / "servers"
sys.path.insert(0, str(REAL.parent))
import handcheck  # noqa: E402

MANIFESTS = sorted(REAL.glob("*.json"))
SEARCH_PATH = os.environ.get("MCP_REAL_BIN", "")
GRADES = "ABCDF"
WORKING = ("works", "setup")
NOT_OURS = ("network", "credentials", "binary")


#: Where the scorecard still falls short of the hand check, server by server: each is a
#: known, open gap (issue 24), expected to fail until fixed, never hidden.
KNOWN_GAPS: dict[tuple[str, str], str] = {}


@pytest.fixture(autouse=True)
def _known_gap(request: pytest.FixtureRequest) -> None:
    callspec = getattr(request.node, "callspec", None)
    server = callspec.id if callspec is not None else ""
    reason = KNOWN_GAPS.get((server, request.node.originalname))
    if reason is not None:
        request.applymarker(pytest.mark.xfail(reason=f"known gap: {reason}", strict=False))


def _manifest(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _argv(manifest: dict[str, Any]) -> list[str]:
    command = list(manifest["command"])
    found = shutil.which(command[0], path=SEARCH_PATH or None)
    if found is None:
        pytest.skip(f"{command[0]} is not installed (nox -s mcp_real installs the corpus)")
    return [found, *command[1:]]


@pytest.fixture(scope="module", params=MANIFESTS, ids=[p.stem for p in MANIFESTS])
def graded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    manifest = _manifest(request.param)
    argv = _argv(manifest)
    report = tmp_path_factory.mktemp(manifest["name"]) / "card.json"
    env_args = [
        arg for key, value in manifest.get("env", {}).items() for arg in ("--env", f"{key}={value}")
    ]
    done = run_cli(
        "mcp", "test", *env_args, "--timeout", "30", "--startup-timeout", "120",
        "-o", str(report), "--", *argv,
        timeout=900,
    )  # fmt: skip
    assert report.exists(), done.stdout + done.stderr
    return manifest, json.loads(report.read_text(encoding="utf-8"))


def _happy(card: dict[str, Any], tool: str) -> list[dict[str, Any]]:
    return [r for r in card["results"] if r["tool"] == tool and r["kind"] == "happy"]


def test_no_working_tool_is_failed(graded: Any) -> None:
    manifest, card = graded
    failed = {
        name: [r["detail"] for r in _happy(card, name) if r["verdict"] == "fail"]
        for name, truth in manifest["tools"].items()
        if truth["offline"] in WORKING
    }
    assert {name: details for name, details in failed.items() if details} == {}
    status = _status(card)
    assert [
        name
        for name, truth in manifest["tools"].items()
        if truth["offline"] in (*WORKING, *NOT_OURS) and status[name]["status"] == "defect"
    ] == []


def test_no_network_or_credential_tool_is_called_a_defect(graded: Any) -> None:
    manifest, card = graded
    blamed = {
        name: [r["detail"] for r in _happy(card, name) if r["verdict"] == "fail"]
        for name, truth in manifest["tools"].items()
        if truth["offline"] in NOT_OURS
    }
    assert {name: details for name, details in blamed.items() if details} == {}


def test_a_credential_need_is_reported(graded: Any) -> None:
    """A tool the table says needs a credential: the report says so, as its need or in a
    note quoting what the server said about the missing credential. Offline, a tool that
    fails on the network before it ever checks its token may be reported as needing the
    network: the first thing the machine lacks."""
    manifest, card = graded
    needs = {row["tool"]: row["needs"] for row in card["coverage"]["tools"]}
    quoted = any("credential is missing" in note for note in card["notes"])
    unreported = [
        name
        for name, truth in manifest["tools"].items()
        if truth["offline"] == "credentials"
        and needs.get(name) not in ("credentials", "network")
        and not quoted
    ]
    assert unreported == []


def test_every_error_reported_as_success_is_caught(graded: Any) -> None:
    """The lies found by hand (failures sent with ``isError: false``, exact texts): the
    detector recognises at least one of each tool's, and at least 90 % of all of them."""
    from toolscore_mcp.grading.verdicts import reports_failure
    from toolscore_mcp.model import MCPToolResult

    manifest, _card = graded
    lies = manifest.get("errors_as_success", [])
    missed = [
        lie
        for lie in lies
        if not reports_failure(
            MCPToolResult(
                content=[{"type": "text", "text": lie["text"]}], is_error=False, duration=0.0
            )
        )
    ]
    assert len(lies) - len(missed) >= math.ceil(0.9 * len(lies)), missed
    unrecognised_tools = {lie["tool"] for lie in lies} - {
        lie["tool"] for lie in lies if lie not in missed
    }
    assert unrecognised_tools == set(), missed


def _status(card: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {row["tool"]: row for row in card["coverage"]["tools"]}


def _withheld(row: dict[str, Any]) -> bool:
    """A destructive tool the run did not call on purpose (no target of its own)."""
    return str(row["needs"]).startswith("not called: destructive")


def _needs_the_harness(truth: dict[str, Any]) -> bool:
    """A tool whose state no tool of its server can make (the hand check wrote a file)."""
    return any("write_file" in step for step in truth.get("setup", []))


def test_no_tool_is_called_working_without_evidence(graded: Any) -> None:
    _manifest, card = graded
    bare = [
        row["tool"]
        for row in card["coverage"]["tools"]
        if row["status"] == "works" and not row["evidence"]
    ]
    assert bare == []


def test_tools_that_report_errors_as_success_are_flagged(graded: Any) -> None:
    """Of the tools the hand check found answering failures with ``isError: false``, at least
    90 % are flagged by the run (an ``error-as-success`` finding on one of their calls)."""
    manifest, card = graded
    status = _status(card)
    lying = [
        name
        for name in manifest["tools"]
        if not handcheck.signals_errors(manifest, name) and not _withheld(status[name])
    ]
    flagged = {r["tool"] for r in card["results"] if r["finding"] == "error-as-success"}
    missed = [name for name in lying if name not in flagged]
    assert len(lying) - len(missed) >= math.ceil(0.9 * len(lying)), missed


def test_every_broken_tool_is_found(graded: Any) -> None:
    manifest, card = graded
    status = _status(card)
    broken = [name for name, truth in manifest["tools"].items() if truth["offline"] == "broken"]
    assert [name for name in broken if status[name]["status"] != "defect"] == []


def test_few_working_tools_are_left_inconclusive(graded: Any) -> None:
    """At most 15 % of the tools that work here (with or without setup) end unverified.

    Not counted: a destructive tool that the run withheld on purpose (no target of its own
    to aim at, ``not called: destructive``: safety comes first, and the report says why), and
    a tool whose state only the hand check's harness could make (a config file that no tool
    of the server writes).
    """
    manifest, card = graded
    status = _status(card)
    working = [
        name
        for name, truth in manifest["tools"].items()
        if truth["offline"] in WORKING
        and not _withheld(status[name])
        and not _needs_the_harness(truth)
    ]
    unverified = [name for name in working if status[name]["status"] != "works"]
    assert len(unverified) <= math.floor(0.15 * len(working)), {
        name: (status[name]["status"], status[name]["needs"]) for name in unverified
    }


def test_grade_is_within_the_fair_range(graded: Any) -> None:
    manifest, card = graded
    fair = manifest["fair_grade"]
    best, worst = GRADES.index(fair["best"]), GRADES.index(fair["worst"])
    assert best <= GRADES.index(card["grade"]) <= worst, (card["grade"], card["coverage"]["line"])


#: Every finding of the conformance checks and of ``schema-ref`` on the corpus, each checked
#: by hand against the server's definitions (none is a false positive):
#: * duckduckgo ``search`` searches the web and ``fetch_content`` fetches a URL; neither
#:   declares ``openWorldHint``;
#: * sqlite ``write_query``, ``create_table`` and ``append_insight`` change the database (or
#:   the memo) and declare no annotations at all;
#: * tavily ``tavily_search``, ``tavily_crawl`` and ``tavily_map`` reach the web and declare
#:   no ``openWorldHint``;
#: * echarts: every ``generate_*`` tool declares no annotations, and with MinIO configured it
#:   uploads what it renders (a write); the description of the funnel chart mentions a
#:   website only as an example, which is not counted;
#: * pdf-tools ``remove_pdf_content`` / ``remove_pdf_metadata`` delete parts of a file and
#:   ``set_pdf_metadata`` rewrites one, with no annotations;
#: * word: every ``add_*``, ``insert_*``, ``set_table_*`` and ``create_custom_style`` tool
#:   changes the document on disk, with no annotations;
#: * powerpoint: the ``add_*``, ``create_*``, ``set_core_properties``, ``update_chart_data``
#:   and ``auto_generate_presentation`` tools change the presentations it holds, with none;
#: * shrimp-tasks ``delete_task`` and ``clear_all_tasks`` delete tasks, ``update_task``
#:   rewrites one, ``init_project_rules`` is named as a writer (it returns a prompt that asks
#:   the agent to write the rules file); ``process_thought``'s advice to "query the web" is
#:   for the agent and is not counted;
#: * text-editor ``edit_text_file_contents`` edits files, with no annotations.
_WORD_WRITERS = (
    "add_endnote_to_document add_footnote_after_text add_footnote_before_text "
    "add_footnote_enhanced add_footnote_robust add_footnote_to_document add_heading "
    "add_page_break add_paragraph add_picture add_table create_custom_style "
    "insert_header_near_text insert_line_or_paragraph_near_text insert_numbered_list_near_text "
    "set_table_alignment_all set_table_cell_alignment set_table_cell_padding "
    "set_table_cell_shading set_table_column_width set_table_column_widths set_table_width"
)
_POWERPOINT_WRITERS = (
    "add_bullet_points add_chart add_connector add_shape add_slide add_table "
    "auto_generate_presentation create_presentation create_presentation_from_template "
    "create_presentation_from_templates create_slide_from_template set_core_properties "
    "update_chart_data"
)
_ECHARTS_CHARTS = (
    "area bar boxplot candlestick funnel gauge graph heatmap line parallel pie radar sankey "
    "scatter sunburst tree treemap"
)
NEW_RULE_FINDINGS: dict[str, set[tuple[str, str]]] = {
    "echarts": {("annotations", f"generate_{kind}_chart") for kind in _ECHARTS_CHARTS.split()}
    | {("annotations", "generate_echarts")},
    "pdf-tools": {
        ("annotations", "remove_pdf_content"),
        ("annotations", "remove_pdf_metadata"),
        ("annotations", "set_pdf_metadata"),
    },
    "word": {("annotations", tool) for tool in _WORD_WRITERS.split()},
    "powerpoint": {("annotations", tool) for tool in _POWERPOINT_WRITERS.split()},
    "shrimp-tasks": {
        ("annotations", "delete_task"),
        ("annotations", "clear_all_tasks"),
        ("annotations", "update_task"),
        ("annotations", "init_project_rules"),
    },
    "text-editor": {("annotations", "edit_text_file_contents")},
    "duckduckgo": {("annotations", "search"), ("annotations", "fetch_content")},
    "sqlite": {
        ("annotations", "write_query"),
        ("annotations", "create_table"),
        ("annotations", "append_insight"),
    },
    "tavily": {
        ("annotations", "tavily_search"),
        ("annotations", "tavily_crawl"),
        ("annotations", "tavily_map"),
    },
}


def test_new_rules_find_only_what_was_checked_by_hand(graded: Any) -> None:
    manifest, card = graded
    found = {(o["rule"], f["tool"]) for o in card["conformance"] for f in o["findings"]}
    found |= {(i["rule"], i["tool"]) for i in card["lint"] if i["rule"] == "schema-ref"}
    assert found == NEW_RULE_FINDINGS.get(manifest["name"], set())
    assert card["protocol_version"]
    assert not [o["rule"] for o in card["conformance"] if o["status"] == "not-run"]
