"""The sandbox's git repository: a fixed history written by one ``git fast-import``.

Branches main (checked out) and feature, a tag, and commit hashes that are the same on every
run (a fixed identity and clock). When git is missing or fails, :func:`build_repo` returns a
note instead of raising: the run goes on without ``repo/``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

import attrs

from toolscore_mcp.sandbox.cleanup import remove_tree

__all__ = ["build_repo"]

# -- Git repository ----------------------------------------------------------------------------

_GIT_IDENTITY = "Toolscore Sandbox <sandbox@toolscore.invalid>"
_GIT_EPOCH = 1704067200  # 2024-01-01T00:00:00Z; commit i is i hours later.

_APP_V1 = '''"""A tiny application in the toolscore sandbox repository."""


def main() -> None:
    print("hello from the sandbox")


if __name__ == "__main__":
    main()
'''

_APP_V2 = '''"""A tiny application in the toolscore sandbox repository."""


def greet(name: str) -> str:
    return f"hello, {name}"


def main() -> None:
    print(greet("sandbox"))


if __name__ == "__main__":
    main()
'''

_FEATURE = '''"""A feature that only exists on the feature branch."""

ENABLED = True
'''

_REPO_README_V1 = "# Sample project\n\nA tiny repository created by the toolscore sandbox.\n"
_REPO_README_V2 = _REPO_README_V1 + "\nRun it with `python src/app.py`.\n"


@attrs.frozen
class _Commit:
    """One commit of the sandbox repository, as fast-import will write it."""

    branch: str
    message: str
    files: Mapping[str, str]
    parent: int | None  # index into _COMMITS, or None for a root commit


_COMMITS: tuple[_Commit, ...] = (
    _Commit("main", "Initial commit", {"README.md": _REPO_README_V1}, None),
    _Commit("main", "Add the application", {"src/app.py": _APP_V1}, 0),
    _Commit("main", "Add a greeting", {"src/app.py": _APP_V2, "README.md": _REPO_README_V2}, 1),
    _Commit("feature", "Add a feature flag", {"src/feature.py": _FEATURE}, 2),
)
#: Lightweight tags: name -> index into _COMMITS.
_TAGS: Mapping[str, int] = {"v0.1.0": 1}


def _fast_import_data(payload: str) -> bytes:
    """A fast-import ``data`` command with an exact byte count."""
    raw = payload.encode()
    return b"data %d\n" % len(raw) + raw + b"\n"


def _fast_import_stream() -> bytes:
    """The whole history as one fast-import stream; fixed identities and dates fix the hashes."""
    chunks: list[bytes] = []
    for index, commit in enumerate(_COMMITS):
        when = f"{_GIT_EPOCH + index * 3600} +0000"
        chunks.append(f"commit refs/heads/{commit.branch}\nmark :{index + 1}\n".encode())
        chunks.append(f"author {_GIT_IDENTITY} {when}\ncommitter {_GIT_IDENTITY} {when}\n".encode())
        chunks.append(_fast_import_data(commit.message + "\n"))
        if commit.parent is not None:
            chunks.append(f"from :{commit.parent + 1}\n".encode())
        for name, content in commit.files.items():
            chunks.append(f"M 100644 inline {name}\n".encode() + _fast_import_data(content))
        chunks.append(b"\n")
    for tag, index in _TAGS.items():
        chunks.append(f"reset refs/tags/{tag}\nfrom :{index + 1}\n\n".encode())
    chunks.append(b"done\n")
    return b"".join(chunks)


def _git_env(home: Path) -> dict[str, str]:
    """A minimal environment: no user or system config, no inherited GIT_DIR and friends."""
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home),
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
        "LC_ALL": "C",
    }
    for name in ("SYSTEMROOT", "TEMP", "TMP"):  # Windows needs these to start processes
        if name in os.environ:
            env[name] = os.environ[name]
    return env


_GIT_OPTIONS = (
    "-c", "init.defaultBranch=main",
    "-c", "core.autocrlf=false",
    "-c", "gc.auto=0",
    "-c", "maintenance.auto=false",
    # The history as one pack, not a folder per loose object: a third of the sandbox's
    # folders, each costing milliseconds to make and to remove.
    "-c", "fastimport.unpackLimit=0",
    "-c", "user.name=Toolscore Sandbox",
    "-c", "user.email=sandbox@toolscore.invalid",
)  # fmt: skip


def _run_git(git: str, repo: Path, env: Mapping[str, str], *args: str, stdin: bytes = b"") -> None:
    """Run one git command in ``repo``; raise CalledProcessError (with stderr) on failure."""
    subprocess.run(
        [git, *_GIT_OPTIONS, *args],
        cwd=repo,
        env=dict(env),
        input=stdin,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=True,
    )


def build_repo(repo: Path, home: Path) -> str | None:
    """Create the sample repository; return a note instead of raising when git is unusable.

    Three processes: ``init``, one ``fast-import`` for the whole history, and a checkout
    of main, which fills the working tree and the index.
    """
    git = shutil.which("git")
    if git is None:
        return "git was not found on PATH: the sandbox has no repo/"
    env = _git_env(home)
    try:
        repo.mkdir()
        _run_git(git, repo, env, "init", "-q")
        _run_git(git, repo, env, "fast-import", "--quiet", "--done", stdin=_fast_import_stream())
        _run_git(git, repo, env, "checkout", "-q", "-f", "main", "--")
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", b"") or b""
        remove_tree(repo)
        message = detail.decode(errors="replace").strip() or str(error)
        return f"git could not build the sandbox repo/ ({message}): the sandbox has no repo/"
    return None
