"""Output files: regular files are replaced atomically; devices and FIFOs are written through,
never renamed over; folders and sockets are refused; an output never overwrites an input.

Devices are made with ``mknod`` in a temp folder (never the system's ``/dev``), so a
regression cannot break the machine the tests run on.
"""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from toolscore.errors import OutputError
from toolscore.fileio import atomic_write_text

TOOLSCORE = [sys.executable, "-m", "toolscore"]
GOLD = [{"tool": "a", "args": {"x": 1}}]


def _device(folder: Path, name: str, major: int, minor: int) -> Path:
    path = folder / name
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(major, minor))
    except (PermissionError, AttributeError, OSError):
        pytest.skip("making a device node needs root")
    return path


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TOOLSCORE, *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )


def test_a_regular_file_is_replaced_and_keeps_its_permissions(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    target.write_text("old")
    target.chmod(0o600)
    atomic_write_text(target, "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temp file left


def test_through_a_symlink_the_file_is_replaced_and_the_link_stays(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    atomic_write_text(link, "new")
    assert link.is_symlink()
    assert real.read_text() == "new"


def test_a_null_device_is_written_through_and_stays_a_device(tmp_path: Path) -> None:
    null = _device(tmp_path, "null", 1, 3)
    atomic_write_text(null, "x" * 10_000)
    assert stat.S_ISCHR(null.stat().st_mode)


def test_a_full_device_is_a_clear_error_and_stays_a_device(tmp_path: Path) -> None:
    full = _device(tmp_path, "full", 1, 7)
    with pytest.raises(OutputError, match=r"cannot write .*full: No space left on device"):
        atomic_write_text(full, "x" * 10_000)
    assert stat.S_ISCHR(full.stat().st_mode)


def test_a_fifo_is_written_through(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    atomic_write_text(fifo, "through the pipe")
    reader.join(timeout=10)
    assert received == [b"through the pipe"]
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_folders_and_sockets_are_refused(tmp_path: Path, short_tmp: Path) -> None:
    with pytest.raises(OutputError, match="it is a folder"):
        atomic_write_text(tmp_path, "x")
    path = short_tmp / "s.sock"  # a socket path must fit 108 bytes
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        with pytest.raises(OutputError, match="socket"):
            atomic_write_text(path, "x")
    finally:
        server.close()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "gold.json").write_text(json.dumps(GOLD))
    (tmp_path / "trace.json").write_text(json.dumps(GOLD))
    cases = [{"id": f"c{i}", "expected": GOLD, "actual": GOLD} for i in range(5)]
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases))
    return tmp_path


@pytest.mark.parametrize(
    "args",
    [
        ["eval-batch", "cases.jsonl", "--out", "cases.jsonl"],
        ["eval-batch", "cases.jsonl", "--out", "alias.jsonl"],
        ["eval-batch", "cases.jsonl", "--json", "hard.jsonl"],
        ["eval", "gold.json", "trace.json", "-o", "gold.json"],
        ["eval", "gold.json", "trace.json", "--html", "trace.json"],
        ["eval", "gold.json", "trace.json", "--report", "markdown=gold.json"],
    ],
    ids=["same", "symlink", "hard-link", "eval-output", "eval-html", "eval-report"],
)
def test_an_output_onto_an_input_is_refused_before_any_work(project: Path, args: list[str]) -> None:
    (project / "alias.jsonl").symlink_to(project / "cases.jsonl")
    os.link(project / "cases.jsonl", project / "hard.jsonl")
    before = {p.name: p.read_bytes() for p in project.iterdir() if p.is_file()}
    done = _cli(*args, cwd=project)
    assert done.returncode == 2, done.stderr
    assert "writing it would destroy the input" in done.stderr
    assert "Traceback" not in done.stderr
    after = {p.name: p.read_bytes() for p in project.iterdir() if p.is_file()}
    assert after == before


def test_commands_write_through_devices_and_say_why_they_cannot(project: Path) -> None:
    null = _device(project, "null", 1, 3)
    full = _device(project, "full", 1, 7)
    to_null = _cli("eval-batch", "cases.jsonl", "--out", str(null), "--json", "j.json", cwd=project)
    assert to_null.returncode == 0, to_null.stderr
    to_full = _cli("eval-batch", "cases.jsonl", "--json", str(full), cwd=project)
    assert to_full.returncode == 1
    assert f"ERROR cannot write {full}: No space left on device" in to_full.stderr
    assert stat.S_ISCHR(null.stat().st_mode)
    assert stat.S_ISCHR(full.stat().st_mode)


def test_a_report_path_that_is_a_folder_is_one_clear_line(project: Path) -> None:
    done = _cli("eval", "gold.json", "trace.json", "--report", "markdown=.", cwd=project)
    assert done.returncode == 1
    assert "ERROR cannot write .: it is a folder; give a file path" in done.stderr
    assert "Errno" not in done.stderr
