"""Tool definitions in every shape we meet, read into ``{tool name: input schema}``.

Shapes read (each a list of tools, or a document holding one):

* OpenAI Chat Completions: ``{"type": "function", "function": {"name", "parameters"}}``
* OpenAI Responses: ``{"type": "function", "name", "parameters"}``
* Anthropic: ``{"name", "input_schema"}``
* MCP ``tools/list``: ``{"name", "inputSchema"}``, also inside ``{"result": {"tools": [...]}}``
* Gemini: ``{"functionDeclarations": [{"name", "parameters"}]}`` (or ``function_declarations``)
* a plain mapping ``{"name": schema}``

A tool without a schema (a Responses built-in such as ``web_search``) is left out: there is
nothing to check its calls against.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["read_tools_file", "schemas_for_files", "tool_schemas", "tools_in_document"]

_SCHEMA_KEYS = ("parameters", "input_schema", "inputSchema", "parametersJsonSchema")


def tool_schemas(tools: Any, *, where: str = "tools") -> dict[str, Mapping[str, Any]]:
    """``{name: input schema}`` from a list of tool definitions or a document holding one.

    :raises ValueError: ``tools`` is neither (``<where>: expected a list of tool definitions``).
    """
    found = tools_in_document(tools) if isinstance(tools, Mapping) else tools
    if (
        found is None
        and isinstance(tools, Mapping)
        and all(isinstance(v, Mapping) for v in tools.values())
    ):
        return {str(name): schema for name, schema in tools.items()}
    if not isinstance(found, list):
        raise ValueError(
            f"{where}: expected a list of tool definitions, got {type(tools).__name__}"
        )
    out: dict[str, Mapping[str, Any]] = {}
    for index, item in enumerate(found):
        if not isinstance(item, Mapping):
            raise ValueError(f"{where}: [{index}]: expected a tool definition object")
        for name, schema in _definitions(item):
            out[name] = schema
    return out


def _definitions(item: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    declarations = item.get("functionDeclarations") or item.get("function_declarations")
    if isinstance(declarations, list):
        return [pair for d in declarations if isinstance(d, Mapping) for pair in _definitions(d)]
    inner = item.get("function")
    if isinstance(inner, Mapping):
        item = inner
    name = item.get("name")
    if not isinstance(name, str) or not name:
        return []
    for key in _SCHEMA_KEYS:
        schema = item.get(key)
        if isinstance(schema, Mapping):
            return [(name, schema)]
    return []


def tools_in_document(data: Any) -> list[Any] | None:
    """The tool list a document carries, or ``None``.

    Looked for at the top (a request payload, an MCP ``tools/list`` result), under
    ``result`` (a JSON-RPC response), ``request``/``params`` (a recorded request), and in
    Gemini's ``config``. A bare list of tool definitions is returned as it is.
    """
    if isinstance(data, list):
        if data and all(isinstance(i, Mapping) and _definitions(i) for i in data):
            return data
        return None
    if not isinstance(data, Mapping):
        return None
    tools = data.get("tools")
    if isinstance(tools, list):
        return tools
    for key in ("result", "request", "params", "config"):
        inner = data.get(key)
        if isinstance(inner, Mapping):
            found = tools_in_document(inner)
            if found is not None:
                return found
    return None


def read_tools_file(path: str | Path) -> dict[str, Mapping[str, Any]]:
    """The schemas in a tools file (any shape above); errors are one line naming the file.

    :raises toolscore.errors.InputError: missing file, invalid JSON or no tool list.
    """
    from toolscore.errors import InputError
    from toolscore.loading import read_json

    data = read_json(path, what="Tools file")
    try:
        return tool_schemas(data, where="$")
    except ValueError as exc:
        path_text, _, detail = str(exc).partition(": ")
        raise InputError(detail, source=str(path), path=path_text) from None


def schemas_for_files(
    gold_file: str | Path, trace_file: str | Path, tools: Any = None
) -> dict[str, Mapping[str, Any]] | None:
    """The schemas for ``evaluate_trace``: ``tools`` if given, else the gold file's ``tools``,
    else the tools of the trace's request payload; ``None`` when there are none.

    ``tools`` may be a path to a tools file, or anything :func:`tool_schemas` reads. The
    trace is parsed again only when its text names ``tools`` at all.
    """
    if tools is not None:
        if isinstance(tools, (str, Path)):
            return read_tools_file(tools)
        return tool_schemas(tools)
    from toolscore.loading import read_document

    gold, _ = read_document(gold_file, what="Gold standard file")
    found = tools_in_document(gold) if isinstance(gold, Mapping) else None
    if found is not None:
        return tool_schemas(found, where=f"{gold_file}: $.tools")
    try:
        text = Path(trace_file).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    if '"tools"' not in text:
        return None
    try:
        trace, _ = read_document(trace_file, what="Trace file")
    except ValueError:
        return None
    found = tools_in_document(trace)
    if found is None:
        return None
    try:
        return tool_schemas(found)
    except ValueError:
        return None
