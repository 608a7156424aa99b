"""The sandbox's plain files: their fixed contents and the writers of each format.

Text, JSON, CSV, an xlsx workbook, a PNG image and a SQLite database, all holding the same
small table (:data:`ITEMS`) and all byte-for-byte the same on every run, so a tool's answer
about them can be checked. :func:`write_files` writes them under a new sandbox root.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import sqlite3
import struct
import zipfile
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape as xml_escape

__all__ = ["ITEMS", "pristine_bytes", "write_files"]

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

NOTES = (
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
    ("notes.txt", NOTES),
    ("README.md", _README),
    ("docs/guide.md", _GUIDE),
)


@functools.cache
def json_bytes() -> bytes:
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


def pristine_bytes(relative: str) -> bytes | None:
    """The bytes the layout's plain file ``relative`` was written with (None for the
    database, directories and anything else): what a disposable copy is made from when the
    file in the sandbox can no longer be trusted."""
    texts = dict(_TEXT_FILES)
    if relative in texts:
        return texts[relative].encode()
    makers = {
        "data.json": json_bytes,
        "data.csv": _csv_bytes,
        "report.xlsx": _xlsx_bytes,
        "image.png": _png_bytes,
    }
    maker = makers.get(relative)
    return maker() if maker is not None else None


def write_files(root: Path) -> None:
    """Write every plain file and directory of the layout (all but repo/ and data.db)."""
    (root / "docs").mkdir()
    (root / "scratch").mkdir()
    for relative, text in _TEXT_FILES:
        (root / relative).write_bytes(text.encode())
    (root / "data.json").write_bytes(json_bytes())
    (root / "data.csv").write_bytes(_csv_bytes())
    (root / "report.xlsx").write_bytes(_xlsx_bytes())
    (root / "image.png").write_bytes(_png_bytes())
    _write_sqlite(root / "data.db")
