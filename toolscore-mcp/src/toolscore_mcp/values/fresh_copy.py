"""One more happy path for a tool that acts on a sandbox file: a fresh copy of that file.

The run's tools edit the sandbox's files in place, one after the other, so a tool's happy
paths usually see a file that earlier calls changed (and a tool may work only because of
what they did to it). One call per such tool gets its own copy, written from the bytes the
sandbox made the file with (:meth:`toolscore_mcp.sandbox.sandbox.Sandbox.fresh_copy`), with
the same other arguments as a happy path it was sent (one that passed, if any). A text
parameter that names text to find in the file (``target_text``, ``start_anchor``,
``old_string``, ``text_to_find``) gets a line the copy holds: the first line, or the last for
the end of a span (evidence :data:`~toolscore_mcp.model.SANDBOX_TEXT`). A tool that then says
that text is not there is at fault (:mod:`toolscore_mcp.grading.classify`), and so is one
whose code breaks on the untouched file, whatever its calls on edited files did
(:meth:`toolscore_mcp.grading.scorecard.MCPScorecard.coverage`).

Read-only tools without such a text parameter are left out: reading an untouched copy tells
little that reading the sandbox's file did not.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.model import FRESH_COPY, SANDBOX_TEXT, MCPToolDef
from toolscore_mcp.values.meaning import path_kind, wants_new_path
from toolscore_mcp.values.providers import Parameter
from toolscore_mcp.values.synthesizer import ArgumentSet, ToolSynthesizer

__all__ = ["LABEL", "fresh_copy_set", "text_place"]

#: The happy path's label.
LABEL = "a fresh copy of the sandbox's file"

#: Words that alone make a string parameter name text inside the file.
_PLACE_WORDS = frozenset({"anchor", "marker", "needle"})
#: Words that do so beside a word for text (``find_text``, ``old_string``, ``search_text``).
_SEEK_WORDS = frozenset({"find", "search", "target", "old", "existing", "locate", "original"})
_TEXT_WORDS = frozenset({"text", "string", "str", "phrase", "snippet", "substring"})
#: Name words of a path, never of text.
_PATH_NAME_WORDS = frozenset({"path", "paths", "file", "files", "filename", "dir", "directory"})
#: Words of the end of a span: the last line.
_END_WORDS = frozenset({"end", "last", "stop", "closing", "finish"})
_SEEK_DESCRIPTION = lazy_pattern(
    r"\b(?:text|string|phrase) to (?:find|search for|look for|locate|replace|match)\b"
    r"|\banchor\b",
    re.IGNORECASE,
)


def text_place(param: Parameter) -> str | None:
    """``"first"`` or ``"last"`` when the string parameter names text to find inside the
    file the tool acts on (the last line for the end of a span); else None.

    Its name decides, before any guess that it is a path: ``text_to_find`` and
    ``target_text`` are text even where the tool's description speaks of paths.
    """
    tokens = set(param.tokens)
    if param.json_type != "string" or tokens & _PATH_NAME_WORDS:
        return None
    seeks = bool(tokens & _PLACE_WORDS) or bool(tokens & _SEEK_WORDS and tokens & _TEXT_WORDS)
    if not seeks and not (tokens & _TEXT_WORDS and _SEEK_DESCRIPTION.search(param.description)):
        return None
    if not tokens & _TEXT_WORDS and path_kind(param) is not None:
        return None  # ``target_anchor`` said to be a path by its own description
    return "last" if tokens & _END_WORDS else "first"


def _read_only(tool: MCPToolDef) -> bool:
    annotations = tool.raw.get("annotations")
    return isinstance(annotations, Mapping) and annotations.get("readOnlyHint") is True


def _sandbox_file(sandbox: Any, param: Parameter, value: Any) -> str | None:
    """The extension of the sandbox's own file that ``value`` names, for a parameter that
    opens an existing file; else None."""
    if not isinstance(value, str) or path_kind(param) != "file" or wants_new_path(param):
        return None
    extension = Path(value).suffix
    found = sandbox.file_with_extension(extension) if extension else None
    return extension if found is not None and str(found) == value else None


def fresh_copy_set(
    synthesizer: ToolSynthesizer, arguments: Mapping[str, Any], evidence: Mapping[str, str]
) -> ArgumentSet | None:
    """``arguments`` (a happy path the tool was sent) with its sandbox file swapped for a
    fresh copy, and its text-to-find parameters set to lines of that copy; None when they
    name no sandbox file, or several, or the tool only reads one and looks for no text in it."""
    sandbox = synthesizer.context.sandbox
    if sandbox is None:
        return None
    parameters = {
        name: synthesizer.parameter(name) for name in arguments if name in synthesizer.properties
    }
    places = {name: p for name, param in parameters.items() if (p := text_place(param))}
    if _read_only(synthesizer.tool) and not places:
        return None
    files = {
        name: extension
        for name, param in parameters.items()
        if (extension := _sandbox_file(sandbox, param, arguments[name])) is not None
    }
    if len(files) != 1:
        return None
    [(name, extension)] = files.items()
    made = sandbox.fresh_copy(extension)
    if made is None:
        return None
    path, lines = made
    fresh = {**arguments, name: str(path)}
    sources = {**evidence, name: FRESH_COPY}
    # A line of a few words: a table cell ("id") may be found elsewhere first, or not as text.
    usable = [line for line in lines if len(line.split()) >= 2]
    for text_name, place in places.items() if usable else ():
        fresh[text_name] = usable[-1] if place == "last" else usable[0]
        sources[text_name] = SANDBOX_TEXT
    if synthesizer.validation_error(fresh) is not None:
        return None
    return ArgumentSet(fresh, sources, (), LABEL)
