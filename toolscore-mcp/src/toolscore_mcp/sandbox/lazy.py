"""A run's sandbox, built the first time something needs it.

Most runs need the sandbox: the server command names ``{sandbox}``, or a tool takes a path
or a URL. Many do not (a calculator, a clock, an in-memory notes server), and for them its
files, git repository, database and web server are wasted start-up time. The run reserves an
empty folder up front, announces it as the MCP root, and fills it in only when the command,
a scenario file, a value provider or a repair first asks for something inside it. What is
built is the same either way, so verdicts do not depend on when it was built.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from toolscore_mcp.client.target import ServerTarget
    from toolscore_mcp.sandbox.sandbox import Sandbox

__all__ = ["LazySandbox"]

_T = TypeVar("_T")
_PLACEHOLDERS = ("{sandbox}", "{sandbox_url}")


class LazySandbox:
    """A :class:`~toolscore_mcp.sandbox.sandbox.Sandbox` in a reserved folder, built on first use."""

    def __init__(self, reserved: Path) -> None:
        #: The folder the sandbox will be built in; exists (empty) from the start.
        self.reserved = reserved
        self._sandbox: Sandbox | None = None
        self._closed = False
        #: Threads :meth:`close` waits for first (a server process still being stopped).
        self._users: list[threading.Thread] = []

    @classmethod
    def reserve(cls) -> LazySandbox:
        """Reserve an empty folder now; build nothing yet."""
        return cls(Path(tempfile.mkdtemp(prefix="toolscore-sandbox-")).resolve())

    @property
    def built(self) -> bool:
        """True once something asked for the sandbox's contents."""
        return self._sandbox is not None

    def get(self) -> Sandbox:
        """The sandbox, built in the reserved folder the first time."""
        if self._sandbox is None:
            if self._closed:
                raise RuntimeError("the sandbox was already closed")
            from toolscore_mcp.sandbox.sandbox import Sandbox

            self._sandbox = Sandbox.create(root=self.reserved)
        return self._sandbox

    # -- what value providers and repairs use (toolscore_mcp.values.providers.SandboxLike) ----------

    @property
    def root(self) -> Path:
        return self.get().root

    @property
    def url(self) -> str:
        return self.get().url

    @property
    def notes(self) -> list[str]:
        return self.get().notes if self.built else []

    def file_with_extension(self, extension: str) -> Path | None:
        return self.get().file_with_extension(extension)

    def new_path(self, name_hint: str = "item", extension: str = "") -> Path:
        return self.get().new_path(name_hint, extension)

    def disposable(self, kind_or_extension: str) -> Path:
        return self.get().disposable(kind_or_extension)

    def fresh_copy(self, extension: str) -> tuple[Path, tuple[str, ...]] | None:
        return self.get().fresh_copy(extension)

    def url_for(self, name: str) -> str:
        return self.get().url_for(name)

    def contains(self, path: str | Path) -> bool:
        return self.get().contains(path)

    def escaping_value(self, value: object) -> str | None:
        """See :meth:`Sandbox.escaping_value`; None while nothing was built (no sandbox path
        was handed out yet)."""
        return self._sandbox.escaping_value(value) if self._sandbox is not None else None

    # -- placeholders: only text that names the sandbox builds it ----------------------------

    def substitute(self, text: str) -> str:
        if not any(placeholder in text for placeholder in _PLACEHOLDERS):
            return text
        return self.get().substitute(text)

    def substitute_all(self, value: _T) -> _T:
        if not _mentions(value):
            return value
        return self.get().substitute_all(value)

    def fill_target(self, target: ServerTarget) -> ServerTarget:
        """``target`` with ``{sandbox}`` and ``{sandbox_url}`` filled in (which builds the
        sandbox when they occur), its folder announced as the MCP root either way."""
        import attrs

        return attrs.evolve(
            target,
            command=tuple(self.substitute_all(list(target.command))),
            env=self.substitute_all(dict(target.env)),
            cwd=self.substitute(target.cwd) if target.cwd else None,
            url=self.substitute(target.url),
            headers=self.substitute_all(dict(target.headers)),
            roots=(str(self.reserved),),
        )

    def placeholders(self) -> tuple[tuple[str, str], ...]:
        """``{sandbox}``/``{sandbox_url}`` and what they stood for, if the sandbox was built."""
        if self._sandbox is None:
            return ()
        return (("{sandbox}", str(self._sandbox.root)), ("{sandbox_url}", self._sandbox.url))

    def after(self, threads: list[threading.Thread]) -> None:
        """Have :meth:`close` wait for ``threads`` (stopping a server that runs in the
        sandbox) before it removes anything."""
        self._users += threads

    def close(self) -> None:
        """Close the sandbox if it was built, else remove the reserved folder (once the
        threads given to :meth:`after` have ended)."""
        for thread in self._users:
            thread.join()
        self._closed = True
        if self._sandbox is not None:
            self._sandbox.close()
        else:
            shutil.rmtree(self.reserved, ignore_errors=True)


def _mentions(value: Any) -> bool:
    if isinstance(value, str):
        return any(placeholder in value for placeholder in _PLACEHOLDERS)
    if isinstance(value, dict):
        return any(_mentions(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_mentions(item) for item in value)
    return False
