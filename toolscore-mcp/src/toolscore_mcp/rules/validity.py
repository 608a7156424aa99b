"""Lint rules about definitions a client cannot use at all: no tools, unusable names, schemas
that are not JSON Schema.

These are protocol problems rather than style: a host drops (or refuses) a tool list with a
duplicate or malformed name, and cannot validate arguments against a schema its validator
rejects. Tool names follow the MCP specification's guidance (2025-11-25, "Tool names", from
SEP-986): 1 to 128 characters from ``A-Z a-z 0-9 _ - .``, unique within a server.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from toolscore import hookimpl
from toolscore.lazy_pattern import lazy_pattern

from toolscore_mcp.lint import LintRuleSpec, ServerText
from toolscore_mcp.model import LintIssue, MCPToolDef
from toolscore_mcp.values.schema_subset import schema_is_valid

__all__ = ["SERVER_OWNER", "listing_issues", "schema_problem"]

#: The ``tool`` of issues about the server as a whole.
SERVER_OWNER = "(server)"
MAX_NAME_LENGTH = 128
_NAME_CHARS = lazy_pattern(r"^[A-Za-z0-9_.\-]+$")
_CONTROL = lazy_pattern(r"[\x00-\x1f\x7f-\x9f]")
_PREVIEW = 40

FIX_NO_TOOLS = (
    "Register at least one tool and return it from tools/list; a client connected to this "
    "server has nothing to call."
)
FIX_TOOLS_LIST = (
    'Answer tools/list with {"tools": [...]}: a list of tool objects, each with a string '
    "'name'; clients drop (or refuse) anything else."
)
FIX_DUPLICATE = (
    "Give every tool a unique name; clients keep one of the duplicates (or reject the list) "
    "and calls reach the wrong handler."
)
FIX_EMPTY_NAME = "Give the tool a non-empty name; a tool without one cannot be called."
FIX_CONTROL_NAME = (
    "Remove control characters (NUL, newlines, ...) from the tool name; hosts cannot show or "
    "call it reliably."
)
FIX_NAME_FORMAT = (
    "Use 1-128 characters from A-Z, a-z, 0-9, '_', '-' and '.' (the MCP specification's tool "
    "name format); hosts reject or rewrite other names."
)
FIX_INVALID_SCHEMA = (
    "Fix the inputSchema so it is valid JSON Schema (check it against its draft's metaschema, "
    "2020-12 by default); clients cannot validate arguments against it."
)


def _preview(name: str) -> str:
    """The name as ``repr`` shows it, cut to a readable length."""
    shown = name if len(name) <= _PREVIEW else name[:_PREVIEW] + "..."
    return repr(shown)


def _invalid_name(tool: MCPToolDef, server: ServerText) -> Iterator[LintIssue]:
    name = tool.name
    if not name:
        yield LintIssue(name, "error", "tool name is empty", FIX_EMPTY_NAME)
    elif _CONTROL.search(name):
        yield LintIssue(
            name,
            "error",
            f"tool name {_preview(name)} contains control characters",
            FIX_CONTROL_NAME,
        )
    elif len(name) > MAX_NAME_LENGTH:
        yield LintIssue(
            name,
            "warning",
            f"tool name {_preview(name)} is {len(name)} characters long"
            f" (the MCP limit is {MAX_NAME_LENGTH})",
            FIX_NAME_FORMAT,
        )
    elif not _NAME_CHARS.match(name):
        odd = sorted({ch for ch in name if not _NAME_CHARS.match(ch)})
        yield LintIssue(
            name,
            "warning",
            f"tool name {_preview(name)} has characters outside A-Z a-z 0-9 _ - . "
            f"({', '.join(repr(ch) for ch in odd)})",
            FIX_NAME_FORMAT,
        )


def schema_problem(schema: Any) -> str | None:
    """Why ``schema`` is not valid JSON Schema (one line), or None.

    Checked against the metaschema of the draft its ``$schema`` declares, 2020-12 when it
    declares none (the MCP default). Lint, argument synthesis and verdicts all ask about the
    same schemas, and a metaschema check costs milliseconds, so answers are cached by the
    schema's JSON text.
    """
    if schema_is_valid(schema) is True:
        return None  # a plain schema, answered without jsonschema
    try:
        key = json.dumps(schema, sort_keys=True)
    except (TypeError, ValueError):
        return _schema_problem(schema)
    return _cached_schema_problem(key)


@functools.lru_cache(maxsize=512)
def _cached_schema_problem(key: str) -> str | None:
    return _schema_problem(json.loads(key))


def _schema_problem(schema: Any) -> str | None:
    from jsonschema import exceptions as schema_errors
    from jsonschema.validators import Draft202012Validator, validator_for

    try:
        validator_cls = validator_for(schema, default=Draft202012Validator)
        validator_cls.check_schema(schema)
    except schema_errors.SchemaError as exc:
        where = "/".join(str(part) for part in exc.absolute_path) or "(root)"
        return f"at {where}: {' '.join(exc.message.split())[:200]}"
    except Exception as exc:  # an unknown $schema, a recursion: still unusable
        return " ".join(str(exc).split())[:200] or type(exc).__name__
    return None


def _invalid_schema(tool: MCPToolDef, server: ServerText) -> Iterator[LintIssue]:
    if not tool.input_schema:
        return  # ``empty-schema`` covers it
    problem = schema_problem(tool.input_schema)
    if problem is not None:
        yield LintIssue(
            tool.name,
            "error",
            f"inputSchema is not valid JSON Schema {problem}",
            FIX_INVALID_SCHEMA,
        )


def _duplicate_names(server: ServerText) -> Iterator[LintIssue]:
    counts = Counter(tool.name for tool in server.tools)
    for name, count in counts.items():
        if count > 1:
            yield LintIssue(
                name,
                "error",
                f"tool name {_preview(name)} is advertised {count} times",
                FIX_DUPLICATE,
            )


def _no_tools(server: ServerText) -> Iterator[LintIssue]:
    if not server.tools:
        yield LintIssue(SERVER_OWNER, "error", "the server advertises no tools", FIX_NO_TOOLS)


def listing_issues(problems: Iterable[str]) -> list[LintIssue]:
    """Lint errors (rule ``tools-list``) for a malformed ``tools/list`` answer.

    The clients note the problems while they read the list (a lint rule only sees the tools
    that survived); ``mcp test`` puts these issues first.
    """
    return [
        LintIssue(SERVER_OWNER, "error", problem, FIX_TOOLS_LIST, rule="tools-list")
        for problem in dict.fromkeys(problems)
    ]


@hookimpl
def toolscore_mcp_register_lint_rules() -> Iterable[LintRuleSpec]:
    yield LintRuleSpec(
        "invalid-name", _invalid_name, order=45, summary="tool name empty, too long or odd"
    )
    yield LintRuleSpec(
        "invalid-schema", _invalid_schema, order=55, summary="inputSchema is not JSON Schema"
    )
    yield LintRuleSpec(
        "no-tools", _no_tools, scope="server", order=10, summary="tools/list is empty"
    )
    yield LintRuleSpec(
        "duplicate-name",
        _duplicate_names,
        scope="server",
        order=20,
        summary="two tools share a name",
    )
