"""Shared test configuration.

``@pytest.mark.requires("toolscore_providers")`` marks a test that needs another first-party
distribution. ``nox -s tests(package=...)`` installs one distribution at a time, so there such a
test is skipped with the reason; the ``integration`` session (everything installed) runs every
test carrying the marker.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "requires(*modules): needs these import packages (other distributions) to be installed",
    )


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in item.iter_markers(name="requires"):
        missing = [m for m in marker.args if importlib.util.find_spec(m) is None]
        if missing:
            names = ", ".join(m.replace("_", "-") for m in missing)
            pytest.skip(f"needs {names} installed (runs in the integration session)")


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A temp folder with a short path, for what has a path-length limit: a UNIX socket's
    path must fit 108 bytes, and a clone's pytest temp folder may already be longer."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="ts-", dir="/tmp" if Path("/tmp").is_dir() else None))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
