"""The example reporter, tested the way its users see it: installed, through toolscore."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import toolscore
from toolscore.plugins import create_plugin_manager
from toolscore.reporters import available_reporters, write_reports

EXPECTED = [{"tool": "search", "args": {"q": "paris"}}, {"tool": "book", "args": {"hotel": "H1"}}]


def _tap(tmp_path: Path, actual: list[dict[str, object]]) -> tuple[Path, str]:
    result = toolscore.evaluate(EXPECTED, actual)
    path = write_reports(result, {"tap": tmp_path / "out" / "report.tap"})["tap"]
    return path, path.read_text(encoding="utf-8")


def test_registered_through_the_entry_point() -> None:
    pm = create_plugin_manager()
    record = next(r for r in pm.records() if r.name == "toolscore_example_reporter")
    assert record.status == "active"
    assert record.distribution == "toolscore-example-reporter"
    assert record.provides == {"reporters": ("tap",)}
    assert "tap" in available_reporters(plugin_manager=pm)


def test_absent_when_plugins_are_off() -> None:
    pm = create_plugin_manager(load_entrypoints=False)
    assert "tap" not in available_reporters(plugin_manager=pm)


def test_plugins_list_shows_the_reporter() -> None:
    proc = subprocess.run(
        [str(Path(sys.executable).parent / "toolscore"), "plugins", "list", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    plugins = {p["name"]: p for p in json.loads(proc.stdout)["plugins"]}
    assert plugins["toolscore_example_reporter"]["provides"] == {"reporters": ["tap"]}


def test_one_point_per_expected_call_plus_extras(tmp_path: Path) -> None:
    actual = [
        {"tool": "search", "args": {"q": "rome"}},
        {"tool": "cancel", "args": {}},
        {"tool": "cancel", "args": {}},
    ]
    _, text = _tap(tmp_path, actual)
    lines = text.splitlines()
    assert lines[:2] == ["TAP version 13", "1..3"]
    assert "not ok 1 - call 1: search" in lines
    assert "  message: 'arguments differ'" in lines
    assert "not ok 2 - call 2: book" in lines
    assert "  message: 'called `cancel` where `book` was expected'" in lines
    assert "not ok 3 - no unexpected calls" in lines
    assert "  message: '1 unexpected call(s): cancel'" in lines
    assert lines[-1].startswith("# score ")


def test_perfect_run_is_all_ok(tmp_path: Path) -> None:
    _, text = _tap(tmp_path, EXPECTED)
    assert text.splitlines()[2:5] == [
        "ok 1 - call 1: search",
        "ok 2 - call 2: book",
        "ok 3 - no unexpected calls",
    ]
    assert "# score 100.0% (grade A)" in text


def test_credentials_are_redacted(tmp_path: Path) -> None:
    secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    failed = {"tool": "search", "args": {"q": "paris"}, "error": f"401 for token {secret}"}
    _, text = _tap(tmp_path, [failed, EXPECTED[1]])
    assert "not ok 1 - call 1: search" in text
    assert secret not in text
    assert "REDACTED github_token" in text


@pytest.mark.skipif(
    shutil.which("prove") is None, reason="Perl's prove (a TAP consumer) is not installed"
)
@pytest.mark.parametrize(("actual", "verdict"), [(EXPECTED, "PASS"), (EXPECTED[:1], "FAIL")])
def test_a_real_tap_consumer_reads_it(
    tmp_path: Path, actual: list[dict[str, object]], verdict: str
) -> None:
    path, _ = _tap(tmp_path, actual)
    proc = subprocess.run(
        ["prove", "--exec", "cat", str(path)], capture_output=True, text=True, check=False
    )
    assert f"Result: {verdict}" in proc.stdout, proc.stdout + proc.stderr
    assert (proc.returncode == 0) == (verdict == "PASS")
    assert "Parse errors" not in proc.stdout


def test_a_private_key_and_terminal_escapes_never_reach_the_stream(tmp_path: Path) -> None:
    body = "MIIEowIBAAKCAQEA7bq98Zk2Jx4mS1fZq3Lk9"
    pem = f"-----BEGIN RSA PRIVATE KEY-----\n{body}\n-----END RSA PRIVATE KEY-----"
    failed = {"tool": "search\x1b[2J", "args": {"q": "paris"}, "error": f"bad key {pem}"}
    _, text = _tap(tmp_path, [failed, EXPECTED[1]])
    assert body not in text
    assert "\x1b" not in text
    assert "search\\x1b[2J" in text
