"""The ``toolscore`` console script: process settings for one short command, then the CLI.

Why a module of its own: the script's entry point is the first thing imported, so what is set
here applies to every import the command makes. ``toolscore.cli`` stays the click group that
tests and embedders call (``CliRunner().invoke(cli, ...)``), with no effect on their process.

A command imports a few hundred modules and keeps nearly everything it allocates until it
exits, so the cyclic garbage collector has little to find and much to walk:

* its first generation runs every 100,000 container allocations instead of CPython's 700.
  ``toolscore demo`` makes about 60,000, so it never collects (CPython's default spends about
  20 ms walking live objects there). A long command (``eval-batch``, a big server) still
  collects, walking the same objects overall in fewer, larger steps; only cyclic garbage
  waits longer to be freed;
* at exit the survivors are frozen, so the interpreter's last collection skips them rather
  than walking every module's objects a final time. The memory is the operating system's to
  take back a moment later.

Measured with ``gc.callbacks`` and ``benchmarks/bench_mcp.py``: together these take about
40 ms off ``toolscore demo``.
"""

from __future__ import annotations

import gc

#: The first generation's threshold during a command (CPython's default is 700).
FIRST_GENERATION_THRESHOLD = 100_000


def main() -> None:
    """Run the ``toolscore`` command line as the console script does."""
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(FIRST_GENERATION_THRESHOLD, older, oldest)
    try:
        from toolscore.cli import main as cli

        cli()
    finally:
        gc.freeze()


if __name__ == "__main__":
    main()
