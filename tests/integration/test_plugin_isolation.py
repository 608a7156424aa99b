"""A broken plugin or distribution never takes ``toolscore`` down, and is always named.

Each test builds real distributions (a ``*.dist-info`` folder plus a module) in a temporary site
directory, puts it on ``PYTHONPATH`` and runs the real ``toolscore`` command in a subprocess, so
the plugins load exactly as an installed one would: through the ``toolscore`` entry-point group.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]


def write_distribution(
    site: Path,
    name: str,
    *,
    source: str | None = None,
    entry_points: bytes | None = None,
    metadata: bytes | None = None,
    version: str = "0.1",
) -> None:
    """Install ``name`` into ``site``: module ``<name>_plugin`` and a ``[toolscore]`` entry point.

    ``entry_points`` / ``metadata`` replace the generated files byte for byte (to break them).
    """
    module = f"{name}_plugin"
    if source is not None:
        (site / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    info = site / f"{name}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_bytes(
        metadata
        if metadata is not None
        else f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    )
    (info / "entry_points.txt").write_bytes(
        entry_points
        if entry_points is not None
        else f"[toolscore]\n{name.removeprefix('toolscore_')} = {module}\n".encode()
    )


@pytest.fixture
def site(tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    return folder


@pytest.fixture
def run(site: Path, tmp_path: Path) -> Run:
    """Run ``toolscore ARGS`` with ``site`` on the path, in ``tmp_path``."""

    def call(
        args: Sequence[str], extra_env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PYTHONPATH": str(site)}
        for name in ("TOOLSCORE_NO_PLUGINS", "TOOLSCORE_LOAD_PLUGINS", "TOOLSCORE_STRICT_PLUGINS"):
            env.pop(name, None)
        env.update(extra_env or {})
        return subprocess.run(
            [sys.executable, "-c", "from toolscore.cli import main; main()", *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=120,
            check=False,
        )

    return call


def listed(run: Run) -> dict[str, dict[str, object]]:
    result = run(["plugins", "list", "--json"])
    assert result.returncode == 0, result.stderr
    return {p["name"]: p for p in json.loads(result.stdout)["plugins"]}


def one_line(text: str) -> str:
    return " ".join(text.split())


EXITS_AT_IMPORT = """
    import sys

    sys.exit(3)
