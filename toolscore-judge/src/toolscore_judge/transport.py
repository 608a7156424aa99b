"""One JSON POST with bounded retries, on the standard library only.

Rate limits (429), overloads and server errors (5xx, 408, 409), timeouts and dropped
connections are retried up to ``max_retries`` times with exponential backoff; a server's
``Retry-After`` (or ``retry-after-ms``) is honoured but never waited beyond ``max_wait``.
Anything else fails at once.

Bounds that hold whatever the server does:

- **Time.** One request, connection, reading and every retry and wait included, ends within
  ``total`` seconds (``JudgeConfig.total_timeout``; by default
  ``(max_retries + 1) * timeout + max_retries * max_wait``). ``timeout`` only bounds each
  socket operation, which a server sending one byte per second would never trip, so a timer
  shuts the connection down when the total deadline passes, mid-headers or mid-body.
- **Size.** An answer larger than ``max_bytes`` is refused (not retried) and never held in
  memory whole; an error body is read only up to a few kilobytes.
- **Redirects are refused.** A 3xx is an error naming the ``Location``: following it would send
  the API key (``Authorization``, ``x-api-key``, ``x-goog-api-key``) to an address the user never
  configured, and a POST redirected by 301/302/303 becomes a GET anyway. Point the base URL at
  the final address instead.
"""

from __future__ import annotations

import contextlib
import email.utils
import http.client
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from datetime import datetime, timezone
from typing import Any, Final, Protocol

import attrs

__all__ = ["JudgeRequestError", "RetryPolicy", "post_json"]

RETRY_STATUSES: Final = frozenset({408, 409, 429}) | frozenset(range(500, 600))
_USER_AGENT: Final = "toolscore-judge"
#: Default cap on an answer's size: a verdict batch is a few kilobytes.
DEFAULT_MAX_BYTES: Final = 4 * 1024 * 1024
#: How much of an error body is read for its message.
_ERROR_BODY_BYTES: Final = 16 * 1024
_CHUNK: Final = 64 * 1024


class JudgeRequestError(RuntimeError):
    """A request to a judge's API failed for good (after any retries)."""

    def __init__(self, message: str, *, status: int | None = None, attempts: int = 1) -> None:
        super().__init__(message)
        self.status = status
        self.attempts = attempts


@attrs.frozen
class RetryPolicy:
    """How often and how long to retry."""

    max_retries: int = 2
    #: First delay in seconds; doubles each retry.
    backoff: float = 0.5
    #: Longest single delay, also the cap on ``Retry-After``.
    max_wait: float = 20.0

    def delay(self, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait before retry number ``attempt + 1`` (``attempt`` counts from 0)."""
        wait = retry_after if retry_after is not None else self.backoff * (2**attempt)
        return min(max(wait, 0.0), self.max_wait)


class _Headers(Protocol):
    def get(self, name: str, default: None = None) -> str | None: ...


def retry_after_seconds(headers: _Headers | Mapping[str, str] | None) -> float | None:
    """The server's requested delay from ``retry-after-ms`` or ``Retry-After``, if any."""
    if not headers:
        return None
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return float(millis) / 1000.0
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return (when - datetime.now(timezone.utc)).total_seconds()


def _api_message(raw: bytes) -> str:
    """The provider's own error message from an error body, else a short excerpt of it."""
    text = raw.decode("utf-8", "replace").strip()
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, list) and data:
        data = data[0]
    if isinstance(data, dict):
        error = data.get("error", data)
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return str(error["message"])
        if isinstance(error, str):
            return error
    flat = " ".join(text.split())
    return flat[:200] + ("…" if len(flat) > 200 else "")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, urllib.error.URLError) and not isinstance(exc, urllib.error.HTTPError):
        exc = exc.reason if isinstance(exc.reason, BaseException) else exc
    if isinstance(exc, TimeoutError):
        return "timed out"
    return str(exc) or type(exc).__name__


class _Watchdog:
    """Shuts the connection of one attempt down when the total deadline passes.

    ``shutdown`` wakes a ``recv`` blocked in another thread, so a dripping server cannot keep
    a read going past the deadline, whatever the per-operation socket timeout is.
    """

    def __init__(self, seconds: float) -> None:
        self.expired = False
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()
        self._timer = threading.Timer(max(seconds, 0.0), self._expire)
        self._timer.daemon = True
        self._timer.start()

    def attach(self, sock: socket.socket | None) -> None:
        with self._lock:
            self._sock = sock
            if self.expired:
                self._shutdown()

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            self._shutdown()

    def _shutdown(self) -> None:
        if self._sock is not None:
            with contextlib.suppress(OSError):  # already closed: nothing left to cut
                self._sock.shutdown(socket.SHUT_RDWR)

    def cancel(self) -> None:
        self._timer.cancel()


def _watched(base: type[http.client.HTTPConnection], watchdog: _Watchdog) -> Any:
    """``base`` with its socket handed to ``watchdog`` as soon as it is connected."""

    class Watched(base):  # type: ignore[valid-type,misc]
        def connect(self) -> None:
            super().connect()
            watchdog.attach(self.sock)

    return Watched


