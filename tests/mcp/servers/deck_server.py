"""A slide-deck server that keeps decks in memory under ids, as office servers do.

Every failure is a JSON ``{"error": ...}`` with ``isError`` false. What it asks of a client:

* ``create_deck`` makes an empty deck and answers its ``deck_id``; ``add_page`` (a creator
  too) takes that id and, for any other, says "No deck is currently loaded or the specified
  ID is invalid": missing state, not a defect;
* ``add_grid`` answers the ``shape_index`` of the grid it placed, after the page's title
  shape; ``format_grid_cell`` needs that index (shape 0 "is not a grid") and a ``row`` and
  ``col`` inside a 2x2 grid; ``style_text`` needs ``start_pos < end_pos <= 4``;
* ``set_layout`` lists its kinds only in its error ("Available layout kinds: ...");
* ``arrange`` documents its modes only in a docstring ``Args:`` section;
* ``fade_page`` is not implemented (a success-looking "placeholder" answer): broken;
* ``add_picture`` takes a PNG file in ``picture_source``, which only its error calls a file;
* ``snapshot`` needs a program this machine lacks ("Command 'screencapture' not found").

Standard library only.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from _stdio import serve, text_result

#: deck id -> pages, each a list of shapes ("title", "grid").
DECKS: dict[str, list[list[str]]] = {}

_INT = {"type": "integer"}
_DECK = {"type": "string"}


def _tool(name: str, description: str, properties: dict[str, Any], required: list[str]) -> Any:
    return {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": properties, "required": required},
    }


TOOLS = [
    _tool("create_deck", "Create a new empty deck.", {}, []),
    _tool("add_page", "Add a page to a deck.", {"deck_id": _DECK}, []),
    _tool(
        "add_grid",
        "Add a 2x2 grid to a page of a deck.",
        {"deck_id": _DECK, "page_index": _INT},
        ["deck_id", "page_index"],
    ),
    _tool(
        "format_grid_cell",
        "Make one cell of a grid bold.",
        {"deck_id": _DECK, "page_index": _INT, "shape_index": _INT, "row": _INT, "col": _INT},
        ["deck_id", "page_index", "shape_index", "row", "col"],
    ),
    _tool(
        "style_text",
        "Underline part of a page's title, 'Deck'.",
        {"deck_id": _DECK, "page_index": _INT, "start_pos": _INT, "end_pos": _INT},
        ["deck_id", "page_index", "start_pos", "end_pos"],
    ),
    _tool("set_layout", "Choose how pages are laid out.", {"kind": {"type": "string"}}, ["kind"]),
    _tool(
        "arrange",
        "Arrange the open windows.\n\n    Args:\n        mode: Arrangement mode"
        ' ("tile", "cascade")\n\n    Returns:\n        What was arranged.\n',
        {"mode": {"type": "string"}},
        ["mode"],
    ),
    _tool(
        "fade_page",
        "Set a fade transition on a page.",
        {"deck_id": _DECK, "page_index": _INT},
        ["deck_id", "page_index"],
    ),
    _tool("snapshot", "Take a picture of the screen.", {}, []),
    _tool(
        "add_picture",
        "Put a picture on a page of a deck.",
        {"deck_id": _DECK, "page_index": _INT, "picture_source": {"type": "string"}},
        ["deck_id", "page_index", "picture_source"],
    ),
]


def _json(value: dict[str, Any]) -> dict[str, Any]:
    return text_result(json.dumps(value))


def _page(arguments: dict[str, Any]) -> list[str] | dict[str, Any]:
    deck = DECKS.get(str(arguments.get("deck_id")))
    if deck is None:
        return _json({"error": "No deck is currently loaded or the specified ID is invalid"})
    index = arguments.get("page_index")
    if not isinstance(index, int) or not 0 <= index < len(deck):
        return _json({"error": f"Invalid page index: {index}. Available pages: 0-{len(deck) - 1}"})
    return deck[index]


def _on_page(name: str, page: list[str], arguments: dict[str, Any]) -> dict[str, Any]:
    if name == "add_grid":
        page.append("grid")
        return _json({"message": "Added a 2x2 grid", "shape_index": len(page) - 1})
    if name == "format_grid_cell":
        shape = arguments.get("shape_index")
        if not isinstance(shape, int) or not 0 <= shape < len(page):
            return _json({"error": f"Invalid shape index: {shape}"})
        if page[shape] != "grid":
            return _json({"error": f"Shape at index {shape} is not a grid"})
        if arguments.get("row") not in (0, 1) or arguments.get("col") not in (0, 1):
            return _json({"error": "Failed to format the cell. Check that indices are valid."})
        return _json({"message": "Formatted the cell"})
    if name == "add_picture":
        source = Path(str(arguments.get("picture_source")))
        if source.suffix != ".png" or not source.is_file():
            return _json({"error": f"Image file not found: {source}"})
        page.append("picture")
        return _json({"message": "Added the picture", "shape_index": len(page) - 1})
    if name == "style_text":
        start, end = arguments.get("start_pos"), arguments.get("end_pos")
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= 4):
            return _json({"error": "Invalid text positions. The title has 4 characters."})
        return _json({"message": f"Underlined characters {start}-{end}"})
    return _json(
        {
            "message": "Transition setting requested",
            "note": "Transitions have limited support - this is a placeholder for future enhancement",
        }
    )


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    if name == "create_deck":
        deck_id = f"deck-{len(DECKS) + 1}"
        DECKS[deck_id] = []
        return _json({"deck_id": deck_id, "message": f"Created deck {deck_id}"})
    if name == "add_page":
        deck = DECKS.get(str(arguments.get("deck_id")))
        if deck is None:
            return _json({"error": "No deck is currently loaded or the specified ID is invalid"})
        deck.append(["title"])
        return _json({"message": f"Added page {len(deck) - 1}", "page_index": len(deck) - 1})
    if name == "set_layout":
        kind = arguments.get("kind")
        if kind not in ("grid", "stack", "flow"):
            return _json(
                {"error": f"Unsupported kind: {kind}. Available layout kinds: grid, stack, flow"}
            )
        return _json({"message": f"Layout is now {kind}"})
    if name == "arrange":
        if arguments.get("mode") not in ("tile", "cascade"):
            return _json({"error": "Arrangement failed"})
        return _json({"message": "Arranged"})
    if name == "snapshot":
        return _json({"error": "Command 'screencapture' not found"})
    if name not in {tool["name"] for tool in TOOLS}:
        return None
    page = _page(arguments)
    if isinstance(page, dict):
        return page
    return _on_page(name, page, arguments)


if __name__ == "__main__":
    raise SystemExit(serve("decks", TOOLS, call))
