"""What a parameter means, from its name, description and tool, and a value that fits it.

Generic knowledge only: the words people use for paths, repositories, databases, URLs,
timezones, SQL, math, ids and free text, and the kind of value each asks for. Paths point
into the run's sandbox (an existing file of the right extension for readers, a fresh path for
producers, a disposable copy for destroyers); URLs point to the sandbox's loopback server.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.values.positions import position_value
from toolscore_mcp.values.providers import Candidate, Parameter, SynthesisContext, name_tokens
from toolscore_mcp.values.roles import is_destructive, makes_a_part

__all__ = ["extensions_in", "fits_meaning", "meaning_candidates", "path_kind", "wants_new_path"]

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
    r"\.(xlsx|xlsm|xls|csv|json|md|markdown|txt|png|jpe?g|db|sqlite3?|html?|py|ya?ml|pdf|docx|"
    r"pptx)\b",
    re.I,
)
_EXTENSION_WORDS = (
    (re.compile(r"\bpdf\b", re.I), ".pdf"),
    (re.compile(r"\b(?:docx|word document)\b", re.I), ".docx"),
    (re.compile(r"\b(?:pptx|powerpoint|presentation)\b", re.I), ".pptx"),
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


#: Name words of a value that identifies or fingerprints a file rather than locating it.
_DIGEST_WORDS = frozenset({"hash", "sha", "checksum", "digest", "id", "uuid", "etag"})


def path_kind(param: Parameter) -> str | None:
    """``repository``, ``database``, ``directory``, ``file`` or None (not a path)."""
    tokens = set(param.tokens)
    if tokens & _DIGEST_WORDS:
        return None  # ``file_hash``, ``file_id``: about a file, not where it is
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


def _own_extension(param: Parameter) -> str:
    """The extension the parameter's own name or description asks for, or ""."""
    return _extension(param, own=True)


def extensions_in(text: str) -> list[str]:
    """Every file extension ``text`` names, by suffix (``.xlsx``) or by word ("a PDF")."""
    found = [
        {"markdown": ".md", "jpeg": ".jpg", "sqlite3": ".db", "yml": ".yaml"}.get(ext, f".{ext}")
        for ext in (match.lower() for match in _EXTENSION.findall(text))
    ]
    found += [extension for pattern, extension in _EXTENSION_WORDS if pattern.search(text)]
    return list(dict.fromkeys(found))


def _extension(param: Parameter, *, own: bool = False) -> str:
    """The extension a path parameter asks for: its own name and description first, then
    the tool's name (``write_pdf``), then the tool's description when that names one kind
    of file only (a writer that lists five formats asks for none in particular)."""
    texts = [(" ".join(param.tokens), False), (f"{param.name} {param.description}", False)]
    if not own:
        texts.append((" ".join(name_tokens(param.tool.name)), False))
        texts.append((param.tool.description, True))
    for text, needs_one in texts:
        found = extensions_in(text)
        if found and (len(found) == 1 or not needs_one):
            return found[0]
    return ""


def _has_base_directory(param: Parameter) -> bool:
    """Does a sibling parameter name the repository or directory this path is relative to?"""
    return any(
        set(Parameter(param.tool, s, {}).tokens) & {"repo", "repository", "cwd", "workdir"}
        for s in param.siblings
        if s != param.name
    )


def wants_new_path(param: Parameter, kind: str | None = None) -> bool:
    """Does the path parameter name a file or folder the tool makes (``write_file.path``,
    ``export(output)``), rather than one that must exist (``copy(source)``)?"""
    kind = kind or path_kind(param)
    if kind not in ("file", "directory"):
        return False
    tokens = set(param.tokens)
    creates = bool(set(name_tokens(param.tool.name)) & _CREATING_VERBS)
    if creates and makes_a_part(param.tool):
        creates = False  # ``create_chart(path)``: the chart goes into a file that exists
    return (creates and not tokens & {"source", "src"}) or bool(tokens & _NEW_WORDS)


