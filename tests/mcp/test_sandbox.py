"""The run-time sandbox: real files, a real git repository, a real SQLite database and a
real loopback web server, checked with the tools that would read them (no mocks)."""

from __future__ import annotations

import concurrent.futures
import csv
import json
import os
import posixpath
import re
import shutil
import socket
import sqlite3
import stat
import struct
import subprocess
import sys
import urllib.error
import urllib.request
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree

import pytest
from toolscore_mcp.sandbox.files import ITEMS, pristine_bytes
from toolscore_mcp.sandbox.sandbox import Sandbox

HAS_GIT = shutil.which("git") is not None
needs_git = pytest.mark.skipif(not HAS_GIT, reason="git is not installed")
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions/symlinks")

LAYOUT_FILES = (
    "notes.txt",
    "README.md",
    "data.json",
    "data.csv",
    "report.xlsx",
    "report.docx",
    "slides.pptx",
    "report.pdf",
    "image.png",
    "docs/guide.md",
    "data.db",
)
EXPECTED_ROWS = [(item["id"], item["name"], item["price"]) for item in ITEMS]

# No proxies from the environment: the requests must reach 127.0.0.1 directly.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@pytest.fixture
def sandbox() -> Iterator[Sandbox]:
    with Sandbox.create() as box:
        yield box


def _git(repo: Path, *args: str) -> str:
    """Run git in ``repo`` without user config and return stdout."""
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    env.pop("GIT_DIR", None)
    return subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True
    ).stdout


def _fetch(url: str, method: str = "GET") -> tuple[int, str, bytes]:
    """Status, content type and body of a real HTTP request (404 included)."""
    request = urllib.request.Request(url, method=method)
    try:
        with OPENER.open(request, timeout=5) as response:
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers["Content-Type"], error.read()


def _read_sqlite(path: Path) -> list[tuple[object, ...]]:
    connection = sqlite3.connect(path)
    try:
        return connection.execute("SELECT id, name, price FROM items ORDER BY id").fetchall()
    finally:
        connection.close()


# -- layout --------------------------------------------------------------------------------------


def test_root_is_a_fresh_temporary_directory(sandbox: Sandbox) -> None:
    assert sandbox.root.is_absolute()
    assert sandbox.root.name.startswith("toolscore-sandbox-")
    assert sandbox.root == sandbox.root.resolve()
    if HAS_GIT:
        assert sandbox.notes == []


def test_layout_exists(sandbox: Sandbox) -> None:
    for name in LAYOUT_FILES:
        assert (sandbox.root / name).is_file(), name
        assert (sandbox.root / name).stat().st_size > 0, name
    assert (sandbox.root / "docs").is_dir()
    assert (sandbox.root / "scratch").is_dir()
    assert list((sandbox.root / "scratch").iterdir()) == []
    if HAS_GIT:
        assert (sandbox.root / "repo" / ".git").is_dir()


def test_text_files(sandbox: Sandbox) -> None:
    notes = (sandbox.root / "notes.txt").read_text()
    assert "toolscore sandbox" in notes
    assert len(notes.splitlines()) >= 2
    for markdown in ("README.md", "docs/guide.md"):
        lines = (sandbox.root / markdown).read_text().splitlines()
        assert lines[0].startswith("# "), markdown
        assert any(line.startswith(("- ", "1. ")) for line in lines), markdown


