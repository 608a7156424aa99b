"""One client surface over both majors of the official ``mcp`` SDK, 1.x and 2.x.

``toolscore-mcp`` accepts ``mcp>=1.23,<3`` so that it never forces a major on the user's
project. The majors differ exactly where the client reaches below ``ClientSession``:

* raw requests: 2.x runs the session over a ``JSONRPCDispatcher`` whose ``send_raw_request``
  returns the ``result`` dict as the server sent it. 1.x has only ``send_request``, which
  validates the result into a model the caller picks; we pick one that keeps the dict as is.
* protocol types: the separate ``mcp_types`` package (2.x) or ``mcp.types`` (1.x).
* HTTP: the transports use ``httpx2`` (2.x) or ``httpx`` (1.x); ``streamable_http_client``
  takes a ready client (2.x, 1.24+), 1.23 has only ``streamablehttp_client`` (headers and
  timeouts).

Which major is installed is told by what its ``ClientSession`` accepts (a ``dispatcher``),
never by the version string. Nothing here imports the SDK at module level; :func:`load` does,
through :func:`toolscore_mcp.client.sdk.load_client_modules`.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from types import ModuleType
from typing import Any, Protocol

__all__ = [
    "CONNECTION_CLOSED",
    "ConnectionLost",
    "RawSession",
    "error_code",
    "http_library",
    "is_connection_lost",
    "load",
    "open_session",
    "streamable_http",
    "types_module",
    "uses_dispatcher",
]

#: The read timeout for HTTP response streams: a server may hold one open while it works.
_STREAM_READ_TIMEOUT = 300.0
#: JSON-RPC code both majors use for "the connection closed under the request".
CONNECTION_CLOSED = -32000

MessageHandler = Callable[[Any], Awaitable[None]]


class ConnectionLost(Exception):
    """A request sent after the transport went away.

    1.x lets anyio's stream errors out of ``send_request`` then; 2.x answers with an error
    coded ``CONNECTION_CLOSED``. This carries that code, so callers see one contract.
    """

    code = CONNECTION_CLOSED


class RawSession(Protocol):
    """A ``ClientSession`` that hands back results as the server sent them."""

    async def initialize(self) -> dict[str, Any]:
        """The handshake; the ``initialize`` result as it looks on the wire (camelCase keys)."""
        ...

    async def request(
        self, method: str, params: Mapping[str, Any] | None, timeout: float
    ) -> dict[str, Any]:
        """One request; the raw ``result`` dict. A timeout raises :class:`TimeoutError` (1.x)
        or the SDK's error with code ``REQUEST_TIMEOUT`` (2.x)."""
        ...


def load() -> None:
    """Import the SDK's client side cheaply; call before anything else in this module."""
    from toolscore_mcp.client.sdk import load_client_modules

    load_client_modules()


@functools.cache
def uses_dispatcher() -> bool:
    """True for the 2.x layout: ``ClientSession`` runs over a dispatcher with raw requests."""
    load()
    from mcp.client.session import ClientSession

    return "dispatcher" in inspect.signature(ClientSession).parameters


def types_module() -> ModuleType:
    """The protocol models the installed session speaks (``mcp_types`` or ``mcp.types``)."""
    return importlib.import_module("mcp_types" if uses_dispatcher() else "mcp.types")


def http_library() -> ModuleType:
    """The HTTP client library the SDK's transports are built on (``httpx2`` or ``httpx``)."""
    return importlib.import_module("httpx2" if uses_dispatcher() else "httpx")


def error_code(exc: BaseException) -> int | None:
    """The JSON-RPC error code an SDK error carries: ``exc.code`` (2.x ``MCPError``) or
    ``exc.error.code`` (1.x ``McpError``); None for anything else."""
    code = getattr(exc, "code", None)
    if code is None:
        code = getattr(getattr(exc, "error", None), "code", None)
    return code if isinstance(code, int) and not isinstance(code, bool) else None


#: How the SDK words the ``CONNECTION_CLOSED`` errors it makes up itself (stdio and SSE say
#: "Connection closed"; streamable HTTP names the stream that failed).
_SDK_CLOSED_MESSAGES = ("Connection closed", "SSE stream ")


def is_connection_lost(exc: BaseException) -> bool:
    """Did the connection end under the request, as opposed to the server answering with an
    error that happens to use code -32000 (the JSON-RPC range for server errors)?

    Both carry ``CONNECTION_CLOSED``; only the SDK's own errors carry its wording. A server
    that answers exactly "Connection closed" is taken at its word.
    """
    if error_code(exc) != CONNECTION_CLOSED:
        return False
    message = getattr(getattr(exc, "error", None), "message", None)
    if not isinstance(message, str):
        message = getattr(exc, "message", None)
    if not isinstance(message, str):
        message = str(exc)
    return message.startswith(_SDK_CLOSED_MESSAGES)


def _wire(model: Any) -> dict[str, Any]:
    """A protocol model as JSON on the wire: aliases (camelCase), no unset optionals."""
    dumped: dict[str, Any] = model.model_dump(by_alias=True, mode="json", exclude_none=True)
    return dumped


