"""Which server to talk to, and how: a launch command, or a URL with its transport.

:class:`ServerTarget` is what the CLI, config files and tests build; both clients
(:mod:`toolscore_mcp.client.session` and :mod:`toolscore_mcp.client.lite`) connect to one.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import attrs

if sys.version_info < (3, 11):  # pragma: no cover
    pass  # type: ignore[import-not-found]


if TYPE_CHECKING:
    pass

__all__ = [
    "DEFAULT_STARTUP_TIMEOUT",
    "ServerTarget",
    "Transport",
    "command_from_tokens",
    "toolscore_version",
]

DEFAULT_STARTUP_TIMEOUT = 60.0


Transport = Literal["stdio", "http", "sse"]


@attrs.frozen
class ServerTarget:
    """Where the server under test is and how to reach it."""

    transport: Transport = "stdio"
    #: argv for stdio.
    command: tuple[str, ...] = ()
    #: Extra environment for a stdio server (merged over ours).
    env: Mapping[str, str] = attrs.field(factory=dict)
    cwd: str | None = None
    #: URL for HTTP and SSE.
    url: str = ""
    #: Extra HTTP headers (authentication).
    headers: Mapping[str, str] = attrs.field(factory=dict)
    #: The server's name in a config file, when it came from one.
    name: str = ""
    #: Directories to announce as MCP roots (absolute; a relative one is taken from our
    #: working directory). Empty: the roots capability is still declared, with no roots.
    roots: tuple[str, ...] = ()

    def describe(self) -> str:
        if self.transport == "stdio":
            return shlex.join(self.command)
        return self.url

    def root_entries(self) -> list[dict[str, str]]:
        """The ``roots/list`` answer's entries: a ``file://`` URI and the directory's name."""
        entries = []
        for root in self.roots:
            path = Path(root).expanduser().absolute()
            entries.append({"uri": path.as_uri(), "name": path.name or str(path)})
        return entries


def toolscore_version() -> str:
    """This distribution's version, for clientInfo: the first-party distributions share one
    version (lockstep), kept as a constant because a metadata lookup costs ~10-30 ms."""
    import toolscore

    return str(toolscore.__version__)


def command_from_tokens(tokens: Sequence[str]) -> tuple[str, ...]:
    """One token is split like a shell would; several are used verbatim as argv."""
    if len(tokens) == 1:
        return tuple(shlex.split(tokens[0]))
    return tuple(tokens)
