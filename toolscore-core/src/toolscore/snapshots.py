"""Snapshot testing for tool calls: record once, approve, then replay as a regression test.

A snapshot is one JSON file holding the tool calls an agent made for one test. The life cycle:

1. **record**: the first run writes an *unapproved* (pending) snapshot and warns;
2. **approve**: a person reviews the file and runs ``toolscore approve NAME`` (or ``--all``);
3. **replay**: later runs evaluate the agent's calls against the approved baseline and fail
   with the expected-vs-actual table when they drift.

In CI (the ``CI`` environment variable is non-empty) nothing is ever written: a missing or
pending snapshot fails the test, so a baseline can only come from a reviewed local run.

Snapshot files may hold matchers where values are volatile (ids, timestamps)::

    "args": {"order_id": {"$any": true}, "when": {"$regex": "\\\\d{4}-\\\\d{2}-\\\\d{2}"}}

They are kept when the snapshot is re-recorded, as long as they still match. A recorded value
that would read back as a matcher (a MongoDB-style ``{"$regex": ...}`` argument) is stored as
``{"$literal": value}`` so that it replays as itself.

This module needs no pytest; the fixture in ``toolscore-pytest`` is built on top of it::

    from toolscore.snapshots import snapshot_check

    result = snapshot_check("booking", agent("book a flight to NYC"))
"""

from __future__ import annotations

import builtins
import hashlib
import json
import os
import re
import warnings
from collections.abc import Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import attrs

from toolscore.errors import InputError
from toolscore.fileio import atomic_create_text, atomic_write_text
from toolscore.serialization import json_path, json_type_name

if TYPE_CHECKING:
    from toolscore.result import EvaluationResult

__all__ = [
    "DEFAULT_ROOT",
    "SCHEMA_VERSION",
    "Snapshot",
    "SnapshotOutcome",
    "SnapshotStore",
    "in_ci",
    "run_snapshot",
    "snapshot_check",
]

#: Where snapshots live unless told otherwise (the pytest plugin resolves it against rootdir).
DEFAULT_ROOT = ".toolscore/snapshots"
#: The snapshot file layout written by this version; newer files are refused with a clear error.
SCHEMA_VERSION = 1

_UNSAFE = re.compile(r'[/\\:\[\]<>|*?"]|\s')
#: Characters no file name should hold: NUL (refused by every OS), the other C0 controls and
#: DEL (terminal escapes in ``ls``), and lone surrogates (not encodable as UTF-8).
_CONTROL = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")
#: The longest sanitised fragment, in UTF-8 bytes. With ``-<hash>.json`` (14 bytes) and the
#: temporary ``.<name>.<random>.tmp`` of an atomic write (14 more) a path component stays
#: well under the 255 bytes file systems allow, whatever the script of the name.
MAX_NAME_BYTES = 200
_LITERAL_KEY = "$literal"

Status = Literal["created", "updated", "pending", "passed"]


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


def _version() -> str:
    from toolscore._version import version

    return version()


def in_ci() -> bool:
    """True when the ``CI`` environment variable is set and non-empty (read at call time)."""
    return bool(os.environ.get("CI"))


def sanitize_name(name: str) -> str:
    """Turn a snapshot name into a safe file-name fragment (not reversible; see ``path_for``).

    Path separators, ``:[]<>|*?"``, whitespace, control characters (NUL included) and lone
    surrogates all become ``__``: a name never fails to make a file name. Any name works, and
    the hash that ``path_for`` appends keeps names that sanitise alike apart.
    """
    text = _UNSAFE.sub("__", name.replace("::", "__"))
    text = _CONTROL.sub("__", text).strip(".")
    return text or "snapshot"


def _fragment(name: str) -> str:
    """The sanitised name cut to 100 characters and :data:`MAX_NAME_BYTES` UTF-8 bytes (on a
    character boundary), so 100 emoji make a file name as surely as 100 letters do."""
    text = sanitize_name(name)[:100]
    encoded = text.encode("utf-8")
    if len(encoded) <= MAX_NAME_BYTES:
        return text
    return encoded[:MAX_NAME_BYTES].decode("utf-8", "ignore")