"""


def test_a_plugin_calling_sys_exit_at_import_is_named_and_help_still_works(
    site: Path, run: Run
) -> None:
    write_distribution(site, "toolscore_exits", source=EXITS_AT_IMPORT)
    result = run(["--help"])
    assert result.returncode == 0, result.stderr
    assert "Usage:" in result.stdout
    assert "  eval" in result.stdout
    assert "toolscore: plugin 'exits' (toolscore_exits) failed to load: SystemExit: 3" in one_line(
        result.stderr
    )
    record = listed(run)["exits"]
    assert record["status"] == "failed"
    assert record["distribution"] == "toolscore_exits"
    assert record["error"] == "SystemExit: 3"


def test_a_plugin_calling_sys_exit_in_a_hook_is_named_and_help_still_works(
    site: Path, run: Run
) -> None:
    write_distribution(
        site,
        "toolscore_exits_in_hook",
        source="""
            import sys

            import toolscore


            @toolscore.hookimpl
            def toolscore_register_commands(cli):
                sys.exit("no commands for you")


            @toolscore.hookimpl
            def toolscore_register_metrics():
                raise SystemExit(5)
        """,
    )
    result = run(["--help"])
    assert result.returncode == 0, result.stderr
    assert "  eval" in result.stdout
    assert listed(run)["exits_in_hook"]["status"] == "failed"
    evaluated = run(["plugins", "list"])
    assert evaluated.returncode == 0
    assert "exits_in_hook" in evaluated.stdout


def test_keyboard_interrupt_in_a_plugin_still_interrupts(site: Path, run: Run) -> None:
    write_distribution(site, "toolscore_interrupts", source="raise KeyboardInterrupt\n")
    result = run(["--help"])
    assert result.returncode != 0
    assert "Usage:" not in result.stdout


def test_bad_bytes_in_entry_points_name_the_distribution_which_is_skipped(
    site: Path, run: Run
) -> None:
    write_distribution(
        site,
        "toolscore_bad_bytes",
        source="raise RuntimeError('must never be imported')\n",
        entry_points=b"[toolscore]\nbad_bytes = toolscore_bad_bytes_plugin # caf\xe9\n",
    )
    result = run(["--help"])
    assert result.returncode == 0, result.stderr
    assert "  eval" in result.stdout
    assert (
        "toolscore: distribution 'toolscore_bad_bytes' skipped: malformed distribution metadata: "
        "entry_points.txt is not UTF-8 (byte 0xe9 at offset"
    ) in one_line(result.stderr)
    record = listed(run)["toolscore_bad_bytes"]
    assert record["status"] == "failed"
    assert record["version"] == "0.1"
    assert str(record["error"]).startswith(
        "malformed distribution metadata: entry_points.txt is not UTF-8 (byte 0xe9"
    )
    assert str(record["location"]).endswith("toolscore_bad_bytes-0.1.dist-info")


def test_unreadable_metadata_names_the_distribution_which_is_skipped(site: Path, run: Run) -> None:
    write_distribution(
        site,
        "toolscore_bad_metadata",
        version="2.0",
        source="raise RuntimeError('must never be imported')\n",
        metadata=b"Metadata-Version: 2.1\nName: toolscore_bad_\xff\xfemetadata\nVersion: 2.0\n",
    )
    write_distribution(
        site,
        "toolscore_nameless",
        source="raise RuntimeError('must never be imported')\n",
        metadata=b"Metadata-Version: 2.1\nVersion: 0.1\n",
    )
    write_distribution(site, "toolscore_fine", source="")
    result = run(["--help"])
    assert result.returncode == 0, result.stderr
    assert "distribution 'toolscore_bad_metadata' skipped" in result.stderr
    assert "distribution 'toolscore_nameless' skipped" in result.stderr
    records = listed(run)
    assert records["toolscore_bad_metadata"]["status"] == "failed"
    assert records["toolscore_bad_metadata"]["version"] == "2.0"
    assert "METADATA is not UTF-8 (byte 0xff" in str(records["toolscore_bad_metadata"]["error"])
    assert records["toolscore_nameless"]["error"] == (
        "malformed distribution metadata: METADATA has no Name header"
    )
    assert records["fine"]["status"] == "active"


def test_a_broken_distribution_that_is_not_a_plugin_is_not_our_business(
    site: Path, run: Run
) -> None:
    write_distribution(
        site,
        "unrelated",
        entry_points=b"[console_scripts]\nunrelated = unrelated:main # \xff\n",
        metadata=b"Name: unrelated\xff\n",
    )
    result = run(["--help"])
    assert result.returncode == 0, result.stderr
    assert "unrelated" not in result.stderr
    assert "unrelated" not in listed(run)


def test_strict_mode_turns_a_broken_distribution_into_an_error(site: Path, run: Run) -> None:
    write_distribution(site, "toolscore_bad_bytes", entry_points=b"[toolscore]\nx = y\xff\n")
    listing = run(["plugins", "list", "--strict", "--json"])
    assert listing.returncode == 1
    names = [p["name"] for p in json.loads(listing.stdout)["plugins"] if p["status"] == "failed"]
    assert names == ["toolscore_bad_bytes"]
    strict = run(["plugins", "list"], {"TOOLSCORE_STRICT_PLUGINS": "1"})
    assert strict.returncode != 0
    assert "distribution 'toolscore_bad_bytes' is skipped: malformed" in one_line(strict.stderr)


RAISING_DETECTOR = """
    import toolscore


    @toolscore.hookimpl
    def toolscore_detect_format(payload, plugin_manager):
        raise RuntimeError("detector exploded")
"""


def test_a_raising_detector_is_dropped_for_the_run_not_the_evaluation(
    site: Path, run: Run, tmp_path: Path
) -> None:
    write_distribution(site, "toolscore_bad_detector", source=RAISING_DETECTOR)
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps([{"tool": "search", "args": {"q": "x"}}]))
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps({"calls": [{"tool": "search", "args": {"q": "x"}}]}))
    result = run(["eval", str(gold), str(trace), "-o", "report.json"])
    assert result.returncode == 0, result.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["summary"]["score"] == 1.0
    warning = one_line(result.stderr)
    assert (
        "toolscore: plugin 'bad_detector' (toolscore_bad_detector) toolscore_detect_format "
        "raised RuntimeError: detector exploded; it is skipped in toolscore_detect_format"
    ) in warning
    assert warning.count("detector exploded") == 1, "warned once"
    assert listed(run)["bad_detector"]["status"] == "active", "only a run that hit it knows"
