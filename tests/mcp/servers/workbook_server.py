"""A workbook server whose sheet tools need a workbook opened first.

``open_workbook`` loads an .xlsx file from disk and answers ``{"workbook_id": "wb-1"}``; the
other tools take that id and refuse any other. ``close_workbook`` forgets it, so a run that
closed it before the readers ran would fail them. Standard library only.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

from _stdio import serve, text_result

BOOKS: dict[str, dict[str, dict[str, Any]]] = {}

_BOOK = {"type": "string", "description": "The id open_workbook returned."}
_SHEET = {"type": "string", "description": "Sheet name."}
_CELL = {"type": "string", "description": "Cell in A1 notation."}


def _schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


TOOLS = [
    {
        "name": "open_workbook",
        "description": "Open an Excel workbook (.xlsx) for the other tools.",
        "inputSchema": _schema(
            {"path": {"type": "string", "description": "Path of the .xlsx file."}}, ["path"]
        ),
    },
    {
        "name": "list_sheets",
        "description": "The sheets of an open workbook.",
        "inputSchema": _schema({"workbook_id": _BOOK}, ["workbook_id"]),
    },
    {
        "name": "update_cell",
        "description": "Put a value in a cell of a sheet of an open workbook.",
        "inputSchema": _schema(
            {"workbook_id": _BOOK, "sheet": _SHEET, "cell": _CELL, "value": {"type": "string"}},
            ["workbook_id", "sheet", "cell", "value"],
        ),
    },
    {
        "name": "read_cell",
        "description": "The value of a cell of a sheet of an open workbook.",
        "inputSchema": _schema(
            {"workbook_id": _BOOK, "sheet": _SHEET, "cell": _CELL},
            ["workbook_id", "sheet", "cell"],
        ),
    },
    {
        "name": "close_workbook",
        "description": "Close an open workbook.",
        "inputSchema": _schema({"workbook_id": _BOOK}, ["workbook_id"]),
    },
]


def _sheets(path: Path) -> list[str]:
    with zipfile.ZipFile(path) as archive:
        text = archive.read("xl/workbook.xml").decode()
    return [part.split('"', 1)[0] for part in text.split('<sheet name="')[1:]]


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    if name == "open_workbook":
        path = Path(str(arguments.get("path", "")))
        if path.suffix != ".xlsx" or not path.is_file():
            return text_result(f"Not an .xlsx file: {path}", error=True)
        try:
            sheets = _sheets(path)
        except (OSError, KeyError, zipfile.BadZipFile) as exc:
            return text_result(f"Cannot read {path}: {exc}", error=True)
        book_id = f"wb-{len(BOOKS) + 1}"
        BOOKS[book_id] = {sheet: {} for sheet in sheets}
        return text_result(json.dumps({"workbook_id": book_id, "sheets": sheets}))
    if name not in {tool["name"] for tool in TOOLS}:
        return None
    book = BOOKS.get(str(arguments.get("workbook_id")))
    if book is None:
        return text_result(f"No open workbook {arguments.get('workbook_id')!r}", error=True)
    if name == "list_sheets":
        return text_result(json.dumps(sorted(book)))
    if name == "close_workbook":
        del BOOKS[str(arguments["workbook_id"])]
        return text_result("closed")
    sheet = book.get(str(arguments.get("sheet")))
    if sheet is None:
        return text_result(
            f"No sheet {arguments.get('sheet')!r}; sheets: {sorted(book)}", error=True
        )
    cell = str(arguments.get("cell"))
    if name == "update_cell":
        sheet[cell] = arguments.get("value")
        return text_result(f"{cell} = {sheet[cell]}")
    return text_result(json.dumps({"cell": cell, "value": sheet.get(cell)}))


if __name__ == "__main__":
    raise SystemExit(serve("workbooks", TOOLS, call))
