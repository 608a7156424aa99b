"""The sandbox's plain files: their fixed contents and the writers of each format.

Text, JSON, CSV, an xlsx workbook, a docx document, a pptx presentation, a PDF, a PNG image
and a SQLite database, all holding the same small table (:data:`ITEMS`) and all byte-for-byte
the same on every run, so a tool's answer about them can be checked. The office files and the
PDF are written by hand with the standard library only. :func:`write_files` writes them under a new sandbox root.
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

#: The one small table every data file in the sandbox holds (JSON, CSV, XLSX, DOCX, PPTX, PDF,
#: SQLite).
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
- report.docx, slides.pptx and report.pdf: documents listing the same three items
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


# -- OOXML packages (xlsx, docx, pptx), minimal and written by hand ----------------------------


def _zip_bytes(parts: tuple[tuple[str, str], ...]) -> bytes:
    """A zip of the XML ``parts`` in order; fixed timestamps make the bytes reproducible."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in parts:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, text.encode())
    return buffer.getvalue()


# -- XLSX --------------------------------------------------------------------------------------

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
    return _zip_bytes(parts)


# -- DOCX --------------------------------------------------------------------------------------

_NS_WORD = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_CT_OFFICE = "application/vnd.openxmlformats-officedocument"
_CT_CORE = "application/vnd.openxmlformats-package.core-properties+xml"
_REL_CORE = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"
_DOCUMENT_TITLE = "Sandbox report"
_DOCUMENT_TEXT = (
    "This report lives in the toolscore sandbox. "
    "It lists the same three items as data.csv: id, name and price."
)
_DOCUMENT_CLOSING = "Three items in all."


def _content_types(overrides: tuple[tuple[str, str], ...]) -> str:
    """``[Content_Types].xml``: the two defaults plus one override per (part, type)."""
    listed = "".join(
        f'<Override PartName="{part}" ContentType="{kind}"/>' for part, kind in overrides
    )
    return (
        _XML_HEAD + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        f"{listed}</Types>"
    )


def _relationships(targets: tuple[tuple[str, str], ...]) -> str:
    """A ``.rels`` part: rId1, rId2, ... for each (type, target); a bare type is an office one."""
    listed = "".join(
        f'<Relationship Id="rId{number}" Type="{kind if "/" in kind else f"{_NS_REL}/{kind}"}"'
        f' Target="{target}"/>'
        for number, (kind, target) in enumerate(targets, start=1)
    )
    return _XML_HEAD + f'<Relationships xmlns="{_NS_PKG_REL}">{listed}</Relationships>'


def _core_properties(title: str) -> str:
    """``docProps/core.xml`` with a title, an author and fixed dates."""
    stamp = '<dcterms:{0} xsi:type="dcterms:W3CDTF">2024-01-01T00:00:00Z</dcterms:{0}>'
    return (
        _XML_HEAD + "<cp:coreProperties"
        ' xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"'
        ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"'
        ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
        f"<dc:title>{xml_escape(title)}</dc:title><dc:creator>toolscore</dc:creator>"
        f"{stamp.format('created')}{stamp.format('modified')}"
        "</cp:coreProperties>"
    )


_DOCX_STYLES = (
    _XML_HEAD + f'<w:styles xmlns:w="{_NS_WORD}">'
    '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/>'
    '<w:sz w:val="22"/></w:rPr></w:rPrDefault><w:pPrDefault/></w:docDefaults>'
    '<w:style w:type="paragraph" w:default="1" w:styleId="Normal">'
    '<w:name w:val="Normal"/><w:qFormat/></w:style>'
    '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/>'
    '<w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/>'
    '<w:pPr><w:keepNext/><w:outlineLvl w:val="0"/></w:pPr>'
    '<w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style>'
    '<w:style w:type="table" w:default="1" w:styleId="TableNormal">'
    '<w:name w:val="Normal Table"/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/></w:tblPr></w:style>'
    '<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/>'
    '<w:basedOn w:val="TableNormal"/><w:tblPr><w:tblBorders>'
    + "".join(
        f'<w:{side} w:val="single" w:sz="4" w:space="0" w:color="auto"/>'
        for side in ("top", "left", "bottom", "right", "insideH", "insideV")
    )
    + "</w:tblBorders></w:tblPr></w:style>"
    "</w:styles>"
)


def _docx_paragraph(text: str, style: str = "") -> str:
    """One ``<w:p>`` holding ``text`` in a single run, with an optional paragraph style."""
    properties = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f'<w:p>{properties}<w:r><w:t xml:space="preserve">{xml_escape(text)}</w:t></w:r></w:p>'


