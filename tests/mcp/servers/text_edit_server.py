"""A real SDK server (stdio) that edits text files in place, as document servers do, with two
tools that are broken in ways only an untouched file shows.

* ``append_line`` appends a line to a text file (and remembers it, for ``undo_append``);
* ``find_phrase`` (read-only) tells where a text occurs, or says it is not found;
* ``insert_after_text`` inserts a line after the first line holding a text, or says the
  target text is not found;
* ``replace_between_anchors`` is BROKEN: it never finds any anchor (it compares each line
  with the anchor's upper-case form), and says so with isError false;
* ``undo_append`` removes the line ``append_line`` added; on a file it appended nothing to it
  fails, in words that do not say what was missing (a working tool that needs state);
* ``strip_trailer`` is BROKEN: it removes the line ``append_line`` added, but on a file it
  appended nothing to its except clause names an exception its error module lacks, so the
  call ends in an AttributeError (its text in an isError answer). It passes on every file
  the run's earlier calls changed.

Runs on either major of the ``mcp`` SDK: ``MCPServer`` in 2.x, ``FastMCP`` in 1.x.
"""

from __future__ import annotations

import types
from pathlib import Path

from mcp.types import ToolAnnotations

try:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as MCPServer
    from mcp.server.fastmcp.exceptions import ToolError

server = MCPServer("text-edit")

#: Path -> the lines append_line added to it, oldest first (one record for each tool that
#: takes them back).
_APPENDED: dict[str, list[str]] = {}
_TRAILERS: dict[str, list[str]] = {}
#: The server's error module, which lacks the exception strip_trailer names.
_errors = types.ModuleType("text_edit_errors")


def _lines(file_path: str) -> list[str]:
    try:
        return Path(file_path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ToolError(f"Cannot read {file_path!r}: {exc}") from exc


def _write(file_path: str, lines: list[str]) -> None:
    Path(file_path).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


@server.tool()
def append_line(file_path: str, line: str) -> str:
    """Append a line to a .txt document.

    Args:
        file_path: Path to the .txt document.
        line: The line to append.
    """
    _write(file_path, [*_lines(file_path), line])
    _APPENDED.setdefault(file_path, []).append(line)
    _TRAILERS.setdefault(file_path, []).append(line)
    return f"Appended 1 line to {file_path}."


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
def find_phrase(file_path: str, text_to_find: str) -> str:
    """Find a text in a .txt document and tell the numbers of the lines holding it.

    Args:
        file_path: Path to the .txt document.
        text_to_find: The text to find.
    """
    found = [
        str(number) for number, line in enumerate(_lines(file_path), 1) if text_to_find in line
    ]
    if not found:
        return f"Text '{text_to_find}' not found."
    return f"'{text_to_find}' is on line {', '.join(found)}."


@server.tool()
def insert_after_text(file_path: str, target_text: str, line: str) -> str:
    """Insert a line after the first line of a .txt document that holds a text.

    Args:
        file_path: Path to the .txt document.
        target_text: Text of the line to insert after.
        line: The line to insert.
    """
    lines = _lines(file_path)
    for number, existing in enumerate(lines):
        if target_text in existing:
            _write(file_path, [*lines[: number + 1], line, *lines[number + 1 :]])
            return f"Inserted after line {number + 1}."
    return f"Target text '{target_text}' not found."


@server.tool()
def replace_between_anchors(file_path: str, start_anchor: str, new_text: str) -> str:
    """Replace the lines after the line holding an anchor text with new text, in a text
    file (.txt).

    Args:
        file_path: Path to the .txt document.
        start_anchor: Text of the line the replaced block starts after.
        new_text: The text that replaces the block.
    """
    lines = _lines(file_path)
    wanted = start_anchor.upper()  # the bug: the file's lines are never upper-cased
    for number, existing in enumerate(lines):
        if wanted in existing:
            _write(file_path, [*lines[: number + 1], new_text])
            return f"Replaced {len(lines) - number - 1} line(s)."
    return f"Start anchor '{start_anchor}' not found."


@server.tool()
def undo_append(file_path: str) -> str:
    """Remove the line append_line added last to a .txt document.

    Args:
        file_path: Path to the .txt document.
    """
    appended = _APPENDED.get(file_path)
    if not appended:
        return "Failed to undo: nothing was appended in this session."
    line = appended.pop()
    lines = _lines(file_path)
    if line in lines:
        lines.reverse()
        lines.remove(line)
        lines.reverse()
        _write(file_path, lines)
    return f"Removed '{line}'."


@server.tool()
def strip_trailer(file_path: str) -> str:
    """Strip the trailer line append_line added to a .txt document.

    Args:
        file_path: Path to the .txt document.
    """
    try:
        try:
            line = _TRAILERS[file_path][-1]
        except _errors.NoTrailerError:  # the bug: the module has no such exception
            return f"{file_path} has no trailer."
    except AttributeError as exc:
        # Its exception's own text, as SDK 1.x servers answer a crash (2.x hides it).
        raise ToolError(str(exc)) from exc
    _write(file_path, [existing for existing in _lines(file_path) if existing != line])
    return f"Stripped '{line}'."


server.run()
