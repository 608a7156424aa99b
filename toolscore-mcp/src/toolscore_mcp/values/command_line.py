"""Paths a server was given on its command line, by kind.

``mcp-server-git --repository /x/repo`` works on ``/x/repo``; ``--db-path /x/data.db`` on that
database; a bare folder argument is the folder the server may touch. Every path parameter of
that kind then gets the same path: the server was told where its things are.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from toolscore_mcp.values.providers import name_tokens

__all__ = ["command_line_paths"]

_REPOSITORY = frozenset({"repo", "repository", "git"})
_DATABASE = frozenset({"db", "database", "sqlite"})
_DIRECTORY = frozenset({"dir", "directory", "root", "folder", "workspace", "cwd", "base"})
_DATABASE_FILE = re.compile(r"\.(?:db|sqlite3?|duckdb)$", re.I)


def _kind(option: str, path: Path) -> str | None:
    words = set(name_tokens(option))
    if path.is_dir():
        if words & _REPOSITORY or (path / ".git").exists():
            return "repository"
        if words & _DATABASE:
            return None
        return "directory"
    if path.is_file() and (words & _DATABASE or _DATABASE_FILE.search(path.name)):
        return "database"
    return None


def command_line_paths(argv: Sequence[str]) -> dict[str, str]:
    """Kind (``repository``, ``database``, ``directory``) -> the first existing absolute path
    of that kind among the arguments (``--opt PATH``, ``--opt=PATH`` or a bare ``PATH``)."""
    found: dict[str, str] = {}
    previous = ""
    for index, raw in enumerate(argv):
        if index == 0:
            continue
        option, value = previous, raw
        if raw.startswith("-") and "=" in raw:
            option, value = raw.split("=", 1)
        previous = raw if raw.startswith("-") else ""
        if not value.startswith("/") or len(value) > 4096:
            continue
        try:
            kind = _kind(option, Path(value))
        except OSError:
            continue
        if kind is not None:
            found.setdefault(kind, value)
    return found
