"""Comments and docstrings in the shipped code explain the code, not where it came from.

A reader of ``src/`` should learn the rule and its reason from the text next to it. Pointers
to an outside specification ("SPEC §2.2") or to the product toolscore replaces ("tool-scorer",
"the reference") explain nothing to someone who has neither at hand; the compatibility
departures are listed once, in docs/compat.md, and code that must stay compatible points
there. User-facing strings (messages, ``--help`` text) are not comments and are not checked
for "the reference" (an MCP lint fix may well say "remove the reference").
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
#: Never anywhere in source, strings included.
ANYWHERE = re.compile(r"SPEC §|tool-scorer", re.IGNORECASE)
#: Not in comments or docstrings ("the referenced schema" is fine).
IN_PROSE = re.compile(r"SPEC §|tool-scorer|\bthe reference\b", re.IGNORECASE)


def prose(source: str) -> Iterator[tuple[int, str]]:
    """``(line, text)`` of every comment and every bare string statement (docstrings)."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            yield node.lineno, node.value.value


def offending_lines(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    where = path.relative_to(ROOT)
    found = [
        f"{where}:{number}: {line.strip()}"
        for number, line in enumerate(source.splitlines(), 1)
        if ANYWHERE.search(line)
    ]
    for number, text in prose(source):
        for match in IN_PROSE.finditer(text):
            line = number + text.count("\n", 0, match.start())
            found.append(
                f"{where}:~{line}: ...{text[max(0, match.start() - 30) : match.end() + 30]}"
            )
    return found


def test_the_source_trees_are_found() -> None:
    names = {tree.parent.name for tree in SOURCE_TREES}
    assert {"toolscore-core", "toolscore-mcp", "toolscore-judge"} <= names
    assert {"toolscore-providers", "toolscore-pytest"} <= names


def test_comments_and_docstrings_explain_the_code_not_its_history() -> None:
    found = [
        problem
        for tree in SOURCE_TREES
        for path in sorted(tree.rglob("*.py"))
        for problem in offending_lines(path)
    ]
    assert not found, (
        "say what the rule is and why (docs/compat.md for compatibility departures):\n"
        + "\n".join(found)
    )
