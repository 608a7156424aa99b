"""What a tool does to state: produce it, read it, or destroy it.

The scorecard runs producers first (create, add, write, insert, open), then readers and
modifiers, and destroyers (delete, remove, drop, reset, close) last, so that readers find
what producers made and destroyers only ever act on what this run created in the sandbox.
The role comes from the tool's annotations when they say so, else from the verb its name
starts with (or, failing that, any verb in its name).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolscore_mcp.model import MCPToolDef
from toolscore_mcp.values.providers import name_tokens

__all__ = [
    "is_destructive",
    "is_renamer",
    "makes_a_part",
    "makes_new",
    "run_order",
    "tool_nouns",
    "tool_phase",
    "tool_role",
]

_DESTROY = frozenset(
    {"delete", "remove", "drop", "reset", "close", "clear", "destroy", "purge", "kill", "stop",
     "terminate", "unregister", "truncate", "unlink", "rm", "del", "erase", "revoke", "cancel",
     "wipe", "uninstall", "detach", "disconnect", "unsubscribe", "evict", "prune", "rmdir"}
)  # fmt: skip
#: Verbs that bring a thing into being: these run first of all.
_CREATE = frozenset(
    {"create", "add", "write", "insert", "new", "put", "save", "upload", "store", "register",
     "init", "initialize", "make", "post", "mkdir", "touch", "generate", "import", "remember",
     "allocate"}
)  # fmt: skip
#: Verbs that open or load something the other tools then act on (a session from a file, a
#: project from a folder, a connection): these run with the creators.
_OPEN = frozenset({"open", "load", "connect", "begin", "start", "launch", "request", "plan"})
#: Leading verbs of a read-only tool that still opens what the others then act on.
_READ_ONLY_OPEN = frozenset({"open", "load"})
#: A description's first word that says the tool makes a thing ("Register a new request").
_MAKES = frozenset({"create", "register", "new", "init", "initialize", "generate", "allocate"})
#: Verbs that change or open what exists: these run after the creators, before readers.
_PRODUCE = _CREATE | frozenset(
    {"open", "start", "launch", "append", "clone", "commit", "push", "set", "begin", "connect",
     "subscribe", "spawn", "copy", "stage", "edit", "update", "modify", "patch"}
)  # fmt: skip


def _annotations(tool: MCPToolDef) -> Mapping[str, object]:
    value = tool.raw.get("annotations")
    return value if isinstance(value, Mapping) else {}


def tool_role(tool: MCPToolDef) -> str:
    """``producer``, ``reader`` or ``destroyer``."""
    annotations = _annotations(tool)
    tokens = name_tokens(tool.name)
    if annotations.get("readOnlyHint") is True:
        return "reader"
    for token in tokens[:2]:
        if token in _DESTROY:
            return "destroyer"
        if token in _PRODUCE:
            return "producer"
    if any(token in _DESTROY for token in tokens):
        return "destroyer"
    if any(token in _PRODUCE for token in tokens):
        return "producer"
    return "reader"


def _leading_verb(tool: MCPToolDef) -> str:
    """The description's first word ("Creates a new task..." -> ``create``), or ""."""
    words = name_tokens((tool.description or "").strip()[:40])
    if not words:
        return ""
    word = words[0]
    for ending in ("ies", "es", "s"):
        stem = word[: -len(ending)] + ("y" if ending == "ies" else "")
        if word.endswith(ending) and (stem in _PRODUCE or stem in _OPEN or stem in _MAKES):
            return stem
    return word


def tool_phase(tool: MCPToolDef) -> int:
    """0 for creators and openers, 1 for other producers, 2 for readers, 3 for destroyers.

    A tool whose name holds no verb we know ("request_planning") is placed by its
    description's first word ("Register a new request..."): a reader by name that says it
    creates, opens or loads something runs with the creators.
    """
    role = tool_role(tool)
    tokens = name_tokens(tool.name)[:2]
    if role == "destroyer":
        return 3
    if role == "reader":
        if _annotations(tool).get("readOnlyHint") is True:
            # Opening a file read-only still makes what the other tools act on (a
            # presentation in memory under an id): it runs with the creators.
            return 0 if tokens[:1] and tokens[0] in _READ_ONLY_OPEN else 2
        if any(token in _OPEN for token in tokens):
            return 0
        if any(token in _PRODUCE or token in _DESTROY for token in name_tokens(tool.name)):
            return 2
        verb = _leading_verb(tool)
        return 0 if verb in _MAKES or verb in _OPEN else 2
    return 0 if any(token in _CREATE or token in _OPEN for token in tokens) else 1


def _required(tool: MCPToolDef) -> list[str]:
    required = tool.input_schema.get("required") if tool.input_schema else None
    return [str(name) for name in required] if isinstance(required, list) else []


_NOT_NOUNS = frozenset({"or", "and", "to", "of", "the", "by", "from", "in", "on", "for", "with",
                        "all", "new", "get", "list", "update", "edit", "modify", "rename"})  # fmt: skip


def tool_nouns(tool: MCPToolDef) -> set[str]:
    """The things a tool's name speaks of, singular (``delete_sheet`` -> ``{"sheet"}``)."""
    verbs = _PRODUCE | _OPEN | _DESTROY
    return {
        token[:-3] + "y" if token.endswith("ies") else token[:-1] if token.endswith("s") and
        len(token) > 3 and not token.endswith("ss") else token
        for token in name_tokens(tool.name)
        if token not in verbs and token not in _NOT_NOUNS and len(token) > 1
    }  # fmt: skip


_nouns = tool_nouns


#: Parameter words of a value that proves the caller saw the current state.
_FINGERPRINT_WORDS = frozenset({"hash", "sha", "checksum", "digest", "etag", "revision"})