class _RefuseRedirects(urllib.request.HTTPRedirectHandler):
    """Turns every 3xx into an :class:`urllib.error.HTTPError` instead of following it."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _opener(watchdog: _Watchdog) -> urllib.request.OpenerDirector:
    """An opener that refuses redirects and lets ``watchdog`` cut the connection."""

    class HTTP(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(_watched(http.client.HTTPConnection, watchdog), req)

    class HTTPS(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            connection = _watched(http.client.HTTPSConnection, watchdog)
            # What HTTPSHandler.https_open passes (check_hostname exists before 3.12 only).
            options: dict[str, Any] = {"context": getattr(self, "_context", None)}
            if getattr(self, "_check_hostname", None) is not None:
                options["check_hostname"] = self._check_hostname  # type: ignore[attr-defined]
            return self.do_open(connection, req, **options)

    return urllib.request.build_opener(_RefuseRedirects, HTTP, HTTPS)


class _TooLarge(Exception):
    pass


def _read_capped(response: Any, limit: int) -> bytes:
    """The body, read a chunk at a time; :class:`_TooLarge` past ``limit`` bytes."""
    length = response.headers.get("Content-Length")
    if length and length.strip().isdigit() and int(length) > limit:
        raise _TooLarge
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = response.read1(_CHUNK)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > limit:
            raise _TooLarge
        chunks.append(chunk)


def default_total(timeout: float, policy: RetryPolicy) -> float:
    """The documented worst case: every attempt times out and every wait is the longest."""
    return (policy.max_retries + 1) * timeout + policy.max_retries * policy.max_wait


def post_json(
    url: str,
    body: Mapping[str, Any],
    *,
    headers: Mapping[str, str],
    timeout: float,
    policy: RetryPolicy,
    total: float | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    sleep: Callable[[float], None] = time.sleep,
) -> Any:
    """POST ``body`` as JSON to ``url`` and return the decoded JSON answer.

    ``timeout`` bounds each socket operation; ``total`` (default :func:`default_total`)
    bounds the whole call, retries and waits included; ``max_bytes`` bounds the answer.

    :raises JudgeRequestError: an HTTP error status (a redirect included), a transport failure
        after the retries, the deadline, an answer over ``max_bytes``, or an answer that is not
        JSON. The message names the URL, never the key.
    """
    budget = default_total(timeout, policy) if total is None else total
    deadline = time.monotonic() + budget
    data = json.dumps(body).encode("utf-8")
    request_headers = {"Content-Type": "application/json", "User-Agent": _USER_AGENT, **headers}
    attempts = policy.max_retries + 1
    for attempt in range(attempts):
        final = attempt == attempts - 1
        request = urllib.request.Request(url, data=data, headers=request_headers, method="POST")
        retry_after: float | None = None
        cause: str | None = None
        remaining = deadline - time.monotonic()
        watchdog = _Watchdog(remaining)
        tries = f" after {attempt + 1} attempts" if attempt else ""
        try:
            with _opener(watchdog).open(request, timeout=max(min(timeout, remaining), 0.001)) as r:
                raw = _read_capped(r, max_bytes)
        except _TooLarge:
            raise JudgeRequestError(
                f"the answer from {url} is larger than {max_bytes} bytes", attempts=attempt + 1
            ) from None
        except urllib.error.HTTPError as exc:
            if watchdog.expired and not 300 <= exc.code < 400:
                raise _deadline_error(url, budget, attempt) from None
            cause = _retryable_http_error(exc, url, attempt, final=final)
            retry_after = retry_after_seconds(exc.headers)
        except ValueError as exc:  # an unusable URL: retrying cannot help
            raise JudgeRequestError(f"cannot send a request to {url!r}: {exc}") from None
        except (OSError, http.client.HTTPException) as exc:
            # OSError covers URLError, timeouts, refused and reset connections.
            if watchdog.expired:
                raise _deadline_error(url, budget, attempt) from None
            cause = _reason(exc)
            if final:
                what = (
                    f"no answer within {timeout:g}s"
                    if _reason(exc) == "timed out"
                    else f"request failed ({_reason(exc)})"
                )
                raise JudgeRequestError(f"{what} from {url}{tries}", attempts=attempt + 1) from None
        else:
            if watchdog.expired:  # the cut connection read as an early end of the body
                raise _deadline_error(url, budget, attempt)
            try:
                return json.loads(raw)
            except ValueError:
                raise JudgeRequestError(
                    f"the answer from {url} is not JSON: {_api_message(raw)}", attempts=attempt + 1
                ) from None
        finally:
            watchdog.cancel()
        wait = policy.delay(attempt, retry_after)
        if time.monotonic() + wait >= deadline:
            raise _deadline_error(url, budget, attempt, cause)
        sleep(wait)
    raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises


def _retryable_http_error(
    exc: urllib.error.HTTPError, url: str, attempt: int, *, final: bool
) -> str:
    """The cause line of an HTTP error worth retrying; raises for any other (a redirect, a
    status that retrying cannot fix, or the last attempt)."""
    try:
        detail = _api_message(exc.read(_ERROR_BODY_BYTES))
    except (OSError, http.client.HTTPException):
        detail = exc.reason if isinstance(exc.reason, str) else ""
    if 300 <= exc.code < 400:
        location = exc.headers.get("Location") if exc.headers else None
        raise JudgeRequestError(
            f"HTTP {exc.code} from {url}: redirects are not followed, so the API key "
            f"is never sent to another address (Location: {location or 'none'}); "
            "point the base URL at the final address",
            status=exc.code,
            attempts=attempt + 1,
        ) from None
    if exc.code not in RETRY_STATUSES or final:
        tries = f" after {attempt + 1} attempts" if attempt else ""
        raise JudgeRequestError(
            f"HTTP {exc.code} from {url}{tries}: {detail or exc.reason}",
            status=exc.code,
            attempts=attempt + 1,
        ) from None
    return f"HTTP {exc.code}: {detail or exc.reason}"


def _deadline_error(
    url: str, budget: float, attempt: int, cause: str | None = None
) -> JudgeRequestError:
    tries = f" after {attempt + 1} attempts" if attempt else ""
    last = f" (last: {cause})" if cause else ""
    return JudgeRequestError(
        f"no complete answer within the total deadline of {budget:g}s from {url}{tries}{last}",
        attempts=attempt + 1,
    )