# -- JSON paths and matcher forms --------------------------------------------------------------


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
    from toolscore.matchers import Matcher, builtin_json_forms, matcher_from_json

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
            raise _PathError(json_path(where), f"invalid matcher {form}: {exc}") from exc
    return {k: expected_from_json(v, (*where, k)) for k, v in value.items()}


def _escape_literals(value: Any) -> Any:
    """Wrap recorded values that would read back as matchers in ``{"$literal": ...}``."""
    if isinstance(value, list):
        return [_escape_literals(item) for item in value]
    if not isinstance(value, dict):
        return value
    if _is_matcher_form(value):
        try:
            reads_as_matcher = _LITERAL_KEY in value or _to_matcher(value) is not value
        except (ValueError, TypeError, KeyError, re.error):
            reads_as_matcher = True
        if reads_as_matcher:
            return {_LITERAL_KEY: value}
    return {k: _escape_literals(v) for k, v in value.items()}


def _keep_matchers(old: Any, new: Any) -> Any:
    """Re-recorded value: ``new``, except where ``old`` is a matcher that still matches."""
    if _is_matcher_form(old) and _LITERAL_KEY not in old:
        from toolscore.value_match import values_match

        try:
            matcher = _to_matcher(old)
        except (ValueError, TypeError, KeyError, re.error):
            return new
        if matcher is not old and values_match(matcher, new):
            return old
        return new
    if isinstance(old, dict) and isinstance(new, dict):
        return {k: _keep_matchers(old[k], v) if k in old else v for k, v in new.items()}
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [_keep_matchers(o, n) for o, n in zip(old, new)]
    return new


#: What a snapshot keeps of a call extracted from a provider or framework response. Call ids,
#: timings and extractor metadata change on every real run and would only add noise to diffs.
_EXTRACTED_KEYS = ("tool", "args", "result", "error", "is_error")


def recordable_calls(actual: Any, calls: builtins.list[Any]) -> builtins.list[dict[str, Any]]:
    """The calls as a snapshot stores them.

    A list of call dicts is stored as given (extra keys such as ``result`` included). Calls
    extracted from a response, and ``ToolCall`` objects, keep only ``tool`` and ``args`` plus
    ``result``/``error`` when the response carried them; volatile ids, timings and extractor
    metadata are dropped so that a re-recording shows only real changes.
    """
    from toolscore.model import ToolCall

    passthrough = calls is actual
    out: builtins.list[dict[str, Any]] = []
    for call in calls:
        if isinstance(call, ToolCall):
            call = call.to_dict()
        elif passthrough:
            out.append(call)
            continue
        kept = {key: call[key] for key in _EXTRACTED_KEYS if call.get(key) is not None}
        if not kept.get("is_error"):
            kept.pop("is_error", None)
        if not kept.get("error"):
            kept.pop("error", None)
        out.append(kept)
    return out


