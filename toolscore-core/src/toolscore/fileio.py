"""Atomic file writing: a reader never sees a half-written file.

Every writer in toolscore goes through :func:`atomic_write_text`: the content is written to a
temporary file in the target's folder and moved into place with ``os.replace``.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def atomic_write_text(path: str | os.PathLike[str], text: str, *, mode: int | None = None) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically, creating parent folders.

    ``mode`` sets the file's permissions; by default a new file gets the usual ``0o644`` minus
    the umask, and an existing file keeps its permissions.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    if mode is None:
        try:
            mode = target.stat().st_mode & 0o777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, mode)
        os.replace(tmp_name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    return target


def atomic_create_text(path: str | os.PathLike[str], text: str) -> bool:
    """Create ``path`` with ``text`` atomically, unless it already exists.

    For files that several processes may try to create at once (snapshots under
    ``pytest -n 4``): exactly one writer wins, the others get ``False`` and the file they
    find is always complete. Uses a hard link from a temp file in the same folder, which
    fails instead of overwriting.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    umask = os.umask(0)
    os.umask(umask)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, 0o666 & ~umask)
        try:
            os.link(tmp_name, target)
        except FileExistsError:
            return False
        except OSError:  # no hard links on this file system: best effort
            if target.exists():
                return False
            os.replace(tmp_name, target)
        return True
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)


def atomic_write_json(path: str | os.PathLike[str], data: Any, *, indent: int = 2) -> Path:
    """Serialise ``data`` first (so a bad value leaves the old file untouched), then write it."""
    text = json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
    return atomic_write_text(path, text)
