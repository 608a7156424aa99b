"""A database server: ``list_tables`` names its one table (not ``items``), ``describe_table``
its columns, and ``read_query`` runs a SELECT. A query on a table that does not exist fails,
so only a query built from the listed table passes. Standard library only.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from _stdio import serve, text_result

DB = sqlite3.connect(":memory:")
DB.execute("CREATE TABLE orders (order_no INTEGER PRIMARY KEY, customer TEXT, total REAL)")
DB.execute("INSERT INTO orders VALUES (1, 'ada', 9.5), (2, 'bob', 3.25)")

TOOLS = [
    {
        "name": "list_tables",
        "description": "List the tables of the database.",
        "inputSchema": {"type": "object", "properties": {}},
    },
    {
        "name": "describe_table",
        "description": "The columns of a table.",
        "inputSchema": {
            "type": "object",
            "properties": {"table_name": {"type": "string", "description": "Table name."}},
            "required": ["table_name"],
        },
    },
    {
        "name": "read_query",
        "description": "Run a SELECT query on the SQLite database and return the rows.",
        "inputSchema": {
            "type": "object",
            "properties": {"query": {"type": "string", "description": "The SELECT query."}},
            "required": ["query"],
        },
    },
]


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    try:
        if name == "list_tables":
            rows = DB.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()
            return text_result(str([{"name": row[0]} for row in rows]))
        if name == "describe_table":
            table = str(arguments.get("table_name", ""))
            info = DB.execute("SELECT name FROM sqlite_master WHERE name = ?", (table,))
            if info.fetchone() is None:
                return text_result(f"Table {table!r} does not exist", error=True)
            columns = DB.execute(f'PRAGMA table_info("{table}")').fetchall()
            return text_result(str([{"name": c[1], "type": c[2]} for c in columns]))
        if name == "read_query":
            query = str(arguments.get("query", ""))
            if not query.strip().upper().startswith("SELECT"):
                return text_result("Only SELECT queries are allowed", error=True)
            return text_result(str(DB.execute(query).fetchall()))
    except sqlite3.Error as exc:
        return text_result(f"Database error: {exc}", error=True)
    return None


if __name__ == "__main__":
    raise SystemExit(serve("db", TOOLS, call))
