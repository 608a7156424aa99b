"""A fresh, throw-away workspace for every ``toolscore mcp test`` run.

Tools that take paths, repositories, databases or URLs can only be called offline if there
are real, valid targets to point them at. :meth:`Sandbox.create` builds them at run time in
a new temporary directory (and, optionally, starts a loopback HTTP server), and
:meth:`Sandbox.close` removes everything again. Nothing is ever written outside the sandbox.

The layout is a contract that test manifests rely on (``--repository {sandbox}/repo``)::

    {sandbox}/notes.txt       plain text
    {sandbox}/README.md       markdown with a heading and a list
    {sandbox}/data.json       {"items": [...3 items...]}
    {sandbox}/data.csv        id,name,price + the same 3 rows
    {sandbox}/report.xlsx     workbook, sheet "Sheet1", the same table
    {sandbox}/image.png       16x16 RGB image
    {sandbox}/docs/guide.md   markdown inside a sub-directory
    {sandbox}/repo/           git repository: branches main (checked out) and feature
    {sandbox}/data.db         SQLite database, table items with the same 3 rows
    {sandbox}/scratch/        empty; fresh paths and disposable copies go here

Everything is deterministic: the same bytes, and the same git commit hashes, every run.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import itertools
import json
import os
import selectors
import shutil
import socket
import sqlite3
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import urllib.parse
import weakref
import zipfile
import zlib
from collections.abc import Callable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar, cast
from xml.sax.saxutils import escape as xml_escape

import attrs
from toolscore.lazy_pattern import lazy_pattern

__all__ = ["ITEMS", "Sandbox", "SandboxEntry"]

_T = TypeVar("_T")

#: The one small table every data file in the sandbox holds (JSON, CSV, XLSX, SQLite).
ITEMS: tuple[Mapping[str, Any], ...] = (
    {"id": 1, "name": "apple", "price": 1.5},
    {"id": 2, "name": "banana", "price": 0.25},
    {"id": 3, "name": "cherry", "price": 3.0},
)
_COLUMNS = ("id", "name", "price")

# ---------------------------------------------------------------------------------------------
# File contents
# ---------------------------------------------------------------------------------------------

_NOTES = (
    "These notes live in the toolscore sandbox.\n"
    "The toolscore sandbox is a temporary workspace created for one test run.\n"
    "Tools may read this file; it is removed when the run ends.\n"
)

_README = """# Toolscore sandbox

A temporary workspace created by toolscore for one test run.

## Contents

- notes.txt: a few lines of plain text
- data.json, data.csv, report.xlsx and data.db: the same three items
- image.png: a small image
- docs/guide.md: a guide in a sub-directory
- repo/: a git repository with branches main and feature
- scratch/: an empty directory for new files
"""

_GUIDE = """# Guide

This guide sits in a sub-directory of the toolscore sandbox.

## Steps

1. Read the notes.
2. Look at the data.
3. Write new files under scratch/.
"""

_TEXT_FILES: tuple[tuple[str, str], ...] = (
    ("notes.txt", _NOTES),
    ("README.md", _README),
    ("docs/guide.md", _GUIDE),
)


@functools.cache
def _json_bytes() -> bytes:
    """The items as a JSON document; cached because every sandbox and the web server use it."""
    return (json.dumps({"items": [dict(item) for item in ITEMS]}, indent=2) + "\n").encode()


@functools.cache
def _csv_bytes() -> bytes:
    """The items as CSV with a header row (``\\n`` line ends, so every platform gets the same bytes)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(_COLUMNS)
    writer.writerows([item[column] for column in _COLUMNS] for item in ITEMS)
    return buffer.getvalue().encode()


# -- XLSX (minimal OOXML written by hand) -----------------------------------------------------

_XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
_NS_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_NS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_NS_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_CT_PREFIX = "application/vnd.openxmlformats-officedocument.spreadsheetml"

