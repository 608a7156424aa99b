"""A real HTTP server on 127.0.0.1 that answers every POST with the next canned response.

The SDK tests point the real provider clients (openai, anthropic, google-genai) at it, so the
objects under test are built by the SDKs' own HTTP and parsing code from the wire bodies kept
in ``fixtures/``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def json_body(payload: Any) -> tuple[str, bytes]:
    return "application/json", json.dumps(payload).encode()


def sse_body(events: list[Any], *, named: bool = False, done: bool = False) -> tuple[str, bytes]:
    """Server-sent events: ``data: <json>`` per event (``event: <type>`` first when named)."""
    chunks = []
    for event in events:
        head = f"event: {event['type']}\n" if named else ""
        chunks.append(f"{head}data: {json.dumps(event)}\n\n")
    if done:
        chunks.append("data: [DONE]\n\n")
    return "text/event-stream", "".join(chunks).encode()


@contextmanager
def replay(responses: list[tuple[str, bytes]]) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Serve ``responses`` in order; yields the base URL and the list of received requests."""
    queue = list(responses)
    received: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length)
            received.append({"path": self.path, "body": json.loads(body or b"{}")})
            content_type, payload = queue.pop(0)
            self.send_response(200)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", received
    finally:
        server.shutdown()
        server.server_close()
