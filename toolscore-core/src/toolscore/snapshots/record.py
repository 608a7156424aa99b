"""The snapshot record: one test's recorded calls, the file layout, and the checks on a file.

A snapshot file is ``{"schema_version", "name", "created_at", "updated_at",
"toolscore_version", "approved", "source", "calls"}`` (:meth:`Snapshot.to_dict` writes it in
that order). :func:`validate_snapshot_data` checks a decoded file and stops at the first
problem with a :class:`SnapshotPathError` that names its JSON path; the store turns that into
one error line naming the file.

Stored values may hold matchers in their JSON form (``{"$regex": ...}``). A recorded value
that would read back as a matcher is stored as ``{"$literal": value}``
(:func:`escape_literals`) so that it replays as itself, and :func:`keep_matchers` keeps a
stored matcher when the re-recorded value still matches it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import datetime, timezone
from typing import Any

import attrs

from toolscore.serialization import json_path, json_type_name

__all__ = [
    "SCHEMA_VERSION",
    "Snapshot",
    "SnapshotPathError",
    "escape_literals",
    "expected_from_json",
    "json_default",
    "keep_matchers",
    "utc_now",
    "validate_snapshot_data",
]


#: The snapshot file layout written by this version; newer files are refused with a clear error.
SCHEMA_VERSION = 1
_LITERAL_KEY = "$literal"


def utc_now() -> str:
    """Now as an aware UTC ISO timestamp: the form of ``created_at`` and ``updated_at``."""
    return datetime.now(timezone.utc).isoformat()


def _version() -> str:
    from toolscore._version import version

    return version()


def _is_matcher_form(node: object) -> bool:
    """A one-key object whose key starts with ``$``: the shape of every JSON matcher."""
    return (
        isinstance(node, dict)
        and len(node) == 1
        and isinstance(next(iter(node)), str)
        and next(iter(node)).startswith("$")
    )


def _to_matcher(node: dict[str, Any]) -> Any:
    """Convert one matcher form; returns the node itself when no matcher claims it.

    Built-in forms need no plugin manager; only an unknown ``$`` key asks the installed
    plugins (a plugin may register ``$startswith``).
    """
    from toolscore.matching.matchers import Matcher, builtin_json_forms, matcher_from_json

    if next(iter(node)) in builtin_json_forms():
        value = matcher_from_json(node)
    else:
        from toolscore.plugins import get_plugin_manager

        value = matcher_from_json(node, registry=get_plugin_manager())
    return value if isinstance(value, Matcher) else node


def expected_from_json(value: Any, where: tuple[str | int, ...] = ()) -> Any:
    """Turn stored calls (JSON) into expected values with matchers.

    ``where`` is the location of ``value`` in the file; a bad matcher raises an error naming
    its JSON path (``$.calls[0].args.id``).
    """
    if isinstance(value, list):
        return [expected_from_json(item, (*where, i)) for i, item in enumerate(value)]
    if not isinstance(value, dict):
        return value
    if _is_matcher_form(value):
        if _LITERAL_KEY in value:
            return value[_LITERAL_KEY]
        try:
            return _to_matcher(value)
        except (ValueError, TypeError, KeyError, re.error) as exc:
            form = json.dumps(value, ensure_ascii=False)
            raise SnapshotPathError(json_path(where), f"invalid matcher {form}: {exc}") from exc
    return {k: expected_from_json(v, (*where, k)) for k, v in value.items()}


def escape_literals(value: Any) -> Any:
    """Wrap recorded values that would read back as matchers in ``{"$literal": ...}``."""
    if isinstance(value, list):
        return [escape_literals(item) for item in value]
    if not isinstance(value, dict):
        return value
    if _is_matcher_form(value):
        try:
            reads_as_matcher = _LITERAL_KEY in value or _to_matcher(value) is not value
        except (ValueError, TypeError, KeyError, re.error):
            reads_as_matcher = True
        if reads_as_matcher:
            return {_LITERAL_KEY: value}
    return {k: escape_literals(v) for k, v in value.items()}


def keep_matchers(old: Any, new: Any) -> Any:
    """Re-recorded value: ``new``, except where ``old`` is a matcher that still matches."""
    if _is_matcher_form(old) and _LITERAL_KEY not in old:
        from toolscore.matching.values import values_match

        try:
            matcher = _to_matcher(old)
        except (ValueError, TypeError, KeyError, re.error):
            return new
        if matcher is not old and values_match(matcher, new):
            return old
        return new
    if isinstance(old, dict) and isinstance(new, dict):
        return {k: keep_matchers(old[k], v) if k in old else v for k, v in new.items()}
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [keep_matchers(o, n) for o, n in zip(old, new)]
    return new


@attrs.define(eq=True)
class Snapshot:
    """The recorded tool calls of one test, and whether a person has approved them.

    ``calls`` holds JSON values exactly as stored (matchers in their ``{"$regex": ...}``
    form). Empty timestamps are filled with now, ``updated_at`` defaults to ``created_at``
    and the toolscore version is filled in.
    """

    name: str
    calls: list[dict[str, Any]] = attrs.field(factory=list)
    approved: bool = False
    source: str = "pytest"
    created_at: str = ""
    updated_at: str = ""
    schema_version: int = SCHEMA_VERSION
    toolscore_version: str = ""

    def __attrs_post_init__(self) -> None:
        if not self.created_at:
            self.created_at = utc_now()
        if not self.updated_at:
            self.updated_at = self.created_at
        if not self.toolscore_version:
            self.toolscore_version = _version()

    def to_dict(self) -> dict[str, Any]:
        """The file layout, in the order written to disk."""
        return {
            "schema_version": self.schema_version,
            "name": self.name,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "toolscore_version": self.toolscore_version,
            "approved": self.approved,
            "source": self.source,
            "calls": self.calls,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Snapshot:
        """Build a snapshot from :meth:`to_dict` output (no validation; see ``SnapshotStore.load``)."""
        return cls(
            name=data["name"],
            calls=list(data.get("calls", [])),
            approved=bool(data.get("approved", False)),
            source=data.get("source", "pytest"),
            created_at=data.get("created_at", ""),
            updated_at=data.get("updated_at", ""),
            schema_version=int(data.get("schema_version", SCHEMA_VERSION)),
            toolscore_version=data.get("toolscore_version", ""),
        )

    def expected_calls(self) -> list[dict[str, Any]]:
        """The stored calls with their matcher forms turned into matchers, ready for evaluate."""
        converted: list[dict[str, Any]] = expected_from_json(self.calls, ("calls",))
        return converted


class SnapshotPathError(Exception):
    """A problem at a JSON path inside a snapshot file (turned into ``InputError`` by the store)."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