_XLSX_CONTENT_TYPES = (
    _XML_HEAD + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    f'<Override PartName="/xl/workbook.xml" ContentType="{_CT_PREFIX}.sheet.main+xml"/>'
    f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{_CT_PREFIX}.worksheet+xml"/>'
    f'<Override PartName="/xl/styles.xml" ContentType="{_CT_PREFIX}.styles+xml"/>'
    f'<Override PartName="/xl/sharedStrings.xml" ContentType="{_CT_PREFIX}.sharedStrings+xml"/>'
    "</Types>"
)
_XLSX_ROOT_RELS = (
    _XML_HEAD + f'<Relationships xmlns="{_NS_PKG_REL}">'
    f'<Relationship Id="rId1" Type="{_NS_REL}/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
_XLSX_WORKBOOK = (
    _XML_HEAD + f'<workbook xmlns="{_NS_MAIN}" xmlns:r="{_NS_REL}">'
    '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets>'
    "</workbook>"
)
_XLSX_WORKBOOK_RELS = (
    _XML_HEAD + f'<Relationships xmlns="{_NS_PKG_REL}">'
    f'<Relationship Id="rId1" Type="{_NS_REL}/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{_NS_REL}/styles" Target="styles.xml"/>'
    f'<Relationship Id="rId3" Type="{_NS_REL}/sharedStrings" Target="sharedStrings.xml"/>'
    "</Relationships>"
)
# The smallest style sheet desktop spreadsheet programs accept without a repair prompt.
_XLSX_STYLES = (
    _XML_HEAD + f'<styleSheet xmlns="{_NS_MAIN}">'
    '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>'
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
    "</styleSheet>"
)


def _xlsx_rows() -> list[list[Any]]:
    """The header row followed by one row per item, in column order."""
    return [list(_COLUMNS), *([item[column] for column in _COLUMNS] for item in ITEMS)]


def _xlsx_cell(reference: str, value: Any, strings: dict[str, int]) -> str:
    """One ``<c>`` element: numbers as numbers, text as an index into the shared strings."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f'<c r="{reference}"><v>{value!r}</v></c>'
    index = strings.setdefault(str(value), len(strings))
    return f'<c r="{reference}" t="s"><v>{index}</v></c>'


def _xlsx_sheet_and_strings() -> tuple[str, str]:
    """The worksheet XML and the shared-strings XML for :func:`_xlsx_rows`."""
    rows = _xlsx_rows()
    strings: dict[str, int] = {}
    row_xml = []
    for row_number, row in enumerate(rows, start=1):
        cells = "".join(
            _xlsx_cell(f"{chr(ord('A') + column)}{row_number}", value, strings)
            for column, value in enumerate(row)
        )
        row_xml.append(f'<row r="{row_number}">{cells}</row>')
    last = f"{chr(ord('A') + len(_COLUMNS) - 1)}{len(rows)}"
    sheet = (
        _XML_HEAD + f'<worksheet xmlns="{_NS_MAIN}">'
        f'<dimension ref="A1:{last}"/>'
        f"<sheetData>{''.join(row_xml)}</sheetData>"
        "</worksheet>"
    )
    shared = "".join(f"<si><t>{xml_escape(text)}</t></si>" for text in strings)
    shared_xml = (
        _XML_HEAD + f'<sst xmlns="{_NS_MAIN}" count="{len(strings)}" uniqueCount="{len(strings)}">'
        f"{shared}</sst>"
    )
    return sheet, shared_xml


@functools.cache
def _xlsx_bytes() -> bytes:
    """A minimal, valid .xlsx workbook; fixed zip timestamps make the bytes reproducible."""
    sheet, shared = _xlsx_sheet_and_strings()
    parts = (
        ("[Content_Types].xml", _XLSX_CONTENT_TYPES),
        ("_rels/.rels", _XLSX_ROOT_RELS),
        ("xl/workbook.xml", _XLSX_WORKBOOK),
        ("xl/_rels/workbook.xml.rels", _XLSX_WORKBOOK_RELS),
        ("xl/styles.xml", _XLSX_STYLES),
        ("xl/sharedStrings.xml", shared),
        ("xl/worksheets/sheet1.xml", sheet),
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in parts:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, text.encode())
    return buffer.getvalue()


# -- PNG ---------------------------------------------------------------------------------------

_PNG_SIZE = 16


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data and the CRC over type + data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@functools.cache
def _png_bytes() -> bytes:
    """A 16x16 8-bit RGB gradient; each scanline starts with filter byte 0 (none)."""
    size = _PNG_SIZE
    scanlines = b"".join(
        b"\x00" + b"".join(bytes((x * 16, y * 16, 128)) for x in range(size)) for y in range(size)
    )
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", zlib.compress(scanlines, 9))
        + _png_chunk(b"IEND", b"")
    )


# -- SQLite ------------------------------------------------------------------------------------

_SQLITE_SCHEMA = "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL)"


def _write_sqlite(path: Path) -> None:
    """Create the items database. Durability is pointless for a throw-away file, so no fsync."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA synchronous = OFF")
        connection.execute("PRAGMA journal_mode = MEMORY")
        connection.execute("BEGIN")
        connection.execute(_SQLITE_SCHEMA)
        connection.executemany(
            "INSERT INTO items (id, name, price) VALUES (?, ?, ?)",
            [tuple(item[column] for column in _COLUMNS) for item in ITEMS],
        )
        connection.execute("COMMIT")
    finally:
        connection.close()