def _asks_for_a_fingerprint(schema: Any, depth: int = 0) -> bool:
    """Does a required parameter (at any depth) carry a hash, an etag or a revision?"""
    if depth > 4 or not isinstance(schema, Mapping):
        return False
    properties = schema.get("properties")
    required = schema.get("required")
    if isinstance(properties, Mapping) and isinstance(required, list):
        for name in required:
            if set(name_tokens(str(name))) & _FINGERPRINT_WORDS:
                return True
            sub = properties.get(name)
            if isinstance(sub, Mapping) and _asks_for_a_fingerprint(sub, depth + 1):
                return True
    items = schema.get("items")
    return isinstance(items, Mapping) and _asks_for_a_fingerprint(items, depth + 1)


def run_order(tool: MCPToolDef, tools: Sequence[MCPToolDef]) -> tuple[int, int]:
    """When a tool runs: its phase, then a step within the phase.

    Readers that need no arguments (listings: tables, sheets, allowed folders) run before the
    other readers, so that what they list feeds them. A destroyer of a thing the other
    destroyers take as a parameter (a sheet that notes and charts live on) runs after them.
    """
    phase = tool_phase(tool)
    if phase in (1, 2) and _asks_for_a_fingerprint(tool.input_schema):
        # An edit that must quote the hash or version of what it changes: after the readers
        # that return those, so that what they returned can be sent.
        return 2, 2
    if phase == 2:
        return phase, 0 if not _required(tool) else 1
    if phase == 0 and _takes_a_made_id(tool, tools):
        return phase, 1
    if phase == 3:
        nouns = _nouns(tool)
        for other in tools:
            if other.name == tool.name or tool_phase(other) != 3:
                continue
            properties = other.input_schema.get("properties") if other.input_schema else None
            params = {
                token
                for name in (properties if isinstance(properties, Mapping) else ())
                for token in name_tokens(str(name))
            }
            if nouns & params and not nouns <= _nouns(other):
                return phase, 1
        return phase, 0
    return phase, 0


_ID_WORDS = frozenset({"id", "ids", "uuid", "handle", "key"})


def _id_nouns(tool: MCPToolDef) -> set[str]:
    """The things a tool takes by id (``presentation_id`` -> ``{"presentation"}``)."""
    properties = tool.input_schema.get("properties") if tool.input_schema else None
    nouns: set[str] = set()
    for name in properties if isinstance(properties, Mapping) else ():
        tokens = name_tokens(str(name))
        if len(tokens) >= 2 and tokens[-1] in _ID_WORDS:
            nouns.update(token for token in tokens[:-1] if token not in _NOT_NOUNS)
    return nouns


def _takes_a_made_id(tool: MCPToolDef, tools: Sequence[MCPToolDef]) -> bool:
    """Does a creator take the id of a thing another creator makes (``add_slide`` takes a
    ``presentation_id`` that ``create_presentation`` returns)? Then it runs after that
    creator, so that the id it made can be sent. A creator that itself takes such an id is
    no maker of it here (two creators never wait for each other)."""
    wanted = _id_nouns(tool)
    if not wanted:
        return False
    for other in tools:
        if other.name == tool.name or tool_phase(other) != 0:
            continue
        if wanted & _nouns(other) - _id_nouns(other):
            return True
    return False


def is_destructive(tool: MCPToolDef) -> bool:
    """Annotated destructive (and not read-only), or named like a destroyer."""
    annotations = _annotations(tool)
    if annotations.get("readOnlyHint") is True:
        return False
    return annotations.get("destructiveHint") is True or tool_role(tool) == "destroyer"


#: Verbs of a tool that gives an existing thing a new name (what it takes away must be ours).
_RENAME = frozenset({"rename", "move", "mv", "relabel", "retitle"})


def is_renamer(tool: MCPToolDef) -> bool:
    """Named as renaming or moving a thing (``rename_sheet``): like a destroyer, it takes the
    old name away, so its target must be something this run made."""
    return bool(set(name_tokens(tool.name)) & _RENAME)


def makes_new(tool: MCPToolDef, arguments: Mapping[str, Any]) -> bool:
    """Did a passing call of ``tool`` bring a new thing into being?

    A creator (``create_sheet``) does; so does a call that named the new thing
    (``copy_sheet(new_name=...)``, ``rename_sheet(new_name=...)``). A modifier of an existing
    thing (``set_sheet_layout(sheet="Sheet1")``) does not: a destroyer aimed at what it
    touched would remove the sandbox's own.
    """
    if tool_phase(tool) == 0 and tool_role(tool) == "producer":
        return True
    return any("new" in name_tokens(str(key)) for key in arguments)


#: Things a file holds: a tool that creates one of these puts it into an existing file.
_PART_NOUNS = frozenset(
    {"sheet", "worksheet", "chart", "pivot", "table", "slide", "shape", "paragraph", "heading",
     "cell", "row", "column", "range", "picture", "comment", "footnote", "section", "style",
     "sparkline", "slicer", "validation", "bookmark", "hyperlink", "textbox"}
)  # fmt: skip
_FILE_NOUNS = frozenset(
    {"file", "directory", "dir", "folder", "workbook", "document", "doc", "presentation",
     "spreadsheet", "archive", "zip", "pdf", "repo", "repository", "database", "db", "project",
     "notebook", "copy", "backup", "export"}
)  # fmt: skip


def makes_a_part(tool: MCPToolDef) -> bool:
    """Does the tool create a part of a file (``create_chart``, ``create_sheet``), which goes
    into a file that exists, rather than a file (``create_workbook``, ``write_file``)?"""
    nouns = tool_nouns(tool)
    return bool(nouns & _PART_NOUNS) and not nouns & _FILE_NOUNS