def _got(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, str) and not value:
        return "an empty string"
    return json_type_name(value)


def validate_snapshot_data(data: Any, expected_name: str | None) -> None:
    """Check a decoded snapshot file; raise ``SnapshotPathError`` at the first problem.

    ``expected_name`` is the name the file was looked up by (``None`` when listing files).
    """
    if not isinstance(data, dict):
        raise SnapshotPathError(
            "$", f"expected a JSON object with 'name' and 'calls' keys, got {_got(data)}"
        )
    for key in ("name", "calls"):
        if key not in data:
            raise SnapshotPathError(f"$.{key}", f"expected the snapshot's {key}, got nothing")
    if not isinstance(data["name"], str):
        raise SnapshotPathError("$.name", f"expected a string, got {_got(data['name'])}")
    if expected_name is not None and data["name"] != expected_name:
        raise SnapshotPathError(
            "$.name",
            f"expected {expected_name!r} (the name this file is stored under), got {data['name']!r}",
        )
    version = data.get("schema_version", SCHEMA_VERSION)
    if isinstance(version, bool) or not isinstance(version, int):
        raise SnapshotPathError("$.schema_version", f"expected an integer, got {_got(version)}")
    if version > SCHEMA_VERSION:
        raise SnapshotPathError(
            "$.schema_version",
            f"version {version} was written by a newer toolscore (this one reads up to {SCHEMA_VERSION})",
        )
    if "approved" in data and not isinstance(data["approved"], bool):
        raise SnapshotPathError(
            "$.approved", f"expected true or false, got {_got(data['approved'])}"
        )
    for key in ("created_at", "updated_at", "source", "toolscore_version"):
        if key in data and not isinstance(data[key], str):
            raise SnapshotPathError(f"$.{key}", f"expected a string, got {_got(data[key])}")
    calls = data["calls"]
    if not isinstance(calls, list):
        raise SnapshotPathError("$.calls", f"expected an array of tool calls, got {_got(calls)}")
    for index, call in enumerate(calls):
        where = f"$.calls[{index}]"
        if not isinstance(call, dict):
            raise SnapshotPathError(where, f"expected a tool call object, got {_got(call)}")
        if "tool" not in call:
            raise SnapshotPathError(f"{where}.tool", "expected a non-empty tool name, got nothing")
        tool = call["tool"]
        if not isinstance(tool, str) or not tool:
            raise SnapshotPathError(
                f"{where}.tool", f"expected a non-empty tool name, got {_got(tool)}"
            )
        args = call.get("args")
        if args is not None and not isinstance(args, dict):
            raise SnapshotPathError(
                f"{where}.args", f"expected an object of arguments, or null, got {_got(args)}"
            )
    expected_from_json(calls, ("calls",))


def json_default(value: Any) -> Any:
    """``json.dumps(default=...)`` for stored calls: a matcher in its JSON form, else an error."""
    from toolscore.matching.matchers import Matcher, matcher_to_json

    if isinstance(value, Matcher):
        return matcher_to_json(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