# -- Git repository ----------------------------------------------------------------------------

_GIT_IDENTITY = "Toolscore Sandbox <sandbox@toolscore.invalid>"
_GIT_EPOCH = 1704067200  # 2024-01-01T00:00:00Z; commit i is i hours later.

_APP_V1 = '''"""A tiny application in the toolscore sandbox repository."""


def main() -> None:
    print("hello from the sandbox")


if __name__ == "__main__":
    main()
'''

_APP_V2 = '''"""A tiny application in the toolscore sandbox repository."""


def greet(name: str) -> str:
    return f"hello, {name}"


def main() -> None:
    print(greet("sandbox"))


if __name__ == "__main__":
    main()
'''

_FEATURE = '''"""A feature that only exists on the feature branch."""

ENABLED = True
'''

_REPO_README_V1 = "# Sample project\n\nA tiny repository created by the toolscore sandbox.\n"
_REPO_README_V2 = _REPO_README_V1 + "\nRun it with `python src/app.py`.\n"


@attrs.frozen
class _Commit:
    """One commit of the sandbox repository, as fast-import will write it."""

    branch: str
    message: str
    files: Mapping[str, str]
    parent: int | None  # index into _COMMITS, or None for a root commit


_COMMITS: tuple[_Commit, ...] = (
    _Commit("main", "Initial commit", {"README.md": _REPO_README_V1}, None),
    _Commit("main", "Add the application", {"src/app.py": _APP_V1}, 0),
    _Commit("main", "Add a greeting", {"src/app.py": _APP_V2, "README.md": _REPO_README_V2}, 1),
    _Commit("feature", "Add a feature flag", {"src/feature.py": _FEATURE}, 2),
)
#: Lightweight tags: name -> index into _COMMITS.
_TAGS: Mapping[str, int] = {"v0.1.0": 1}


def _fast_import_data(payload: str) -> bytes:
    """A fast-import ``data`` command with an exact byte count."""
    raw = payload.encode()
    return b"data %d\n" % len(raw) + raw + b"\n"


def _fast_import_stream() -> bytes:
    """The whole history as one fast-import stream; fixed identities and dates fix the hashes."""
    chunks: list[bytes] = []
    for index, commit in enumerate(_COMMITS):
        when = f"{_GIT_EPOCH + index * 3600} +0000"
        chunks.append(f"commit refs/heads/{commit.branch}\nmark :{index + 1}\n".encode())
        chunks.append(f"author {_GIT_IDENTITY} {when}\ncommitter {_GIT_IDENTITY} {when}\n".encode())
        chunks.append(_fast_import_data(commit.message + "\n"))
        if commit.parent is not None:
            chunks.append(f"from :{commit.parent + 1}\n".encode())
        for name, content in commit.files.items():
            chunks.append(f"M 100644 inline {name}\n".encode() + _fast_import_data(content))
        chunks.append(b"\n")
    for tag, index in _TAGS.items():
        chunks.append(f"reset refs/tags/{tag}\nfrom :{index + 1}\n\n".encode())
    chunks.append(b"done\n")
    return b"".join(chunks)


