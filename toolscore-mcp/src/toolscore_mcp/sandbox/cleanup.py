"""Removing a sandbox: delete the tree even when tools made parts of it read-only.

Never follows a symlink out of the sandbox. :func:`cleanup` stops the web server and removes
the tree once, from :meth:`Sandbox.close` or at garbage collection.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolscore_mcp.sandbox.http import HttpService

__all__ = ["cleanup", "remove_tree"]


def _make_writable(path: str) -> None:
    """Give the owner full rights on a real file or directory (never through a symlink)."""
    try:
        info = os.lstat(path)
    except OSError:
        return
    if stat.S_ISLNK(info.st_mode):
        return
    wanted = info.st_mode | stat.S_IRWXU
    if wanted != info.st_mode:
        with contextlib.suppress(OSError):
            os.chmod(path, stat.S_IMODE(wanted))


#: The rmtree steps worth retrying in place; re-running an open or a scandir would leak it.
_REMOVERS: tuple[Callable[..., Any], ...] = (os.unlink, os.remove, os.rmdir)


def _retry_after_chmod(function: Callable[..., Any], path: str, _error: object) -> None:
    """rmtree error hook: make the entry and its directory writable, then try once more.

    Read-only directories (and read-only files on Windows) block deletion; git's objects
    are read-only and tools may chmod what they create.
    """
    _make_writable(os.path.dirname(path))
    _make_writable(path)
    if function not in _REMOVERS:
        return  # opening or listing failed: the second pass in remove_tree handles it
    with contextlib.suppress(OSError):
        function(path)


def _unlock_tree(root: Path) -> None:
    """Make every real directory under ``root`` writable and searchable (symlinks untouched)."""
    _make_writable(str(root))
    for directory, subdirectories, _files in os.walk(root, followlinks=False):
        for name in subdirectories:
            _make_writable(os.path.join(directory, name))


def _rmtree(root: Path) -> None:
    """shutil.rmtree with the chmod-and-retry hook, in the spelling this Python prefers."""
    if sys.version_info >= (3, 12):
        shutil.rmtree(root, onexc=_retry_after_chmod)
    else:
        shutil.rmtree(root, onerror=_retry_after_chmod)


def remove_tree(root: Path) -> bool:
    """Delete ``root`` and everything in it without following symlinks; True when gone.

    A symlink at ``root`` itself is unlinked, never followed. If a first pass leaves
    something behind (an unreadable directory), unlock the whole tree and try again.
    """
    if root.is_symlink():
        root.unlink()
        return True
    if not root.exists():
        return True
    _rmtree(root)
    if root.exists():
        _unlock_tree(root)
        _rmtree(root)
    return not os.path.lexists(root)


def cleanup(root: Path, service: HttpService | None, keep: bool, notes: list[str]) -> None:
    """Stop the server and remove the tree; runs once, from close() or at garbage collection."""
    if service is not None:
        service.stop()
    if not keep and not remove_tree(root):
        notes.append(f"could not remove the sandbox {root}")