def _docx_table() -> str:
    """The items as a bordered table: a header row and one row per item."""
    width = 2400
    grid = "".join(f'<w:gridCol w:w="{width}"/>' for _ in _COLUMNS)
    rows = "".join(
        "<w:tr>"
        + "".join(
            f'<w:tc><w:tcPr><w:tcW w:w="{width}" w:type="dxa"/></w:tcPr>'
            f"{_docx_paragraph(str(value))}</w:tc>"
            for value in row
        )
        + "</w:tr>"
        for row in _xlsx_rows()
    )
    return (
        '<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr>'
        f"<w:tblGrid>{grid}</w:tblGrid>{rows}</w:tbl>"
    )


def _docx_document() -> str:
    """``word/document.xml``: a heading, a paragraph, the items table and a closing line."""
    section = (
        '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440"'
        ' w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>'
    )
    return (
        _XML_HEAD + f'<w:document xmlns:w="{_NS_WORD}"><w:body>'
        f"{_docx_paragraph(_DOCUMENT_TITLE, 'Heading1')}{_docx_paragraph(_DOCUMENT_TEXT)}"
        f"{_docx_table()}{_docx_paragraph(_DOCUMENT_CLOSING)}{section}"
        "</w:body></w:document>"
    )


@functools.cache
def _docx_bytes() -> bytes:
    """A minimal, valid .docx: one heading, one paragraph, the items table (style Table Grid)."""
    word = f"{_CT_OFFICE}.wordprocessingml"
    parts = (
        (
            "[Content_Types].xml",
            _content_types(
                (
                    ("/word/document.xml", f"{word}.document.main+xml"),
                    ("/word/styles.xml", f"{word}.styles+xml"),
                    ("/docProps/core.xml", _CT_CORE),
                )
            ),
        ),
        (
            "_rels/.rels",
            _relationships(
                (("officeDocument", "word/document.xml"), (_REL_CORE, "docProps/core.xml"))
            ),
        ),
        ("docProps/core.xml", _core_properties(_DOCUMENT_TITLE)),
        ("word/document.xml", _docx_document()),
        ("word/_rels/document.xml.rels", _relationships((("styles", "styles.xml"),))),
        ("word/styles.xml", _DOCX_STYLES),
    )
    return _zip_bytes(parts)


# -- PPTX --------------------------------------------------------------------------------------

_NS_DRAWING = "http://schemas.openxmlformats.org/drawingml/2006/main"
_NS_PRESENTATION = "http://schemas.openxmlformats.org/presentationml/2006/main"
_PPTX_NAMESPACES = f'xmlns:a="{_NS_DRAWING}" xmlns:r="{_NS_REL}" xmlns:p="{_NS_PRESENTATION}"'
_PPTX_GROUP = (
    '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>'
    '<p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/>'
    '<a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>'
)
_PPTX_KEEP_MASTER_COLOURS = "<p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr>"
#: (placeholder, x, y, width, height) in EMU on a 4:3 slide of 9144000 x 6858000.
_PPTX_MASTER_BOXES = (
    ('type="title"', 457200, 274638, 8229600, 1143000),
    ('type="body" idx="1"', 457200, 1600200, 8229600, 4525963),
)
_PPTX_TITLE_LAYOUT_BOXES = (
    ('type="ctrTitle"', 685800, 2130425, 7772400, 1470025),
    ('type="subTitle" idx="1"', 1371600, 3886200, 6400800, 1752600),
)
_PPTX_TITLE = "Sandbox slides"
_PPTX_SUBTITLE = "The same three items as data.csv"
_PPTX_ITEMS_TITLE = "Items"


def _pptx_shape(
    shape_id: int,
    name: str,
    placeholder: str,
    box: tuple[int, int, int, int] | None = None,
    paragraphs: tuple[str, ...] = (),
) -> str:
    """One placeholder ``<p:sp>``: a position only where given (else inherited), and text."""
    if box is None:
        geometry = "<p:spPr/>"
    else:
        x, y, width, height = box
        geometry = (
            f'<p:spPr><a:xfrm><a:off x="{x}" y="{y}"/><a:ext cx="{width}" cy="{height}"/></a:xfrm>'
            '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>'
        )
    text = "".join(
        f'<a:p><a:r><a:rPr lang="en-US"/><a:t>{xml_escape(line)}</a:t></a:r></a:p>'
        for line in paragraphs
    )
    if not text:
        text = '<a:p><a:endParaRPr lang="en-US"/></a:p>'
    return (
        f'<p:sp><p:nvSpPr><p:cNvPr id="{shape_id}" name="{name}"/>'
        '<p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr>'
        f"<p:nvPr><p:ph {placeholder}/></p:nvPr></p:nvSpPr>{geometry}"
        f"<p:txBody><a:bodyPr/><a:lstStyle/>{text}"
        "</p:txBody></p:sp>"
    )