def _git_env(home: Path) -> dict[str, str]:
    """A minimal environment: no user or system config, no inherited GIT_DIR and friends."""
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home),
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
        "LC_ALL": "C",
    }
    for name in ("SYSTEMROOT", "TEMP", "TMP"):  # Windows needs these to start processes
        if name in os.environ:
            env[name] = os.environ[name]
    return env


_GIT_OPTIONS = (
    "-c", "init.defaultBranch=main",
    "-c", "core.autocrlf=false",
    "-c", "gc.auto=0",
    "-c", "maintenance.auto=false",
    "-c", "user.name=Toolscore Sandbox",
    "-c", "user.email=sandbox@toolscore.invalid",
)  # fmt: skip


def _run_git(git: str, repo: Path, env: Mapping[str, str], *args: str, stdin: bytes = b"") -> None:
    """Run one git command in ``repo``; raise CalledProcessError (with stderr) on failure."""
    subprocess.run(
        [git, *_GIT_OPTIONS, *args],
        cwd=repo,
        env=dict(env),
        input=stdin,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=True,
    )


def _build_repo(repo: Path, home: Path) -> str | None:
    """Create the sample repository; return a note instead of raising when git is unusable.

    Three processes: ``init``, one ``fast-import`` for the whole history, and a checkout
    of main, which fills the working tree and the index.
    """
    git = shutil.which("git")
    if git is None:
        return "git was not found on PATH: the sandbox has no repo/"
    env = _git_env(home)
    try:
        repo.mkdir()
        _run_git(git, repo, env, "init", "-q")
        _run_git(git, repo, env, "fast-import", "--quiet", "--done", stdin=_fast_import_stream())
        _run_git(git, repo, env, "checkout", "-q", "-f", "main", "--")
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", b"") or b""
        _remove_tree(repo)
        message = detail.decode(errors="replace").strip() or str(error)
        return f"git could not build the sandbox repo/ ({message}): the sandbox has no repo/"
    return None


# ---------------------------------------------------------------------------------------------
# Loopback HTTP server
# ---------------------------------------------------------------------------------------------

_HTML_INDEX = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Toolscore sandbox</title></head>
<body>
<h1>Toolscore sandbox</h1>
<p>This page is served by the toolscore sandbox on the loopback interface.</p>
<ul>
<li><a href="/page.html">Another page</a></li>
<li><a href="/data.json">Data (JSON)</a></li>
<li><a href="/notes.txt">Notes (text)</a></li>
<li><a href="/robots.txt">robots.txt</a></li>
</ul>
</body>
</html>
"""

_HTML_PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Sandbox page</title></head>
<body>
<h1>Sandbox page</h1>
<p>A second page of the toolscore sandbox. <a href="/">Back to the start page</a>.</p>
</body>
</html>
"""

_HTML_TYPE = "text/html; charset=utf-8"
_TEXT_TYPE = "text/plain; charset=utf-8"
_NOT_FOUND_BODY = b"404 Not Found: the toolscore sandbox has no such page.\n"

#: Path -> (content type, body). Everything else is a 404.
_ROUTES: Mapping[str, tuple[str, bytes]] = {
    "/": (_HTML_TYPE, _HTML_INDEX.encode()),
    "/index.html": (_HTML_TYPE, _HTML_INDEX.encode()),
    "/page.html": (_HTML_TYPE, _HTML_PAGE.encode()),
    "/robots.txt": (_TEXT_TYPE, b"User-agent: *\nAllow: /\n"),
    "/data.json": ("application/json", _json_bytes()),
    "/notes.txt": (_TEXT_TYPE, _NOTES.encode()),
}
#: A path :meth:`Sandbox.url_for` maps "missing" to; never routed.
_MISSING_PATH = "/missing"


