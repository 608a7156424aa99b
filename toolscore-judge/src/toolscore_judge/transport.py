"""One JSON POST with bounded retries, on the standard library only.

Rate limits (429), overloads and server errors (5xx, 408, 409), timeouts and dropped
connections are retried up to ``max_retries`` times with exponential backoff; a server's
``Retry-After`` (or ``retry-after-ms``) is honoured but never waited beyond ``max_wait``.
Anything else fails at once. The worst case is therefore bounded:
``(max_retries + 1) * timeout + max_retries * max_wait`` seconds; nothing hangs.
"""

from __future__ import annotations

import email.utils
import http.client
import json
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


def post_json(
    url: str,
    body: Mapping[str, Any],
    *,
    headers: Mapping[str, str],
    timeout: float,
    policy: RetryPolicy,
    sleep: Callable[[float], None] = time.sleep,
) -> Any:
    """POST ``body`` as JSON to ``url`` and return the decoded JSON answer.

    :raises JudgeRequestError: an HTTP error status, a transport failure after the retries,
        or an answer that is not JSON. The message names the URL, never the key.
    """
    data = json.dumps(body).encode("utf-8")
    request_headers = {"Content-Type": "application/json", "User-Agent": _USER_AGENT, **headers}
    attempts = policy.max_retries + 1
    for attempt in range(attempts):
        final = attempt == attempts - 1
        request = urllib.request.Request(url, data=data, headers=request_headers, method="POST")
        retry_after: float | None = None
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            try:
                detail = _api_message(exc.read())
            except (OSError, http.client.HTTPException):
                detail = exc.reason if isinstance(exc.reason, str) else ""
            if exc.code not in RETRY_STATUSES or final:
                tries = f" after {attempt + 1} attempts" if attempt else ""
                raise JudgeRequestError(
                    f"HTTP {exc.code} from {url}{tries}: {detail or exc.reason}",
                    status=exc.code,
                    attempts=attempt + 1,
                ) from None
            retry_after = retry_after_seconds(exc.headers)
        except ValueError as exc:  # an unusable URL: retrying cannot help
            raise JudgeRequestError(f"cannot send a request to {url!r}: {exc}") from None
        except (OSError, http.client.HTTPException) as exc:
            # OSError covers URLError, timeouts, refused and reset connections.
            if final:
                what = (
                    f"no answer within {timeout:g}s"
                    if _reason(exc) == "timed out"
                    else f"request failed ({_reason(exc)})"
                )
                tries = f" after {attempt + 1} attempts" if attempt else ""
                raise JudgeRequestError(f"{what} from {url}{tries}", attempts=attempt + 1) from None
        else:
            try:
                return json.loads(raw)
            except ValueError:
                raise JudgeRequestError(
                    f"the answer from {url} is not JSON: {_api_message(raw)}", attempts=attempt + 1
                ) from None
        sleep(policy.delay(attempt, retry_after))
    raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises
