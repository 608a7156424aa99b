"""Text from data never drives the terminal: escapes, NUL, C1 and bidi controls are shown.

The command tests run the real ``toolscore`` CLI in a subprocess and read what it printed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from toolscore.terminal_text import shown, shown_markup, visible

CLEAR_SCREEN = "\x1b[2J\x1b[H"
OSC8_LINK = "\x1b]8;;https://evil.example/\x07click me\x1b]8;;\x07"
KEY = "sk-proj-" + "AbCdEfGhIjKlMnOpQrStUvWxYz_-AbCdEfGhIjKl"
#: Bytes that must never reach a terminal from data.
FORBIDDEN = ("\x1b", "\x00", "\x07", "\x9b", "\u202e", "\x08")


def assert_terminal_safe(output: str) -> None:
    for char in FORBIDDEN:
        assert char not in output, f"{char!r} reached the terminal"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (CLEAR_SCREEN, "\\x1b[2J\\x1b[H"),
        (OSC8_LINK, "\\x1b]8;;https://evil.example/\\x07click me\\x1b]8;;\\x07"),
        ("a\x00b", "a\\x00b"),
        ("csi\x9b31m", "csi\\x9b31m"),  # C1 control
        ("invoice\u202egpj.exe", "invoice\\u202egpj.exe"),  # bidi override
        ("over\rwrite", "over\\rwrite"),
        ("back\x08space\x7f", "back\\x08space\\x7f"),
        ("plain text, ünïcödé and emoji 👍", "plain text, ünïcödé and emoji 👍"),
    ],
)
def test_controls_are_shown_as_escapes(raw: str, expected: str) -> None:
    assert visible(raw) == expected


def test_newlines_and_tabs_are_kept_or_shown_by_context() -> None:
    assert visible("a\n\tb") == "a\n\tb"
    assert visible("a\n\tb", one_line=True) == "a\\n\\tb"


def test_shown_redacts_before_it_escapes() -> None:
    assert shown(f"{KEY}\x1b[2J") == "[REDACTED openai_api_key: sk-p…Kl]\\x1b[2J"


def test_rich_markup_in_data_stays_text() -> None:
    from rich.console import Console

    console = Console(record=True, width=200, color_system=None)
    console.print(f"tool: {shown_markup('[bold red]PASS[/bold red] [link=https://x]y[/link]')}")
    assert "[bold red]PASS[/bold red] [link=https://x]y[/link]" in console.export_text()


def run_toolscore(
    *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolscore", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "COLUMNS": "200", **(env or {})},
        timeout=120,
        check=False,
    )


def test_validate_prints_a_hostile_trace_redacted_and_escape_free(tmp_path: Path) -> None:
    pem = (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAsecretbody\n-----END RSA PRIVATE KEY-----"
    )
    trace = tmp_path / "trace.json"
    trace.write_text(
        json.dumps(
            [
                {
                    "tool": f"deploy{CLEAR_SCREEN}{KEY}",
                    "args": {
                        "password": "Hunter2!x",
                        "key": pem,
                        "note": f"{OSC8_LINK} nul\x00 bidi\u202e",
                        "aws": "leak_AKIAIOSFODNN7EXAMPLE",
                    },
                }
            ]
        ),
        encoding="utf-8",
    )
    result = run_toolscore("--no-plugins", "validate", str(trace))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert_terminal_safe(out)
    for secret in (KEY, "Hunter2!x", "MIIEowIBAAKCAQEAsecretbody", "IOSFODNN7EXAMPLE"):
        assert secret not in out
    out = out.replace("\n", "")  # rich wraps long lines
    assert "First tool: deploy\\x1b[2J\\x1b[H[REDACTED openai_api_key: sk-p…Kl]" in out
    assert "'password': '[REDACTED secret_assignment]'" in out
    assert "\\x1b]8;;https://evil.example/\\x07click me" in out
    assert "nul\\x00 bidi\\u202e" in out


def test_an_error_message_quoting_data_is_escape_free(tmp_path: Path) -> None:
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps({"calls": f"not a list{CLEAR_SCREEN}"}), encoding="utf-8")
    result = run_toolscore("--no-plugins", "validate", "--format", "openai", str(trace))
    assert result.returncode != 0
    assert_terminal_safe(result.stderr)
    assert "Traceback" not in result.stderr


def test_plugins_list_shows_a_hostile_plugin_error_escaped(tmp_path: Path) -> None:
    module = tmp_path / "hostile_terminal_plugin.py"
    module.write_text(
        f"raise ImportError({'boom' + CLEAR_SCREEN + OSC8_LINK + chr(0) + KEY!r})\n",
        encoding="utf-8",
    )
    dist = tmp_path / "hostile_terminal_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: hostile-terminal-plugin\nVersion: 0.1\n", encoding="utf-8"
    )
    (dist / "entry_points.txt").write_text(
        "[toolscore]\nhostile = hostile_terminal_plugin\n", encoding="utf-8"
    )
    pythonpath = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    result = run_toolscore("plugins", "list", "-v", env={"PYTHONPATH": pythonpath})
    out = result.stdout
    assert "hostile" in out, result.stderr
    assert_terminal_safe(out)
    assert KEY not in out
    assert "boom\\x1b[2J" in out.replace("\n", "").replace("│", "").replace(" ", "")