class _Handler(BaseHTTPRequestHandler):
    """Serves :data:`_ROUTES` for GET and HEAD, silently (no access log on stderr)."""

    server_version = "toolscore-sandbox"
    sys_version = ""

    def do_GET(self) -> None:
        """Answer with headers and body."""
        self._respond(with_body=True)

    def do_HEAD(self) -> None:
        """Answer with the same headers as GET, no body."""
        self._respond(with_body=False)

    def _respond(self, *, with_body: bool) -> None:
        """Look the path (without query or fragment) up in the routes; 404 when absent."""
        path = urllib.parse.urlsplit(self.path).path or "/"
        route = _ROUTES.get(path)
        status, content_type, body = (
            (200, *route) if route is not None else (404, _TEXT_TYPE, _NOT_FOUND_BODY)
        )
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if with_body:
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet: a test run's stderr belongs to the report."""


class _QuietServer(ThreadingHTTPServer):
    """A threading HTTP server that never prints tracebacks (clients hanging up early)."""

    daemon_threads = True
    request_queue_size = 64  # the default 5 drops bursts of parallel connects (1 s SYN retry)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Ignore per-request errors; the client sees a closed connection."""


class _HttpService:
    """The loopback server plus the thread serving it.

    The loop waits on the listening socket and a wake-up socket, so :meth:`stop` returns
    at once instead of after a polling interval.
    """

    def __init__(self) -> None:
        self._server = _QuietServer(("127.0.0.1", 0), _Handler)
        self._wake_reader, self._wake_writer = socket.socketpair()
        self._thread = threading.Thread(
            target=self._serve, name="toolscore-sandbox-http", daemon=True
        )
        self._stopped = False
        self._thread.start()

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``, without a trailing slash."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def _serve(self) -> None:
        """Handle requests until the wake-up socket becomes readable."""
        with selectors.DefaultSelector() as selector:
            selector.register(self._server.socket, selectors.EVENT_READ)
            selector.register(self._wake_reader, selectors.EVENT_READ)
            while True:
                ready = selector.select()
                if any(key.fileobj is self._wake_reader for key, _ in ready):
                    return
                self._server.handle_request()

    def stop(self) -> None:
        """Stop serving and close the listening socket (new connections are refused)."""
        if self._stopped:
            return
        self._stopped = True
        self._wake_writer.send(b"x")
        self._thread.join(timeout=5)
        self._server.server_close()
        self._wake_reader.close()
        self._wake_writer.close()


# ---------------------------------------------------------------------------------------------
# Removal
# ---------------------------------------------------------------------------------------------


def _make_writable(path: str) -> None:
    """Give the owner full rights on a real file or directory (never through a symlink)."""
    try:
        info = os.lstat(path)
    except OSError:
        return
    if stat.S_ISLNK(info.st_mode):
        return
    wanted = info.st_mode | stat.S_IRWXU
    if wanted != info.st_mode:
        with contextlib.suppress(OSError):
            os.chmod(path, stat.S_IMODE(wanted))


#: The rmtree steps worth retrying in place; re-running an open or a scandir would leak it.
_REMOVERS: tuple[Callable[..., Any], ...] = (os.unlink, os.remove, os.rmdir)


def _retry_after_chmod(function: Callable[..., Any], path: str, _error: object) -> None:
    """rmtree error hook: make the entry and its directory writable, then try once more.

    Read-only directories (and read-only files on Windows) block deletion; git's objects
    are read-only and tools may chmod what they create.
    """
    _make_writable(os.path.dirname(path))
    _make_writable(path)
    if function not in _REMOVERS:
        return  # opening or listing failed: the second pass in _remove_tree handles it
    with contextlib.suppress(OSError):
        function(path)


