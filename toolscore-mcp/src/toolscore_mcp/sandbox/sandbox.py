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
    {sandbox}/report.docx     Word document: a heading, a paragraph and the same table
    {sandbox}/slides.pptx     presentation: a title slide and a slide listing the 3 items
    {sandbox}/report.pdf      2-page PDF (Helvetica text): a heading and text, then the 3 items
    {sandbox}/image.png       16x16 RGB image
    {sandbox}/docs/guide.md   markdown inside a sub-directory
    {sandbox}/repo/           git repository: branches main (checked out) and feature
    {sandbox}/data.db         SQLite database, table items with the same 3 rows
    {sandbox}/scratch/        empty; fresh paths and disposable copies go here

Everything is deterministic: the same bytes, and the same git commit hashes, every run.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import stat
import tempfile
import threading
import weakref
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import TypeVar, cast

import attrs
from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.sandbox.cleanup import cleanup, remove_tree
from toolscore_mcp.sandbox.files import pristine_bytes, write_files
from toolscore_mcp.sandbox.git import build_repo
from toolscore_mcp.sandbox.http import MISSING_PATH, HttpService

__all__ = ["Sandbox", "SandboxEntry", "SandboxEscapeError"]

_T = TypeVar("_T")


class SandboxEscapeError(ValueError):
    """A sandbox path toolscore would create, copy or hand out leads outside the sandbox
    (a symlink planted in it); the value is not used."""


@attrs.frozen
class SandboxEntry:
    """One thing in the sandbox, for listing to tools and for choosing argument values."""

    path: str  # absolute
    # "file" | "directory" | "repository" | "database" | "spreadsheet" | "document"
    # | "presentation" | "image"
    kind: str
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
    _Item("report.docx", "document", "Word document: heading, paragraph, table id,name,price"),
    _Item("slides.pptx", "presentation", "PowerPoint: a title slide, then a slide of 3 items"),
    _Item("report.pdf", "document", "PDF, 2 pages of text: a heading, then the 3 items"),
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


