"""Lint rule ``schema-ref``: every ``$ref`` in an input schema resolves, and none loops.

A metaschema check (``invalid-schema``) accepts ``{"$ref": "#/$defs/Missing"}`` and
``A -> B -> A`` reference chains, yet no client can build a validator (or a model prompt)
from them: the first fails to resolve and the second never ends. References that recurse
*through* a property or an array item (a tree of nodes) are legitimate and not flagged here;
the provider compatibility matrix reports the providers that refuse recursion.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from toolscore import hookimpl

from toolscore_mcp.lint import LintRuleSpec, ServerText
from toolscore_mcp.model import LintIssue, MCPToolDef

__all__ = ["ref_problems"]

FIX_DANGLING = (
    "Point every $ref at a definition inside the schema (e.g. #/$defs/Name) and define it "
    "there; clients cannot resolve it otherwise and reject the tool or its arguments."
)
FIX_CYCLE = (
    "Break the $ref cycle: a reference that leads back to itself without going through a "
    "property or an array item describes no value, and resolvers loop on it."
)
FIX_EXTERNAL = (
    "Inline the referenced schema under $defs; clients do not fetch external $ref targets, "
    "so they cannot validate arguments against this one."
)
#: Keywords whose subschemas apply to the same value (a cycle through them never ends).
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_IN_PLACE = ("not", "if", "then", "else")


def _walk(node: Any, pointer: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every schema object with its JSON pointer."""
    if isinstance(node, Mapping):
        yield pointer, node
        for key, value in node.items():
            if key in ("enum", "const", "default", "examples"):
                continue
            yield from _walk(value, f"{pointer}/{_escape(str(key))}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _walk(item, f"{pointer}/{index}")


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _resolve(root: Any, fragment: str) -> tuple[bool, Any, str]:
    """(found, node, canonical pointer) for a local ``#...`` reference."""
    fragment = urllib.parse.unquote(fragment)
    if fragment in ("", "/"):
        return True, root, ""
    if not fragment.startswith("/"):  # a plain-name fragment: an $anchor
        for pointer, node in _walk(root, ""):
            if node.get("$anchor") == fragment:
                return True, node, pointer
        return False, None, ""
    node = root
    for raw in fragment[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False, None, ""
    return True, node, fragment


def _in_place_edges(root: Any, pointer: str, node: Mapping[str, Any]) -> Iterator[str]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        found, _, target = _resolve(root, ref[1:])
        if found:
            yield target
    for key in _IN_PLACE_LISTS:
        items = node.get(key)
        if isinstance(items, list):
            for index, item in enumerate(items):
                if isinstance(item, Mapping):
                    yield f"{pointer}/{key}/{index}"
    for key in _IN_PLACE:
        if isinstance(node.get(key), Mapping):
            yield f"{pointer}/{key}"


def _cycle_from(root: Any, start: str) -> list[str] | None:
    """The in-place path from ``start`` back to itself, if any (depth-first, bounded)."""
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    seen: set[str] = set()
    while stack:
        pointer, path = stack.pop()
        found, node, _ = _resolve(root, pointer)
        if not found or not isinstance(node, Mapping):
            continue
        for target in _in_place_edges(root, pointer, node):
            if target == start:
                return path
            if target not in seen and len(path) < 64:
                seen.add(target)
                stack.append((target, [*path, target]))
    return None


def ref_problems(schema: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """``(severity, message, fix)`` for each dangling, external or cyclic ``$ref``."""
    problems: list[tuple[str, str, str]] = []
    cycles_seen: set[frozenset[str]] = set()
    for pointer, node in _walk(schema, ""):
        ref = node.get("$ref")
        if not isinstance(ref, str):
            continue
        where = pointer or "(root)"
        if not ref.startswith("#"):
            problems.append(
                ("warning", f"inputSchema $ref {ref!r} at {where} points outside the schema",
                 FIX_EXTERNAL)
            )  # fmt: skip
            continue
        found, _, _ = _resolve(schema, ref[1:])
        if not found:
            problems.append(
                ("error", f"inputSchema $ref {ref!r} at {where} does not resolve", FIX_DANGLING)
            )
            continue
        cycle = _cycle_from(schema, pointer)
        if cycle is not None and frozenset(cycle) not in cycles_seen:
            cycles_seen.add(frozenset(cycle))
            shown = " -> ".join(p or "(root)" for p in [*cycle, pointer])
            problems.append(("error", f"inputSchema $ref cycle {shown}", FIX_CYCLE))
    return problems


def _schema_ref(tool: MCPToolDef, server: ServerText) -> Iterator[LintIssue]:
    if not tool.input_schema:
        return
    for severity, message, fix in ref_problems(tool.input_schema):
        yield LintIssue(tool.name, severity, message, fix)  # type: ignore[arg-type]


@hookimpl
def toolscore_mcp_register_lint_rules() -> Iterable[LintRuleSpec]:
    yield LintRuleSpec(
        "schema-ref", _schema_ref, order=56, summary="$ref that does not resolve or loops"
    )
