"""Comments and docstrings explain the code and the behaviour, not where they came from.

A reader should learn the rule and its reason from the text next to it. Pointers to an outside
specification ("SPEC §2.2", a bare "§2.4") or to the product toolscore replaces ("tool-scorer",
"the reference") explain nothing to someone who has neither at hand. The compatibility
departures are listed once, in docs/compat.md, each with an anchor; text that must explain a
departure cites it as ``docs/compat.md#anchor``.

The rule, by where the file is:

* Shipped code (every ``*/src`` and ``plugins/*/src`` tree): "SPEC §", a section sign before a
  number and "tool-scorer" appear nowhere, strings included; "the reference" appears in no
  comment or docstring. User-facing strings (messages, ``--help`` text) are not comments and
  are not checked for "the reference" (an MCP lint fix may well say "remove the reference").
* Tests and benchmarks (``tests/``, ``benchmarks/``): no comment or docstring cites a
  specification section ("SPEC §", "§2.9"). A file that runs the reference product side by
  side with ours (its code, not its prose, names the reference interpreter:
  ``TOOLSCORE_REFERENCE_PYTHON``, ``/opt/refvenv`` or ``reference_python``), and every script
  under ``benchmarks/reference/`` (run by the reference's own interpreter), may name
  "tool-scorer" and "the reference" in its prose, because that is the thing it runs. Every
  other file may not: a test describes the behaviour it checks. Strings in tests are data (a
  test may well assert that "tool-scorer" is absent from a generated file) and are not checked.
  This file states the rule, so it is the one file the scan leaves out.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Every shipped source tree: the first-party distributions and the plugins in this repo.
SOURCE_TREES = sorted([*ROOT.glob("*/src"), *ROOT.glob("plugins/*/src")])
#: Test and benchmark code: the same rule for prose, but only for prose.
TEST_TREES = [ROOT / "tests", ROOT / "benchmarks"]
#: A citation of a specification section.
_SPEC = r"SPEC\s*§|§\s*\d"
#: Never anywhere in shipped source, strings included.
ANYWHERE = re.compile(rf"{_SPEC}|tool-scorer", re.IGNORECASE)
#: Not in comments or docstrings ("the referenced schema" is fine).
IN_PROSE = re.compile(rf"{_SPEC}|tool-scorer|\bthe\s+reference\b", re.IGNORECASE)
#: Not in the prose of a file that runs the reference product side by side.
IN_SIDE_BY_SIDE_PROSE = re.compile(_SPEC, re.IGNORECASE)
#: Code (not prose) naming the reference interpreter: the file runs the reference product.
RUNS_THE_REFERENCE = re.compile(r"TOOLSCORE_REFERENCE_PYTHON|/opt/refvenv|\breference_python\b")
#: Scripts run by the reference's own interpreter (the differential test's other side).
RUNS_INSIDE_THE_REFERENCE = "benchmarks/reference/"


def _docstrings(tree: ast.AST) -> Iterator[ast.Expr]:
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            yield node


def prose(source: str) -> Iterator[tuple[int, str]]:
    """``(line, text)`` of every comment and every bare string statement (docstrings)."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in _docstrings(ast.parse(source)):
        assert isinstance(node.value, ast.Constant)
        yield node.lineno, node.value.value


def runs_the_reference(source: str) -> bool:
    """Whether the code outside comments and docstrings names the reference interpreter."""
    in_docstring = {
        line
        for node in _docstrings(ast.parse(source))
        for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)
    }
    return any(
        token.type in (tokenize.NAME, tokenize.STRING)
        and token.start[0] not in in_docstring
        and RUNS_THE_REFERENCE.search(token.string)
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
    )


def violations(source: str, where: str, *, shipped: bool) -> list[str]:
    """Every place in ``source`` that breaks the rule above, as ``where:line: text``."""
    found: list[str] = []
    if shipped:
        pattern = IN_PROSE
        found += [
            f"{where}:{number}: {line.strip()}"
            for number, line in enumerate(source.splitlines(), 1)
            if ANYWHERE.search(line)
        ]
    else:
        side_by_side = runs_the_reference(source) or where.startswith(RUNS_INSIDE_THE_REFERENCE)
        pattern = IN_SIDE_BY_SIDE_PROSE if side_by_side else IN_PROSE
    for number, text in prose(source):
        for match in pattern.finditer(text):
            line = number + text.count("\n", 0, match.start())
            found.append(
                f"{where}:~{line}: ...{text[max(0, match.start() - 30) : match.end() + 30]}"
            )
    return found


