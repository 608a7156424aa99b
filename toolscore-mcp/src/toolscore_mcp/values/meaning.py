"""What a parameter means, from its name, description and tool, and a value that fits it.

Generic knowledge only: the words people use for paths, repositories, databases, URLs,
timezones, SQL, math, ids and free text, and the kind of value each asks for. Paths point
into the run's sandbox (an existing file of the right extension for readers, a fresh path for
producers, a disposable copy for destroyers); URLs point to the sandbox's loopback server.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.values.providers import Candidate, Parameter, SynthesisContext, name_tokens

__all__ = ["meaning_candidates", "path_kind"]

_PATH_WORDS = frozenset(
    {"path", "paths", "file", "files", "filename", "filepath", "filenames", "dir", "dirs",
     "directory", "directories", "folder", "folders", "repo", "repository", "cwd", "workspace",
     "workdir", "db", "database", "sqlite", "location", "root"}
)  # fmt: skip
_MOVE_WORDS = frozenset({"source", "src", "destination", "dest", "dst", "target", "output", "to"})
_DIR_WORDS = frozenset(
    {"dir", "dirs", "directory", "directories", "folder", "folders", "cwd", "workspace", "workdir",
     "root"}
)  # fmt: skip
#: Tools named with these verbs make a new file or directory at the path they are given.
_CREATING_VERBS = frozenset(
    {"write", "create", "new", "save", "mkdir", "touch", "make", "generate", "export", "put",
     "upload", "move", "rename", "copy"}
)  # fmt: skip
_NEW_WORDS = frozenset({"destination", "dest", "dst", "output", "new", "to", "target", "save"})
_EXTENSION = lazy_pattern(
    r"\.(xlsx|xlsm|xls|csv|json|md|markdown|txt|png|jpe?g|db|sqlite3?|html?|py|ya?ml)\b", re.I
)
_EXTENSION_WORDS = (
    (re.compile(r"excel|workbook|spreadsheet|xlsx", re.I), ".xlsx"),
    (re.compile(r"\bcsv\b", re.I), ".csv"),
    (re.compile(r"\b(?:image|png|picture|photo|screenshot)\b", re.I), ".png"),
    (re.compile(r"\bmarkdown\b", re.I), ".md"),
    (re.compile(r"\bjson file\b", re.I), ".json"),
    (re.compile(r"\b(?:sqlite|database file)\b", re.I), ".db"),
)
_URL_WORDS = frozenset({"url", "urls", "uri", "link", "href", "endpoint", "website", "webpage"})
_FREE_TEXT = frozenset(
    {"content", "contents", "text", "body", "message", "msg", "note", "notes", "comment",
     "description", "prompt", "thought", "summary", "observation", "observations", "caption",
     "reason", "memo", "details", "input", "question", "instructions", "title", "subject", "label"}
)  # fmt: skip
_QUERY_WORDS = frozenset({"query", "q", "search", "keyword", "keywords", "term", "terms", "topic"})
_ID_WORDS = frozenset({"id", "ids", "uuid", "key", "handle", "identifier", "ref", "sha", "hash"})
_COUNT_WORDS = frozenset(
    {"limit", "count", "max", "top", "n", "size", "num", "results", "head", "tail", "lines", "k",
     "length", "depth", "number", "amount", "quantity", "width", "height", "per", "total"}
)  # fmt: skip
_SQL = lazy_pattern(r"\bsql\b|sqlite|\bselect\b|database|\bquery to (?:run|execute)\b", re.I)
_EXPRESSION_WORDS = frozenset({"expression", "expr", "formula", "equation", "calculation", "math"})
_GLOB = lazy_pattern(r"glob|wildcard|\*\.", re.I)


def path_kind(param: Parameter) -> str | None:
    """``repository``, ``database``, ``directory``, ``file`` or None (not a path)."""
    tokens = set(param.tokens)
    text = f"{param.name} {param.description}".lower()
    is_path = bool(tokens & _PATH_WORDS)
    if not is_path and tokens & _MOVE_WORDS:
        context = f"{text} {param.tool.name} {param.tool.description}".lower()
        is_path = bool(re.search(r"path|\bfiles?\b|director|folder|\bmove\b|\brename\b", context))
    if not is_path or param.json_type not in ("string", "array"):
        return None
    if tokens & {"repo", "repository"} or "repository" in text or "git repo" in text:
        return "repository"
    if tokens & {"db", "database", "sqlite"} or re.search(r"\.db\b|sqlite|database file", text):
        return "database"
    if tokens & _DIR_WORDS or (
        re.search(r"\bdirector(?:y|ies)\b|\bfolder\b", text) and "file" not in tokens
    ):
        return "directory"
    tool_tokens = set(name_tokens(param.tool.name))
    if "file" not in tokens and tool_tokens & {"directory", "dir", "tree", "folder", "ls"}:
        return "directory"
    if "file" not in tokens and tool_tokens & {"search", "find", "glob"} and param.name == "path":
        return "directory"
    return "file"


def _extension(param: Parameter) -> str:
    for text in (f"{param.name} {param.description}", param.tool.description):
        match = _EXTENSION.search(text)
        if match:
            ext = match.group(1).lower()
            return {"markdown": ".md", "jpeg": ".jpg", "sqlite3": ".db", "yml": ".yaml"}.get(
                ext, f".{ext}"
            )
        for pattern, extension in _EXTENSION_WORDS:
            if pattern.search(text):
                return extension
    return ""


def _has_base_directory(param: Parameter) -> bool:
    """Does a sibling parameter name the repository or directory this path is relative to?"""
    return any(
        set(Parameter(param.tool, s, {}).tokens) & {"repo", "repository", "cwd", "workdir"}
        for s in param.siblings
        if s != param.name
    )


def _path_value(param: Parameter, kind: str, ctx: SynthesisContext) -> Any:
    sandbox = ctx.sandbox
    assert sandbox is not None
    tokens = set(param.tokens)
    creates = bool(set(name_tokens(param.tool.name)) & _CREATING_VERBS)
    wants_new = creates and kind in ("file", "directory") and not tokens & {"source", "src"}
    wants_new = wants_new or bool(tokens & _NEW_WORDS and kind in ("file", "directory"))
    if kind in ("file",) and _has_base_directory(param):
        return "toolscore-new.txt" if wants_new else "README.md"
    extension = _extension(param) if kind == "file" else ""
    if param.role == "destroyer" and not wants_new:
        return str(sandbox.disposable(extension or kind))
    if wants_new:
        return str(sandbox.new_path("toolscore", extension if kind == "file" else ""))
    if kind == "repository":
        return str(sandbox.root / "repo")
    if kind == "database":
        return str(sandbox.root / "data.db")
    if kind == "directory":
        return str(sandbox.root)
    found = sandbox.file_with_extension(extension) if extension else None
    return str(found or sandbox.root / "notes.txt")


def _paths(param: Parameter, ctx: SynthesisContext) -> Iterator[Candidate]:
    kind = path_kind(param)
    if kind is None:
        return
    many = param.json_type == "array"
    if ctx.sandbox is not None:
        try:
            value = _path_value(param, kind, ctx)
        except ValueError:
            # The path would lead outside the sandbox (a symlink was planted in it) or its
            # source is missing: no sandbox candidate; the others below or the schema's follow.
            value = None
        if value is not None:
            yield Candidate([value] if many else value, "meaning")
        if value is not None and kind == "file" and not many and not _has_base_directory(param):
            other = str(ctx.sandbox.root / "README.md")
            if other != value and param.role == "reader":
                yield Candidate(other, "meaning")
    if kind == "directory" or ctx.sandbox is None:
        for root in ctx.roots:
            yield Candidate([root] if many else root, "discovered")


def _sql(param: Parameter) -> str | None:
    tokens = set(param.tokens)
    context = f"{param.description} {param.tool.name} {param.tool.description}"
    if not (tokens & {"sql", "statement"} or (tokens & {"query"} and _SQL.search(context))):
        return None
    words = f"{param.tool.name} {param.tool.description}".lower()
    tool_tokens = set(name_tokens(param.tool.name))
    if tool_tokens & {"read", "select", "get", "list", "describe", "search", "fetch"} or re.search(
        r"\bselect (?:query|queries|statement)", words
    ):
        return "SELECT * FROM items LIMIT 5"
    if param.role == "destroyer" or tool_tokens & {"drop", "delete"}:
        return "DELETE FROM items WHERE name = 'toolscore'"
    if "create table" in words or re.search(r"create[_ ]table", words):
        return "CREATE TABLE IF NOT EXISTS toolscore_notes (id INTEGER PRIMARY KEY, note TEXT)"
    if re.search(r"\b(?:insert|update|write|execute|modify)\b|write[_ ]query", words):
        return "INSERT INTO items (name, price) VALUES ('toolscore', 1.0)"
    return "SELECT * FROM items LIMIT 5"


def _string_meaning(param: Parameter, ctx: SynthesisContext) -> Iterator[Candidate]:
    """Candidates for a string parameter, from the first rule its words match.

    The rules are tried in order: formats and code here (SQL, URL, email, time zone,
    expression), then :func:`_workspace_meaning`, then :func:`_everyday_meaning`.
    """
    tokens = set(param.tokens)
    name = param.name.lower()
    text = f"{param.name} {param.description}".lower()
    sql = _sql(param)
    if sql is not None:
        yield Candidate(sql, "meaning")
        return
    if tokens & _URL_WORDS or param.schema.get("format") in ("uri", "url", "iri"):
        if ctx.sandbox is not None:
            yield Candidate(ctx.sandbox.url_for("page.html"), "meaning")
            yield Candidate(ctx.sandbox.url_for(""), "meaning")
        yield Candidate("https://example.com", "meaning")
        return
    if "email" in tokens or param.schema.get("format") == "email":
        yield Candidate("user@example.com", "meaning")
        return
    if tokens & {"timezone", "tz", "zone"} or "iana" in text or "time zone" in text:
        yield Candidate("Europe/London", "meaning")
        yield Candidate("UTC", "meaning")
        return
    if tokens & {"expression"} | (tokens & _EXPRESSION_WORDS) or re.search(
        r"math(?:ematical)? expression", text
    ):
        yield Candidate("2 + 3 * 4", "meaning")
        return
    yield from _workspace_meaning(param, ctx, tokens, name, text)


def _workspace_meaning(
    param: Parameter, ctx: SynthesisContext, tokens: set[str], name: str, text: str
) -> Iterator[Candidate]:
    """Git branches and revisions, spreadsheet sheets, ranges and cells, database tables."""
    if tokens & {"branch"} and not tokens & {"type", "kind", "mode"}:
        if tokens & {"base", "start", "source", "from", "target"}:
            yield Candidate("main", "meaning")
            return
        if param.role == "producer" or (tokens & {"new", "name"} and param.role != "reader"):
            yield Candidate(f"toolscore-branch-{ctx.next_serial()}", "meaning")
        yield Candidate("feature" if "checkout" in param.tool.name.lower() else "main", "meaning")
        return
    if tokens & {"revision", "commit", "rev", "sha"} or name in ("target", "ref"):
        yield Candidate("HEAD", "meaning")
        yield Candidate("main", "meaning")
        return
    if tokens & {"sheet", "worksheet"}:
        yield Candidate("Sheet1", "meaning")
        return
    if (tokens & {"range"} and "cell" in text) or tokens & {"range", "cells"}:
        yield Candidate("A1:C4", "meaning")
        return
    if tokens & {"cell"} or (tokens & {"start", "end"} and "cell" in text):
        yield Candidate("C4" if "end" in tokens else "A1", "meaning")
        return
    if tokens & {"table"}:
        yield from _harvested(param, ctx, ("table", "name"))
        yield Candidate("items", "meaning")
        return
    yield from _everyday_meaning(param, ctx, tokens, name, text)


def _everyday_meaning(
    param: Parameter, ctx: SynthesisContext, tokens: set[str], name: str, text: str
) -> Iterator[Candidate]:
    """Languages, places, dates and times, commands, patterns, ids, names and free text."""
    if tokens & {"language", "lang", "locale"}:
        yield Candidate("en-US" if "locale" in tokens else "en", "meaning")
        return
    if tokens & {"country"}:
        yield Candidate("US", "meaning")
        return
    if tokens & {"currency"}:
        yield Candidate("USD", "meaning")
        return
    if tokens & {"city", "location", "place", "address"}:
        yield Candidate("London", "meaning")
        return
    if tokens & {"date", "day"} and "time" not in tokens:
        yield Candidate("2026-01-15", "meaning")
        return
    if tokens & {"datetime", "timestamp"} or (tokens & {"date"} and "time" in tokens):
        yield Candidate("2026-01-15T10:30:00Z", "meaning")
        return
    if tokens == {"time"} or (tokens & {"hour"} and "minute" in text):
        yield Candidate("14:30", "meaning")
        return
    if tokens & {"command", "cmd", "shell", "script"}:
        yield Candidate("echo toolscore", "meaning")
        return
    if tokens & {"pattern", "glob", "regex", "filter"}:
        glob = bool(_GLOB.search(f"{param.description} {param.tool.description}"))
        yield Candidate("*.md" if glob else "toolscore", "meaning")
        return
    if tokens & _ID_WORDS or name.endswith("id"):
        yield from _harvested(param, ctx, ("id", "name"))
        return
    if tokens & {"name", "names", "entity", "entities", "title", "label"}:
        if param.role == "producer":
            yield Candidate(f"toolscore-item-{ctx.next_serial()}", "meaning")
        yield from _harvested(param, ctx, ("name", "id"))
        if param.role != "producer":
            yield Candidate("toolscore-item", "meaning")
        return
    if tokens & _QUERY_WORDS:
        yield Candidate("toolscore", "meaning")
        return
    if tokens & _FREE_TEXT:
        yield Candidate("Hello from toolscore", "plain")
        return
    if "json" in param.description.lower() and "string" in param.description.lower():
        yield Candidate('{"name": "toolscore"}', "meaning")


def _harvested(param: Parameter, ctx: SynthesisContext, keys: tuple[str, ...]) -> Iterator[Any]:
    harvest = ctx.harvested
    if harvest is None:
        return
    for value, setup in harvest.lookup(param.name, param.tool.name, keys):
        yield Candidate(value, "harvested", setup)


def _number_meaning(param: Parameter) -> Iterator[Candidate]:
    tokens = set(param.tokens)
    if tokens & {"page"}:
        yield Candidate(1, "plain")
    elif tokens & {"offset", "skip", "start", "index", "from"}:
        yield Candidate(0, "plain")
    elif tokens & {"latitude", "lat"}:
        yield Candidate(51.5, "meaning")
    elif tokens & {"longitude", "lon", "lng"}:
        yield Candidate(-0.12, "meaning")
    elif "year" in tokens:
        yield Candidate(2026, "plain")
    elif "month" in tokens:
        yield Candidate(6, "plain")
    elif tokens & {"day", "hour"}:
        yield Candidate(12, "plain")
    elif "minute" in tokens:
        yield Candidate(30, "plain")
    elif is_wait(param):
        yield Candidate(shortest_wait(param), "plain")
    elif tokens & {"timeout", "seconds"}:
        yield Candidate(1, "plain")
    elif tokens & _ID_WORDS or param.name.lower().endswith("id"):
        yield Candidate(1, "meaning")
    elif tokens & _COUNT_WORDS:
        yield Candidate(5, "plain")


#: Name words of a number that sets how long a tool waits before it answers.
_WAIT_WORDS = frozenset({"duration", "delay", "sleep", "wait", "pause", "interval"})


def is_wait(param: Parameter) -> bool:
    """Whether ``param`` is a number that sets how long the tool waits (``duration``,
    ``delay_ms``, ``sleep_seconds``): a test run gives it the shortest value it can.

    Why: a demonstration tool that sleeps for its default ten seconds proves nothing more in
    ten seconds than in one, and the run is only as fast as its slowest call. A ``timeout`` is
    no wait: it bounds one, and a short bound can fail a working call.
    """
    return param.json_type in ("integer", "number") and bool(set(param.tokens) & _WAIT_WORDS)


def shortest_wait(param: Parameter) -> int | float:
    """The shortest wait the schema allows, and at least one unit (seconds or milliseconds,
    whichever the tool counts in: one is short either way)."""
    value: int | float = 1
    minimum = _number(param.schema.get("minimum"))
    if minimum is not None and minimum > value:
        value = minimum
    above = _number(param.schema.get("exclusiveMinimum"))
    if above is not None and above >= value:
        value = above + 1
    return value


def _number(value: object) -> int | float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return None


def meaning_candidates(param: Parameter, ctx: SynthesisContext) -> Iterator[Candidate]:
    """Candidates from what the parameter means (the ``meaning`` provider)."""
    kind = param.json_type
    if kind in ("string", "array"):
        if path_kind(param) is not None:
            yield from _paths(param, ctx)
            return
        if kind == "array":
            items = param.schema.get("items")
            item_type = items.get("type") if isinstance(items, dict) else None
            if item_type in (None, "string"):
                for candidate in _string_meaning(param, ctx):
                    yield Candidate([candidate.value], candidate.source, candidate.setup)
            return
        yield from _string_meaning(param, ctx)
    elif kind in ("integer", "number"):
        for candidate in _number_meaning(param):
            value = candidate.value
            if kind == "integer" and isinstance(value, float):
                value = round(value)
            yield Candidate(value, candidate.source)