def _pptx_boxed_shapes(boxes: tuple[tuple[str, int, int, int, int], ...]) -> str:
    """Empty placeholders at fixed positions (the master's and the title layout's)."""
    return "".join(
        _pptx_shape(number, f"Placeholder {number - 1}", placeholder, (x, y, width, height))
        for number, (placeholder, x, y, width, height) in enumerate(boxes, start=2)
    )


def _pptx_text_style(level: str, size: int, extra: str = "") -> str:
    """A first-level paragraph style (title or body) in the master's text styles."""
    return (
        f'<a:lvl1pPr{extra}><a:defRPr sz="{size}"><a:solidFill><a:schemeClr val="tx1"/>'
        f'</a:solidFill><a:latin typeface="+{level}-lt"/></a:defRPr></a:lvl1pPr>'
    )


_PPTX_MASTER = (
    _XML_HEAD + f"<p:sldMaster {_PPTX_NAMESPACES}><p:cSld>"
    '<p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg>'
    f"<p:spTree>{_PPTX_GROUP}{_pptx_boxed_shapes(_PPTX_MASTER_BOXES)}</p:spTree></p:cSld>"
    '<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2"'
    ' accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink"'
    ' folHlink="folHlink"/>'
    '<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/>'
    '<p:sldLayoutId id="2147483650" r:id="rId2"/></p:sldLayoutIdLst>'
    "<p:txStyles>"
    "<p:titleStyle>" + _pptx_text_style("mj", 4400, ' algn="ctr"') + "</p:titleStyle>"
    "<p:bodyStyle>"
    + _pptx_text_style("mn", 2800, ' marL="342900" indent="-342900"').replace(
        "<a:defRPr", '<a:buFont typeface="Arial"/><a:buChar char="&#8226;"/><a:defRPr', 1
    )
    + "</p:bodyStyle>"
    '<p:otherStyle><a:defPPr><a:defRPr lang="en-US"/></a:defPPr></p:otherStyle>'
    "</p:txStyles></p:sldMaster>"
)
_PPTX_TITLE_LAYOUT = (
    _XML_HEAD + f'<p:sldLayout {_PPTX_NAMESPACES} type="title" preserve="1">'
    f'<p:cSld name="Title Slide"><p:spTree>{_PPTX_GROUP}'
    f"{_pptx_boxed_shapes(_PPTX_TITLE_LAYOUT_BOXES)}</p:spTree></p:cSld>"
    f"{_PPTX_KEEP_MASTER_COLOURS}</p:sldLayout>"
)
_PPTX_CONTENT_LAYOUT = (
    _XML_HEAD + f'<p:sldLayout {_PPTX_NAMESPACES} type="obj" preserve="1">'
    f'<p:cSld name="Title and Content"><p:spTree>{_PPTX_GROUP}'
    + _pptx_shape(2, "Title 1", 'type="title"')
    + _pptx_shape(3, "Content 2", 'idx="1"')
    + f"</p:spTree></p:cSld>{_PPTX_KEEP_MASTER_COLOURS}</p:sldLayout>"
)


def _pptx_theme() -> str:
    """The smallest complete theme: colour scheme, fonts and three of each format style."""
    colours = (
        '<a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1>'
        '<a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1>'
        + "".join(
            f'<a:{name}><a:srgbClr val="{value}"/></a:{name}>'
            for name, value in (
                ("dk2", "1F497D"),
                ("lt2", "EEECE1"),
                ("accent1", "4F81BD"),
                ("accent2", "C0504D"),
                ("accent3", "9BBB59"),
                ("accent4", "8064A2"),
                ("accent5", "4BACC6"),
                ("accent6", "F79646"),
                ("hlink", "0000FF"),
                ("folHlink", "800080"),
            )
        )
    )
    font = '<a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/>'
    fill = '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>'
    line = f'<a:ln w="9525">{fill}</a:ln>'
    return (
        _XML_HEAD + f'<a:theme xmlns:a="{_NS_DRAWING}" name="Office Theme"><a:themeElements>'
        f'<a:clrScheme name="Office">{colours}</a:clrScheme>'
        f'<a:fontScheme name="Office"><a:majorFont>{font}</a:majorFont>'
        f"<a:minorFont>{font}</a:minorFont></a:fontScheme>"
        f'<a:fmtScheme name="Office"><a:fillStyleLst>{fill * 3}</a:fillStyleLst>'
        f"<a:lnStyleLst>{line * 3}</a:lnStyleLst>"
        f"<a:effectStyleLst>{'<a:effectStyle><a:effectLst/></a:effectStyle>' * 3}</a:effectStyleLst>"
        f"<a:bgFillStyleLst>{fill * 3}</a:bgFillStyleLst></a:fmtScheme>"
        "</a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>"
    )


