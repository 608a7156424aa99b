"""Time the toolscore pytest plugin adds to a session that uses none of it.

A folder holds one trivial test. Each interpreter runs it with the plugin blocked
(``-p no:toolscore``) and with it active; the difference of the medians is the plugin's cost.
Ours: this workspace's interpreter (target <= 15 ms). Reference: tool-scorer 1.10.0, whose
``pytest11`` plugin imports ``toolscore.core``. Its environment has no pytest, so the same
pytest that ours uses is put on its ``PYTHONPATH`` (a folder of links to pytest, pluggy,
iniconfig and packaging; pygments is already there).

Run: ``uv run python benchmarks/bench_pytest_startup.py [--repeats 21]``. Each round runs the
variants in a shuffled order so that machine noise hits them alike. On a busy machine the
medians of whole sessions swing by tens of milliseconds; the minimum and the plugin's own
import time are the steadier figures.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import random
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


def run_once(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run, in seconds.

    CPU time is the steadier figure on a shared machine: waiting for a core does not count.
    """
    start = time.perf_counter()
    child = subprocess.Popen(
        argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    output = child.stdout.read() if child.stdout else b""
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{output.decode(errors='replace')}")
    return elapsed, usage.ru_utime + usage.ru_stime


IMPORT_PROBE = (
    "import time, pytest; start = time.perf_counter(); import {module}; "
    "print((time.perf_counter() - start) * 1000)"
)


def import_ms(python: str, module: str, env: dict[str, str], repeats: int) -> float:
    """Median time to import the plugin module in a fresh interpreter that has pytest loaded."""
    probe = IMPORT_PROBE.format(module=module)
    runs = [
        float(
            subprocess.run(
                [python, "-c", probe], env=env, capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(repeats)
    ]
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=21)
    args = parser.parse_args()

    base_env = {
        k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "PYTHONPATH", "CI")
    }
    # Other third-party plugins (hypothesis, xdist, anyio, ...) are blocked in every run: they
    # cost the same with and without ours and only add noise to the difference.
    common = ["-m", "pytest", "-q", "-p", "no:cacheprovider"]
    for name in OTHER_PLUGINS:
        common += ["-p", f"no:{name}"]
    common.append("test_trivial.py")

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "project"
        work.mkdir()
        (work / "test_trivial.py").write_text(TRIVIAL_TEST, encoding="utf-8")
        variants: dict[str, tuple[list[str], dict[str, str]]] = {
            "ours without": ([sys.executable, *common, "-p", "no:toolscore"], base_env),
            "ours with": ([sys.executable, *common], base_env),
        }
        imports = {
            "ours": ("toolscore_pytest.plugin, toolscore_pytest.state", sys.executable, base_env)
        }
        reference = reference_python()
        if reference:
            ref_env = {**base_env, "PYTHONPATH": str(pytest_links(Path(tmp) / "ref-pytest"))}
            variants["ref without"] = ([reference, *common, "-p", "no:toolscore"], ref_env)
            variants["ref with"] = ([reference, *common], ref_env)
            imports["ref"] = ("toolscore.pytest_plugin", reference, ref_env)

        wall: dict[str, list[float]] = {name: [] for name in variants}
        cpu: dict[str, list[float]] = {name: [] for name in variants}
        for argv, env in variants.values():
            run_once(argv, work, env)  # warm caches and .pyc files
        order = list(variants)
        shuffler = random.Random(20240501)
        for _ in range(args.repeats):
            shuffler.shuffle(order)  # no variant always runs right after another
            for name in order:
                argv, env = variants[name]
                elapsed, used = run_once(argv, work, env)
                wall[name].append(elapsed)
                cpu[name].append(used)
        import_cost = {
            who: import_ms(python, module, env, args.repeats)
            for who, (module, python, env) in imports.items()
        }

    def median_ms(series: dict[str, list[float]], name: str) -> float:
        return statistics.median(series[name]) * 1000

    def min_ms(series: dict[str, list[float]], name: str) -> float:
        return min(series[name]) * 1000

    rows: list[list[object]] = []
    for who, label in (("ours", "toolscore-pytest"), ("ref", "tool-scorer 1.10.0")):
        if who not in import_cost:
            continue
        off, on = f"{who} without", f"{who} with"
        rows.append(
            [
                label,
                f"{median_ms(wall, off):.1f}",
                f"{median_ms(wall, on) - median_ms(wall, off):+.1f}",
                f"{min_ms(wall, on) - min_ms(wall, off):+.1f}",
                f"{median_ms(cpu, on) - median_ms(cpu, off):+.1f}",
                f"{import_cost[who]:.1f}",
            ]
        )
    print_table(
        f"pytest session with one trivial test, {args.repeats} runs of each (target: ours <= +15 ms)",
        [
            "plugin",
            "blocked ms",
            "added wall (median)",
            "added wall (min)",
            "added CPU (median)",
            "plugin import ms",
        ],
        rows,
    )
    if not reference:
        print("(no reference interpreter found; set TOOLSCORE_REFERENCE_PYTHON)")


if __name__ == "__main__":
    main()
