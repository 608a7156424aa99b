"""eval-batch as a process: Ctrl-C, an existing --out, --workers bounds, and workers that never
outlive their parent. Real subprocesses and real signals throughout."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from batch_support import make_dataset, sorted_lines
from toolscore.batch.worker_process import MAX_WORKERS_PER_CPU, capped_workers

TOOLSCORE = [sys.executable, "-m", "toolscore"]
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*TOOLSCORE, *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )


def _as_from_a_terminal() -> None:
    # A job started in the background by a script inherits SIGINT ignored, and Python then
    # never raises KeyboardInterrupt; a command typed at a terminal has the default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*TOOLSCORE, *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True, preexec_fn=_as_from_a_terminal,
    )  # fmt: skip


def _wait_for_lines(path: Path, at_least: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= at_least:
            return
        time.sleep(0.02)
    raise AssertionError(f"{path} never reached {at_least} lines")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_saves_whole_lines_says_how_to_resume_and_exits_130(
    tmp_path: Path, workers: str
) -> None:
    make_dataset(tmp_path / "cases.jsonl", 20_000, seed=11)
    out = tmp_path / "out.jsonl"
    args = ["eval-batch", "cases.jsonl", "--workers", workers, "--batch-size", "16"]
    proc = _start([*args, "--out", str(out)], tmp_path)
    _wait_for_lines(out, 64)
    os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole group
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "Aborted!" not in stderr
    saved = out.read_bytes()
    assert saved.endswith(b"\n"), "the line being written is finished"
    done = saved.count(b"\n")
    assert 0 < done < 20_000, "the interrupt must land mid-run"
    assert f"Interrupted: {done} case result(s) are saved in {out}." in stderr
    (command,) = [line for line in stderr.splitlines() if line.startswith("Continue with: ")]
    resume = shlex.split(command.removeprefix("Continue with: "))
    assert resume[:2] == ["toolscore", "eval-batch"]
    assert "--resume" in resume
    finished = _cli(*resume[1:], cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr
    whole = _cli("eval-batch", "cases.jsonl", "-w", "1", "--out", "whole.jsonl", cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    assert sorted_lines(out) == sorted_lines(tmp_path / "whole.jsonl")


def test_an_existing_out_is_refused_without_resume_or_overwrite(tmp_path: Path) -> None:
    make_dataset(tmp_path / "cases.jsonl", 20)
    first = _cli("eval-batch", "cases.jsonl", "-w", "1", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    before = (tmp_path / "results.jsonl").read_bytes()
    again = _cli("eval-batch", "cases.jsonl", "-w", "1", cwd=tmp_path)
    assert again.returncode == 2
    assert "results.jsonl already holds results" in again.stderr
    assert "--resume" in again.stderr
    assert "--overwrite" in again.stderr
    assert (tmp_path / "results.jsonl").read_bytes() == before
    (tmp_path / "before.jsonl").write_bytes(before)
    replaced = _cli("eval-batch", "cases.jsonl", "-w", "1", "--overwrite", cwd=tmp_path)
    assert replaced.returncode == 0, replaced.stderr
    assert sorted_lines(tmp_path / "results.jsonl") == sorted_lines(tmp_path / "before.jsonl")


def test_the_log_counts_cases_as_the_summary_does(tmp_path: Path) -> None:
    make_dataset(tmp_path / "cases.jsonl", 40)
    with (tmp_path / "cases.jsonl").open("a") as handle:
        handle.write("not json\n")
        handle.write('{"id": "c00001", "expected": [], "actual": []}\n')
    done = _cli("eval-batch", "cases.jsonl", "-w", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "40 cases, mean score" in done.stdout
    assert "2 bad record(s) skipped" in done.stdout
    assert "eval-batch: 40 cases (2 bad record(s) skipped)" in done.stderr


def test_workers_are_capped_per_cpu_and_at_the_work_units() -> None:
    assert capped_workers(3, cpus=2) == (3, "")
    many, warning = capped_workers(10_000, cpus=2)
    assert many == 2 * MAX_WORKERS_PER_CPU
    assert "--workers 10000 capped at 8" in warning
    few, warning = capped_workers(8, cpus=2, work_units=3)
    assert few == 3
    assert "3 work unit(s)" in warning


def test_a_huge_workers_value_starts_few_processes_and_says_so(tmp_path: Path) -> None:
    make_dataset(tmp_path / "cases.jsonl", 200)
    done = _cli("eval-batch", "cases.jsonl", "--workers", "10000", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "\nWarning: --workers 10000 capped at" in "\n" + done.stderr
    assert "RuntimeWarning" not in done.stderr
    assert json.loads((tmp_path / "toolscore-batch.json").read_text())["cases"] == 200


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_workers_exit_when_the_parent_is_killed(tmp_path: Path) -> None:
    make_dataset(tmp_path / "cases.jsonl", 20_000, seed=4)
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen(
        [*TOOLSCORE, "eval-batch", "cases.jsonl", "-w", "2", "--batch-size", "16",
         "--out", str(out)],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    _wait_for_lines(out, 64)
    workers = _children(proc.pid)
    assert workers, "the pool's workers are running"
    proc.send_signal(signal.SIGKILL)  # the parent alone, not its group
    proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.05)
    assert not [pid for pid in workers if _alive(pid)], "orphaned workers live on"