def _pptx_slide(shapes: str) -> str:
    """A slide holding ``shapes`` (placeholders placed by its layout)."""
    return (
        _XML_HEAD + f"<p:sld {_PPTX_NAMESPACES}><p:cSld><p:spTree>{_PPTX_GROUP}{shapes}"
        f"</p:spTree></p:cSld>{_PPTX_KEEP_MASTER_COLOURS}</p:sld>"
    )


def _item_lines() -> tuple[str, ...]:
    """One line of text per item: ``id 1: apple, 1.5``."""
    return tuple(f"id {item['id']}: {item['name']}, {item['price']}" for item in ITEMS)


@functools.cache
def _pptx_bytes() -> bytes:
    """A minimal, valid .pptx: a title slide, then a slide listing the items as bullets."""
    presentation = f"{_CT_OFFICE}.presentationml"
    title_slide = _pptx_slide(
        _pptx_shape(2, "Title 1", 'type="ctrTitle"', paragraphs=(_PPTX_TITLE,))
        + _pptx_shape(3, "Subtitle 2", 'type="subTitle" idx="1"', paragraphs=(_PPTX_SUBTITLE,))
    )
    items_slide = _pptx_slide(
        _pptx_shape(2, "Title 1", 'type="title"', paragraphs=(_PPTX_ITEMS_TITLE,))
        + _pptx_shape(3, "Content 2", 'idx="1"', paragraphs=_item_lines())
    )
    root = (
        _XML_HEAD + f'<p:presentation {_PPTX_NAMESPACES} saveSubsetFonts="1">'
        '<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>'
        '<p:sldIdLst><p:sldId id="256" r:id="rId2"/><p:sldId id="257" r:id="rId3"/></p:sldIdLst>'
        '<p:sldSz cx="9144000" cy="6858000" type="screen4x3"/><p:notesSz cx="6858000" cy="9144000"/>'
        "</p:presentation>"
    )
    layout_rel = "slideLayout"
    parts = (
        (
            "[Content_Types].xml",
            _content_types(
                (
                    ("/ppt/presentation.xml", f"{presentation}.presentation.main+xml"),
                    ("/ppt/presProps.xml", f"{presentation}.presProps+xml"),
                    ("/ppt/slideMasters/slideMaster1.xml", f"{presentation}.slideMaster+xml"),
                    ("/ppt/slideLayouts/slideLayout1.xml", f"{presentation}.slideLayout+xml"),
                    ("/ppt/slideLayouts/slideLayout2.xml", f"{presentation}.slideLayout+xml"),
                    ("/ppt/slides/slide1.xml", f"{presentation}.slide+xml"),
                    ("/ppt/slides/slide2.xml", f"{presentation}.slide+xml"),
                    ("/ppt/theme/theme1.xml", f"{_CT_OFFICE}.theme+xml"),
                    ("/docProps/core.xml", _CT_CORE),
                )
            ),
        ),
        (
            "_rels/.rels",
            _relationships(
                (("officeDocument", "ppt/presentation.xml"), (_REL_CORE, "docProps/core.xml"))
            ),
        ),
        ("docProps/core.xml", _core_properties(_PPTX_TITLE)),
        ("ppt/presentation.xml", root),
        (
            "ppt/_rels/presentation.xml.rels",
            _relationships(
                (
                    ("slideMaster", "slideMasters/slideMaster1.xml"),
                    ("slide", "slides/slide1.xml"),
                    ("slide", "slides/slide2.xml"),
                    ("theme", "theme/theme1.xml"),
                    ("presProps", "presProps.xml"),
                )
            ),
        ),
        ("ppt/presProps.xml", _XML_HEAD + f"<p:presentationPr {_PPTX_NAMESPACES}/>"),
        ("ppt/slideMasters/slideMaster1.xml", _PPTX_MASTER),
        (
            "ppt/slideMasters/_rels/slideMaster1.xml.rels",
            _relationships(
                (
                    (layout_rel, "../slideLayouts/slideLayout1.xml"),
                    (layout_rel, "../slideLayouts/slideLayout2.xml"),
                    ("theme", "../theme/theme1.xml"),
                )
            ),
        ),
        ("ppt/slideLayouts/slideLayout1.xml", _PPTX_TITLE_LAYOUT),
        (
            "ppt/slideLayouts/_rels/slideLayout1.xml.rels",
            _relationships((("slideMaster", "../slideMasters/slideMaster1.xml"),)),
        ),
        ("ppt/slideLayouts/slideLayout2.xml", _PPTX_CONTENT_LAYOUT),
        (
            "ppt/slideLayouts/_rels/slideLayout2.xml.rels",
            _relationships((("slideMaster", "../slideMasters/slideMaster1.xml"),)),
        ),
        ("ppt/slides/slide1.xml", title_slide),
        (
            "ppt/slides/_rels/slide1.xml.rels",
            _relationships(((layout_rel, "../slideLayouts/slideLayout1.xml"),)),
        ),
        ("ppt/slides/slide2.xml", items_slide),
        (
            "ppt/slides/_rels/slide2.xml.rels",
            _relationships(((layout_rel, "../slideLayouts/slideLayout2.xml"),)),
        ),
        ("ppt/theme/theme1.xml", _pptx_theme()),
    )
    return _zip_bytes(parts)


