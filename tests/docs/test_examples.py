"""Every ```python and ```bash block of README.md and docs/ runs, and shown output is compared.

How a page's blocks run:

* A ``python`` block runs in a fresh temporary folder holding :data:`FILES` (the small gold,
  trace and dataset files the pages name), after :data:`SETUP` for its page (the objects a
  page takes as given: ``response``, ``my_agent``, a ``result``) and after the page's earlier
  python blocks, so a page reads as one session. A block of hook signatures only
  (``def name(...) -> Type`` lines, docs/plugins/hooks.md) is compiled, not run.
* A ``bash`` block runs its ``toolscore ...`` and ``python ...`` commands (``&&`` and ``\\``
  continuations understood) in that folder; exit 0 or 1 (a check failed: the gating examples)
  pass, a usage error (2) or a traceback fails. Any other command makes the block
  not self-contained: it needs a marker.
* ``<!-- not-run: reason -->`` on the line before a block skips it, with the reason.

Output: ``print(...)  # -> text`` compares what the line prints, ``expr  # -> text`` the
value's repr (or str); a ```text or ```console block right after a block is compared with
everything it printed. ``...`` matches anything; whitespace runs, the temporary folder's path
and timings (``12 ms``, ``0.3s``) are normalised first.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: docs/cli.md is generated from --help (tests/docs/test_cli_reference.py checks it).
PAGES = [
    ROOT / "README.md",
    *sorted(p for p in (ROOT / "docs").rglob("*.md") if p.name != "cli.md"),
]
MAX_NOT_RUN = 18

_FENCE = re.compile(r"^```(\w*)\s*$")
_NOT_RUN = re.compile(r"^<!--\s*not-run:\s*(.*?)\s*-->$")
_ARROW = re.compile(r"^(\s*)(.*?)\s+# -> (.*)$")


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    lang: str
    code: str
    not_run: str | None
    output: str | None

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def _blocks(path: Path) -> list[Block]:
    page = path.relative_to(ROOT).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        lang, code = fence.group(1), "\n".join(lines[i + 1 : end]) + "\n"
        before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        marker = _NOT_RUN.match(before.strip())
        output = None
        after = end + 1
        while after < len(lines) and not lines[after].strip():
            after += 1
        if after < len(lines) and _FENCE.match(lines[after]):
            out_lang = _FENCE.match(lines[after]).group(1)  # type: ignore[union-attr]
            if out_lang in ("text", "console"):
                close = next(j for j in range(after + 1, len(lines)) if lines[j] == "```")
                output = "\n".join(lines[after + 1 : close])
        if lang in ("python", "bash"):
            found.append(
                Block(page, i + 1, lang, code, marker.group(1) if marker else None, output)
            )
        i = end + 1
    return found


BLOCKS = [block for path in PAGES for block in _blocks(path)]

# -- what the pages take as given ------------------------------------------------------------

_OPENAI_WEATHER = """{
    "id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-4o",
    "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": None, "tool_calls": [{
            "id": "call_1", "type": "function",
            "function": {"name": %(name)r, "arguments": %(args)r}}]}}]}"""

FILES: dict[str, str] = {
    "gold.json": '[{"tool": "search", "args": {"q": "paris"}}, {"tool": "book", "args": {"id": 7}}]',
    "trace.json": '[{"tool": "search", "args": {"q": "paris"}}, {"tool": "book", "args": {"id": 7}}]',
    "nightly.jsonl": "\n".join(
        json.dumps(
            {
                "id": f"case-{n}",
                "expected": [{"tool": "search", "args": {"q": "paris"}}],
                "actual": [{"tool": "search", "args": {"q": q}}],
            }
        )
        for n, q in enumerate(["paris", "paris", "rome"], start=1)
    )
    + "\n",
    "functions.json": '[{"name": "get_weather", "description": "Weather for a city.", '
    '"parameters": {"type": "object", "properties": {"city": {"type": "string"}}, '
    '"required": ["city"]}}]',
    "my_server.py": "from toolscore_mcp.sample_server import main\n\nraise SystemExit(main())\n",
    "server.py": "from toolscore_mcp.sample_server import main\n\nraise SystemExit(main())\n",
}

_RESULT = """
import toolscore
result = toolscore.evaluate(
    [{"tool": "search", "args": {"q": "paris"}}], [{"tool": "search", "args": {"q": "paris"}}]
)
"""

SETUP: dict[str, str] = {
    "README.md": (
        "response = "
        + _OPENAI_WEATHER % {"name": "get_weather", "args": '{"city": "NYC"}'}
        + """
