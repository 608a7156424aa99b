"""Where snapshots live: one JSON file per snapshot name under a root folder.

A file's name is made from the snapshot name (sanitised, cut short, plus a hash of the name),
so any name works and none can escape the root. Reading refuses a file that is not a valid
snapshot with one :class:`~toolscore.errors.InputError` line naming the file and the JSON
path of the problem; writing is atomic, and :meth:`SnapshotStore.create` lets exactly one of
several parallel writers (``pytest -n 4``) record a name.
"""

from __future__ import annotations

import builtins
import hashlib
import json
import os
import re
from pathlib import Path

from toolscore.errors import InputError
from toolscore.fileio import atomic_create_text, atomic_write_text
from toolscore.snapshots.record import (
    Snapshot,
    SnapshotPathError,
    json_default,
    utc_now,
    validate_snapshot_data,
)

__all__ = [
    "DEFAULT_ROOT",
    "MAX_NAME_BYTES",
    "SnapshotStore",
    "corrupt_snapshot_error",
    "sanitize_name",
]


#: Where snapshots live unless told otherwise (the pytest plugin resolves it against rootdir).
DEFAULT_ROOT = ".toolscore/snapshots"
_UNSAFE = re.compile(r'[/\\:\[\]<>|*?"]|\s')
#: Characters no file name should hold: NUL (refused by every OS), the other C0 controls and
#: DEL (terminal escapes in ``ls``), and lone surrogates (not encodable as UTF-8).
_CONTROL = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")
#: The longest sanitised fragment, in UTF-8 bytes. With ``-<hash>.json`` (14 bytes) and the
#: temporary ``.<name>.<random>.tmp`` of an atomic write (14 more) a path component stays
#: well under the 255 bytes file systems allow, whatever the script of the name.
MAX_NAME_BYTES = 200


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
            raise corrupt_snapshot_error(path, None, f"cannot read the file ({exc})") from exc
        return self._parse(path, text, name)

    @staticmethod
    def _parse(path: Path, text: str, name: str | None) -> Snapshot:
        from toolscore.limits import MAX_INPUT_DEPTH, too_deep_in_json

        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise corrupt_snapshot_error(
                path, None, f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
            ) from exc
        except RecursionError:
            raise corrupt_snapshot_error(
                path, None, f"nested deeper than {MAX_INPUT_DEPTH} levels"
            ) from None
        where = too_deep_in_json(text, data)
        if where is not None:
            raise corrupt_snapshot_error(
                path, where, f"nested deeper than {MAX_INPUT_DEPTH} levels"
            )
        try:
            validate_snapshot_data(data, name)
        except SnapshotPathError as exc:
            raise corrupt_snapshot_error(path, exc.path, exc.problem) from exc
        return Snapshot.from_dict(data)

    def _serialise(self, snapshot: Snapshot) -> str:
        try:
            text = (
                json.dumps(snapshot.to_dict(), indent=2, ensure_ascii=False, default=json_default)
                + "\n"
            )
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate in a name or value: escape it all
                text = json.dumps(snapshot.to_dict(), indent=2, default=json_default) + "\n"
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
        snapshot.updated_at = utc_now()
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
            raise corrupt_snapshot_error(path, None, f"cannot read the file ({exc})") from exc
        snapshot = self._parse(path, text, None)
        expected = self.path_for(snapshot.name).name
        if path.name != expected:
            raise corrupt_snapshot_error(
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


def corrupt_snapshot_error(path: Path, json_path: str | None, problem: str) -> InputError:
    """The one-line error for a snapshot file that cannot be used, naming file and JSON path."""
    where = f"{json_path}: " if json_path else ""
    error = InputError(f"Corrupt snapshot file at {path}: {where}{problem}")
    error.source = str(path)
    error.path = json_path
    error.detail = problem
    return error
