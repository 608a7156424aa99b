"""Where a stdio server runs: its working directory, HOME, TMPDIR and XDG folders.

A server under test gets generated, often odd, arguments; one that writes a file named after
an empty argument writes it into its working directory, and one that keeps state keeps it
under HOME. So, unless the user said otherwise, the server runs in the run's sandbox:

* its working directory is ``<sandbox>/.server/work``;
* ``HOME``, ``TMPDIR`` (and ``TMP``, ``TEMP``) and ``XDG_CONFIG_HOME``, ``XDG_DATA_HOME``,
  ``XDG_CACHE_HOME``, ``XDG_STATE_HOME`` point at folders under ``<sandbox>/.server``.

What the user set wins: a ``cwd`` in the config file entry keeps that folder, and a variable
given with ``--env`` or in the entry's ``env`` keeps its value. A variable that is merely set
in the user's own environment (their real ``HOME``) is replaced: the point is isolation.

Moving HOME hides the caches and tool homes that launchers find through it (``npx``'s
cache, ``uvx``'s cache and Pythons, pyenv, rustup, a ``pip install --user``), and a server
that started offline from them would no longer start. Those variables are set to the user's
real folders when they exist, so launching works as before; the server's own files do not go
there. Relative paths in the command that name an existing file or folder (``server.py``,
``./bin/server``) are made absolute, since the command is no longer run from the user's
working directory.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import attrs

from toolscore_mcp.client.target import ServerTarget

__all__ = ["SERVER_FOLDER", "Isolation", "inside", "isolate", "outside_folders"]

#: The sandbox's subfolder for the server's own working directory, HOME and the like.
SERVER_FOLDER = ".server"

#: Variable -> its folder under ``<sandbox>/.server``.
_ISOLATED: Mapping[str, str] = {
    "HOME": "home",
    "TMPDIR": "tmp",
    "TMP": "tmp",
    "TEMP": "tmp",
    "XDG_CONFIG_HOME": "xdg/config",
    "XDG_DATA_HOME": "xdg/data",
    "XDG_CACHE_HOME": "xdg/cache",
    "XDG_STATE_HOME": "xdg/state",
}

#: Launcher caches and tool homes found through HOME or XDG: variable -> (base, default path).
#: ``base`` is ``home``, ``cache`` (XDG_CACHE_HOME) or ``data`` (XDG_DATA_HOME).
_KEPT: tuple[tuple[str, str, str], ...] = (
    ("npm_config_cache", "home", ".npm"),
    ("npm_config_userconfig", "home", ".npmrc"),
    ("UV_CACHE_DIR", "cache", "uv"),
    ("UV_PYTHON_INSTALL_DIR", "data", "uv/python"),
    ("UV_TOOL_DIR", "data", "uv/tools"),
    ("PYTHONUSERBASE", "home", ".local"),
    ("PYENV_ROOT", "home", ".pyenv"),
    ("CARGO_HOME", "home", ".cargo"),
    ("RUSTUP_HOME", "home", ".rustup"),
    ("GOPATH", "home", "go"),
    ("VOLTA_HOME", "home", ".volta"),
    ("PLAYWRIGHT_BROWSERS_PATH", "cache", "ms-playwright"),
)


@attrs.frozen
class Isolation:
    """A target moved into a folder, and what of it stayed the user's."""

    target: ServerTarget
    #: The folder the server runs in, or None when the user's ``cwd`` was kept.
    work: Path | None
    #: Isolated variables the user set themselves (kept as they are).
    kept: tuple[str, ...] = ()


def _real_bases(environ: Mapping[str, str]) -> dict[str, Path]:
    home = Path(environ.get("HOME") or Path.home())
    return {
        "home": home,
        "cache": Path(environ.get("XDG_CACHE_HOME") or home / ".cache"),
        "data": Path(environ.get("XDG_DATA_HOME") or home / ".local" / "share"),
    }


def _launcher_homes(user_env: Mapping[str, str], environ: Mapping[str, str]) -> dict[str, str]:
    """The user's real launcher caches and tool homes that exist and are not set already."""
    bases = _real_bases(environ)
    present = {name.lower() for name in (*environ, *user_env)}
    kept: dict[str, str] = {}
    for name, base, relative in _KEPT:
        if name.lower() in present:
            continue
        path = bases[base] / relative
        if path.exists():
            kept[name] = str(path)
    return kept


def _absolute_argv(command: Sequence[str], origin: Path) -> tuple[str, ...]:
    """Relative words of the command that name something in ``origin``, made absolute."""

    def fix(word: str, *, program: bool) -> str:
        if not word or os.path.isabs(word) or word.startswith("-"):
            if word.startswith("--") and "=" in word:
                option, _, value = word.partition("=")
                fixed = fix(value, program=False)
                return f"{option}={fixed}" if fixed != value else word
            return word
        if program and os.sep not in word and "/" not in word:
            return word  # looked up on PATH, not in the folder
        try:
            candidate = origin / word
            if candidate.exists():
                return str(candidate.absolute())
        except (OSError, ValueError):
            pass
        return word

    return tuple(fix(word, program=index == 0) for index, word in enumerate(command))


def isolate(
    target: ServerTarget,
    folder: Path,
    *,
    environ: Mapping[str, str] | None = None,
    origin: Path | None = None,
) -> Isolation:
    """``target`` run from ``folder/.server``: its working directory, HOME, TMPDIR and XDG
    folders there (the folders are created), unless the user set them.

    Only stdio targets change; ``environ`` (default: ours) is the environment the server
    inherits, ``origin`` (default: ours) the folder relative command words are found in.
    """
    if target.transport != "stdio" or not target.command:
        return Isolation(target, None)
    environ = os.environ if environ is None else environ
    origin = Path.cwd() if origin is None else origin
    base = folder / SERVER_FOLDER
    env: dict[str, str] = {}
    kept: list[str] = []
    for name, relative in _ISOLATED.items():
        if name in target.env:
            kept.append(name)
            continue
        path = base / relative
        path.mkdir(parents=True, exist_ok=True)
        env[name] = str(path)
    env.update(_launcher_homes(target.env, environ))
    work: Path | None = None
    cwd = target.cwd
    command = target.command
    if cwd is None:
        work = base / "work"
        work.mkdir(parents=True, exist_ok=True)
        cwd = str(work)
        command = _absolute_argv(target.command, origin)
    isolated = attrs.evolve(target, command=command, env={**env, **target.env}, cwd=cwd)
    return Isolation(isolated, work, tuple(kept))


def outside_folders(target: ServerTarget, folder: Path | None) -> list[str]:
    """Existing folders outside ``folder`` that the command, its env or its cwd name: where
    the server may keep its data (the user's choice, so it is not moved)."""
    words = [*target.command[1:], *target.env.values()]
    if target.cwd:
        words.append(target.cwd)
    found: list[str] = []
    for word in words:
        value = word.partition("=")[2] if word.startswith("--") and "=" in word else word
        if not value or not os.path.isabs(value):
            continue
        try:
            path = Path(value).resolve()
            if not path.is_dir():
                continue
        except (OSError, ValueError, RuntimeError):
            continue
        if folder is not None and inside(path, folder):
            continue
        if str(path) not in found:
            found.append(str(path))
    return found


def inside(path: Path, folder: Path) -> bool:
    """Is ``path`` (resolved) ``folder`` or inside it?"""
    try:
        resolved = os.path.normcase(str(path.resolve()))
        base = os.path.normcase(str(folder.resolve()))
    except (OSError, RuntimeError, ValueError):
        return False
    return resolved == base or resolved.startswith(base.rstrip(os.sep) + os.sep)