def my_agent(prompt):
    return [{"tool": "search_flights", "args": {"destination": "NYC", "date": "2025-06-01"}},
            {"tool": "book_flight", "args": {"flight_id": "FL-1"}}]

def run_agent(prompt):
    return my_agent(prompt)

expected = [{"tool": "search", "args": {"q": "paris"}}]
actual = run1 = run2 = [{"tool": "search", "args": {"q": "paris"}}]
run3 = [{"tool": "search", "args": {"q": "rome"}}]
"""
    ),
    "docs/index.md": "openai_response = "
    + _OPENAI_WEATHER % {"name": "search", "args": '{"q": "paris hotels"}'},
    "docs/reports.md": _RESULT,
    "docs/plugins/writing-plugins.md": _RESULT,
    "docs/plugins/hooks.md": "import toolscore\n",
}

# -- comparing output ------------------------------------------------------------------------

_TIMING = re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|s)\b")


def _normal(text: str, folder: Path | None = None) -> str:
    if folder is not None:
        text = text.replace(str(folder) + os.sep, "").replace(str(folder), ".")
    return " ".join(_TIMING.sub("<time>", text).split())


def same(shown: str, got: str, folder: Path | None = None) -> bool:
    """``got`` reads as the doc shows it (``...`` in the doc matches anything)."""
    parts = _normal(shown).replace(", ...", "...").split("...")  # "[a, ...]" matches "[a]"
    pattern = ".*?".join(re.escape(part) for part in parts)
    return re.fullmatch(pattern, _normal(got, folder), flags=re.S) is not None


def _check_print(shown: str, *values: Any, sep: str = " ") -> None:
    got = sep.join(str(value) for value in values)
    print(got)
    assert same(shown, got), f"the doc shows {shown!r}, the line printed {got!r}"


def _check_value(shown: str, value: Any) -> None:
    assert same(shown, repr(value)) or same(shown, str(value)), (
        f"the doc shows {shown!r}, the value is {value!r}"
    )


def with_checks(code: str) -> str:
    """``code`` with every ``# -> text`` line turned into a comparison."""
    out = []
    for line in code.splitlines():
        arrow = _ARROW.match(line)
        if not arrow:
            out.append(line)
            continue
        indent, statement, shown = arrow.groups()
        if statement.startswith("print(") and statement.endswith(")"):
            out.append(f"{indent}_check_print({shown!r}, {statement[len('print(') : -1]})")
        else:
            out.append(f"{indent}_check_value({shown!r}, {statement})")
    return "\n".join(out) + "\n"


def _is_signatures(code: str) -> bool:
    lines = [line for line in code.splitlines() if line.strip()]
    return bool(lines) and all(
        line.startswith("def ") and not line.rstrip().endswith(":") for line in lines
    )


# -- running ---------------------------------------------------------------------------------


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def _run_python(block: Block, namespace: dict[str, Any], *, check: bool) -> str:
    source = with_checks(block.code) if check else block.code
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(compile(source, f"{block.id}", "exec"), namespace)
    return buffer.getvalue()