def _unlock_tree(root: Path) -> None:
    """Make every real directory under ``root`` writable and searchable (symlinks untouched)."""
    _make_writable(str(root))
    for directory, subdirectories, _files in os.walk(root, followlinks=False):
        for name in subdirectories:
            _make_writable(os.path.join(directory, name))


def _rmtree(root: Path) -> None:
    """shutil.rmtree with the chmod-and-retry hook, in the spelling this Python prefers."""
    if sys.version_info >= (3, 12):
        shutil.rmtree(root, onexc=_retry_after_chmod)
    else:
        shutil.rmtree(root, onerror=_retry_after_chmod)


def _remove_tree(root: Path) -> bool:
    """Delete ``root`` and everything in it without following symlinks; True when gone.

    A symlink at ``root`` itself is unlinked, never followed. If a first pass leaves
    something behind (an unreadable directory), unlock the whole tree and try again.
    """
    if root.is_symlink():
        root.unlink()
        return True
    if not root.exists():
        return True
    _rmtree(root)
    if root.exists():
        _unlock_tree(root)
        _rmtree(root)
    return not os.path.lexists(root)


def _cleanup(root: Path, service: _HttpService | None, keep: bool, notes: list[str]) -> None:
    """Stop the server and remove the tree; runs once, from close() or at garbage collection."""
    if service is not None:
        service.stop()
    if not keep and not _remove_tree(root):
        notes.append(f"could not remove the sandbox {root}")


# ---------------------------------------------------------------------------------------------
# The sandbox
# ---------------------------------------------------------------------------------------------


@attrs.frozen
class SandboxEntry:
    """One thing in the sandbox, for listing to tools and for choosing argument values."""

    path: str  # absolute
    kind: str  # "file" | "directory" | "repository" | "database" | "spreadsheet" | "image"
    extension: str  # ".txt", ".xlsx"; "" for directories
    description: str


@attrs.frozen
class _Item:
    """A layout entry: relative path, kind and description."""

    relative: str
    kind: str
    description: str


_LAYOUT: tuple[_Item, ...] = (
    _Item("notes.txt", "file", "a few lines of plain text"),
    _Item("README.md", "file", "a small markdown document with a heading and a list"),
    _Item("data.json", "file", 'JSON: {"items": [{"id", "name", "price"} x 3]}'),
    _Item("data.csv", "file", "CSV with header id,name,price and 3 rows"),
    _Item("report.xlsx", "spreadsheet", "Excel workbook, sheet Sheet1: id,name,price + 3 rows"),
    _Item("image.png", "image", "16x16 RGB PNG image"),
    _Item("docs", "directory", "a sub-directory holding guide.md"),
    _Item("docs/guide.md", "file", "a markdown guide inside a sub-directory"),
    _Item("repo", "repository", "git repository: branches main (checked out) and feature"),
    _Item("data.db", "database", "SQLite database, table items(id, name, price), 3 rows"),
    _Item("scratch", "directory", "an empty directory where tools may create files"),
)

#: Extension -> the file file_with_extension() answers with (first match wins).
_EXTENSION_FILES: Mapping[str, str] = {
    Path(item.relative).suffix.lower(): item.relative
    for item in reversed(_LAYOUT)
    if Path(item.relative).suffix
}

#: Kind (and a few synonyms) -> what disposable() copies.
_KIND_SOURCES: Mapping[str, str] = {
    "file": "notes.txt",
    "text": "notes.txt",
    "directory": "docs",
    "folder": "docs",
    "dir": "docs",
    "repository": "repo",
    "repo": "repo",
    "git": "repo",
    "database": "data.db",
    "sqlite": "data.db",
    "spreadsheet": "report.xlsx",
    "workbook": "report.xlsx",
    "image": "image.png",
}

_UNSAFE_NAME = lazy_pattern(r"[^A-Za-z0-9._-]+")


