"""A one-workbook spreadsheet server whose refusals name what would do.

The workbook starts with ``Sheet1`` (a header row ``id, name, price`` and three rows).
``rename_sheet`` and ``delete_sheet`` act on any sheet, the first one included, so a run
that aims them at ``Sheet1`` leaves the other tools nothing to work on. ``set_sheet_color``
only changes a sheet. ``add_chart`` takes a qualified range (``Data!B2:F9`` in its
description) and a chart spec whose optional fields belong to other kinds; ``sort_rows``
sorts by columns given inside a list of objects. Standard library only.
"""

from __future__ import annotations

import json
from typing import Any

from _stdio import serve, text_result

HEADER = ["id", "name", "price"]
SHEETS: dict[str, dict[str, Any]] = {
    "Sheet1": {"rows": [HEADER, [1, "apple", 1.5], [2, "pear", 2.0], [3, "plum", 0.5]]}
}
CHARTS: list[dict[str, Any]] = []


def _schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


_SHEET = {"type": "string", "description": "A sheet of the workbook."}
_SPEC = {
    "type": "object",
    "properties": {
        "kind": {"type": "string", "enum": ["pie", "bar"]},
        "title": {"type": "string"},
        "axis_title": {"type": "string", "description": "bar only."},
        "hole_size": {"type": "integer", "description": "pie only."},
    },
    "required": ["kind"],
}
TOOLS = [
    {
        "name": "create_sheet",
        "description": "Add a sheet.",
        "inputSchema": _schema({"new_name": {"type": "string"}}, ["new_name"]),
    },
    {
        "name": "rename_sheet",
        "description": "Rename a sheet.",
        "inputSchema": _schema(
            {"sheet": _SHEET, "new_name": {"type": "string"}}, ["sheet", "new_name"]
        ),
    },
    {
        "name": "set_sheet_color",
        "description": "Set a sheet's tab color.",
        "inputSchema": _schema(
            {"sheet": _SHEET, "color": {"type": "string", "enum": ["red", "blue"]}},
            ["sheet", "color"],
        ),
    },
    {
        "name": "delete_sheet",
        "description": "Delete a sheet.",
        "inputSchema": _schema({"sheet": _SHEET}, ["sheet"]),
    },
    {
        "name": "read_sheet",
        "description": "The rows of a sheet.",
        "inputSchema": _schema({"sheet": _SHEET}, ["sheet"]),
    },
    {
        "name": "add_chart",
        "description": "Chart a block of cells.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "source": {"type": "string", "description": "Cells, e.g. 'Data!B2:F9'."},
                "spec": {"$ref": "#/$defs/Spec"},
            },
            "required": ["source", "spec"],
            "$defs": {"Spec": _SPEC},
        },
    },
    {
        "name": "sort_rows",
        "description": "Sort a sheet's rows below its header.",
        "inputSchema": _schema(
            {
                "sheet": _SHEET,
                "by": {
                    "type": "array",
                    "items": _schema({"column": {"type": "string"}}, ["column"]),
                    "minItems": 1,
                },
            },
            ["sheet", "by"],
        ),
    },
]


def _missing(sheet: Any) -> dict[str, Any]:
    listed = ", ".join(f"'{name}'" for name in SHEETS)
    return text_result(f"Sheet '{sheet}' not found. Available sheets: {listed}.", error=True)


def _chart(arguments: dict[str, Any]) -> dict[str, Any]:
    source = str(arguments.get("source"))
    sheet, _, cells = source.rpartition("!")
    if sheet not in SHEETS:
        return _missing(sheet)
    spec = arguments.get("spec") or {}
    foreign = "axis_title" if spec.get("kind") == "pie" else "hole_size"
    if foreign in spec:
        return text_result(f"A {spec.get('kind')} chart does not use {foreign}.", error=True)
    CHARTS.append({"sheet": sheet, "cells": cells, **spec})
    return text_result(json.dumps({"chart": f"Chart {len(CHARTS)}", "source": source}))


def _sort(sheet: dict[str, Any], by: Any) -> dict[str, Any]:
    columns = [item.get("column") for item in by or [] if isinstance(item, dict)]
    for column in columns:
        if column not in HEADER:
            offered = ", ".join(f"'{name}'" for name in HEADER)
            return text_result(
                f"Column '{column}' is not in the header. Use a header ({offered}).", error=True
            )
    index = HEADER.index(columns[0]) if columns else 0
    sheet["rows"][1:] = sorted(sheet["rows"][1:], key=lambda row: row[index])
    return text_result(json.dumps({"sorted": len(sheet["rows"]) - 1, "by": columns}))


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    if name == "create_sheet":
        new = str(arguments.get("new_name"))
        if new in SHEETS:
            return text_result(f"A sheet named '{new}' already exists.", error=True)
        SHEETS[new] = {"rows": []}
        return text_result(json.dumps({"sheet": new}))
    if name == "add_chart":
        return _chart(arguments)
    if name not in ("rename_sheet", "set_sheet_color", "delete_sheet", "read_sheet", "sort_rows"):
        return None
    sheet = arguments.get("sheet")
    if sheet not in SHEETS:
        return _missing(sheet)
    if name == "rename_sheet":
        new = str(arguments.get("new_name"))
        SHEETS[new] = SHEETS.pop(str(sheet))
        return text_result(json.dumps({"sheet": new}))
    if name == "set_sheet_color":
        SHEETS[str(sheet)]["color"] = arguments.get("color")
        return text_result(json.dumps({"sheet": sheet, "color": arguments.get("color")}))
    if name == "delete_sheet":
        del SHEETS[str(sheet)]
        return text_result(json.dumps({"deleted": sheet}))
    if name == "sort_rows":
        return _sort(SHEETS[str(sheet)], arguments.get("by"))
    return text_result(json.dumps({"sheet": sheet, "rows": SHEETS[str(sheet)]["rows"]}))


if __name__ == "__main__":
    raise SystemExit(serve("grid", TOOLS, call))