def merge_recorded_calls(
    old_calls: list[dict[str, Any]], new_calls: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The calls to store when a snapshot is re-recorded.

    The k-th new call of a tool is paired with the k-th stored call of the same tool; inside
    a pair, every stored matcher that still matches the new value is kept, everything else
    takes the new value.
    """
    by_tool: dict[str, builtins.list[dict[str, Any]]] = {}
    for call in old_calls:
        by_tool.setdefault(str(call.get("tool")), []).append(call)
    seen: dict[str, int] = {}
    merged: builtins.list[dict[str, Any]] = []
    for call in new_calls:
        tool = str(call.get("tool"))
        index = seen.get(tool, 0)
        seen[tool] = index + 1
        candidates = by_tool.get(tool, [])
        if index < len(candidates):
            merged.append(_keep_matchers(candidates[index], call))
        else:
            merged.append(call)
    return merged


# -- the snapshot record ------------------------------------------------------------------------


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
            self.created_at = _now()
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

    def expected_calls(self) -> builtins.list[dict[str, Any]]:
        """The stored calls with their matcher forms turned into matchers, ready for evaluate."""
        converted: builtins.list[dict[str, Any]] = expected_from_json(self.calls, ("calls",))
        return converted


class _PathError(Exception):
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


def _validate(data: Any, expected_name: str | None) -> None:
    """Check a decoded snapshot file; raise ``_PathError`` at the first problem.

    ``expected_name`` is the name the file was looked up by (``None`` when listing files).
    """
    if not isinstance(data, dict):
        raise _PathError(
            "$", f"expected a JSON object with 'name' and 'calls' keys, got {_got(data)}"
        )
    for key in ("name", "calls"):
        if key not in data:
            raise _PathError(f"$.{key}", f"expected the snapshot's {key}, got nothing")
    if not isinstance(data["name"], str):
        raise _PathError("$.name", f"expected a string, got {_got(data['name'])}")
    if expected_name is not None and data["name"] != expected_name:
        raise _PathError(
            "$.name",
            f"expected {expected_name!r} (the name this file is stored under), got {data['name']!r}",
        )
    version = data.get("schema_version", SCHEMA_VERSION)
    if isinstance(version, bool) or not isinstance(version, int):
        raise _PathError("$.schema_version", f"expected an integer, got {_got(version)}")
    if version > SCHEMA_VERSION:
        raise _PathError(
            "$.schema_version",
            f"version {version} was written by a newer toolscore (this one reads up to {SCHEMA_VERSION})",
        )
    if "approved" in data and not isinstance(data["approved"], bool):
        raise _PathError("$.approved", f"expected true or false, got {_got(data['approved'])}")
    for key in ("created_at", "updated_at", "source", "toolscore_version"):
        if key in data and not isinstance(data[key], str):
            raise _PathError(f"$.{key}", f"expected a string, got {_got(data[key])}")
    calls = data["calls"]
    if not isinstance(calls, list):
        raise _PathError("$.calls", f"expected an array of tool calls, got {_got(calls)}")
    for index, call in enumerate(calls):
        where = f"$.calls[{index}]"
        if not isinstance(call, dict):
            raise _PathError(where, f"expected a tool call object, got {_got(call)}")
        if "tool" not in call:
            raise _PathError(f"{where}.tool", "expected a non-empty tool name, got nothing")
        tool = call["tool"]
        if not isinstance(tool, str) or not tool:
            raise _PathError(f"{where}.tool", f"expected a non-empty tool name, got {_got(tool)}")
        args = call.get("args")
        if args is not None and not isinstance(args, dict):
            raise _PathError(
                f"{where}.args", f"expected an object of arguments, or null, got {_got(args)}"
            )
    expected_from_json(calls, ("calls",))


def _json_default(value: Any) -> Any:
    from toolscore.matchers import Matcher, matcher_to_json

    if isinstance(value, Matcher):
        return matcher_to_json(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# -- the store ----------------------------------------------------------------------------------


class SnapshotStore:
    """One JSON file per snapshot under ``root``; no folder is created until something is saved.

    File names are ``<sanitised name, 100 chars and 200 UTF-8 bytes max>-<sha1(name)[:8]>.json``:
    unique per name, and a name such as ``../../x`` cannot escape the root.
    """

    def __init__(self, root: str | os.PathLike[str] = DEFAULT_ROOT) -> None:
        self.root = Path(root)

    def path_for(self, name: str) -> Path:
        if not isinstance(name, str):
            raise TypeError(f"a snapshot name must be a string, got {type(name).__name__}")
        digest = hashlib.sha1(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        return self.root / f"{_fragment(name)}-{digest}.json"

    def exists(self, name: str) -> bool:
        return self.path_for(name).exists()

    def load(self, name: str) -> Snapshot | None:
        """The snapshot called ``name``, or ``None`` when there is no file.

        A file that is not valid JSON, or was edited into a wrong shape, raises
        :class:`~toolscore.errors.InputError` (a ``ValueError``) whose one line starts with
        ``Corrupt snapshot file at <path>:`` and names the JSON path of the problem.
        """
        path = self.path_for(name)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            raise _corrupt(path, None, f"cannot read the file ({exc})") from exc
        return self._parse(path, text, name)

    @staticmethod
    def _parse(path: Path, text: str, name: str | None) -> Snapshot:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise _corrupt(
                path, None, f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
            ) from exc
        try:
            _validate(data, name)
        except _PathError as exc:
            raise _corrupt(path, exc.path, exc.problem) from exc
        return Snapshot.from_dict(data)

    def _serialise(self, snapshot: Snapshot) -> str:
        try:
            text = (
                json.dumps(snapshot.to_dict(), indent=2, ensure_ascii=False, default=_json_default)
                + "\n"
            )
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate in a name or value: escape it all
                text = json.dumps(snapshot.to_dict(), indent=2, default=_json_default) + "\n"
            return text
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"Cannot save snapshot {snapshot.name!r}: tool-call arguments must be "
                f"JSON-serializable plain JSON values ({exc}). Convert values such as datetime, Decimal or numpy scalars to "
                "strings, numbers, booleans, lists or objects before recording."
            ) from exc

    def save(self, snapshot: Snapshot) -> Path:
        """Write ``snapshot`` atomically (refreshing ``updated_at``) and return its path.

        Values that are not plain JSON raise ``ValueError`` and leave any existing file as it was.
        """
        snapshot.updated_at = _now()
        text = self._serialise(snapshot)
        return atomic_write_text(self.path_for(snapshot.name), text)

    def create(self, snapshot: Snapshot) -> bool:
        """Write ``snapshot`` only if no file exists yet; ``False`` when another writer won.

        Safe when several processes (``pytest -n 4``) record the same name at once: exactly one
        file is written and it is always complete.
        """
        snapshot.updated_at = snapshot.created_at
        return atomic_create_text(self.path_for(snapshot.name), self._serialise(snapshot))

    def approve(self, name: str) -> Snapshot:
        """Mark ``name`` approved and save it; ``KeyError`` when there is no such snapshot."""
        snapshot = self.load(name)
        if snapshot is None:
            raise KeyError(f"No snapshot named {name!r} to approve")
        snapshot.approved = True
        self.save(snapshot)
        return snapshot

    def delete(self, name: str) -> None:
        """Remove the file for ``name``; nothing happens when it does not exist."""
        self.path_for(name).unlink(missing_ok=True)

    def files(self) -> builtins.list[Path]:
        """Every ``*.json`` file directly under the root, sorted."""
        if not self.root.is_dir():
            return []
        return sorted(self.root.glob("*.json"))

    def read_file(self, path: Path) -> Snapshot:
        """Read one snapshot file found by :meth:`files` (same errors as :meth:`load`)."""
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise _corrupt(path, None, f"cannot read the file ({exc})") from exc
        snapshot = self._parse(path, text, None)
        expected = self.path_for(snapshot.name).name
        if path.name != expected:
            raise _corrupt(
                path,
                "$.name",
                f"the name {snapshot.name!r} belongs in {expected}, not in this file "
                "(was the file renamed or the name edited?)",
            )
        return snapshot

    def list(self) -> builtins.list[Snapshot]:
        """All readable snapshots sorted by name; corrupt files are skipped."""
        found: builtins.list[Snapshot] = []
        for path in self.files():
            try:
                found.append(self.read_file(path))
            except InputError:
                continue
        found.sort(key=lambda s: s.name)
        return found

    def pending(self) -> builtins.list[Snapshot]:
        """The snapshots still waiting for approval, sorted by name."""
        return [s for s in self.list() if not s.approved]


def _corrupt(path: Path, json_path: str | None, problem: str) -> InputError:
    where = f"{json_path}: " if json_path else ""
    error = InputError(f"Corrupt snapshot file at {path}: {where}{problem}")
    error.source = str(path)
    error.path = json_path
    error.detail = problem
    return error


# -- the state machine --------------------------------------------------------------------------


@attrs.frozen
class SnapshotOutcome:
    """What one snapshot check did: ``created``, ``updated``, ``pending`` or ``passed``.

    ``result`` is the evaluation for ``passed`` and ``None`` otherwise.
    """

    name: str
    status: Status
    path: Path
    result: EvaluationResult | None = None


def _warn(message: str) -> None:
    warnings.warn(message, UserWarning, stacklevel=4)


def _missing_in_ci(name: str) -> Exception:
    from toolscore.assertions import ToolScoreAssertionError

    return ToolScoreAssertionError(
        f"snapshot {name!r} does not exist; snapshots cannot be created in CI. Run the test "
        "locally to record it, review it, then approve with `toolscore approve`."
    )


def _pending_in_ci(name: str) -> Exception:
    from toolscore.assertions import ToolScoreAssertionError

    return ToolScoreAssertionError(
        f"snapshot {name!r} is pending approval; an unapproved snapshot cannot be used as a "
        "baseline in CI. Approve it locally with `toolscore approve`."
    )


def run_snapshot(
    name: str,
    actual: Any,
    *,
    store: SnapshotStore | None = None,
    update: bool = False,
    min_score: float = 1.0,
    weights: dict[str, float] | None = None,
    strict: bool = False,
) -> SnapshotOutcome:
    """Run the snapshot state machine and say what happened (see :func:`snapshot_check`).

    Observers of ``toolscore_snapshot_used`` hear of the check first, whatever its outcome.
    """
    from toolscore.integrations import auto_extract
    from toolscore.plugins import get_plugin_manager

    store = store if store is not None else SnapshotStore()
    path = store.path_for(name)
    get_plugin_manager().snapshot_used(name, path)
    calls = auto_extract(actual)
    recorded = recordable_calls(actual, calls)
    existing = store.load(name)

    if update:
        stored = _escape_literals(recorded)
        if existing is None:
            store.save(Snapshot(name=name, calls=stored, approved=True, source="pytest"))
        else:
            merged = merge_recorded_calls(existing.calls, stored)
            if merged != existing.calls or not existing.approved:  # else: keep the file as is
                existing.calls = merged
                existing.approved = True
                store.save(existing)
        _warn(f"snapshot {name!r} updated (calls overwritten and approved)")
        return SnapshotOutcome(name, "updated", path)

    if existing is None:
        if in_ci():
            raise _missing_in_ci(name)
        fresh = Snapshot(
            name=name, calls=_escape_literals(recorded), approved=False, source="pytest"
        )
        if store.create(fresh):
            _warn(f"snapshot {name!r} created - review it, then approve with `toolscore approve`")
            return SnapshotOutcome(name, "created", path)
        existing = store.load(name)  # another process recorded it first
        if existing is None:  # pragma: no cover - deleted again in between
            raise _missing_in_ci(name)

    if not existing.approved:
        if in_ci():
            raise _pending_in_ci(name)
        _warn(
            f"snapshot {name!r} pending approval - run `toolscore approve` to use it as a baseline"
        )
        return SnapshotOutcome(name, "pending", path)

    from toolscore.assertions import check_threshold
    from toolscore.evaluation import evaluate
    from toolscore.model import calls_from_dicts

    try:
        # As ToolCalls, not dicts: evaluate() would read a recorded literal such as
        # {"$regex": "^a"} (stored as {"$literal": ...}) as a matcher again.
        expected = calls_from_dicts(existing.expected_calls())
    except _PathError as exc:  # pragma: no cover - load() already validated the matchers
        raise _corrupt(path, exc.path, exc.problem) from exc
    result = evaluate(expected, calls, weights=weights, strict=strict)
    check_threshold(result, min_score)
    return SnapshotOutcome(name, "passed", path, result)


def snapshot_check(
    name: str,
    actual: Any,
    *,
    store: SnapshotStore | None = None,
    update: bool = False,
    min_score: float = 1.0,
    weights: dict[str, float] | None = None,
    strict: bool = False,
) -> EvaluationResult | None:
    """Record, or replay against an approved baseline, the tool calls in ``actual``.

    ``actual`` is anything ``auto_extract`` reads (a provider response, a framework result or
    a list of ``{"tool", "args"}`` dicts). Then:

    - ``update=True``: store the calls (keeping matchers that still match), approve, warn,
      return ``None``;
    - no snapshot: in CI raise ``ToolScoreAssertionError`` and write nothing; locally record
      a pending snapshot, warn, return ``None``;
    - pending: in CI raise; locally warn and return ``None``;
    - approved: evaluate against it and return the result, or raise
      ``ToolScoreAssertionError`` with the expected-vs-actual table when the score is below
      ``min_score`` (1e-9 tolerance). This works in CI too.

    A corrupt or hand-broken snapshot file raises ``InputError`` naming the file and the JSON
    path of the problem.
    """
    outcome = run_snapshot(
        name,
        actual,
        store=store,
        update=update,
        min_score=min_score,
        weights=weights,
        strict=strict,
    )
    return outcome.result