def _path_value(param: Parameter, kind: str, ctx: SynthesisContext) -> Any:
    sandbox = ctx.sandbox
    assert sandbox is not None
    wants_new = wants_new_path(param, kind)
    if kind in ("file",) and _has_base_directory(param):
        return "toolscore-new.txt" if wants_new else "README.md"
    extension = _own_extension(param) or ctx.paths.get(f"extension:{param.name}", "")
    extension = (extension or _extension(param)) if kind == "file" else ""
    moves = bool(set(name_tokens(param.tool.name)) & {"move", "rename", "mv"})
    if (param.role == "destroyer" or moves) and not wants_new:
        # What a call takes away (deletes, or moves elsewhere) is a copy made for it.
        return str(sandbox.disposable(extension or kind))
    if wants_new:
        return str(sandbox.new_path("toolscore", extension if kind == "file" else ""))
    if kind in ctx.paths:
        return ctx.paths[kind]
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
        created = list(_created_files(param, ctx)) if kind == "file" else []
        if value is not None:
            yield Candidate([value] if many else value, "meaning")
        for path, setup in created[:1]:
            # A file this run's tools made: the next one to open it (it came from them).
            if path != value:
                yield Candidate([path] if many else path, "harvested", setup)
        if value is not None and kind == "file" and not many and not _has_base_directory(param):
            other = str(ctx.sandbox.root / "README.md")
            if other != value and param.role == "reader":
                yield Candidate(other, "meaning")
    if kind == "directory" or ctx.sandbox is None:
        for root in ctx.roots:
            yield Candidate([root] if many else root, "discovered")


def _base64_file(param: Parameter, ctx: SynthesisContext) -> str | None:
    """A sandbox file of the kind the tool handles, base64-encoded (the text file if none)."""
    import base64
    from pathlib import Path

    sandbox = ctx.sandbox
    assert sandbox is not None
    extension = _extension(param)
    found = sandbox.file_with_extension(extension) if extension else None
    path = Path(str(found or sandbox.root / "notes.txt"))
    try:
        data = path.read_bytes()[: 1 << 20]
    except OSError:
        return None
    return base64.b64encode(data).decode("ascii")


def _created_files(param: Parameter, ctx: SynthesisContext) -> Iterator[tuple[str, Any]]:
    """Files this run's producers made, of the extension the parameter asks for (if any),
    for tools that open an existing file (not one that makes a new one)."""
    harvest = ctx.harvested
    if harvest is None or not hasattr(harvest, "created") or _has_base_directory(param):
        return
    if wants_new_path(param, "file"):
        return
    extension = _own_extension(param) or ctx.paths.get(f"extension:{param.name}", "")
    extension = extension or _extension(param)
    for path, setup in harvest.created("file"):
        if isinstance(path, str) and (not extension or path.lower().endswith(extension)):
            yield path, setup


_CREATE_NOTES = "CREATE TABLE IF NOT EXISTS toolscore_notes (id INTEGER PRIMARY KEY, note TEXT)"


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
        return _CREATE_NOTES
    if re.search(r"\b(?:insert|update|write|execute|modify)\b|write[_ ]query", words):
        return "INSERT INTO items (name, price) VALUES ('toolscore', 1.0)"
    return "SELECT * FROM items LIMIT 5"


