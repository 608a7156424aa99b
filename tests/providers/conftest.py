"""pytest configuration for the toolscore-providers tests.

Tests marked ``sdk`` build payloads with the real provider SDKs; they run in the nox session
``providers-sdk`` (which installs the SDKs) and skip themselves elsewhere (``importorskip``).
"""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "sdk: builds payloads with a provider SDK (nox session providers-sdk)"
    )