def _roots_callback(roots: Sequence[Mapping[str, str]]) -> Callable[[Any], Awaitable[Any]]:
    """The session's ``list_roots_callback``: always ``roots`` (possibly empty).

    Passing a callback at all makes the SDK declare the roots capability, which is what we
    want even with nothing to share: some servers expose tools only to clients that have it.
    """
    payload = {"roots": [dict(root) for root in roots]}

    async def list_roots(context: Any) -> Any:
        return types_module().ListRootsResult.model_validate(payload)

    return list_roots


@contextlib.asynccontextmanager
async def open_session(
    read: Any,
    write: Any,
    *,
    message_handler: MessageHandler,
    roots: Sequence[Mapping[str, str]],
    client_name: str,
    client_version: str,
) -> AsyncIterator[RawSession]:
    """A running ``ClientSession`` over a transport's streams, not yet initialised."""
    from mcp.client.session import ClientSession

    options: dict[str, Any] = {
        "message_handler": message_handler,
        "list_roots_callback": _roots_callback(roots),
        "client_info": types_module().Implementation(name=client_name, version=client_version),
    }
    if uses_dispatcher():
        from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher

        dispatcher = JSONRPCDispatcher(read, write)
        async with ClientSession(dispatcher=dispatcher, **options) as session:
            yield _DispatcherSession(session, dispatcher)
    else:
        async with ClientSession(read, write, **options) as session:
            yield _ValidatingSession(session)


class _DispatcherSession:
    """mcp 2.x: raw requests go straight to the session's dispatcher.

    The dispatcher skips the session's stamping, so the protocol-version header that the
    streamable HTTP transport wants on every request after the handshake is added here.
    """

    def __init__(self, session: Any, dispatcher: Any) -> None:
        self._session = session
        self._dispatcher = dispatcher
        self._headers: dict[str, str] = {}

    async def initialize(self) -> dict[str, Any]:
        from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER

        result = _wire(await self._session.initialize())
        version = self._session.protocol_version or ""
        self._headers = {MCP_PROTOCOL_VERSION_HEADER: version} if version else {}
        return result

    async def request(
        self, method: str, params: Mapping[str, Any] | None, timeout: float
    ) -> dict[str, Any]:
        opts: dict[str, Any] = {"timeout": timeout}
        if self._headers:
            opts["headers"] = dict(self._headers)
        result: dict[str, Any] = await self._dispatcher.send_raw_request(method, params, opts)
        return result


class _ValidatingSession:
    """mcp 1.x: raw requests through ``send_request`` with permissive request/result models.

    ``send_request`` only dumps the request model and validates the ``result`` dict into the
    result type, so a model with free-form ``params`` and a root model over a dict carry both
    ways unchanged (``exclude_none`` in the dump drops a missing ``params``, not ``None``
    values inside it). The transport handles the protocol-version header itself.
    """

    def __init__(self, session: Any) -> None:
        self._session = session

    async def initialize(self) -> dict[str, Any]:
        return _wire(await self._session.initialize())

    async def request(
        self, method: str, params: Mapping[str, Any] | None, timeout: float
    ) -> dict[str, Any]:
        import anyio

        request_model, result_model = _raw_models()
        request = request_model(method=method, params=dict(params) if params is not None else None)
        # Our own deadline rather than the SDK's: its timeout is an McpError with an HTTP
        # status (408) for a code, indistinguishable from a server's error answer.
        try:
            with anyio.fail_after(timeout):
                result = await self._session.send_request(request, result_model)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, anyio.EndOfStream):
            raise ConnectionLost("Connection closed") from None
        return dict(result.root)


@functools.cache
def _raw_models() -> tuple[type[Any], type[Any]]:
    """A request model for any method and a result model that keeps any dict (built once,
    on first use: pydantic comes with the SDK)."""
    from pydantic import BaseModel, RootModel

    class RawRequest(BaseModel):
        method: str
        params: dict[str, Any] | None = None

    class RawResult(RootModel[dict[str, Any]]):
        pass

    return RawRequest, RawResult


@contextlib.asynccontextmanager
async def streamable_http(
    url: str, headers: Mapping[str, str], timeout: float
) -> AsyncIterator[tuple[Any, Any]]:
    """The streamable HTTP transport's read and write streams, with our headers and timeout.

    1.x yields a third item (a session-id getter) that the client does not need.
    """
    # Any: which of the two entry points exists depends on the installed SDK.
    transport: Any = importlib.import_module("mcp.client.streamable_http")
    read_timeout = max(timeout, _STREAM_READ_TIMEOUT)
    connect = getattr(transport, "streamable_http_client", None)
    if connect is None:  # mcp 1.23: only the deprecated spelling, which builds the client
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            legacy = transport.streamablehttp_client(
                url, headers=dict(headers), timeout=timeout, sse_read_timeout=read_timeout
            )
        async with legacy as streams:
            yield streams[0], streams[1]
        return
    http = http_library()
    client = http.AsyncClient(
        headers=dict(headers), timeout=http.Timeout(timeout, read=read_timeout)
    )
    async with client, connect(url, http_client=client) as streams:
        yield streams[0], streams[1]
