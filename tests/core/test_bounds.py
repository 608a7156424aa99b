"""What a user's file can make toolscore do is bounded in time and memory (issue 12).

Every check runs the real command line in a subprocess with an address-space limit and a
timeout, so a regression fails in seconds instead of eating the machine: before the bounds,
``generate`` hung on ``minItems: 100000000``, a gold ``$regex`` such as ``(a+)+$`` hung
``eval``, ``validate`` took 32 s on a 10 MB argument and held a trace in memory twice.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

CLI = [sys.executable, "-c", "import sys; from toolscore.cli import main; main(sys.argv[1:])"]
GIB = 1024**3


def _run(
    *args: str, memory: int = 2 * GIB, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``toolscore ARGS`` as a user runs it, within ``memory`` bytes of address space."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run(
        [*CLI, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=limit,
        env={**os.environ, "COLUMNS": "120", "TOOLSCORE_NO_PLUGINS": "1"},
        check=False,
    )


def _write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# -- bounded generation ------------------------------------------------------------------------


def test_generate_writes_small_cases_for_a_schema_that_asks_for_billions(tmp_path: Path) -> None:
    grid = {"type": "array", "minItems": 1000, "items": {"type": "array", "minItems": 1000}}
    schema = _write(
        tmp_path / "tools.json",
        [
            {
                "name": "bulk",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "rows": {"type": "array", "minItems": 100000000},
                        "body": {"type": "string", "minLength": 1e9},
                        "infinite": {"type": "string", "minLength": 1e400},
                        "grid": grid,
                    },
                    "required": ["rows", "body", "grid"],
                },
            }
        ],
    )
    gold = tmp_path / "gold.json"
    done = _run("generate", "--from-openai", str(schema), "-o", str(gold), timeout=60)
    assert done.returncode == 0, done.stderr
    cases = json.loads(gold.read_text())
    assert len(cases) == 10
    assert gold.stat().st_size < 20_000_000
    boundary = [case for case in cases if len(case["args"].get("body", "")) > 100]
    assert boundary, "a huge minLength still gives a long (capped) string at the boundary"
    assert all(len(case["args"]["rows"]) <= 100 for case in cases)


def test_generate_keeps_ordinary_schemas_unchanged(tmp_path: Path) -> None:
    schema = _write(
        tmp_path / "tools.json",
        [
            {
                "name": "search",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "query": {"type": "string", "minLength": 3},
                        "tags": {"type": "array", "minItems": 2, "items": {"type": "string"}},
                    },
                    "required": ["query", "tags"],
                },
            }
        ],
    )
    gold = tmp_path / "gold.json"
    done = _run("generate", "--from-openai", str(schema), "-o", str(gold), "-n", "5")
    assert done.returncode == 0, done.stderr
    boundary = json.loads(gold.read_text())[3]["args"]
    assert boundary["query"] == "aaa"
    assert len(boundary["tags"]) == 2


# -- time-bounded user patterns ----------------------------------------------------------------


def _regex_case(tmp_path: Path, pattern: str, value: str) -> tuple[Path, Path]:
    gold = _write(tmp_path / "gold.json", [{"tool": "t", "args": {"q": {"$regex": pattern}}}])
    trace = _write(tmp_path / "trace.json", [{"tool": "t", "args": {"q": value}}])
    return gold, trace


def test_a_nested_repeat_in_a_gold_regex_does_not_hang_eval(tmp_path: Path) -> None:
    gold, trace = _regex_case(tmp_path, "(a+)+$", "a" * 40 + "!")
    report = tmp_path / "report.json"
    done = _run("eval", str(gold), str(trace), "-o", str(report), timeout=30)
    assert done.returncode == 0, done.stderr
    assert json.loads(report.read_text())["metrics"]["argument_metrics"]["f1"] == 0.0


def test_a_gold_regex_that_backtracks_too_long_is_an_error_naming_it(tmp_path: Path) -> None:
    gold, trace = _regex_case(tmp_path, "(a|aa)+$", "a" * 60 + "!")
    started = time.monotonic()
    done = _run("eval", str(gold), str(trace), "-o", str(tmp_path / "r.json"), timeout=30)
    assert time.monotonic() - started < 20
    assert done.returncode != 0
    output = done.stdout + done.stderr
    assert "regular expression '(a|aa)+$' took more than 1 s" in output, output
    assert "Traceback" not in output


def test_a_forbidden_rule_regex_that_backtracks_is_an_error_not_a_pass(tmp_path: Path) -> None:
    gold = _write(tmp_path / "gold.json", [{"tool": "run", "args": {"cmd": "ls"}}])
    trace = _write(tmp_path / "trace.json", [{"tool": "run", "args": {"cmd": "a" * 60 + "!"}}])
    rules = _write(
        tmp_path / "rules.json", [{"tool": "run", "args": {"cmd": {"$regex": "(a|aa)+$"}}}]
    )
    done = _run(
        "eval",
        str(gold),
        str(trace),
        "--forbidden",
        str(rules),
        "-o",
        str(tmp_path / "r.json"),
        timeout=30,
    )
    assert done.returncode != 0
    assert "'(a|aa)+$' took more than" in done.stdout + done.stderr


def test_a_gold_regex_of_a_billion_repeats_is_refused_when_the_file_loads(tmp_path: Path) -> None:
    gold, trace = _regex_case(tmp_path, "a{1000000000}", "aaa")
    done = _run("eval", str(gold), str(trace), "-o", str(tmp_path / "r.json"), timeout=30)
    assert done.returncode != 0
    output = done.stdout + done.stderr
    assert "$[0].args.q" in output, output
    assert "'a{1000000000}' repeats too much" in output, output


def test_a_gold_schema_pattern_is_time_bounded_too() -> None:
    code = (
        "from toolscore.model import ToolCall\n"
        "from toolscore.validators import validate_argument_schema\n"
        "call = ToolCall(tool='t', args={'q': 'a' * 60 + '!'})\n"
        "try:\n"
        "    validate_argument_schema(call, {'q': {'type': 'string', 'pattern': '(a|aa)+$'}})\n"
        "except ValueError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=False
    )
    assert "'(a|aa)+$' took more than 1 s" in done.stdout, done.stderr


# -- validate: linear in an argument's length, one parse of the file ----------------------------


def test_validate_prints_a_16_mb_argument_in_linear_time(tmp_path: Path) -> None:
    big = "x" * (16 * 1024 * 1024)
    trace = _write(tmp_path / "trace.json", [{"tool": "store", "args": {"blob": big}}])
    started = time.monotonic()
    done = _run("validate", str(trace), timeout=60)
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert "First tool: store" in done.stdout
    assert "more characters)" in done.stdout
    assert len(done.stdout) < 50_000
    assert elapsed < 30


def test_validate_shows_ordinary_arguments_whole(tmp_path: Path) -> None:
    trace = _write(tmp_path / "trace.json", [{"tool": "search", "args": {"q": "weather"}}])
    done = _run("validate", str(trace))
    assert done.returncode == 0, done.stderr
    assert "First args: {'q': 'weather'}" in done.stdout


def test_validate_holds_a_large_trace_in_memory_once(tmp_path: Path) -> None:
    calls = [
        {
            "tool": f"tool_{i % 50}",
            "args": {
                "query": f"some search text {i}",
                "limit": i % 10,
                "filters": {"b": "x" * 100},
            },
            "result": {"ok": True, "items": ["r" * 50] * 3},
        }
        for i in range(82_500)
    ]
    trace = _write(tmp_path / "trace.json", calls)
    size = trace.stat().st_size  # about 34 MB
    # The interpreter with its imports, plus five times the file: one decoded copy fits (about
    # 4.5x), the two copies the command used to hold at once (about 8x) do not.
    done = _run("validate", str(trace), memory=100 * 1024**2 + 5 * size, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Total calls: 82500" in done.stdout