def _normalise_extension(extension: str) -> str:
    """``"XLSX"`` / ``".xlsx"`` -> ``".xlsx"``; ``""`` stays ``""``."""
    cleaned = _UNSAFE_NAME.sub("", extension.strip()).lstrip(".").lower()
    return f".{cleaned}" if cleaned else ""


def _safe_stem(hint: str) -> str:
    """A file-name stem from a hint: no separators, no leading dots, at most 40 characters."""
    stem = _UNSAFE_NAME.sub("-", hint).strip(".-")[:40]
    return stem or "item"


def _write_files(root: Path) -> None:
    """Write every plain file and directory of the layout (all but repo/ and data.db)."""
    (root / "docs").mkdir()
    (root / "scratch").mkdir()
    for relative, text in _TEXT_FILES:
        (root / relative).write_bytes(text.encode())
    (root / "data.json").write_bytes(_json_bytes())
    (root / "data.csv").write_bytes(_csv_bytes())
    (root / "report.xlsx").write_bytes(_xlsx_bytes())
    (root / "image.png").write_bytes(_png_bytes())
    _write_sqlite(root / "data.db")


class Sandbox:
    """A temporary workspace with real files, a git repository, a database and a web server.

    Make one per test run with :meth:`create` (or ``with Sandbox.create() as sandbox:``) and
    pass ``{sandbox}``-templated commands and arguments through :meth:`substitute_all`.
    """

    root: Path
    url: str
    notes: list[str]

    def __init__(
        self, root: Path, url: str, notes: list[str], service: _HttpService | None, *, keep: bool
    ) -> None:
        """Wrap an already-built tree; use :meth:`create` instead of calling this."""
        self.root = root
        self.url = url
        self.notes = notes
        self.keep = keep
        self._counter = itertools.count(1)
        self._lock = threading.Lock()
        self._finalizer = weakref.finalize(self, _cleanup, root, service, keep, notes)

    @classmethod
    def create(cls, *, http: bool = True, keep: bool = False, root: Path | None = None) -> Sandbox:
        """Build a fresh sandbox; ``http=False`` skips the web server (``url`` is then "").

        ``root`` is an empty folder to build in (one reserved earlier and already announced,
        see :mod:`toolscore_mcp.sandbox.lazy`); by default a new temporary folder. The git
        repository is built on a helper thread while the other files are written, since its
        three git processes are most of the time spent here.
        """
        if root is None:
            root = Path(tempfile.mkdtemp(prefix="toolscore-sandbox-"))
        root = root.resolve()
        notes: list[str] = []
        service: _HttpService | None = None
        repo_note: list[str | None] = [None]

        def build_repo() -> None:
            repo_note[0] = _build_repo(root / "repo", root)

        worker = threading.Thread(target=build_repo, name="toolscore-sandbox-git", daemon=True)
        try:
            worker.start()
            _write_files(root)
            if http:
                service = _HttpService()
            worker.join()
        except BaseException:
            worker.join()
            if service is not None:
                service.stop()
            _remove_tree(root)
            raise
        if repo_note[0] is not None:
            notes.append(repo_note[0])
        return cls(root, service.url if service else "", notes, service, keep=keep)

    # -- lifetime -----------------------------------------------------------------------------

    def close(self) -> None:
        """Stop the web server and delete the tree (unless ``keep``); safe to call twice."""
        self._finalizer()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run."""
        return not self._finalizer.alive

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Sandbox(root={str(self.root)!r}, url={self.url!r})"

    # -- what is inside -----------------------------------------------------------------------

    def entries(self) -> list[SandboxEntry]:
        """Everything of the layout that exists (repo/ is absent without git), in layout order."""
        found = []
        for item in _LAYOUT:
            path = self.root / item.relative
            if path.exists():
                extension = "" if path.is_dir() else path.suffix.lower()
                found.append(SandboxEntry(str(path), item.kind, extension, item.description))
        return found

    def file_with_extension(self, extension: str) -> Path | None:
        """The sandbox's file with this extension (``"xlsx"``, ``".MD"``), or None."""
        relative = _EXTENSION_FILES.get(_normalise_extension(extension))
        if relative is None:
            return None
        path = self.root / relative
        return path if path.is_file() else None

    def url_for(self, name: str) -> str:
        """The URL of a served page (``"robots.txt"``); ``"missing"`` gives a 404 URL."""
        if not self.url:
            raise RuntimeError("this sandbox has no web server (created with http=False)")
        path = "/" + name.lstrip("/")
        if name.strip("/") == "missing":
            path = _MISSING_PATH
        return self.url + path

    # -- templates ----------------------------------------------------------------------------

    def substitute(self, text: str) -> str:
        """Replace ``{sandbox}`` with the root and ``{sandbox_url}`` with the URL.

        Other braces are left alone, so JSON and format-like text pass through unchanged.
        ``{sandbox_url}`` stays as it is when there is no web server.
        """
        if self.url:
            text = text.replace("{sandbox_url}", self.url)
        return text.replace("{sandbox}", str(self.root))

    def substitute_all(self, value: _T) -> _T:
        """:meth:`substitute` over strings nested in lists, tuples and dict values."""
        return cast(_T, self._substitute_any(value))

    def _substitute_any(self, value: object) -> object:
        """The untyped recursion behind :meth:`substitute_all`."""
        if isinstance(value, str):
            return self.substitute(value)
        if isinstance(value, list):
            return [self._substitute_any(element) for element in value]
        if isinstance(value, tuple):
            return tuple(self._substitute_any(element) for element in value)
        if isinstance(value, dict):
            return {key: self._substitute_any(element) for key, element in value.items()}
        return value

    # -- fresh targets ------------------------------------------------------------------------

    def new_path(self, name_hint: str = "item", extension: str = "") -> Path:
        """A path under scratch/ that does not exist yet and was never handed out before.

        For tools that create something (a file, a directory, a repository) and fail when
        the target already exists. Names look like ``item-1``, ``notes-2.txt``.
        """
        stem = _safe_stem(name_hint)
        suffix = _normalise_extension(extension)
        while True:
            with self._lock:
                number = next(self._counter)
            candidate = self.root / "scratch" / f"{stem}-{number}{suffix}"
            if not os.path.lexists(candidate):
                return candidate

    def disposable(self, kind_or_extension: str) -> Path:
        """A fresh copy under scratch/ for tools that delete, move or modify their target.

        Accepts a kind (``"file"``, ``"directory"``, ``"repository"``, ``"database"``,
        ``"spreadsheet"``, ``"image"``) or an extension (``".csv"``, ``"json"``). Any other
        extension (``".log"``) gets a copy of notes.txt under that extension, so a tool
        that deletes ``*.log`` files still has a real one. Raises ValueError only when the
        source is missing (repo/ without git).
        """
        key = kind_or_extension.strip().lower()
        extension = _normalise_extension(key)
        relative = _KIND_SOURCES.get(key) or _EXTENSION_FILES.get(extension) or "notes.txt"
        source = self.root / relative
        if not source.exists():
            raise ValueError(f"the sandbox has no {relative} to copy ({'; '.join(self.notes)})")
        if source.is_dir():
            target = self.new_path(source.name)
            shutil.copytree(source, target, symlinks=True)
        else:
            target = self.new_path(
                source.stem, source.suffix if key in _KIND_SOURCES else extension or source.suffix
            )
            shutil.copyfile(source, target)
        return target

    def contains(self, path: str | Path) -> bool:
        """Is ``path`` inside the sandbox once ``..`` and symlinks are resolved?

        A relative path counts from the sandbox root. Unresolvable paths (symlink loops,
        NUL bytes) are not inside.
        """
        candidate = Path(path)
        if not candidate.is_absolute():
            candidate = self.root / candidate
        try:
            resolved = candidate.resolve()
        except (OSError, RuntimeError, ValueError):
            return False
        inside = os.path.normcase(str(resolved))
        base = os.path.normcase(str(self.root))
        return inside == base or inside.startswith(base.rstrip(os.sep) + os.sep)