def offending_lines(path: Path) -> list[str]:
    """:func:`violations` of one file, with the rule its place in the repository calls for."""
    path = path.resolve()
    shipped = any(path.is_relative_to(tree) for tree in SOURCE_TREES)
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    return violations(path.read_text(encoding="utf-8"), where.as_posix(), shipped=shipped)


def _files(trees: list[Path]) -> list[Path]:
    this = Path(__file__).resolve()
    return [path for tree in trees for path in sorted(tree.rglob("*.py")) if path != this]


def test_the_source_trees_are_found() -> None:
    names = {tree.parent.name for tree in SOURCE_TREES}
    assert {"toolscore-core", "toolscore-mcp", "toolscore-judge"} <= names
    assert {"toolscore-providers", "toolscore-pytest"} <= names
    assert all(tree.is_dir() for tree in TEST_TREES)
    side_by_side = {
        path.relative_to(ROOT).as_posix()
        for path in _files(TEST_TREES)
        if runs_the_reference(path.read_text(encoding="utf-8"))
    }
    assert "tests/core/test_differential.py" in side_by_side
    assert "benchmarks/bench_evaluate.py" in side_by_side
    assert "tests/core/test_alignment.py" not in side_by_side


def test_comments_and_docstrings_explain_the_code_not_its_history() -> None:
    found = [problem for path in _files(SOURCE_TREES) for problem in offending_lines(path)]
    assert not found, (
        "say what the rule is and why (docs/compat.md for compatibility departures):\n"
        + "\n".join(found)
    )


def test_tests_and_benchmarks_describe_the_behaviour() -> None:
    found = [problem for path in _files(TEST_TREES) for problem in offending_lines(path)]
    assert not found, (
        "say what the behaviour is (docs/compat.md#anchor for a departure); only files that run "
        "the reference side by side may name it:\n" + "\n".join(found)
    )


PLANTED = '''\
"""Checks the pairing, as the reference does."""

# see SPEC §2.1
def test_it():
    assert "tool-scorer" not in "a string is data"
'''


def test_the_guard_catches_a_planted_violation(tmp_path: Path) -> None:
    planted = tmp_path / "test_planted.py"
    planted.write_text(PLANTED, encoding="utf-8")
    found = offending_lines(planted)
    assert [problem.split("...", 1)[1] for problem in found] == [
        "# see SPEC §2.1",
        "Checks the pairing, as the reference does.",
    ]
    assert [problem.split(": ", 1)[0].rsplit(":", 1)[1] for problem in found] == ["~3", "~1"]
    # In a file that runs the reference, naming it is allowed; citing the spec is not.
    side_by_side = PLANTED + 'PYTHON = os.environ.get("TOOLSCORE_REFERENCE_PYTHON")\n'
    planted.write_text(side_by_side, encoding="utf-8")
    assert [problem.split("...", 1)[1] for problem in offending_lines(planted)] == [
        "# see SPEC §2.1"
    ]
    # Shipped code is stricter: the string counts too, and a bare section sign is caught.
    shipped = violations(PLANTED.replace("SPEC §2.1", "§2.4"), "src/x.py", shipped=True)
    assert len(shipped) == 4, shipped


def compat_anchors() -> set[str]:
    """The anchors of docs/compat.md: each departure's ``<a id>`` and each heading's slug."""
    text = (ROOT / "docs" / "compat.md").read_text(encoding="utf-8")
    headings = re.findall(r"^#+ (.+)$", text, flags=re.M)
    slugs = {
        re.sub(r"[^\w\- ]", "", heading).strip().lower().replace(" ", "-") for heading in headings
    }
    return set(re.findall(r'<a id="([\w-]+)"></a>', text)) | slugs


def test_every_cited_compat_anchor_exists() -> None:
    anchors = compat_anchors()
    assert {"what-stays-the-same", "perfect-score", "pairing"} <= anchors
    cited = [
        (path.relative_to(ROOT).as_posix(), anchor)
        for path in [*_files(SOURCE_TREES), *_files(TEST_TREES), *sorted(ROOT.glob("docs/**/*.md"))]
        for anchor in re.findall(r"compat\.md#([\w-]+)", path.read_text(encoding="utf-8"))
    ]
    assert len(cited) >= 20
    assert [(where, anchor) for where, anchor in cited if anchor not in anchors] == []
