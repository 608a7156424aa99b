"""match_trajectory and evaluate(match=...) at N = 10, 1,000 and 10,000 calls.

Run: ``uv run python benchmarks/bench_matching.py``. The trace is the gold shuffled, with a
fraction of values changed and extra calls added, over 20 tools (the realistic shape: calls
share tools, some repeat exactly). The "x prev" column is time(N) / time(previous N): N grows
100x from 10 to 1,000 and 10x from 1,000 to 10,000, so linear growth reads about 100 and 10
(quadratic would read 10,000 and 100). The "one tool" rows put every call under one tool name,
the worst case for bucketing, which the argument index keeps near linear.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import toolscore


def _case(n: int, tools: int, seed: int = 1) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rng = random.Random(seed)
    gold = [
        {
            "tool": f"tool{rng.randrange(tools)}",
            "args": {"id": rng.randrange(n), "lang": rng.choice(["en", "fr"]), "q": f"q{i % 50}"},
        }
        for i in range(n)
    ]
    trace = [dict(call, args=dict(call["args"])) for call in gold]
    for call in rng.sample(trace, max(1, n // 20)):
        call["args"]["id"] = -1  # a wrong value
    trace += [{"tool": f"tool{rng.randrange(tools)}", "args": {"id": -2}} for _ in range(n // 10)]
    rng.shuffle(trace)
    return gold, trace


def _time(fn: Callable[[], Any], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    rows = []
    for label, tools in (("20 tools", 20), ("one tool", 1)):
        previous: dict[str, float] = {}
        for n in (10, 1_000, 10_000):
            gold, trace = _case(n, tools)
            repeats = 7 if n <= 1000 else 3
            jobs = {
                "match_trajectory(superset, superset)": lambda g=gold, t=trace: (
                    toolscore.match_trajectory(g, t, mode="superset", args="superset")
                ),
                "match_trajectory(unordered, exact)": lambda g=gold, t=trace: (
                    toolscore.match_trajectory(g, t, mode="unordered")
                ),
                "evaluate(match=superset)": lambda g=gold, t=trace: toolscore.evaluate(
                    g, t, match={"mode": "superset", "args": "superset"}
                ),
                "evaluate() default": lambda g=gold, t=trace: toolscore.evaluate(g, t),
            }
            for name, job in jobs.items():
                seconds = _time(job, repeats)
                ratio = seconds / previous[name] if name in previous else None
                previous[name] = seconds
                rows.append((label, name, n, seconds, ratio))
    print(f"{'calls':>8}  {'N':>6}  {'seconds':>9}  {'x prev':>7}  what")
    for label, name, n, seconds, ratio in rows:
        grow = f"{ratio:7.1f}" if ratio is not None else "       "
        print(f"{label:>8}  {n:>6}  {seconds:9.4f}  {grow}  {name}")


if __name__ == "__main__":
    main()
