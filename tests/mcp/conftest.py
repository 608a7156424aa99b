"""Fixtures for the toolscore-mcp tests: real servers on stdio and on 127.0.0.1.

``realservers`` marks tests that need mcp-server-time, mcp-server-fetch and
@modelcontextprotocol/server-everything installed (see test_real_servers.py); they skip
cleanly when those are missing.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from mcp_support import free_port, server_cmd


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "realservers: needs the real third-party MCP servers installed (nox -s mcp-real)"
    )
    # ``pytest_plugins`` is only allowed in the root conftest; the lock/diff CI test uses
    # pytester, so load it by hand.
    if not config.pluginmanager.has_plugin("pytester"):
        config.pluginmanager.import_plugin("pytester")


@pytest.fixture(scope="session")
def sample_cmd() -> list[str]:
    import toolscore_mcp.sample_server as sample

    return [sys.executable, sample.__file__]


def _start_http(transport: str, token: str = "") -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen(
        server_cmd("http_server.py", str(port), transport, *([token] if token else [])),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"HTTP test server exited: {process.stderr.read().decode() if process.stderr else ''}"
            )
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            time.sleep(0.05)
    path = "/sse" if transport == "sse" else "/mcp"
    try:
        yield f"http://127.0.0.1:{port}{path}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def http_url() -> Iterator[str]:
    """A real SDK server over streamable HTTP that wants ``Authorization: Bearer s3cret``."""
    yield from _start_http("http", token="s3cret")


@pytest.fixture(scope="session")
def sse_url() -> Iterator[str]:
    yield from _start_http("sse")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Live third-party servers run only when asked: ``-m realservers`` or TOOLSCORE_MCP_REAL=1."""
    if (
        "realservers" in (config.getoption("-m") or "")
        or os.environ.get("TOOLSCORE_MCP_REAL") == "1"
    ):
        return
    skip = pytest.mark.skip(
        reason="live third-party servers: run with -m realservers (nox -s mcp-real)"
    )
    for item in items:
        if "realservers" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def fresh_http_url() -> Iterator[str]:
    """A streamable-HTTP server of its own (token ``s3cret``), not shared with other tests."""
    yield from _start_http("http", token="s3cret")