class Sandbox:
    """A temporary workspace with real files, a git repository, a database and a web server.

    Make one per test run with :meth:`create` (or ``with Sandbox.create() as sandbox:``) and
    pass ``{sandbox}``-templated commands and arguments through :meth:`substitute_all`.
    """

    root: Path
    url: str
    notes: list[str]

    def __init__(
        self, root: Path, url: str, notes: list[str], service: HttpService | None, *, keep: bool
    ) -> None:
        """Wrap an already-built tree; use :meth:`create` instead of calling this."""
        self.root = root
        self.url = url
        self.notes = notes
        self.keep = keep
        self._counter = itertools.count(1)
        self._lock = threading.Lock()
        self._finalizer = weakref.finalize(self, cleanup, root, service, keep, notes)

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
        service: HttpService | None = None
        repo_note: list[str | None] = [None]

        def build_repo_in_background() -> None:
            repo_note[0] = build_repo(root / "repo", root)

        worker = threading.Thread(
            target=build_repo_in_background, name="toolscore-sandbox-git", daemon=True
        )
        try:
            worker.start()
            write_files(root)
            if http:
                service = HttpService()
            worker.join()
        except BaseException:
            worker.join()
            if service is not None:
                service.stop()
            remove_tree(root)
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
            path = MISSING_PATH
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

    def _scratch(self) -> Path:
        """scratch/, checked to be a real directory inside the sandbox (not a symlink).

        Anything else found there (a symlink planted by a server, a file) is removed, never
        followed, and a fresh empty directory made in its place.
        """
        scratch = self.root / "scratch"
        try:
            info = os.lstat(scratch)
        except FileNotFoundError:
            info = None
        if info is not None and (stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode)):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(scratch)  # a symlink or a file: unlink never follows it
            info = None
        if info is None:
            with contextlib.suppress(FileExistsError):
                os.mkdir(scratch)
        if not _real_directory(scratch) or not self.contains(scratch):
            raise SandboxEscapeError(f"{scratch} is not a directory inside the sandbox")
        return scratch

    def _source(self, relative: str) -> Path:
        """The layout file or directory ``relative``, checked component by component: no
        symlink on the way, and inside the sandbox once resolved."""
        path = self.root
        for part in Path(relative).parts:
            path = path / part
            try:
                info = os.lstat(path)
            except FileNotFoundError:
                raise ValueError(
                    f"the sandbox has no {relative} to copy ({'; '.join(self.notes)})"
                ) from None
            if stat.S_ISLNK(info.st_mode):
                raise SandboxEscapeError(
                    f"the sandbox's {relative} was replaced by a symlink; not copied"
                )
        if not self.contains(path):
            raise SandboxEscapeError(f"the sandbox's {relative} leads outside it; not copied")
        return path

    def new_path(self, name_hint: str = "item", extension: str = "") -> Path:
        """A path under scratch/ that does not exist yet and was never handed out before.

        For tools that create something (a file, a directory, a repository) and fail when
        the target already exists. Names look like ``item-1``, ``notes-2.txt``. scratch/ is
        checked first (a symlink planted in its place is removed, never followed), and the
        path is inside the sandbox once resolved, or :class:`SandboxEscapeError` is raised.
        """
        stem = _safe_stem(name_hint)
        suffix = _normalise_extension(extension)
        scratch = self._scratch()
        while True:
            with self._lock:
                number = next(self._counter)
            candidate = scratch / f"{stem}-{number}{suffix}"
            if not os.path.lexists(candidate):
                if not self.contains(candidate):
                    raise SandboxEscapeError(f"{candidate} leads outside the sandbox")
                return candidate

    def disposable(self, kind_or_extension: str) -> Path:
        """A fresh copy under scratch/ for tools that delete, move or modify their target.

        Accepts a kind (``"file"``, ``"directory"``, ``"repository"``, ``"database"``,
        ``"spreadsheet"``, ``"image"``) or an extension (``".csv"``, ``".json"``). Any other
        extension (``".log"``) gets a copy of notes.txt under that extension, so a tool
        that deletes ``*.log`` files still has a real one. Raises ValueError when the
        source is missing (repo/ without git). A plain file replaced by a symlink is made
        afresh from the bytes it was written with; a tampered directory or database raises
        :class:`SandboxEscapeError` (a ValueError). Nothing from outside the sandbox is
        ever copied in, and no copy is made outside it.
        """
        key = kind_or_extension.strip().lower()
        extension = _normalise_extension(key)
        relative = _KIND_SOURCES.get(key) or _EXTENSION_FILES.get(extension) or "notes.txt"
        try:
            source = self._source(relative)
        except SandboxEscapeError:
            # Tampered with (a symlink planted in its place): a plain file is made afresh
            # from the bytes it was written with, never read through the link.
            data = pristine_bytes(relative)
            if data is None:
                raise
            suffix = Path(relative).suffix
            target = self.new_path(
                Path(relative).stem, suffix if key in _KIND_SOURCES else extension or suffix
            )
            _write_new_file(target, data)
            return target
        if os.path.isdir(source):
            target = self.new_path(source.name)
            # Symlinks inside the source are left out: a copy must not point outside.
            shutil.copytree(source, target, symlinks=True, ignore=_symlinks_in)
        else:
            target = self.new_path(
                source.stem, source.suffix if key in _KIND_SOURCES else extension or source.suffix
            )
            _copy_file_no_follow(source, target)
        if not self.contains(target):
            raise SandboxEscapeError(f"{target} leads outside the sandbox")
        return target

    def fresh_copy(self, extension: str) -> tuple[Path, tuple[str, ...]] | None:
        """A new file under scratch/ with the bytes the sandbox's file of this extension was
        written with (not its current state, which the run's tools may have changed), and
        the lines of text that copy holds (:func:`~toolscore_mcp.sandbox.known_text.known_lines`).
        None when the layout has no plain file of that extension.

        One tool's call gets it, so its answer about that file can be judged: nothing else
        has touched it.
        """
        from toolscore_mcp.sandbox.known_text import known_lines

        relative = _EXTENSION_FILES.get(_normalise_extension(extension))
        data = pristine_bytes(relative) if relative is not None else None
        if relative is None or data is None:
            return None
        target = self.new_path(Path(relative).stem, Path(relative).suffix)
        _write_new_file(target, data)
        return target, known_lines(relative)

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

    def escaping_value(self, value: object) -> str | None:
        """The first string in ``value`` (nested in lists and dict values) that names a path
        under the sandbox root but resolves outside it (through a symlink planted there),
        else None. Checked before every call, so a path handed out while it was safe is not
        used once it no longer is."""
        if isinstance(value, str):
            base = str(self.root)
            names_sandbox = value == base or value.startswith(base.rstrip(os.sep) + os.sep)
            return value if names_sandbox and not self.contains(value) else None
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, (list, tuple)):
            for element in value:
                found = self.escaping_value(element)
                if found is not None:
                    return found
        return None


def _real_directory(path: Path) -> bool:
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and not stat.S_ISLNK(info.st_mode)


def _symlinks_in(directory: str, names: list[str]) -> list[str]:
    """copytree's ``ignore``: the entries of ``directory`` that are symlinks."""
    return [name for name in names if os.path.islink(os.path.join(directory, name))]


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_BINARY = getattr(os, "O_BINARY", 0)


def _write_new_file(target: Path, data: bytes) -> None:
    """Create ``target`` (which must not exist, nor be a symlink) holding ``data``."""
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _BINARY, 0o644)
    with open(fd, "wb") as writer:
        writer.write(data)


def _copy_file_no_follow(source: Path, target: Path) -> None:
    """Copy a regular file without following a symlink at either end: the source is opened
    with O_NOFOLLOW and must be a regular file; the target is created new (O_EXCL)."""
    read_fd = os.open(source, os.O_RDONLY | _NOFOLLOW | _BINARY)
    try:
        if not stat.S_ISREG(os.fstat(read_fd).st_mode):
            raise SandboxEscapeError(f"the sandbox's {source.name} is not a regular file")
        write_fd = os.open(
            target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _BINARY, 0o644
        )
        with open(read_fd, "rb", closefd=False) as reader, open(write_fd, "wb") as writer:
            shutil.copyfileobj(reader, writer)
    finally:
        os.close(read_fd)
