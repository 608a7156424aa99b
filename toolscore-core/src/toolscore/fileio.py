"""Writing output files: a reader never sees a half-written file, and nothing but a regular
file is ever replaced.

Every writer in toolscore goes through :func:`atomic_write_text`:

* a regular file (new or existing) is written to a temporary file in its folder and moved into
  place with ``os.replace``; through a symlink, the file it points to is replaced and the link
  stays;
* an existing device or FIFO (``/dev/null``, ``/dev/stdout``, a named pipe) is written through,
  never renamed over: renaming over ``/dev/null`` as root replaced it for every later process;
* a folder or a socket is refused.

Failures are :class:`~toolscore.errors.OutputError` (``cannot write PATH: reason``).
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from toolscore.errors import OutputError


def atomic_write_text(path: str | os.PathLike[str], text: str, *, mode: int | None = None) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically, creating parent folders.

    ``mode`` sets the file's permissions; by default a new file gets the usual ``0o644`` minus
    the umask, and an existing file keeps its permissions.
    """
    target = Path(path)
    try:
        info: os.stat_result | None = os.stat(target)  # symlinks followed
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise OutputError(path, exc.strerror or str(exc)) from exc
    if info is not None and not stat.S_ISREG(info.st_mode):
        _write_through(target, text, info)
        return target
    if target.is_symlink():
        target = Path(os.path.realpath(target))
    try:
        _replace(target, text, mode if mode is not None else _mode_for(info))
    except OSError as exc:
        raise OutputError(path, exc.strerror or str(exc)) from exc
    return target


def _mode_for(info: os.stat_result | None) -> int:
    """An existing file keeps its permissions; a new one gets ``0o666`` minus the umask."""
    if info is not None:
        return info.st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _replace(target: Path, text: str, mode: int) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, mode)
        os.replace(tmp_name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise


def _write_through(target: Path, text: str, info: os.stat_result) -> None:
    """Write into an existing device or FIFO as it is; refuse folders and sockets."""
    if stat.S_ISDIR(info.st_mode):
        raise OutputError(target, "it is a folder; give a file path")
    if stat.S_ISSOCK(info.st_mode):
        raise OutputError(target, "it is a socket, not a file")
    try:
        with open(target, "w", encoding="utf-8", errors="backslashreplace", newline="") as handle:
            handle.write(text)
    except OSError as exc:
        raise OutputError(target, exc.strerror or str(exc)) from exc


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
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace", newline="") as handle:
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
