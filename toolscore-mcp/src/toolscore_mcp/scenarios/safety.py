"""What the run may send: generated paths kept in the sandbox, destructive calls held back.

Two rules keep a run from touching anything but its own sandbox:

* a relative path we made up (a schema example, a generated string, an edge value) is made
  absolute inside the sandbox wherever the parameter means a path, so it cannot land in
  whatever folder the server resolves relative paths from. Values the server returned, the
  user's scenario file or a recording gave, stay as they are;
* a destructive tool (annotated ``destructiveHint: true`` without ``readOnlyHint``, or
  named as deleting, dropping, wiping, resetting, killing...) is called only when its target
  is the sandbox's or this run's own: every path-like argument resolves inside the sandbox,
  and at least one argument is such a path or a value harvested from an earlier answer of
  this run. Otherwise the call is held back (``--allow-destructive`` sends it anyway).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from toolscore_mcp.model import SANDBOX_TEXT, MCPToolDef
from toolscore_mcp.values.providers import name_tokens
from toolscore_mcp.values.roles import tool_role

__all__ = [
    "OUR_SOURCES",
    "absolute_paths",
    "destructive_refusal",
    "is_path_parameter",
    "writes",
]

#: Evidence for values that are not ours to move: the server's, the user's, the session's.
_THEIR_SOURCES = frozenset({"harvested", "scenario-file", "recorded", "discovered", "learned"})
#: Evidence that the value is an object this run created.
OUR_SOURCES = frozenset({"harvested"})


def _properties(tool: MCPToolDef) -> Mapping[str, Any]:
    properties = tool.input_schema.get("properties") if tool.input_schema else None
    return properties if isinstance(properties, Mapping) else {}


def is_path_parameter(tool: MCPToolDef, name: str) -> bool:
    """Does the parameter mean a path (by its name, description and the tool's)?"""
    from toolscore_mcp.values.meaning import path_kind
    from toolscore_mcp.values.providers import Parameter

    schema = _properties(tool).get(name)
    siblings = tuple(_properties(tool))
    parameter = Parameter(
        tool,
        name,
        schema if isinstance(schema, Mapping) else {},
        role=tool_role(tool),
        siblings=siblings,
    )
    return path_kind(parameter) is not None


def _relative_to_base(tool: MCPToolDef, name: str) -> bool:
    """A sibling parameter names the folder or repository this path is relative to."""
    from toolscore_mcp.values.providers import name_tokens

    return any(
        set(name_tokens(other)) & {"repo", "repository", "cwd", "workdir", "root", "base"}
        for other in _properties(tool)
        if other != name
    )


def _absolute(value: Any, folder: Path) -> Any:
    if isinstance(value, str):
        if not value.strip() or os.path.isabs(value) or value.startswith(("~", "file:")):
            return value
        return str(folder / value)
    if isinstance(value, list):
        return [_absolute(item, folder) for item in value]
    return value


def absolute_paths(
    tool: MCPToolDef,
    arguments: Mapping[str, Any],
    evidence: Mapping[str, str],
    folder: Path | None,
) -> dict[str, Any]:
    """``arguments`` with our relative path values made absolute inside ``folder``."""
    out = dict(arguments)
    if folder is None:
        return out
    for name, value in arguments.items():
        if evidence.get(name) in _THEIR_SOURCES or _relative_to_base(tool, name):
            continue
        if evidence.get(name) == SANDBOX_TEXT:
            continue  # a line of a file's text, whatever the parameter's name suggests
        if isinstance(value, (str, list)) and is_path_parameter(tool, name):
            out[name] = _absolute(value, folder)
    return out


def _inside(value: str, folder: Path) -> bool:
    candidate = Path(os.path.expanduser(value))
    if not candidate.is_absolute():
        candidate = folder / candidate
    try:
        resolved = candidate.resolve()
        base = folder.resolve()
    except (OSError, RuntimeError, ValueError):
        return False
    inside, root = os.path.normcase(str(resolved)), os.path.normcase(str(base))
    return inside == root or inside.startswith(root.rstrip(os.sep) + os.sep)


def _path_values(tool: MCPToolDef, name: str, value: Any) -> list[str]:
    """The non-empty path strings an argument holds, if it is path-like."""
    values = value if isinstance(value, list) else [value]
    strings = [item for item in values if isinstance(item, str) and item.strip()]
    if not strings:
        return []
    if is_path_parameter(tool, name):
        return strings
    return [item for item in strings if os.path.isabs(item) or item.startswith("~/")]


#: Keys of a nested object whose value names the thing it stands for.
_NAMING_KEYS = frozenset({"id", "name", "key", "uuid", "handle", "slug", "ref"})


def _named_leaves(value: Any, key: str = "", depth: int = 0) -> list[str]:
    """The strings inside a list or object that name things (under an ``id``/``name``-like
    key, such as ``entityName`` or ``task_id``)."""
    if isinstance(value, str):
        return [value] if key and set(name_tokens(key)) & _NAMING_KEYS else []
    if depth < 4 and isinstance(value, Mapping):
        return [t for k, v in value.items() for t in _named_leaves(v, str(k), depth + 1)]
    if depth < 4 and isinstance(value, list):
        return [t for item in value for t in _named_leaves(item, key, depth + 1)]
    return []


def _made_by_this_run(value: Any, known: Callable[[Any], bool] | None) -> bool:
    """A list or object all of whose naming values are things this run made or was given."""
    if known is None or not isinstance(value, (list, Mapping)):
        return False
    leaves = _named_leaves(value)
    return bool(leaves) and all(known(leaf) for leaf in leaves)


def destructive_refusal(
    tool: MCPToolDef,
    arguments: Mapping[str, Any],
    evidence: Mapping[str, str],
    folder: Path | None,
    known: Callable[[Any], bool] | None = None,
) -> str | None:
    """Why this call of a destructive tool must not be sent, or None when it may.

    ``known`` tells whether one of this run's producers made a value: a harvested target
    counts as ours only then (a process id from a listing never does), and a list of objects
    (``[{"entityName": ...}]``) counts as ours when every name in it is.
    """
    targets = 0
    for name, value in arguments.items():
        paths = _path_values(tool, name, value)
        for path in paths:
            if folder is None or not _inside(path, folder):
                return f"its target {path!r} is outside the sandbox"
        harvested = evidence.get(name) in OUR_SOURCES and value not in ("", None, [], {})
        # A harvested value is ours only when a producer of this run made it (not when a
        # listing returned it), whenever the run can tell.
        ours = (harvested and (known is None or known(value))) or _made_by_this_run(value, known)
        if ours or (paths and not _relative_to_base(tool, name)):
            targets += 1
    if targets == 0:
        return "its target is neither in the sandbox nor an object this run created"
    return None


def writes(tool: MCPToolDef) -> bool:
    """Does the tool write: a producer or destroyer by its name, or annotated not read-only
    (or destructive)?"""
    annotations = tool.raw.get("annotations")
    hints = annotations if isinstance(annotations, Mapping) else {}
    if hints.get("readOnlyHint") is True:
        return False
    if hints.get("readOnlyHint") is False or hints.get("destructiveHint") is True:
        return True
    return tool_role(tool) in ("producer", "destroyer")
