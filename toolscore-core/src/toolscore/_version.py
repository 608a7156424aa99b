"""The installed version, read from package metadata only when asked for."""

from __future__ import annotations

from functools import cache


@cache
def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("toolscore-core")
    except PackageNotFoundError:  # running from a source tree
        return "0.0.0"
