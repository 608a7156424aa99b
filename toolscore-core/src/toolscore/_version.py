"""The version of toolscore-core.

A constant rather than a package-metadata lookup: reading metadata costs milliseconds on every
CLI start. All first-party distributions share this version (lockstep); a test checks that
every ``pyproject.toml`` agrees with it.
"""

from __future__ import annotations

VERSION = "0.1.0"


def version() -> str:
    return VERSION
