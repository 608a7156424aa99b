"""Time the toolscore pytest plugin adds to a session that uses none of it.

A folder holds one trivial test. Each interpreter runs it with the plugin blocked
(``-p no:toolscore``) and with it active; the difference of the medians is the plugin's cost.
Ours: this workspace's interpreter (target <= 15 ms). Reference: tool-scorer 1.10.0, whose
``pytest11`` plugin imports ``toolscore.core``. Its environment has no pytest, so the same
pytest that ours uses is put on its ``PYTHONPATH`` (a folder of links to pytest, pluggy,
iniconfig and packaging; pygments is already there).

Run: ``uv run python benchmarks/bench_pytest_startup.py [--repeats 21]``. Runs alternate
between the variants so that machine noise hits them alike.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import print_table, reference_python

TRIVIAL_TEST = "def test_nothing():\n    assert 1 + 1 == 2\n"
PYTEST_PARTS = ("pytest", "pluggy", "iniconfig", "packaging")
OTHER_PLUGINS = ("hypothesispytest", "xdist", "xdist.looponfail", "anyio", "platformdirs")


def pytest_links(folder: Path) -> Path:
    """A folder of symlinks to this interpreter's pytest and its dependencies (with metadata)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in PYTEST_PARTS:
        dist = importlib.metadata.distribution(name)
        for file in dist.files or ():
            top = file.parts[0]
            if top.endswith(".dist-info") or top in {
                "pytest",
                "_pytest",
                "pluggy",
                "iniconfig",
                "packaging",
                "py.py",
            }:
                source = Path(str(dist.locate_file(top)))
                target = folder / top
                if source.exists() and not target.exists():
                    target.symlink_to(source)
    return folder


def run_once(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stdout}\n{done.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=21)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "project"
        work.mkdir()
        (work / "test_trivial.py").write_text(TRIVIAL_TEST, encoding="utf-8")
        base_env = {
            k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "PYTHONPATH", "CI")
        }
        # Other third-party plugins (hypothesis, xdist, anyio, ...) are blocked in every run:
        # they cost the same with and without ours and only add noise to the difference.
        quiet = [f"-p no:{name}" for name in OTHER_PLUGINS]
        common = [
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            *" ".join(quiet).split(),
            "test_trivial.py",
        ]
        variants: dict[str, tuple[list[str], dict[str, str]]] = {
            "ours without": ([sys.executable, *common, "-p", "no:toolscore"], base_env),
            "ours with": ([sys.executable, *common], base_env),
        }
        reference = reference_python()
        if reference:
            links = pytest_links(Path(tmp) / "ref-pytest")
            ref_env = {**base_env, "PYTHONPATH": str(links)}
            variants["ref without"] = ([reference, *common, "-p", "no:toolscore"], ref_env)
            variants["ref with"] = ([reference, *common], ref_env)

        times: dict[str, list[float]] = {name: [] for name in variants}
        for argv, env in variants.values():
            run_once(argv, work, env)  # warm caches and .pyc files
        for _ in range(args.repeats):
            for name, (argv, env) in variants.items():
                times[name].append(run_once(argv, work, env))

    def ms(name: str) -> float:
        return statistics.median(times[name]) * 1000

    rows: list[list[object]] = []
    for who, label in (("ours", "toolscore-pytest"), ("ref", "tool-scorer 1.10.0")):
        if f"{who} with" not in times:
            continue
        added = ms(f"{who} with") - ms(f"{who} without")
        rows.append(
            [label, f"{ms(f'{who} without'):.1f}", f"{ms(f'{who} with'):.1f}", f"{added:+.1f}"]
        )
    print_table(
        f"pytest session with one trivial test, median of {args.repeats} runs each (target: ours <= +15 ms)",
        ["plugin", "-p no:toolscore ms", "plugin active ms", "added ms"],
        rows,
    )
    if not reference:
        print("(no reference interpreter found; set TOOLSCORE_REFERENCE_PYTHON)")


if __name__ == "__main__":
    main()