# -- PDF ---------------------------------------------------------------------------------------

_PDF_TITLE = "Sandbox report"
_PDF_FIRST_PAGE = (
    "This PDF lives in the toolscore sandbox.",
    "It has two pages; the second lists the same three items as data.csv.",
)


def _pdf_string(text: str) -> str:
    """A PDF literal string: backslash and parentheses escaped (the text is plain ASCII)."""
    escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return f"({escaped})"


def _pdf_page_text(heading: str, lines: tuple[str, ...]) -> bytes:
    """A content stream: ``heading`` in 18 pt, then ``lines`` in 12 pt, Helvetica (font F1)."""
    body = " T*\n".join(f"{_pdf_string(line)} Tj" for line in lines)
    return (
        f"BT\n/F1 18 Tf\n72 720 Td\n{_pdf_string(heading)} Tj\nET\n"
        f"BT\n/F1 12 Tf\n16 TL\n72 684 Td\n{body}\nET\n"
    ).encode("ascii")


@functools.cache
def _pdf_bytes() -> bytes:
    """A two-page PDF 1.4 written by hand: uncompressed text in Helvetica, a correct xref table.

    Page 1 holds a heading and two lines of text, page 2 the items, one line each, so any text
    extractor finds the names and prices.
    """
    pages = (
        _pdf_page_text(_PDF_TITLE, _PDF_FIRST_PAGE),
        _pdf_page_text("Items", ("id, name, price", *_item_lines())),
    )
    page_ids = [3 + 2 * number for number in range(len(pages))]
    font_id = 3 + 2 * len(pages)
    info_id = font_id + 1
    objects: dict[int, bytes] = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: (
            f"<< /Type /Pages /Kids [{' '.join(f'{page} 0 R' for page in page_ids)}]"
            f" /Count {len(pages)} >>"
        ).encode(),
        font_id: (
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
        ),
        info_id: f"<< /Title {_pdf_string(_PDF_TITLE)} /Producer (toolscore) >>".encode(),
    }
    for page_id, stream in zip(page_ids, pages, strict=True):
        objects[page_id] = (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
            f" /Resources << /Font << /F1 {font_id} 0 R >> >> /Contents {page_id + 1} 0 R >>"
        ).encode()
        objects[page_id + 1] = (
            f"<< /Length {len(stream)} >>\nstream\n".encode() + stream + b"endstream"
        )
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += f"{number} 0 obj\n".encode() + objects[number] + b"\nendobj\n"
    xref_at = len(out)
    size = max(objects) + 1
    out += f"xref\n0 {size}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offsets[number]:010d} 00000 n \n".encode() for number in range(1, size))
    out += (
        f"trailer\n<< /Size {size} /Root 1 0 R /Info {info_id} 0 R >>\n"
        f"startxref\n{xref_at}\n%%EOF\n"
    ).encode()
    return bytes(out)


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
        "report.docx": _docx_bytes,
        "slides.pptx": _pptx_bytes,
        "report.pdf": _pdf_bytes,
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
    (root / "report.docx").write_bytes(_docx_bytes())
    (root / "slides.pptx").write_bytes(_pptx_bytes())
    (root / "report.pdf").write_bytes(_pdf_bytes())
    (root / "image.png").write_bytes(_png_bytes())
    _write_sqlite(root / "data.db")
