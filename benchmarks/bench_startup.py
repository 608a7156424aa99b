"""`import toolscore` and `toolscore --help`: ours vs the reference tool-scorer 1.10.0.

Targets (issue 2): import <= 0.5x the reference, --help <= 0.7x. Run: ``uv run python
benchmarks/bench_startup.py`` (set TOOLSCORE_REFERENCE_PYTHON to the reference's interpreter).
Wall times are medians of repeated fresh processes; each is a separate interpreter start.
"""

from __future__ import annotations

import sys
from pathlib import Path

from _common import print_table, reference_python, time_command

HELP = "from toolscore.cli import main; import sys; sys.argv=['toolscore','--help']; main()"


def measure(python: str) -> dict[str, float]:
    bare, _ = time_command([python, "-c", "pass"])
    imported, _ = time_command([python, "-c", "import toolscore"])
    helped, _ = time_command([python, "-c", HELP])
    return {"python": bare, "import": imported, "help": helped}


def main() -> None:
    ours = measure(sys.executable)
    reference = reference_python()
    theirs = measure(reference) if reference else None
    rows = []
    for key, label, target in (
        ("import", "import toolscore", 0.5),
        ("help", "toolscore --help", 0.7),
    ):
        our_ms = (ours[key] - ours["python"]) * 1000
        row: list[object] = [label, f"{ours[key] * 1000:.1f}", f"{our_ms:.1f}"]
        if theirs:
            ref_ms = (theirs[key] - theirs["python"]) * 1000
            row += [
                f"{theirs[key] * 1000:.1f}",
                f"{ref_ms:.1f}",
                f"{ours[key] / theirs[key]:.2f}x",
                f"{our_ms / ref_ms:.2f}x",
                f"<= {target}x",
            ]
        rows.append(row)
    header = [
        "what",
        "ours ms",
        "ours -python",
        "ref ms",
        "ref -python",
        "ratio",
        "ratio -python",
        "target",
    ]
    print_table(
        f"startup (interpreter alone: ours {ours['python'] * 1000:.1f} ms)",
        header[: len(rows[0])],
        rows,
    )
    if not theirs:
        print(f"(no reference interpreter found; set TOOLSCORE_REFERENCE_PYTHON) {Path.cwd()}")


if __name__ == "__main__":
    main()