_SQL_NAME = lazy_pattern(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")


def _listed_tables(ctx: SynthesisContext) -> Iterator[tuple[str, Any]]:
    """Tables a tool of this run named (a listing, a ``CREATE TABLE``), quoted if need be."""
    harvest = ctx.harvested
    if harvest is None:
        return
    for value, setup in harvest.lookup("table", "", ("table_name",)):
        if not isinstance(value, str) or not value or len(value) > 63 or '"' in value:
            continue
        if value.startswith("sqlite_"):
            continue
        yield (value if _SQL_NAME.match(value) else f'"{value}"'), setup


_BARE_KEY = lazy_pattern(r"([{,]\s*)([A-Za-z_]\w*)\s*:")
_SINGLE_QUOTED = lazy_pattern(r"'((?:[^'\\\n]|\\.)*)'")


def json_example(description: str) -> str | None:
    """The JSON text of an object or list written out in a description ("e.g. [{name:
    'Parse the file', description: '...'}]"), JavaScript-style keys and quotes allowed; or
    None. A string parameter that holds structured text gets its author's own example."""
    for opening in ("[{", "{"):
        start = description.find(opening)
        if start < 0:
            continue
        depth, end = 0, -1
        for index in range(start, len(description)):
            char = description[index]
            depth += char in "[{"
            depth -= char in "]}"
            if depth == 0:
                end = index + 1
                break
        if end < 0:
            continue
        # Bare keys are quoted outside strings only ("type: 'TO_MODIFY: to change, ...'").
        parts = _SINGLE_QUOTED.split(description[start:end])
        literal = "".join(
            json.dumps(part) if index % 2 else _BARE_KEY.sub(r'\1"\2":', part)
            for index, part in enumerate(parts)
        )
        try:
            value = json.loads(literal)
        except ValueError:
            continue
        if isinstance(value, (list, dict)) and value:
            return json.dumps(value, ensure_ascii=False)
    return None


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
        if sql.startswith("SELECT"):
            for table, setup in _listed_tables(ctx):
                yield Candidate(f"SELECT * FROM {table} LIMIT 5", "harvested", setup)
        yield Candidate(sql, "meaning")
        # The database may not be the sandbox's (a fresh file, another engine): statements
        # that need no table of ours, for a repair to fall back on.
        if sql.startswith("INSERT"):
            yield Candidate(_CREATE_NOTES, "meaning")
        if not sql.startswith(("DELETE", "CREATE")):
            yield Candidate("SELECT 42 AS toolscore_answer", "meaning")
        return
    if ctx.sandbox is not None and (
        "base64" in tokens or param.schema.get("contentEncoding") == "base64"
    ):
        encoded = _base64_file(param, ctx)
        if encoded is not None:
            yield Candidate(encoded, "meaning")
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
    if (
        len(tokens) <= 2
        and re.search(r"\bcell\b", param.description, re.I)
        and not (tokens & _FREE_TEXT)
    ):
        # "Top-left cell.": where a block goes; beside the data for a tool that writes.
        yield Candidate("A1" if param.role == "reader" else "F1", "meaning")
        yield Candidate("A1", "meaning")
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
        if param.role == "producer" or tokens & {"new"}:
            yield Candidate(f"toolscore-item-{ctx.next_serial()}", "meaning")
        if tokens & {"new"}:
            return  # a new name is one nothing has yet
        yield from _harvested(param, ctx, ("name", "id"))
        if param.role != "producer":
            yield Candidate("toolscore-item", "meaning")
        return
    if tokens & {"page", "pages"}:
        yield Candidate("1", "meaning")  # a page number or range, as text: the first page
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
    # A destroyer's target is only ever something this run's producers made.
    made_only = is_destructive(param.tool)
    for value, setup in harvest.lookup(param.name, param.tool.name, keys, made_only=made_only):
        if fits_meaning(param, value):
            yield Candidate(value, "harvested", setup)


_HEX = lazy_pattern(r"^[0-9a-fA-F]{4,64}$")
_PATH_LIKE = lazy_pattern(r"[/\\]|^~|^\.{1,2}$|\.[A-Za-z0-9]{1,8}$")
_WORD = lazy_pattern(r"^[A-Za-z]+$")
_PROSE = frozenset(
    {"before", "after", "the", "a", "an", "and", "or", "not", "is", "be", "must", "should",
     "path", "file", "directory", "folder", "value", "true", "false", "none", "null", "error"}
)  # fmt: skip


def fits_meaning(param: Parameter, value: Any) -> bool:
    """Could ``value`` be what the parameter means? A path parameter takes a path (never a
    plain word such as "before"), a hash a hexadecimal digest or a revision name (never a
    path), an id no path or sentence, a URL a URL. Values of other meanings always fit."""
    enum = param.schema.get("enum")
    if (isinstance(enum, list) and value in enum) or param.schema.get("const", ...) == value:
        return True  # the schema vouches for it, whatever the name suggests
    if isinstance(value, list):
        return all(fits_meaning(param, item) for item in value)
    if not isinstance(value, str):
        return True
    tokens = set(param.tokens)
    kind = path_kind(param)
    if kind is not None:
        # A bare word is a path only as a folder's name, and never a word of prose.
        return bool(_PATH_LIKE.search(value)) or (
            kind == "directory" and bool(_WORD.match(value)) and value.lower() not in _PROSE
        )
    if tokens & {"hash", "sha", "digest", "checksum"}:
        return bool(_HEX.match(value)) or (
            "/" not in value and " " not in value and value.upper() == value and len(value) < 20
        )
    if tokens & _ID_WORDS or param.name.lower().endswith("id"):
        return not value.startswith("/") and len(value.split()) <= 3
    if tokens & _URL_WORDS:
        return "://" in value or value.startswith(("mailto:", "data:"))
    return True


def _number_meaning(param: Parameter) -> Iterator[Candidate]:
    tokens = set(param.tokens)
    if tokens & {"page"} and not tokens & {"index", "idx"}:  # a page number; an index is 0
        yield Candidate(1, "plain")
    elif (place := position_value(param)) is not None:
        yield Candidate(place, "plain")
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
