"""No distribution's modules import each other in a cycle, function-level imports included.

A cycle hidden in a function (``a`` imports ``b`` at the top, ``b`` imports ``a`` inside a
function) still ties the two modules together: neither can be understood, tested or moved
alone. Imports under ``if TYPE_CHECKING:`` are left out (they never run).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "toolscore-core" / "src"


def _modules(src: Path) -> dict[str, Path]:
    found = {}
    for path in src.rglob("*.py"):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imported(tree: ast.AST, known: dict[str, Path]) -> Iterator[str]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(sub) for sub in ast.walk(node))
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                yield full if full in known else node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.args[0].value


def import_graph(src: Path) -> dict[str, set[str]]:
    """Module -> the toolscore modules it imports anywhere (the nearest known module)."""
    known = _modules(src)
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        for target in _imported(ast.parse(path.read_text(encoding="utf-8")), known):
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_core_has_no_import_cycles() -> None:
    graph = import_graph(SRC)
    assert "toolscore.evaluation" in graph
    assert not cycles(graph), cycles(graph)


@pytest.mark.parametrize(
    ("distribution", "a_module"),
    [
        ("toolscore-mcp", "toolscore_mcp.grading.harness"),
        ("toolscore-providers", "toolscore_providers.openai"),
        ("toolscore-pytest", "toolscore_pytest.plugin"),
        ("toolscore-judge", "toolscore_judge.config"),
    ],
)
def test_no_distribution_has_import_cycles(distribution: str, a_module: str) -> None:
    graph = import_graph(SRC.parents[1] / distribution / "src")
    assert a_module in graph
    assert not cycles(graph), cycles(graph)


def test_a_cycle_inside_a_function_is_found(tmp_path: Path) -> None:
    pkg = tmp_path / "toolscore"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "a.py").write_text("from toolscore.b import thing\n", encoding="utf-8")
    (pkg / "b.py").write_text(
        "def thing():\n    from toolscore.a import other\n    return other\n", encoding="utf-8"
    )
    assert cycles(import_graph(tmp_path)) == [["toolscore.a", "toolscore.b"]]
