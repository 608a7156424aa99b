"""Integration tests run with every first-party distribution and the example plugins installed."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence

import pytest


def run_toolscore(
    args: Sequence[str],
    *,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """Run the real ``toolscore`` console entry point in a subprocess."""
    full_env = {**os.environ, **(env or {})}
    full_env.pop("TOOLSCORE_NO_PLUGINS", None)
    return subprocess.run(
        [sys.executable, "-c", "from toolscore.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env=full_env,
        cwd=cwd,
        timeout=timeout,
        check=False,
    )


@pytest.fixture
def toolscore_cli():  # type: ignore[no-untyped-def]
    return run_toolscore
