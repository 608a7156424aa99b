"""Reading gold and trace files into :class:`~toolscore.model.ToolCall` lists.

Every problem with a file is one line that names the file, where in it, and what was expected
(``gold.json: $[3].tool: expected a non-empty tool name, got nothing``); nothing here lets a
traceback reach the user. A few messages are fixed text because callers match on them
(``Trace file not found: <path>``, ``Unsupported format: X``), and so are the exception types:
a missing file is a ``FileNotFoundError``, everything else a ``ValueError``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolscore.errors import GoldFileError, InputError
from toolscore.extraction import detect_document_format as detect_trace_format
from toolscore.extraction import resolve_format
from toolscore.limits import MAX_INPUT_DEPTH, too_deep_in_json
from toolscore.model import ToolCall

if TYPE_CHECKING:
    from toolscore.plugins.manager import ToolscorePluginManager

__all__ = [
    "InputFileNotFoundError",
    "InvalidJSONError",
    "calls_from_trace_data",
    "detect_trace_format",
    "gold_calls_from_document",
    "load_gold_standard",
    "load_trace",
    "read_document",
    "read_json",
    "resolve_format",
]

StrPath = str | PathLike[str]

#: Keys of a gold item that are read into the expected call itself.
_GOLD_FIELDS = frozenset({"tool", "args", "side_effects", "description", "schema", "metadata"})


class InputFileNotFoundError(InputError, FileNotFoundError):
    """A file that was named does not exist (both an InputError and a FileNotFoundError)."""

    def __init__(self, message: str, *, source: str) -> None:
        super().__init__(message)
        self.source = source


class InvalidJSONError(InputError):
    """A file is not valid JSON; ``lineno`` and ``colno`` say where (``file:3:5: ...``)."""

    def __init__(self, message: str, *, source: str, lineno: int, colno: int) -> None:
        super().__init__(message, source=f"{source}:{lineno}:{colno}")
        self.source = source
        self.lineno = lineno
        self.colno = colno


def read_json(path: StrPath, *, what: str = "File") -> Any:
    """Decode one JSON (or JSON Lines) file; any problem is a one-line :class:`InputError`.

    ``what`` starts the not-found message (``"Trace file"`` -> ``Trace file not found: p``).
    A JSON Lines file (one JSON value per line: ``.jsonl``, or any file whose JSON parse stops
    at "Extra data") decodes to the list of its lines' values.
    """
    return _read_document(path, what)[0]


def _read_document(path: StrPath, what: str) -> tuple[Any, list[int] | None]:
    """The decoded file, and for JSON Lines the line number of each item (else ``None``)."""
    text = _read_text(path, what)
    return _decode_document(text, str(path))


def _read_text(path: StrPath, what: str) -> str:
    name = str(path)
    file = Path(path)
    if not file.exists():
        raise InputFileNotFoundError(f"{what} not found: {name}", source=name)
    try:
        return file.read_text(encoding="utf-8-sig")
    except IsADirectoryError:
        raise InputError("expected a JSON file, got a directory", source=name) from None
    except UnicodeDecodeError as exc:
        raise InputError(
            f"expected UTF-8 JSON text, got undecodable byte at offset {exc.start}", source=name
        ) from None
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", source=name) from None


def _decode(text: str, name: str) -> Any:
    return _decode_document(text, name)[0]


def _decode_document(text: str, name: str) -> tuple[Any, list[int] | None]:
    if name.lower().endswith(".jsonl"):
        return _decode_lines(text, name)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data":  # several JSON values: JSON Lines without the .jsonl name
            return _decode_lines(text, name)
        raise InvalidJSONError(
            f"invalid JSON: {exc.msg}", source=name, lineno=exc.lineno, colno=exc.colno
        ) from None
    except RecursionError:
        raise InputError(_TOO_DEEP, source=name) from None
    _check_depth(text, value, name)
    return value, None


_TOO_DEEP = f"nested deeper than {MAX_INPUT_DEPTH} levels"


def _check_depth(text: str, value: Any, name: str) -> None:
    """The same bound for ``validate`` as for ``eval``: what one reads, the other can score."""
    where = too_deep_in_json(text, value)
    if where is not None:
        raise InputError(_TOO_DEEP, source=name, path=where)


def _decode_lines(text: str, name: str) -> tuple[list[Any], list[int]]:
    """JSON Lines: one value per non-blank line; an error names the line (``file:3:5: ...``)."""
    values: list[Any] = []
    numbers: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidJSONError(
                f"invalid JSON on line {number} of a JSON Lines file: {exc.msg}",
                source=name,
                lineno=number,
                colno=exc.colno,
            ) from None
        except RecursionError:
            raise InputError(_TOO_DEEP, source=f"{name}:{number}") from None
        _check_depth(line, value, f"{name}:{number}")
        values.append(value)
        numbers.append(number)
    return values, numbers


def _on_line(
    error: InputError, name: str, lines: list[int] | None, prefix: str = "$"
) -> InputError:
    """``error`` (about ``name``) with the JSON Lines line of the item it names, when known."""
    path = error.path or ""
    match = re.match(re.escape(prefix) + r"\[(\d+)\]", path)
    if lines is None or match is None or int(match.group(1)) >= len(lines):
        return error
    line = lines[int(match.group(1))]
    kind = GoldFileError if isinstance(error, GoldFileError) else InputError
    return kind(error.detail, source=f"{name}:{line}", path=path)


def _may_hold_operators(text: str) -> bool:
    """Whether a JSON text can contain a ``"$..."`` key (a matcher form); cheap, exact."""
    return '"$' in text or "\\u0024" in text.lower()


# -- gold ------------------------------------------------------------------------------------


def load_gold_standard(
    path: StrPath, *, plugin_manager: ToolscorePluginManager | None = None
) -> list[ToolCall]:
    """Load the expected calls from a gold file.

    The file is a JSON array of calls, or an object with a ``"calls"`` array (a snapshot file
    works as a gold file). Every call needs a non-empty ``tool``. ``args`` is kept as written
    (absent or null: do not check; ``{}``: expect none), with the JSON matcher forms
    (``{"$regex": ...}`` as a full match, ``$contains``, ``$one_of``, ``$any``, ``$approx``,
    ``$type``) turned into matchers. ``side_effects`` (default ``{}``), ``description``,
    ``schema`` (also read from ``metadata.schema``, as ``toolscore generate`` writes it) and
    every other key land in the call's ``metadata``.

    :raises FileNotFoundError: ``Gold standard file not found: <path>`` (an InputError too).
    :raises InputError: invalid JSON.
    :raises toolscore.errors.GoldFileError: a document or item of the wrong shape, an unknown
        ``$`` matcher or a bad operand (docs/core.md lists the rules).
    """
    name = str(path)
    text = _read_text(path, "Gold standard file")
    data, lines = _decode_document(text, name)
    try:
        return gold_calls_from_document(data, text, name, plugin_manager)
    except InputError as exc:
        raise _on_line(exc, name, lines) from None


def gold_calls_from_document(
    data: Any, text: str, name: str, plugin_manager: ToolscorePluginManager | None
) -> list[ToolCall]:
    """The calls of a parsed gold document ``data`` (read from ``text``, named ``name``).

    :raises toolscore.errors.GoldFileError: a document or item of the wrong shape, an unknown
        ``$`` matcher or a bad operand (no line numbers added).
    """
    if not isinstance(data, list) and not (
        isinstance(data, Mapping) and isinstance(data.get("calls"), list)
    ):
        raise GoldFileError(
            'Gold standard must be a JSON array of tool calls (or an object with a "calls" array)',
            source=name,
            path="$" if not isinstance(data, Mapping) else "$.calls",
        )
    items: list[Mapping[str, Any]] = data if isinstance(data, list) else data["calls"]
    prefix = "$" if isinstance(data, list) else "$.calls"
    _only_calls(items, name, prefix)
    from toolscore.serialization import validate_document

    try:
        validate_document(data, "gold", source=name)
    except GoldFileError:
        raise
    except InputError as exc:
        raise GoldFileError(exc.detail, source=exc.source, path=exc.path) from None
    operators = _may_hold_operators(text)
    return [
        _gold_call(item, plugin_manager, operators, source=name, path=f"{prefix}[{index}]")
        for index, item in enumerate(items)
    ]


def _only_calls(items: list[Any], name: str, prefix: str) -> None:
    """Refuse every item that is not a call, with the mistake named (:mod:`toolscore.gold_rules`).

    A step (``optional``/``repeat``/``any_order``/``one_of``) stands for several possible
    call lists, so it is scored by ``evaluate_trace()`` (which picks the best one), never
    read here.
    """
    from toolscore.expectations.parse import STRUCTURE_KEYS
    from toolscore.gold_rules import item_error

    for index, item in enumerate(items):
        if isinstance(item, Mapping) and "tool" in item:
            continue
        path = f"{prefix}[{index}]"
        if isinstance(item, Mapping) and len(STRUCTURE_KEYS & set(item)) == 1:
            raise GoldFileError(
                "a gold step (optional, repeat, any_order, one_of) is not a single call; "
                "evaluate_trace() or toolscore eval scores it",
                source=name,
                path=path,
            )
        raise item_error(item, source=name, path=path)


def _gold_call(
    item: Mapping[str, Any],
    plugin_manager: ToolscorePluginManager | None,
    operators: bool,
    *,
    source: str,
    path: str,
) -> ToolCall:
    raw_args = item.get("args")
    if raw_args is None:
        args = None
    elif operators:
        from toolscore.gold_rules import read_arg_forms

        args = read_arg_forms(raw_args, plugin_manager, source=source, path=f"{path}.args")
    else:
        args = dict(raw_args)
    nested = item.get("metadata")
    metadata: dict[str, Any] = dict(nested) if isinstance(nested, Mapping) else {}
    for key, value in item.items():
        if key not in _GOLD_FIELDS and value is not None:
            metadata[key] = value
    side_effects = item.get("side_effects")
    metadata["side_effects"] = side_effects if side_effects is not None else {}
    description = item.get("description") or metadata.get("description")
    if description:
        metadata["description"] = description
    else:
        metadata.pop("description", None)
    schema = item.get("schema") or metadata.get("schema")
    if schema:
        metadata["schema"] = schema
    return ToolCall(tool=item["tool"], args=args, metadata=metadata)


# -- traces ----------------------------------------------------------------------------------


def load_trace(
    path: StrPath,
    format: str = "auto",
    *,
    plugin_manager: ToolscorePluginManager | None = None,
) -> list[ToolCall]:
    """Load the actual calls from a trace file.

    ``format`` is ``"auto"`` (detection: every extractor rates the whole document, the most
    confident wins) or any registered format name or alias: core reads ``canonical`` and
    ``custom``; toolscore-providers adds openai, anthropic, gemini, mcp, langchain, otel, ...

    :raises FileNotFoundError: ``Trace file not found: <path>`` (an InputError too).
    :raises InputError: invalid JSON, an unknown format (``Unsupported format: X``), a
        document no extractor recognises or several claim equally, or a malformed document.
    :raises MissingPluginError: the format belongs to a distribution that is not installed.
    """
    data, lines = read_document(path, what="Trace file")
    return calls_from_trace_data(
        data, format, plugin_manager=plugin_manager, source=str(path), lines=lines
    )


def read_document(path: StrPath, *, what: str = "File") -> tuple[Any, list[int] | None]:
    """:func:`read_json`, plus the line of each item for JSON Lines (``None`` for JSON).

    For a caller that looks at the document and then extracts its calls
    (``toolscore validate``): one parse instead of two, so a large trace is decoded once and
    held in memory once.
    """
    return _read_document(path, what)


def calls_from_trace_data(
    data: Any,
    format: str = "auto",
    *,
    plugin_manager: ToolscorePluginManager | None = None,
    source: str = "<trace>",
    lines: list[int] | None = None,
) -> list[ToolCall]:
    """The calls of an already decoded trace document, as :func:`load_trace` reads them;
    ``source`` and ``lines`` (from :func:`read_document`) place errors in the file."""
    from toolscore.extraction import calls_from_document

    return calls_from_document(
        data,
        format,
        plugin_manager=plugin_manager,
        source=source,
        locate=lambda error: _on_line(error, source, lines),
    )
