"""The sandbox's loopback web server: a few fixed pages on 127.0.0.1, for URL tools.

:class:`HttpService` serves them from a thread until :meth:`HttpService.stop`; anything else is
a 404 (``MISSING_PATH`` is the path tools are given when a missing page is wanted).
"""

from __future__ import annotations

import selectors
import socket
import threading
import urllib.parse
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from toolscore_mcp.sandbox.files import NOTES, json_bytes

__all__ = ["MISSING_PATH", "HttpService"]

_HTML_INDEX = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Toolscore sandbox</title></head>
<body>
<h1>Toolscore sandbox</h1>
<p>This page is served by the toolscore sandbox on the loopback interface.</p>
<ul>
<li><a href="/page.html">Another page</a></li>
<li><a href="/data.json">Data (JSON)</a></li>
<li><a href="/notes.txt">Notes (text)</a></li>
<li><a href="/robots.txt">robots.txt</a></li>
</ul>
</body>
</html>
"""

_HTML_PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Sandbox page</title></head>
<body>
<h1>Sandbox page</h1>
<p>A second page of the toolscore sandbox. <a href="/">Back to the start page</a>.</p>
</body>
</html>
"""

_HTML_TYPE = "text/html; charset=utf-8"
_TEXT_TYPE = "text/plain; charset=utf-8"
_NOT_FOUND_BODY = b"404 Not Found: the toolscore sandbox has no such page.\n"

#: Path -> (content type, body). Everything else is a 404.
_ROUTES: Mapping[str, tuple[str, bytes]] = {
    "/": (_HTML_TYPE, _HTML_INDEX.encode()),
    "/index.html": (_HTML_TYPE, _HTML_INDEX.encode()),
    "/page.html": (_HTML_TYPE, _HTML_PAGE.encode()),
    "/robots.txt": (_TEXT_TYPE, b"User-agent: *\nAllow: /\n"),
    "/data.json": ("application/json", json_bytes()),
    "/notes.txt": (_TEXT_TYPE, NOTES.encode()),
}
#: A path :meth:`Sandbox.url_for` maps "missing" to; never routed.
MISSING_PATH = "/missing"


class _Handler(BaseHTTPRequestHandler):
    """Serves :data:`_ROUTES` for GET and HEAD, silently (no access log on stderr)."""

    server_version = "toolscore-sandbox"
    sys_version = ""

    def do_GET(self) -> None:
        """Answer with headers and body."""
        self._respond(with_body=True)

    def do_HEAD(self) -> None:
        """Answer with the same headers as GET, no body."""
        self._respond(with_body=False)

    def _respond(self, *, with_body: bool) -> None:
        """Look the path (without query or fragment) up in the routes; 404 when absent."""
        path = urllib.parse.urlsplit(self.path).path or "/"
        route = _ROUTES.get(path)
        status, content_type, body = (
            (200, *route) if route is not None else (404, _TEXT_TYPE, _NOT_FOUND_BODY)
        )
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if with_body:
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet: a test run's stderr belongs to the report."""


class _QuietServer(ThreadingHTTPServer):
    """A threading HTTP server that never prints tracebacks (clients hanging up early)."""

    daemon_threads = True
    request_queue_size = 64  # the default 5 drops bursts of parallel connects (1 s SYN retry)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Ignore per-request errors; the client sees a closed connection."""


class HttpService:
    """The loopback server plus the thread serving it.

    The loop waits on the listening socket and a wake-up socket, so :meth:`stop` returns
    at once instead of after a polling interval.
    """

    def __init__(self) -> None:
        self._server = _QuietServer(("127.0.0.1", 0), _Handler)
        self._wake_reader, self._wake_writer = socket.socketpair()
        self._thread = threading.Thread(
            target=self._serve, name="toolscore-sandbox-http", daemon=True
        )
        self._stopped = False
        self._thread.start()

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``, without a trailing slash."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def _serve(self) -> None:
        """Handle requests until the wake-up socket becomes readable."""
        with selectors.DefaultSelector() as selector:
            selector.register(self._server.socket, selectors.EVENT_READ)
            selector.register(self._wake_reader, selectors.EVENT_READ)
            while True:
                ready = selector.select()
                if any(key.fileobj is self._wake_reader for key, _ in ready):
                    return
                self._server.handle_request()

    def stop(self) -> None:
        """Stop serving and close the listening socket (new connections are refused)."""
        if self._stopped:
            return
        self._stopped = True
        self._wake_writer.send(b"x")
        self._thread.join(timeout=5)
        self._server.server_close()
        self._wake_reader.close()
        self._wake_writer.close()
