"""Safe by default: the server runs in the sandbox, generated paths stay there, destructive
tools only touch the sandbox or this run's own objects, and policy or offline refusals are the
environment's. Real stdio servers, real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp_support import CLI_SCRIPT, SERVERS, server_cmd
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore_mcp.client.recorder import MCPRecorder
from toolscore_mcp.client.target import ServerTarget
from toolscore_mcp.grading.harness import TestOptions, grade_server, run_sync
from toolscore_mcp.grading.scorecard import MCPScorecard


@pytest.fixture
def pm() -> ToolscorePluginManager:
    from toolscore.plugins import get_plugin_manager

    return get_plugin_manager()


@pytest.fixture
def places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """The test's own working directory and HOME (both must stay empty), and a victim file
    outside the sandbox that a destructive tool's schema example names."""
    cwd, home = tmp_path / "cwd", tmp_path / "home"
    cwd.mkdir()
    home.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("HOME", str(home))
    return {"cwd": cwd, "home": home, "victim": victim}


def grade(target: ServerTarget, pm: ToolscorePluginManager, **options: object) -> MCPScorecard:
    settings = TestOptions(timeout=10.0, **options)  # type: ignore[arg-type]
    return run_sync(lambda: grade_server(target, settings, pm=pm))


def safety_target(places: dict[str, Path], *extra: str, cwd: str | None = None) -> ServerTarget:
    argv = server_cmd("safety_server.py", "--victim", str(places["victim"]), *extra)
    return ServerTarget(command=tuple(argv), cwd=cwd)


def results_of(card: MCPScorecard, tool: str) -> list:
    return [r for r in card.results if r.scenario.tool == tool]


def test_server_runs_in_the_sandbox_and_writes_nothing_outside(
    places: dict[str, Path], pm: ToolscorePluginManager
) -> None:
    card = grade(safety_target(places), pm)
    # An empty name made the server write ".docx" relative to its folder: the sandbox's.
    written = results_of(card, "write_named_file")
    assert any(r.scenario.arguments.get("name") == "" for r in written)
    assert list(places["cwd"].iterdir()) == []
    assert list(places["home"].iterdir()) == []
    [where] = [r for r in results_of(card, "where_am_i") if r.response is not None][:1]
    seen = json.loads(where.response.content[0]["text"])
    for name in ("cwd", "HOME", "TMPDIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        assert "toolscore-sandbox-" in seen[name], name
        assert "/.server/" in seen[name], name
    assert not any("not started in the sandbox" in note for note in card.notes)


def test_generated_relative_paths_are_made_absolute_in_the_sandbox(
    places: dict[str, Path], pm: ToolscorePluginManager
) -> None:
    card = grade(safety_target(places), pm, allow_destructive=True)
    paths = [r.scenario.arguments.get("path") for r in results_of(card, "delete_file")]
    assert all(os.path.isabs(p) for p in paths if isinstance(p, str) and p)


def test_destructive_tools_only_touch_the_sandbox_or_this_runs_objects(
    places: dict[str, Path], pm: ToolscorePluginManager
) -> None:
    card = grade(safety_target(places), pm)
    assert places["victim"].read_text() == "keep me\n"  # its schema example was never sent
    sent = [r.scenario.arguments["path"] for r in results_of(card, "delete_file")]
    assert sent
    assert all("toolscore-sandbox-" in p for p in sent)
    assert str(places["victim"]) not in sent
    skipped = dict(card.skipped)
    assert skipped["reset_store"].startswith("not called: destructive (its target is neither")
    assert not results_of(card, "reset_store")
    # An id is only sent when this run made the object (a name a producer created); edge
    # cases that blank or drop it have no target and are not sent.
    purged = results_of(card, "purge_record")
    assert purged
    assert all(r.scenario.evidence.get("record_id") == "harvested" for r in purged)
    assert all(r.scenario.kind == "happy" for r in purged)
    assert "delete_file" not in skipped
    assert "purge_record" not in skipped
    rows = {row.tool: row for row in card.coverage()}
    assert rows["reset_store"].status == "skipped"
    # A process id that a listing returned was there before the run: never a target.
    assert results_of(card, "list_processes")
    assert not results_of(card, "kill_process")
    assert skipped["kill_process"].startswith("not called: destructive")


def test_allow_destructive_calls_them_anyway(
    places: dict[str, Path], pm: ToolscorePluginManager
) -> None:
    card = grade(safety_target(places), pm, allow_destructive=True)
    assert not any(reason.startswith("not called") for _, reason in card.skipped)
    assert results_of(card, "purge_record")
    assert results_of(card, "reset_store")
    assert not places["victim"].exists()  # the gate, nothing else, kept it before


def test_policy_refusal_and_first_use_download_are_the_environment(
    places: dict[str, Path], pm: ToolscorePluginManager
) -> None:
    card = grade(safety_target(places), pm)
    for tool, needs in (("fetch_page", "policy"), ("load_model", "network")):
        happy = [r for r in results_of(card, tool) if r.scenario.kind == "happy"]
        assert happy, tool
        for result in happy:
            assert (result.verdict, result.category, result.needs) == (
                "inconclusive",
                "environment",
                needs,
            ), (tool, result.detail)
    assert "fetch_page: start the server with --allow-private-ips." in card.notes


def test_a_server_outside_the_sandbox_gets_its_writing_calls_listed(
    places: dict[str, Path], tmp_path: Path, pm: ToolscorePluginManager
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    card = grade(safety_target(places, cwd=str(project)), pm)
    [note] = [n for n in card.notes if "not started in the sandbox" in n]
    assert f"its working directory is {project}" in note
    assert "write_named_file" in note
    assert "where_am_i" not in note
    assert (project / ".docx").exists()  # the user's choice of folder was kept


def test_a_relative_command_still_starts_from_the_sandbox(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, pm: ToolscorePluginManager
) -> None:
    monkeypatch.chdir(SERVERS)
    monkeypatch.setenv("HOME", str(tmp_path))
    target = ServerTarget(command=(sys.executable, "safety_server.py", "--touch-at-start"))
    card = grade(target, pm, edge_cases=False, cases=1)
    assert card.tools
    assert not (SERVERS / "started.txt").exists()
    assert not any("did not start in the sandbox" in note for note in card.notes)


def test_mcp_list_runs_the_server_in_a_throwaway_folder(tmp_path: Path) -> None:
    argv = server_cmd("safety_server.py", "--touch-at-start")
    done = subprocess.run(
        [sys.executable, str(CLI_SCRIPT), "mcp", "list", "--", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "write_named_file" in done.stdout
    assert list(tmp_path.iterdir()) == []


def _children() -> set[int]:
    me = str(os.getpid())
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == me and fields[0] != "Z":
                found.add(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_record_never_leaves_the_server_running(tmp_path: Path) -> None:
    before = _children()
    script = "import time; time.sleep(60)"
    unwritable = tmp_path  # a folder: the session file cannot be written
    with open(os.devnull, "rb") as nothing:
        recorder = MCPRecorder([sys.executable, "-c", script], unwritable, stdin=nothing)
        with pytest.raises(OSError):
            recorder.run()
    deadline = time.monotonic() + 5
    while _children() - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _children() - before == set()
