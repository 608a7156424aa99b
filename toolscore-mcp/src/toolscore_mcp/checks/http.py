"""Conformance of the streamable HTTP transport, probed with plain HTTP requests.

* ``http-protocol-version`` (2025-06-18): a request in a session that carries an
  unsupported ``MCP-Protocol-Version`` header is answered 400 Bad Request.
* ``http-origin`` (2025-03-26): a request from a foreign ``Origin`` is refused (403), which
  is what stops DNS-rebinding pages from driving a local server.
* ``http-auth-metadata`` (2025-06-18, authorization): when the server needs credentials,
  its 401 carries ``WWW-Authenticate`` with ``resource_metadata`` pointing to its
  protected-resource metadata, so a client can find the authorization server.

Each probe opens its own session (an ``initialize`` request) with the run's headers and
ends it with ``DELETE`` when the server gave a session id.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

import attrs
from toolscore import hookimpl

from toolscore_mcp.conformance import (
    ConformanceCheckSpec,
    ConformanceContext,
    ConformanceFinding,
    NotApplicable,
)

__all__ = ["HttpAnswer", "http_exchange"]

BOGUS_VERSION = "1999-01-01"
FOREIGN_ORIGIN = "http://attacker.example"
SERVER = "(server)"

FIX_VERSION = (
    "Reject requests whose MCP-Protocol-Version header names a revision the server does not "
    "support with 400 Bad Request (the MCP SDKs do this by default)."
)
FIX_ORIGIN = (
    "Validate the Origin header and answer 403 Forbidden to origins you do not serve (enable "
    "DNS-rebinding protection with an allow-list of origins)."
)
FIX_AUTH = (
    "Answer unauthenticated requests with 401 and WWW-Authenticate: Bearer resource_metadata="
    '"<url of /.well-known/oauth-protected-resource>" so clients can discover how to log in.'
)


@attrs.frozen
class HttpAnswer:
    status: int
    headers: dict[str, str]
    body: str


def _exchange(
    url: str, method: str, payload: Any, headers: Mapping[str, str], timeout: float
) -> HttpAnswer:
    # Imported here: only runs against HTTP servers use it, and it costs ~10 ms to import.
    import urllib.error
    import urllib.request

    data = json.dumps(payload).encode() if payload is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    request.add_header("Accept", "application/json, text/event-stream")
    for key, value in headers.items():
        request.add_header(key, value)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            body = answer.read(65536).decode("utf-8", "replace")
            return HttpAnswer(
                answer.status, {k.lower(): v for k, v in answer.headers.items()}, body
            )
    except urllib.error.HTTPError as exc:
        body = exc.read(65536).decode("utf-8", "replace") if exc.fp else ""
        return HttpAnswer(exc.code, {k.lower(): v for k, v in exc.headers.items()}, body)


async def http_exchange(
    url: str, method: str, payload: Any, headers: Mapping[str, str], timeout: float
) -> HttpAnswer:
    """One HTTP request in a worker thread (an ``OSError`` means no answer)."""
    import anyio

    return await anyio.to_thread.run_sync(
        lambda: _exchange(url, method, payload, headers, timeout), abandon_on_cancel=True
    )


def _initialize(version: str) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "toolscore-conformance", "version": "1"},
        },
    }


def _base(context: ConformanceContext) -> tuple[str, dict[str, str], str]:
    target = context.target
    if target is None or not getattr(target, "url", None):
        raise NotApplicable("no URL to probe")
    version = context.details.protocol_version or "2025-06-18"
    return str(target.url), dict(getattr(target, "headers", {}) or {}), version


async def _end(url: str, headers: Mapping[str, str], answer: HttpAnswer, timeout: float) -> None:
    session = answer.headers.get("mcp-session-id")
    if session:
        with contextlib.suppress(OSError):
            await http_exchange(
                url, "DELETE", None, {**headers, "Mcp-Session-Id": session}, timeout
            )


async def _protocol_version(context: ConformanceContext) -> list[ConformanceFinding]:
    url, headers, version = _base(context)
    opened = await http_exchange(url, "POST", _initialize(version), headers, context.timeout)
    if opened.status >= 400:
        raise NotApplicable(f"initialize answered HTTP {opened.status}")
    session = dict(headers)
    if opened.headers.get("mcp-session-id"):
        session["Mcp-Session-Id"] = opened.headers["mcp-session-id"]
    ready = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    await http_exchange(
        url, "POST", ready, {**session, "MCP-Protocol-Version": version}, context.timeout
    )
    probe = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    answer = await http_exchange(
        url, "POST", probe, {**session, "MCP-Protocol-Version": BOGUS_VERSION}, context.timeout
    )
    await _end(url, headers, opened, context.timeout)
    if answer.status == 400:
        return []
    return [
        ConformanceFinding(
            SERVER,
            f"a request with MCP-Protocol-Version: {BOGUS_VERSION} got HTTP {answer.status}, "
            "not 400",
            FIX_VERSION,
        )
    ]


async def _origin(context: ConformanceContext) -> list[ConformanceFinding]:
    url, headers, version = _base(context)
    answer = await http_exchange(
        url, "POST", _initialize(version), {**headers, "Origin": FOREIGN_ORIGIN}, context.timeout
    )
    await _end(url, headers, answer, context.timeout)
    if 400 <= answer.status < 500:
        return []
    return [
        ConformanceFinding(
            SERVER,
            f"a request from Origin {FOREIGN_ORIGIN} got HTTP {answer.status}, not 403",
            FIX_ORIGIN,
            "error",
        )
    ]


async def _auth_metadata(context: ConformanceContext) -> list[ConformanceFinding]:
    url, headers, version = _base(context)
    bare = {k: v for k, v in headers.items() if k.lower() not in ("authorization", "cookie")}
    answer = await http_exchange(url, "POST", _initialize(version), bare, context.timeout)
    await _end(url, bare, answer, context.timeout)
    if answer.status != 401:
        raise NotApplicable(f"the server answers HTTP {answer.status} without credentials")
    challenge = answer.headers.get("www-authenticate", "")
    if "resource_metadata" in challenge.lower():
        return []
    shown = f"WWW-Authenticate: {challenge}" if challenge else "no WWW-Authenticate header"
    return [
        ConformanceFinding(
            SERVER, f"its 401 has {shown} (no resource_metadata)", FIX_AUTH, "warning"
        )
    ]


@hookimpl
def toolscore_mcp_register_conformance_checks() -> Iterable[ConformanceCheckSpec]:
    yield ConformanceCheckSpec(
        "http-protocol-version",
        _protocol_version,
        summary="an unsupported MCP-Protocol-Version header is answered 400",
        needs="http",
        since="2025-06-18",
        order=60,
    )
    yield ConformanceCheckSpec(
        "http-origin",
        _origin,
        summary="a foreign Origin is refused (403)",
        needs="http",
        since="2025-03-26",
        order=70,
    )
    yield ConformanceCheckSpec(
        "http-auth-metadata",
        _auth_metadata,
        summary="a 401 points to protected-resource metadata (WWW-Authenticate resource_metadata)",
        needs="http",
        since="2025-06-18",
        order=80,
    )