def _commands(code: str) -> list[str]:
    joined = re.sub(r"\\\n\s*", " ", code)
    commands = []
    for line in joined.splitlines():
        for part in line.split("&&"):
            words = shlex.split(part, comments=True)
            if words:
                commands.append(part)
    return commands


def _run_bash(block: Block, folder: Path) -> str:
    bin_dir = Path(sys.executable).parent
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "GITHUB_STEP_SUMMARY": str(folder / "summary.md"),
        "NO_COLOR": "1",
        "COLUMNS": "100",
    }
    env.pop("CI", None)
    printed = []
    for command in _commands(block.code):
        words = [os.path.expandvars(w) for w in shlex.split(command, comments=True)]
        words = [w.replace("$GITHUB_STEP_SUMMARY", env["GITHUB_STEP_SUMMARY"]) for w in words]
        if words[0] == "toolscore":
            argv = [shutil.which("toolscore", path=str(bin_dir)) or "toolscore", *words[1:]]
        elif words[0] == "python":
            argv = [sys.executable, *words[1:]]
        else:
            pytest.fail(
                f"{block.id}: {words[0]!r} is not self-contained; mark the block "
                "<!-- not-run: reason --> or show only toolscore/python commands"
            )
        done = subprocess.run(
            argv, cwd=folder, env=env, capture_output=True, text=True, timeout=120, check=False
        )
        report = (
            f"{block.id}: {command.strip()} exited {done.returncode}\n{done.stdout}\n{done.stderr}"
        )
        assert done.returncode in (0, 1), report
        assert "Traceback" not in done.stderr, report
        printed.append(done.stdout)
    return "".join(printed)


RUNNABLE = [block for block in BLOCKS if block.lang in ("python", "bash")]


@pytest.mark.parametrize("block", RUNNABLE, ids=[block.id for block in RUNNABLE])
def test_example(block: Block, folder: Path) -> None:
    if block.not_run is not None:
        pytest.skip(f"not-run: {block.not_run}")
    if block.lang == "bash":
        printed = _run_bash(block, folder)
    elif _is_signatures(block.code):
        compile(re.sub(r"(?m)$", ": ...", block.code.strip()), block.id, "exec")
        return
    else:
        namespace: dict[str, Any] = {
            "__name__": "docs_example",
            "_check_print": _check_print,
            "_check_value": _check_value,
        }
        exec(SETUP.get(block.page, ""), namespace)
        for earlier in RUNNABLE:
            if earlier is block:
                break
            if (
                earlier.page == block.page
                and earlier.lang == "python"
                and earlier.not_run is None
                and not _is_signatures(earlier.code)
            ):
                _run_python(earlier, namespace, check=False)
        printed = _run_python(block, namespace, check=True)
    if block.output is not None:
        assert same(block.output, printed, folder), (
            f"{block.id}: the doc shows\n{block.output}\nthe block printed\n{printed}"
        )


def test_the_pages_have_examples() -> None:
    assert len([b for b in BLOCKS if b.lang == "python"]) >= 60
    assert len([b for b in BLOCKS if b.lang == "bash"]) >= 15


def test_not_run_markers_are_few_and_give_a_reason() -> None:
    skipped = [block for block in BLOCKS if block.not_run is not None]
    assert all(len(block.not_run or "") >= 10 for block in skipped), [b.id for b in skipped]
    assert len(skipped) <= MAX_NOT_RUN, [b.id for b in skipped]


def test_arrow_comments_compare() -> None:
    namespace = {"_check_print": _check_print, "_check_value": _check_value}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(with_checks("x = [1, 2]\nprint(len(x))  # -> 2\nx  # -> [1, ...]\n"), namespace)
        with pytest.raises(AssertionError, match="the doc shows '3'"):
            exec(with_checks("print(2)  # -> 3\n"), namespace)
    assert same("took 1.2s in ./out", "took 0.4s in ./out")
    assert not same("1.0 A", "0.5 F")
    assert same("['a', 'b', ...]", "['a', 'b']")
