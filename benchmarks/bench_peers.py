"""Where users meet toolscore, side by side with its peers: tool-scorer 1.10.0 and agentevals.

Usage::

    uv run python benchmarks/bench_peers.py               # 5 interleaved rounds
    uv run python benchmarks/bench_peers.py --rounds 9 --json results.json

Three workloads over the same 300 seeded cases of 6 to 14 calls (20 tools, 2 to 5 arguments:
strings, ints, bools, lists, nested objects; the actual calls are the expected ones shuffled,
with dropped, extra and changed calls):

* ``evaluate(expected, call dicts)`` — ours and tool-scorer's ``toolscore.evaluate``;
* ``evaluate(expected, raw OpenAI chat completion)`` — the actual calls as the
  ``choices[0].message.tool_calls`` of a chat completion dict (JSON-string arguments), format
  detected by each implementation;
* ``match_trajectory`` on OpenAI chat messages (``{"messages": [...]}`` with a user turn, one
  assistant message per call and its tool result, a final answer) in the ``strict``,
  ``unordered`` and ``superset`` modes — ours (``toolscore.match_trajectory``) against
  agentevals' ``create_trajectory_match_evaluator``, evaluator built once per mode.

Each implementation runs in its own interpreter, executing this file with ``--worker``: ours
is this interpreter (with toolscore-providers as the only plugin distribution,
``TOOLSCORE_LOAD_PLUGINS=toolscore-providers``, what a user of raw responses installs);
tool-scorer and agentevals are installed by this script into their own virtual environments
(``uv venv`` + ``uv pip install``) under ``--venvs`` (default ``~/.cache/toolscore-bench``),
or ``$TOOLSCORE_REFERENCE_PYTHON`` for tool-scorer. Every worker times the whole workload
(300 cases) several times in one process and reports CPU time per case (best and median); the
rounds alternate the implementations so that load from other processes hits them alike. The
table shows the best of all rounds and the median of the round medians.

Verdicts are compared: our scores must equal tool-scorer's case by case (on call dicts and on
raw responses), and our trajectory verdicts must equal agentevals' (the cases have no repeated
identical calls, so agentevals' first-fit pairing finds a pairing whenever one exists).

Targets (issue 27): evaluate <= 0.30x tool-scorer on call dicts and on raw responses;
trajectory match <= 0.20x agentevals. Start-up: ``benchmarks/bench_startup.py``.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

N_CASES = 300
SEED = 27
TOOLS = [f"tool_{k:02d}" for k in range(20)]
MODES = ("strict", "unordered", "superset")
TOOL_SCORER = "tool-scorer==1.10.0"
AGENTEVALS = "agentevals==0.0.9"
WORKLOADS = ("evaluate_dicts", "evaluate_raw", *(f"trajectory_{m}" for m in MODES))
#: Which peer runs which workload.
PEERS = {"evaluate_dicts": "tool-scorer", "evaluate_raw": "tool-scorer"} | {
    f"trajectory_{m}": "agentevals" for m in MODES
}


# -- the cases -----------------------------------------------------------------------------------


def _args(rng: random.Random, serial: int) -> dict[str, Any]:
    args: dict[str, Any] = {"query": f"item-{serial}-{rng.randrange(10**6)}"}
    optional = [
        ("limit", lambda: rng.randint(1, 500)),
        ("verbose", lambda: rng.random() < 0.5),
        ("tags", lambda: [f"t{rng.randrange(1000)}" for _ in range(rng.randint(1, 3))]),
        (
            "filters",
            lambda: {"lang": rng.choice(["en", "de", "fr"]), "page": {"n": rng.randint(1, 9)}},
        ),
    ]
    rng.shuffle(optional)
    for key, make in optional[: rng.randint(1, 4)]:
        args[key] = make()
    return args


def make_cases(n: int = N_CASES, seed: int = SEED) -> list[dict[str, Any]]:
    """``n`` cases ``{"expected", "actual"}`` of 6 to 14 expected calls each."""
    rng = random.Random(seed)
    serial = 0
    cases = []
    for _ in range(n):
        expected = []
        for _ in range(rng.randint(6, 14)):
            serial += 1
            expected.append({"tool": rng.choice(TOOLS), "args": _args(rng, serial)})
        actual = copy.deepcopy(expected)
        roll = rng.random()
        if roll < 0.15:
            pass  # identical
        elif roll < 0.35:
            rng.shuffle(actual)
        elif roll < 0.55:  # extra calls (a superset), maybe shuffled
            for _ in range(rng.randint(1, 3)):
                serial += 1
                actual.insert(
                    rng.randrange(len(actual) + 1),
                    {"tool": rng.choice(TOOLS), "args": _args(rng, serial)},
                )
            if rng.random() < 0.5:
                rng.shuffle(actual)
        elif roll < 0.75:  # a changed argument
            call = rng.choice(actual)
            call["args"][rng.choice(list(call["args"]))] = f"changed-{serial}"
        elif roll < 0.9:  # a dropped call
            del actual[rng.randrange(len(actual))]
        else:  # a wrong tool name
            call = rng.choice(actual)
            call["tool"] = "tool_" + str(99 - TOOLS.index(call["tool"]))
        cases.append({"expected": expected, "actual": actual})
    return cases


def completion(calls: list[dict[str, Any]], case: int) -> dict[str, Any]:
    """An OpenAI chat completion (as JSON) whose message makes ``calls``."""
    return {
        "id": f"chatcmpl-{case}",
        "object": "chat.completion",
        "created": 1_700_000_000 + case,
        "model": "gpt-4o-2024-08-06",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": f"call_{case}_{k}",
                            "type": "function",
                            "function": {"name": c["tool"], "arguments": json.dumps(c["args"])},
                        }
                        for k, c in enumerate(calls)
                    ],
                },
            }
        ],
        "usage": {"prompt_tokens": 120, "completion_tokens": 40, "total_tokens": 160},
    }


def messages(calls: list[dict[str, Any]], case: int) -> dict[str, Any]:
    """OpenAI chat messages of an agent run that made ``calls``, one per assistant turn."""
    out: list[dict[str, Any]] = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": f"Please handle request {case}."},
    ]
    for k, call in enumerate(calls):
        call_id = f"call_{case}_{k}"
        out.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": call["tool"], "arguments": json.dumps(call["args"])},
                    }
                ],
            }
        )
        out.append({"role": "tool", "tool_call_id": call_id, "content": json.dumps({"ok": k})})
    out.append({"role": "assistant", "content": "Done."})
    return {"messages": out}


# -- the workers -----------------------------------------------------------------------------------


def _timed(run: Any, cases: list[Any], repeats: int) -> tuple[float, float, list[Any]]:
    """(best, median) CPU seconds per case over ``repeats`` passes of ``run`` over ``cases``."""
    clock = time.process_time
    verdicts = [run(case) for case in cases]  # warm-up, and the verdicts
    samples = []
    for _ in range(repeats):
        start = clock()
        for case in cases:
            run(case)
        samples.append((clock() - start) / len(cases))
    return min(samples), statistics.median(samples), verdicts


def worker(implementation: str, workload: str, repeats: int) -> None:
    cases = make_cases()
    if workload.startswith("trajectory_"):
        mode = workload.removeprefix("trajectory_")
        inputs = [
            (messages(c["expected"], k), messages(c["actual"], k)) for k, c in enumerate(cases)
        ]
        if implementation == "agentevals":
            from agentevals.trajectory.match import create_trajectory_match_evaluator

            evaluator = create_trajectory_match_evaluator(trajectory_match_mode=mode)

            def run(pair: Any) -> Any:
                return bool(evaluator(outputs=pair[1], reference_outputs=pair[0])["score"])
        else:
            import toolscore

            def run(pair: Any) -> Any:
                return bool(toolscore.match_trajectory(pair[0], pair[1], mode=mode))
    else:
        import toolscore

        raw = workload == "evaluate_raw"
        inputs = [
            (c["expected"], completion(c["actual"], k) if raw else c["actual"])
            for k, c in enumerate(cases)
        ]

        def run(pair: Any) -> Any:
            return toolscore.evaluate(pair[0], pair[1]).score

    best, median, verdicts = _timed(run, inputs, repeats)
    json.dump({"best": best, "median": median, "verdicts": verdicts}, sys.stdout)


# -- the driver ------------------------------------------------------------------------------------


def _venv_python(venvs: Path, name: str, requirement: str) -> str:
    """The interpreter of a virtual environment holding ``requirement``, made if missing."""
    python = venvs / name / "bin" / "python"
    module = "toolscore" if name == "tool-scorer" else "agentevals"
    if python.exists():
        check = subprocess.run([str(python), "-c", f"import {module}"], capture_output=True)
        if check.returncode == 0:
            return str(python)
    uv = shutil.which("uv")
    if uv is None:
        raise SystemExit("uv is needed to install the peers (or set TOOLSCORE_REFERENCE_PYTHON)")
    print(f"installing {requirement} into {venvs / name} ...", file=sys.stderr)
    subprocess.run([uv, "venv", "-q", "--allow-existing", str(venvs / name)], check=True)
    subprocess.run([uv, "pip", "install", "-q", "--python", str(python), requirement], check=True)
    return str(python)


def _run(python: str, implementation: str, workload: str, repeats: int) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["TOOLSCORE_LOAD_PLUGINS"] = "toolscore-providers"
    argv = [python, str(Path(__file__).resolve()), "--worker", implementation, workload]
    argv += ["--repeats", str(repeats)]
    done = subprocess.run(argv, capture_output=True, text=True, cwd="/", env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{implementation} {workload} failed:\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _agree(workload: str, ours: list[Any], theirs: list[Any]) -> int:
    """How many cases disagree."""
    if workload.startswith("evaluate"):
        return sum(abs(a - b) > 1e-9 for a, b in zip(ours, theirs, strict=True))
    return sum(a != b for a, b in zip(ours, theirs, strict=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--repeats", type=int, default=5, help="passes per worker (default 5)")
    parser.add_argument(
        "--venvs",
        type=Path,
        default=Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "toolscore-bench",
        help="where the peers' virtual environments live",
    )
    parser.add_argument("--only", choices=WORKLOADS, action="append", help="run these workloads")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    options = parser.parse_args()
    if options.worker:
        worker(options.worker[0], options.worker[1], options.repeats)
        return

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _common import print_table

    workloads = options.only or list(WORKLOADS)
    pythons = {"ours": sys.executable}
    if any(PEERS[w] == "tool-scorer" for w in workloads):
        reference = os.environ.get("TOOLSCORE_REFERENCE_PYTHON")
        pythons["tool-scorer"] = reference or _venv_python(
            options.venvs, "tool-scorer", TOOL_SCORER
        )
    if any(PEERS[w] == "agentevals" for w in workloads):
        pythons["agentevals"] = _venv_python(options.venvs, "agentevals", AGENTEVALS)

    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for round_number in range(options.rounds):
        for workload in workloads:
            order = ["ours", PEERS[workload]]
            if round_number % 2:
                order.reverse()
            for implementation in order:
                result = _run(pythons[implementation], implementation, workload, options.repeats)
                runs.setdefault((implementation, workload), []).append(result)

    rows = []
    report: dict[str, Any] = {"cases": N_CASES, "rounds": options.rounds, "workloads": {}}
    for workload in workloads:
        peer = PEERS[workload]
        figures = {}
        for implementation in ("ours", peer):
            results = runs[(implementation, workload)]
            figures[implementation] = (
                min(r["best"] for r in results) * 1e6,
                statistics.median(r["median"] for r in results) * 1e6,
                results[-1]["verdicts"],
            )
        ours, theirs = figures["ours"], figures[peer]
        disagree = _agree(workload, ours[2], theirs[2])
        agree_text = "all agree" if not disagree else f"{disagree} DISAGREE"
        if workload.startswith("trajectory"):
            agree_text += f" ({sum(ours[2])} match)"
        rows.append(
            [
                workload,
                peer,
                f"{ours[0]:.1f}",
                f"{ours[1]:.1f}",
                f"{theirs[0]:.1f}",
                f"{theirs[1]:.1f}",
                f"{ours[0] / theirs[0]:.3f}x",
                f"{ours[1] / theirs[1]:.3f}x",
                agree_text,
            ]
        )
        report["workloads"][workload] = {
            "peer": peer,
            "ours_best_us": ours[0],
            "ours_median_us": ours[1],
            "peer_best_us": theirs[0],
            "peer_median_us": theirs[1],
            "disagreements": disagree,
        }
    print_table(
        f"CPU time per case (µs), {N_CASES} cases of 6-14 calls, {options.rounds} interleaved "
        "rounds (best of all, median of round medians)",
        [
            "workload",
            "peer",
            "ours best",
            "ours median",
            "peer best",
            "peer median",
            "ratio best",
            "ratio median",
            "verdicts",
        ],
        rows,
    )
    if options.json:
        options.json.write_text(json.dumps(report, indent=2) + "\n")
    if any(r["disagreements"] for r in report["workloads"].values()):
        raise SystemExit("verdicts differ between the implementations")


if __name__ == "__main__":
    main()
