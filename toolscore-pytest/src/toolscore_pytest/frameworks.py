"""The agent frameworks ``toolscore init`` knows, and how to recognise them in a project.

Detection reads declared dependencies first (``pyproject.toml`` in all its dependency
tables, then every ``requirements*.txt``); only when those name no framework does it scan
up to 200 Python files for imports. Results are ordered from the most specific framework to
the bare provider SDKs; nothing found means ``["generic"]``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

#: Framework key -> label, in specificity order (detection results are listed in this order).
FRAMEWORKS: dict[str, str] = {
    "langgraph": "LangGraph",
    "pydantic_ai": "Pydantic AI",
    "openai_agents": "OpenAI Agents SDK",
    "crewai": "CrewAI",
    "claude_agent_sdk": "Claude Agent SDK",
    "openai": "OpenAI (raw SDK)",
    "anthropic": "Anthropic (raw SDK)",
    "generic": "Generic / any framework",
}

#: Normalised distribution name -> framework key.
DISTRIBUTIONS: dict[str, str] = {
    "langgraph": "langgraph",
    "pydantic-ai": "pydantic_ai",
    "pydantic-ai-slim": "pydantic_ai",
    "openai-agents": "openai_agents",
    "crewai": "crewai",
    "claude-agent-sdk": "claude_agent_sdk",
    "openai": "openai",
    "anthropic": "anthropic",
}

#: Top-level import name -> framework key (the OpenAI Agents SDK is imported as ``agents``).
IMPORTS: dict[str, str] = {
    "langgraph": "langgraph",
    "pydantic_ai": "pydantic_ai",
    "agents": "openai_agents",
    "crewai": "crewai",
    "claude_agent_sdk": "claude_agent_sdk",
    "openai": "openai",
    "anthropic": "anthropic",
}

SKIP_DIRS = frozenset(
    {".venv", "venv", "node_modules", ".git", "__pycache__", ".tox", "build", "dist"}
)
MAX_SCANNED_FILES = 200

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_IMPORT = re.compile(r"^\s*(?:from|import)\s+([A-Za-z_][A-Za-z0-9_]*)", re.MULTILINE)


def requirement_name(line: str) -> str:
    """``"pydantic_ai[openai]>=0.1 ; python_version>'3'  # x"`` -> ``"pydantic-ai"``."""
    text = line.split("#", 1)[0].strip()
    match = _NAME.match(text)
    return match.group(0).lower().replace("_", "-") if match else ""


def _known(names: Iterable[str]) -> set[str]:
    found = set()
    for name in names:
        key = DISTRIBUTIONS.get(requirement_name(name))
        if key:
            found.add(key)
    return found


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, list):
        yield from (item for item in value if isinstance(item, str))


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def _read_toml(path: Path) -> dict[str, Any] | None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10 reads pyproject only when tomli is installed
        try:
            import tomli as tomllib  # type: ignore[import-not-found]
        except ModuleNotFoundError:
            return None
    try:
        data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return data


def from_pyproject(path: Path) -> set[str]:
    """Frameworks named in ``project.dependencies``, optional and PEP 735 groups, and Poetry."""
    data = _read_toml(path)
    if data is None:
        return set()
    project = _table(data, "project")
    names = list(_strings(project.get("dependencies")))
    for group in _table(project, "optional-dependencies").values():
        names.extend(_strings(group))
    for group in _table(data, "dependency-groups").values():
        names.extend(_strings(group))
    names.extend(str(key) for key in _table(_table(_table(data, "tool"), "poetry"), "dependencies"))
    return _known(names)


def from_requirements(text: str) -> set[str]:
    """Frameworks in a requirements file; comment and option lines (``#``, ``-r``...) are skipped."""
    lines = [
        line
        for line in text.splitlines()
        if line.strip() and not line.lstrip().startswith(("#", "-"))
    ]
    return _known(lines)


def from_imports(root: Path) -> set[str]:
    """Frameworks imported by up to 200 ``*.py`` files under ``root`` (virtualenvs etc. skipped)."""
    found: set[str] = set()
    scanned = 0
    for path in sorted(root.rglob("*.py")):
        if SKIP_DIRS.intersection(path.relative_to(root).parts):
            continue
        if scanned >= MAX_SCANNED_FILES:
            break
        scanned += 1
        try:
            text = path.read_text(encoding="utf-8", errors="ignore")
        except OSError:
            continue
        found.update(IMPORTS[m] for m in _IMPORT.findall(text) if m in IMPORTS)
    return found


def detect_frameworks(root: Path) -> list[str]:
    """The frameworks a project at ``root`` uses, most specific first; ``["generic"]`` if none."""
    root = Path(root)
    found: set[str] = set()
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        found |= from_pyproject(pyproject)
    for requirements in sorted(root.glob("requirements*.txt")):
        try:
            found |= from_requirements(requirements.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
    if not found:
        found = from_imports(root)
    ordered = [key for key in FRAMEWORKS if key in found]
    return ordered or ["generic"]