def test_json_and_csv_hold_the_items(sandbox: Sandbox) -> None:
    data = json.loads((sandbox.root / "data.json").read_text())
    assert data == {"items": [dict(item) for item in ITEMS]}
    assert data["items"][0] == {"id": 1, "name": "apple", "price": 1.5}
    with (sandbox.root / "data.csv").open(newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["id", "name", "price"]
    assert [(int(i), n, float(p)) for i, n, p in rows[1:]] == EXPECTED_ROWS


def test_xlsx_is_a_well_formed_ooxml_package(sandbox: Sandbox) -> None:
    with zipfile.ZipFile(sandbox.root / "report.xlsx") as archive:
        assert archive.testzip() is None
        names = set(archive.namelist())
        for required in (
            "[Content_Types].xml",
            "_rels/.rels",
            "xl/workbook.xml",
            "xl/_rels/workbook.xml.rels",
            "xl/worksheets/sheet1.xml",
        ):
            assert required in names
        for name in names:
            ElementTree.fromstring(archive.read(name))  # every part parses as XML


def test_xlsx_reads_with_openpyxl(sandbox: Sandbox) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    for read_only in (False, True):
        workbook = openpyxl.load_workbook(sandbox.root / "report.xlsx", read_only=read_only)
        try:
            assert workbook.sheetnames == ["Sheet1"]
            rows = list(workbook["Sheet1"].iter_rows(values_only=True))
        finally:
            workbook.close()
        assert rows[0] == ("id", "name", "price")
        assert rows[1:] == EXPECTED_ROWS
        assert isinstance(rows[1][0], int)
        assert isinstance(rows[1][2], float)


# -- documents: checked by their formats' structure, with the standard library only -----------

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PKG = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_TYPES = "{http://schemas.openxmlformats.org/package/2006/content-types}"


def _ooxml_parts(path: Path) -> dict[str, ElementTree.Element]:
    """Every part of an OOXML package, parsed; checks the zip, that every part is XML, that
    each part has a content type and that every relationship points at a part that exists."""
    with zipfile.ZipFile(path) as archive:
        assert archive.testzip() is None
        parts = {name: ElementTree.fromstring(archive.read(name)) for name in archive.namelist()}
    types = parts["[Content_Types].xml"]
    defaults = {d.get("Extension") for d in types.iter(f"{_TYPES}Default")}
    overrides = {o.get("PartName") for o in types.iter(f"{_TYPES}Override")}
    for name in parts:
        if name != "[Content_Types].xml":
            assert f"/{name}" in overrides or name.rsplit(".", 1)[-1] in defaults, name
    assert {o.lstrip("/") for o in overrides if o} <= set(parts)
    for name, root in parts.items():
        if not name.endswith(".rels"):
            continue
        folder = posixpath.dirname(posixpath.dirname(name))  # word/_rels/x.rels -> word
        for relationship in root.iter(f"{_PKG}Relationship"):
            target = posixpath.normpath(posixpath.join(folder, relationship.get("Target", "")))
            assert target in parts, f"{name}: {target}"
    return parts


def _texts(element: ElementTree.Element, tag: str) -> list[str]:
    return [node.text or "" for node in element.iter(tag)]


def test_docx_is_a_well_formed_ooxml_package(sandbox: Sandbox) -> None:
    parts = _ooxml_parts(sandbox.root / "report.docx")
    assert {"_rels/.rels", "word/document.xml", "word/styles.xml"} <= set(parts)
    body = parts["word/document.xml"].find(f"{_W}body")
    assert body is not None
    paragraphs = body.findall(f"{_W}p")
    style = paragraphs[0].find(f"{_W}pPr/{_W}pStyle")
    assert style is not None
    assert style.get(f"{_W}val") == "Heading1"
    style_ids = {s.get(f"{_W}styleId") for s in parts["word/styles.xml"].iter(f"{_W}style")}
    assert {"Heading1", "TableGrid"} <= style_ids
    assert "".join(_texts(paragraphs[1], f"{_W}t")).strip()
    (table,) = body.findall(f"{_W}tbl")
    rows = [
        ["".join(_texts(cell, f"{_W}t")) for cell in row.findall(f"{_W}tc")]
        for row in table.findall(f"{_W}tr")
    ]
    assert rows[0] == ["id", "name", "price"]
    assert [(int(i), n, float(p)) for i, n, p in rows[1:]] == EXPECTED_ROWS
    assert body[-1].tag == f"{_W}sectPr"


def test_pptx_is_a_well_formed_ooxml_package(sandbox: Sandbox) -> None:
    parts = _ooxml_parts(sandbox.root / "slides.pptx")
    presentation = parts["ppt/presentation.xml"]
    relationships = {
        r.get("Id"): r.get("Target")
        for r in parts["ppt/_rels/presentation.xml.rels"].iter(f"{_PKG}Relationship")
    }
    slide_ids = presentation.findall(f"{_P}sldIdLst/{_P}sldId")
    slides = [f"ppt/{relationships[s.get(f'{_R}id')]}" for s in slide_ids]
    assert slides == ["ppt/slides/slide1.xml", "ppt/slides/slide2.xml"]
    assert presentation.find(f"{_P}sldMasterIdLst/{_P}sldMasterId") is not None
    assert "ppt/theme/theme1.xml" in parts
    placeholders = [[ph.get("type") for ph in parts[slide].iter(f"{_P}ph")] for slide in slides]
    assert placeholders == [["ctrTitle", "subTitle"], ["title", None]]
    title_texts = _texts(parts[slides[0]], f"{_A}t")
    assert len(title_texts) == 2
    assert all(title_texts)
    items = " ".join(_texts(parts[slides[1]], f"{_A}t"))
    for item in ITEMS:
        assert f"{item['name']}, {item['price']}" in items


def test_pdf_has_a_header_a_correct_xref_table_and_a_trailer(sandbox: Sandbox) -> None:
    data = (sandbox.root / "report.pdf").read_bytes()
    assert re.match(rb"%PDF-1\.[0-7]\n", data)
    assert data.endswith(b"%%EOF\n")
    start = re.search(rb"startxref\n(\d+)\n%%EOF\n$", data)
    assert start is not None
    xref_at = int(start.group(1))
    assert data[xref_at:].startswith(b"xref\n0 ")
    header = re.match(rb"xref\n0 (\d+)\n", data[xref_at:])
    assert header is not None
    size = int(header.group(1))
    table = data[xref_at + header.end() :]
    entries = [table[20 * n : 20 * (n + 1)] for n in range(size)]
    assert entries[0] == b"0000000000 65535 f \n"
    for number, entry in enumerate(entries[1:], start=1):
        assert re.fullmatch(rb"\d{10} 00000 n \n", entry), entry
        assert data[int(entry[:10]) :].startswith(f"{number} 0 obj\n".encode()), number
    trailer = table[20 * size :]
    assert trailer.startswith(b"trailer\n<<")
    assert f"/Size {size}".encode() in trailer
    root = re.search(rb"/Root (\d+) 0 R", trailer)
    assert root is not None
    objects = dict(re.findall(rb"(?ms)^(\d+) 0 obj\n(.*?)\nendobj\n", data))
    assert len(objects) == size - 1
    assert b"/Type /Catalog" in objects[root.group(1)]
    pages = [body for body in objects.values() if b"/Type /Page " in body]
    assert len(pages) == 2
    assert b"/Count 2" in next(body for body in objects.values() if b"/Type /Pages" in body)
    fonts = [body for body in objects.values() if b"/Type /Font" in body]
    assert len(fonts) == 1
    assert b"/BaseFont /Helvetica" in fonts[0]
    shown = []
    for body in objects.values():
        stream = re.fullmatch(rb"(?s)<< /Length (\d+) >>\nstream\n(.*)endstream", body)
        if stream is not None:
            assert len(stream.group(2)) == int(stream.group(1))
            shown += re.findall(rb"\((.*?)\) Tj", stream.group(2))
    text = b"\n".join(shown).decode("ascii")
    for item in ITEMS:
        assert f"{item['name']}, {item['price']}" in text


@pytest.mark.parametrize("name", ["report.docx", "slides.pptx", "report.pdf", "report.xlsx"])
def test_pristine_bytes_are_the_written_bytes(sandbox: Sandbox, name: str) -> None:
    assert pristine_bytes(name) == (sandbox.root / name).read_bytes()


def test_documents_read_with_their_libraries_when_installed(sandbox: Sandbox) -> None:
    docx = pytest.importorskip("docx")
    pptx = pytest.importorskip("pptx")
    pypdf = pytest.importorskip("pypdf")
    document = docx.Document(str(sandbox.root / "report.docx"))
    assert document.paragraphs[0].style.name == "Heading 1"
    assert [c.text for c in document.tables[0].rows[1].cells] == ["1", "apple", "1.5"]
    slides = pptx.Presentation(str(sandbox.root / "slides.pptx")).slides
    assert [slide.shapes.title.text for slide in slides] == ["Sandbox slides", "Items"]
    reader = pypdf.PdfReader(str(sandbox.root / "report.pdf"), strict=True)
    assert len(reader.pages) == 2
    assert "banana, 0.25" in reader.pages[1].extract_text()


def test_png_is_valid(sandbox: Sandbox) -> None:
    data = (sandbox.root / "image.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks: list[tuple[bytes, bytes]] = []
    offset = 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        chunks.append((kind, body))
        offset += 12 + length
    assert [kind for kind, _ in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    width, height, depth, colour, _, _, _ = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (width, height, depth, colour) == (16, 16, 8, 2)
    pixels = zlib.decompress(chunks[1][1])
    assert len(pixels) == height * (1 + width * 3)


def test_sqlite_database(sandbox: Sandbox) -> None:
    assert _read_sqlite(sandbox.root / "data.db") == EXPECTED_ROWS
    connection = sqlite3.connect(sandbox.root / "data.db")
    try:
        columns = connection.execute("PRAGMA table_info(items)").fetchall()
    finally:
        connection.close()
    assert [(c[1], c[2], c[3], c[5]) for c in columns] == [
        ("id", "INTEGER", 0, 1),
        ("name", "TEXT", 1, 0),
        ("price", "REAL", 0, 0),
    ]


@needs_git
def test_git_repository(sandbox: Sandbox) -> None:
    repo = sandbox.root / "repo"
    assert len(_git(repo, "log", "--oneline").splitlines()) >= 3
    branches = _git(repo, "branch").splitlines()
    assert "* main" in branches
    assert "  feature" in branches
    assert _git(repo, "rev-list", "--count", "main..feature").strip() == "1"
    assert _git(repo, "status", "--porcelain").strip() == ""
    assert (repo / "README.md").is_file()
    assert "def main" in (repo / "src" / "app.py").read_text()
    author = _git(repo, "log", "-1", "--format=%an <%ae> %at %cn <%ce> %ct")
    assert author.split()[0] == "Toolscore"
    assert _git(repo, "fsck", "--strict") == ""


@needs_git
def test_git_hashes_are_deterministic_and_ignore_the_callers_git_setup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Sandbox.create(http=False) as first:
        expected = _git(first.root / "repo", "rev-parse", "main", "feature")
    # A hostile environment: a user config that would change branch names and signing,
    # and GIT_DIR pointing elsewhere (as inside a git hook).
    config = tmp_path / "gitconfig"
    config.write_text("[init]\n\tdefaultBranch = trunk\n[commit]\n\tgpgsign = true\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "elsewhere"))
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Someone Else")
    with Sandbox.create(http=False) as second:
        assert second.notes == []
        assert _git(second.root / "repo", "rev-parse", "main", "feature") == expected
    assert not (tmp_path / "elsewhere").exists()


def test_without_git_the_repo_is_skipped_with_a_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory: no git on PATH
    with Sandbox.create(http=False) as box:
        assert not (box.root / "repo").exists()
        assert any("git" in note for note in box.notes)
        assert "repository" not in {entry.kind for entry in box.entries()}
        assert (box.root / "data.db").is_file()
        with pytest.raises(ValueError, match="repo"):
            box.disposable("repository")


def test_contents_are_identical_between_sandboxes(sandbox: Sandbox) -> None:
    with Sandbox.create(http=False) as other:
        for name in LAYOUT_FILES:
            assert (sandbox.root / name).read_bytes() == (other.root / name).read_bytes(), name


# -- entries and lookups -----------------------------------------------------------------------


def test_entries(sandbox: Sandbox) -> None:
    entries = {
        Path(entry.path).relative_to(sandbox.root).as_posix(): entry for entry in sandbox.entries()
    }
    expected_kinds = {
        "notes.txt": ("file", ".txt"),
        "README.md": ("file", ".md"),
        "data.json": ("file", ".json"),
        "data.csv": ("file", ".csv"),
        "report.xlsx": ("spreadsheet", ".xlsx"),
        "report.docx": ("document", ".docx"),
        "slides.pptx": ("presentation", ".pptx"),
        "report.pdf": ("document", ".pdf"),
        "image.png": ("image", ".png"),
        "docs": ("directory", ""),
        "docs/guide.md": ("file", ".md"),
        "data.db": ("database", ".db"),
        "scratch": ("directory", ""),
    }
    if HAS_GIT:
        expected_kinds["repo"] = ("repository", "")
    assert {name: (e.kind, e.extension) for name, e in entries.items()} == expected_kinds
    for entry in entries.values():
        assert Path(entry.path).is_absolute()
        assert os.path.exists(entry.path)
        assert entry.description


def test_file_with_extension(sandbox: Sandbox) -> None:
    assert sandbox.file_with_extension(".xlsx") == sandbox.root / "report.xlsx"
    assert sandbox.file_with_extension("XLSX") == sandbox.root / "report.xlsx"
    assert sandbox.file_with_extension(".MD") == sandbox.root / "README.md"
    assert sandbox.file_with_extension("md") == sandbox.root / "README.md"
    assert sandbox.file_with_extension("txt") == sandbox.root / "notes.txt"
    assert sandbox.file_with_extension(".db") == sandbox.root / "data.db"
    assert sandbox.file_with_extension(".png") == sandbox.root / "image.png"
    assert sandbox.file_with_extension(".docx") == sandbox.root / "report.docx"
    assert sandbox.file_with_extension("PPTX") == sandbox.root / "slides.pptx"
    assert sandbox.file_with_extension(".pdf") == sandbox.root / "report.pdf"
    assert sandbox.file_with_extension(".odt") is None
    assert sandbox.file_with_extension("") is None


# -- HTTP --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "content_type", "snippet"),
    [
        ("/", "text/html", b"<title>"),
        ("/page.html", "text/html", b"<h1>"),
        ("/robots.txt", "text/plain", b"User-agent: *\nAllow: /\n"),
        ("/data.json", "application/json", b'"apple"'),
        ("/notes.txt", "text/plain", b"toolscore sandbox"),
    ],
)
def test_http_serves_the_pages(
    sandbox: Sandbox, path: str, content_type: str, snippet: bytes
) -> None:
    assert sandbox.url.startswith("http://127.0.0.1:")
    status, got_type, body = _fetch(sandbox.url + path)
    assert status == 200
    assert got_type.split(";")[0] == content_type
    assert snippet in body
    head_status, head_type, head_body = _fetch(sandbox.url + path, method="HEAD")
    assert (head_status, head_type, head_body) == (200, got_type, b"")


def test_http_index_links_to_the_other_pages(sandbox: Sandbox) -> None:
    _, _, body = _fetch(sandbox.url + "/")
    for target in ("/page.html", "/robots.txt", "/data.json", "/notes.txt"):
        assert f'href="{target}"'.encode() in body
    assert json.loads(_fetch(sandbox.url_for("data.json"))[2]) == json.loads(
        (sandbox.root / "data.json").read_bytes()
    )


@pytest.mark.parametrize("path", ["/nope", "/missing", "/page.html/x", "/../notes.txt"])
def test_http_unknown_paths_are_404(sandbox: Sandbox, path: str) -> None:
    status, content_type, body = _fetch(sandbox.url + path)
    assert status == 404
    assert content_type.startswith("text/plain")
    assert body
    assert _fetch(sandbox.url + path, method="HEAD")[0] == 404


def test_http_is_quiet_and_concurrent(sandbox: Sandbox, capfd: pytest.CaptureFixture[str]) -> None:
    urls = [sandbox.url_for(name) for name in ("", "page.html", "missing", "robots.txt")] * 5
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        statuses = list(pool.map(lambda url: _fetch(url)[0], urls))
    assert statuses == [200, 200, 404, 200] * 5
    # A client that connects and hangs up without a request must not print anything either.
    host, port = sandbox.url.removeprefix("http://").split(":")
    socket.create_connection((host, int(port)), timeout=5).close()
    assert _fetch(sandbox.url_for("robots.txt"))[0] == 200
    captured = capfd.readouterr()
    assert captured.err == ""
    assert captured.out == ""


def test_url_for(sandbox: Sandbox) -> None:
    assert sandbox.url_for("robots.txt") == f"{sandbox.url}/robots.txt"
    assert sandbox.url_for("/page.html") == f"{sandbox.url}/page.html"
    assert _fetch(sandbox.url_for("missing"))[0] == 404
    assert _fetch(sandbox.url_for(""))[0] == 200


def test_without_http(tmp_path: Path) -> None:
    with Sandbox.create(http=False) as box:
        assert box.url == ""
        assert box.substitute("{sandbox_url}/x") == "{sandbox_url}/x"
        with pytest.raises(RuntimeError):
            box.url_for("robots.txt")


# -- templates ---------------------------------------------------------------------------------


def test_substitute(sandbox: Sandbox) -> None:
    root = str(sandbox.root)
    assert sandbox.substitute("--repository {sandbox}/repo") == f"--repository {root}/repo"
    assert sandbox.substitute("{sandbox_url}/robots.txt") == f"{sandbox.url}/robots.txt"
    assert sandbox.substitute("{sandbox}{sandbox_url}") == root + sandbox.url
    for untouched in ('{"a": 1}', "{}", "{0} {name}", "{sandboxes}", "${HOME}", "{ sandbox }"):
        assert sandbox.substitute(untouched) == untouched


def test_substitute_all(sandbox: Sandbox) -> None:
    root = str(sandbox.root)
    original = {
        "command": ["server", "--root", "{sandbox}"],
        "env": {"BASE_URL": "{sandbox_url}", "DEPTH": 3},
        "pair": ("{sandbox}/a", None),
        "{sandbox}": "key stays",
        "flag": True,
    }
    result = sandbox.substitute_all(original)
    assert result == {
        "command": ["server", "--root", root],
        "env": {"BASE_URL": sandbox.url, "DEPTH": 3},
        "pair": (f"{root}/a", None),
        "{sandbox}": "key stays",
        "flag": True,
    }
    assert isinstance(result["pair"], tuple)
    assert original["command"] == ["server", "--root", "{sandbox}"]  # not mutated
    assert sandbox.substitute_all("{sandbox}") == root
    assert sandbox.substitute_all(7) == 7


# -- fresh paths and copies --------------------------------------------------------------------


def test_new_path_never_collides_and_stays_in_scratch(sandbox: Sandbox) -> None:
    scratch = sandbox.root / "scratch"
    paths = [sandbox.new_path("toolscore", ".txt") for _ in range(100)]
    paths += [sandbox.new_path() for _ in range(50)]
    assert len(set(paths)) == len(paths)
    for path in paths:
        assert path.parent == scratch
        assert not path.exists()
    assert paths[0].name.startswith("toolscore-")
    assert paths[0].suffix == ".txt"
    assert sandbox.new_path("x", "JSON").suffix == ".json"
    assert sandbox.new_path("x", "").suffix == ""
    for hostile in ("../../etc/passwd", "/abs/path", "..", "", "a/b\\c", "\x00"):
        path = sandbox.new_path(hostile, "../x")
        assert path.parent == scratch, hostile
        assert sandbox.contains(path)
        assert not path.name.startswith(".")


def test_new_path_skips_names_that_already_exist(sandbox: Sandbox) -> None:
    first = sandbox.new_path("taken", ".txt")
    number = int(first.stem.rsplit("-", 1)[1])
    squatter = first.with_name(f"taken-{number + 1}.txt")
    squatter.write_text("already here")
    second = sandbox.new_path("taken", ".txt")
    assert second != squatter
    assert not second.exists()


def test_disposable_file_copies_are_independent(sandbox: Sandbox) -> None:
    original = (sandbox.root / "notes.txt").read_bytes()
    for kind in ("file", ".txt", "txt"):
        copy = sandbox.disposable(kind)
        assert copy.parent == sandbox.root / "scratch"
        assert copy.read_bytes() == original
        copy.write_text("changed")
        copy.unlink()
    assert (sandbox.root / "notes.txt").read_bytes() == original
    assert sandbox.disposable("spreadsheet").suffix == ".xlsx"
    assert sandbox.disposable("image").read_bytes() == (sandbox.root / "image.png").read_bytes()
    assert sandbox.disposable(".CSV").suffix == ".csv"
    assert sandbox.disposable("spreadsheet") != sandbox.disposable("spreadsheet")


def test_disposable_directory_and_database(sandbox: Sandbox) -> None:
    directory = sandbox.disposable("directory")
    assert directory.is_dir()
    assert (directory / "guide.md").is_file()
    shutil.rmtree(directory)
    assert (sandbox.root / "docs" / "guide.md").is_file()

    database = sandbox.disposable("database")
    assert database.suffix == ".db"
    connection = sqlite3.connect(database)
    try:
        connection.execute("DELETE FROM items")
        connection.commit()
    finally:
        connection.close()
    assert _read_sqlite(database) == []
    assert _read_sqlite(sandbox.root / "data.db") == EXPECTED_ROWS


@needs_git
def test_disposable_repository(sandbox: Sandbox) -> None:
    copy = sandbox.disposable("repository")
    assert copy.parent == sandbox.root / "scratch"
    _git(copy, "branch", "-D", "feature")
    (copy / "README.md").write_text("rewritten\n")
    _git(copy, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "rewrite")
    assert _git(copy, "status", "--porcelain") == ""
    original = sandbox.root / "repo"
    assert "  feature" in _git(original, "branch").splitlines()
    assert "rewritten" not in (original / "README.md").read_text()
    assert _git(original, "rev-list", "--count", "main").strip() == "3"


def test_disposable_other_extensions_get_a_text_file(sandbox: Sandbox) -> None:
    for extension, suffix in ((".log", ".log"), ("YAML", ".yaml"), ("", ".txt")):
        copy = sandbox.disposable(extension)
        assert copy.parent == sandbox.root / "scratch"
        assert copy.suffix == suffix
        assert copy.read_bytes() == (sandbox.root / "notes.txt").read_bytes()


# -- containment -------------------------------------------------------------------------------


def test_contains(sandbox: Sandbox, tmp_path: Path) -> None:
    root = sandbox.root
    assert sandbox.contains(root)
    assert sandbox.contains(root / "notes.txt")
    assert sandbox.contains(str(root / "scratch" / "not-yet" / "deeper.txt"))
    assert sandbox.contains("notes.txt")  # relative paths count from the root
    assert sandbox.contains(root / "scratch" / ".." / "data.db")
    assert not sandbox.contains(root.parent)
    assert not sandbox.contains(tmp_path)
    assert not sandbox.contains(Path(os.path.abspath(os.sep)))
    assert not sandbox.contains(root / "scratch" / ".." / ".." / "escape.txt")
    assert not sandbox.contains("../escape.txt")
    assert not sandbox.contains(str(root) + "-sibling/file.txt")
    assert not sandbox.contains("bad\x00path")


@posix_only
def test_contains_follows_symlinks(sandbox: Sandbox, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("outside")
    link_out = sandbox.root / "scratch" / "link-out"
    link_out.symlink_to(outside)
    dir_out = sandbox.root / "scratch" / "dir-out"
    dir_out.symlink_to(tmp_path, target_is_directory=True)
    link_in = sandbox.root / "scratch" / "link-in"
    link_in.symlink_to(sandbox.root / "notes.txt")
    loop = sandbox.root / "scratch" / "loop"
    loop.symlink_to(loop)
    assert not sandbox.contains(link_out)
    assert not sandbox.contains(dir_out / "outside.txt")
    assert not sandbox.contains(dir_out / "new-file")
    assert sandbox.contains(link_in)
    sandbox.contains(loop)  # must not raise


# -- lifetime ----------------------------------------------------------------------------------


def _refused(url: str) -> bool:
    host, port = url.removeprefix("http://").split(":")
    try:
        socket.create_connection((host, int(port)), timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


def test_close_removes_everything_and_stops_the_server() -> None:
    box = Sandbox.create()
    root, url = box.root, box.url
    assert _fetch(url + "/")[0] == 200
    box.close()
    assert box.closed
    assert not root.exists()
    assert _refused(url)
    box.close()  # idempotent


def _fail_inside(box: Sandbox) -> None:
    with box:
        raise KeyError("boom")


def test_context_manager_closes_on_error() -> None:
    box = Sandbox.create()
    with pytest.raises(KeyError):
        _fail_inside(box)
    assert not box.root.exists()
    assert box.closed


@posix_only
def test_close_removes_read_only_things_and_never_follows_symlinks(tmp_path: Path) -> None:
    outside = tmp_path / "precious"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep me")
    box = Sandbox.create(http=False)
    scratch = box.root / "scratch"
    (scratch / "link-to-outside").symlink_to(outside, target_is_directory=True)
    (scratch / "file-link").symlink_to(outside / "keep.txt")
    read_only_file = scratch / "ro.txt"
    read_only_file.write_text("x")
    read_only_file.chmod(0o444)
    locked = scratch / "locked"
    (locked / "inner").mkdir(parents=True)
    (locked / "inner" / "f.txt").write_text("x")
    (locked / "inner").chmod(0o000)  # unreadable and unsearchable
    locked.chmod(0o555)  # read-only directory
    box.close()
    assert not os.path.lexists(box.root)
    assert (outside / "keep.txt").read_text() == "keep me"
    assert stat.S_IMODE(outside.stat().st_mode) & 0o200


def test_keep_leaves_the_tree_but_stops_the_server() -> None:
    box = Sandbox.create(keep=True)
    try:
        box.close()
        assert (box.root / "notes.txt").is_file()
        assert _refused(box.url)
    finally:
        shutil.rmtree(box.root, ignore_errors=True)


def test_two_sandboxes_share_nothing() -> None:
    with Sandbox.create() as first, Sandbox.create() as second:
        assert first.root != second.root
        assert not first.contains(second.root)
        assert not second.contains(first.root)
        assert first.url != second.url
        (first.root / "scratch" / "mine.txt").write_text("first")
        assert not (second.root / "scratch" / "mine.txt").exists()
        first_copy = first.disposable("database")
        assert not second.contains(first_copy)
        first.close()
        assert _refused(first.url)
        assert _fetch(second.url_for("robots.txt"))[0] == 200
        assert (second.root / "notes.txt").is_file()
