"""The HTML report shows matchers in their JSON form and lists of records as tables.

The page is parsed with the standard library's HTMLParser: what a reader sees is the text of
the cells, not the markup.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser

import toolscore
from toolscore import ANY, Approx, Regex
from toolscore.reporters import render_report


class Tables(HTMLParser):
    """Every table of the page: its class, and its rows as lists of cell texts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[tuple[str, list[list[str]]]] = []
        self._open: list[tuple[str, list[list[str]]]] = []
        self._cells: list[list[str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            table: tuple[str, list[list[str]]] = (dict(attrs).get("class") or "", [])
            self._open.append(table)
            self.tables.append(table)
        elif tag == "tr" and self._open:
            self._open[-1][1].append([])
        elif tag in ("td", "th") and self._open:
            self._cells.append([])

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self._open:
            self._open.pop()
        elif tag in ("td", "th") and self._cells:
            text = "".join(self._cells.pop())
            if self._open and self._open[-1][1]:
                self._open[-1][1][-1].append(text)
            if self._cells:  # a nested table's text is part of its outer cell too
                self._cells[-1].append(text)

    def handle_data(self, data: str) -> None:
        if self._cells:
            self._cells[-1].append(data)


def tables_of(page: str) -> dict[str, list[list[str]]]:
    parser = Tables()
    parser.feed(page)
    found: dict[str, list[list[str]]] = {}
    for name, rows in parser.tables:
        found.setdefault(name, rows)  # the first table of each class
    return found


def page() -> str:
    result = toolscore.evaluate(
        [
            {"tool": "book", "args": {"date": Regex(r"\d{4}-\d{2}"), "n": Approx(2.0), "id": ANY}},
            {"tool": "pay", "args": {"amount": 10}},
        ],
        [{"tool": "book", "args": {"date": "2025-06", "n": 2, "id": 7}}],
    )
    return render_report("html", result)


def test_a_gold_matcher_reads_as_its_json_form() -> None:
    text = page()
    calls = tables_of(text)["calls"]
    expected_cell = calls[1][1]
    assert expected_cell.startswith("book")
    args = json.loads(expected_cell.removeprefix("book"))
    assert args == {"date": {"$regex": r"\d{4}-\d{2}"}, "n": {"$approx": 2.0}, "id": {"$any": True}}
    assert "Regex(" not in text
    assert "\\\\\\\\d" not in text  # the regex is escaped once, as JSON does


def test_trajectory_details_are_a_table() -> None:
    tables = tables_of(page())
    metrics = tables["metrics"]
    row = next(r for r in metrics if r[:2] == ["trajectory_metrics", "trajectory_details"])
    assert not row[2].startswith("[{")  # not one raw list of dicts
    details = tables["records"]
    header, *rows = details
    assert header[:4] == ["step", "expected_tool", "actual_tool", "matches"]
    assert [r[1] for r in rows] == ["book", "pay"]
    book = dict(zip(header, rows[0], strict=True))
    assert json.loads(book["expected_args"])["date"] == {"$regex": r"\d{4}-\d{2}"}
    assert book["matches"] == "True"
    pay = dict(zip(header, rows[1], strict=True))
    assert pay["actual_tool"] == "None"


def test_scalar_metrics_keep_their_rows() -> None:
    metrics = tables_of(page())["metrics"]
    rows = {(r[0], r[1]): r[2] for r in metrics if len(r) == 3}
    assert rows[("tool_correctness_metrics", "tool_correctness")] == "0.5000"
    assert rows[("trajectory_metrics", "trajectory_accuracy")] == "50.00%"
    assert rows[("tool_correctness_metrics", "missing_tools")] == '["pay"]'
