"""A real HTTP server on 127.0.0.1 that answers like the three LLM APIs, and test helpers.

``FakeLLM`` speaks OpenAI chat completions (``POST /v1/chat/completions``), Anthropic
messages (``POST /v1/messages``) and Gemini ``generateContent``
(``POST /v1beta/models/{model}:generateContent``), checks each API's auth header, and by
default judges the pairs it finds in the prompt: 1.0 when the tool names are equal, 0.5
otherwise. Tests queue :class:`Reply` objects to script rate limits, server errors, slow
answers and garbage.
"""

from __future__ import annotations

import json
import re
import threading
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import attrs
from toolscore.model import ToolCall

API_KEY = "sk-test-0123456789"
KEY_ENVS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY")
BASE_ENVS = ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "GOOGLE_GEMINI_BASE_URL")
PROXY_ENVS = ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY")
MODELS = {
    "openai": "gpt-4o-mini",
    "anthropic": "claude-3-5-haiku-latest",
    "gemini": "gemini-2.0-flash",
    "openai_compatible": "llama3.1",
}
PROVIDERS = tuple(MODELS)

_PAIR = re.compile(r'Expected call: tool "([^"]*)".*?Actual call: tool "([^"]*)"', re.DOTALL)


@attrs.define
class Reply:
    """One scripted answer. ``text`` is wrapped in the provider's format; ``raw`` is sent as is."""

    status: int = 200
    text: str | None = None
    raw: bytes | None = None
    error: str | None = None
    headers: dict[str, str] = attrs.field(factory=dict)
    delay: float = 0.0


@attrs.define
class Seen:
    """A request the server received."""

    provider: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    prompt: str
    system: str


def default_answer(prompt: str) -> str:
    """Judge like a tiny model: same tool name 1.0, another name 0.5."""
    pairs = _PAIR.findall(prompt)
    if "## Pair " in prompt:
        return json.dumps(
            {
                "verdicts": [
                    {"index": i, "score": 1.0 if e == a else 0.5, "explanation": f"{e} vs {a}"}
                    for i, (e, a) in enumerate(pairs)
                ]
            }
        )
    (e, a) = pairs[0]
    return json.dumps({"score": 1.0 if e == a else 0.5, "explanation": f"single {e} vs {a}"})


def _route(path: str) -> str | None:
    if path.endswith("/chat/completions"):
        return "openai"
    if path.endswith("/v1/messages"):
        return "anthropic"
    if path.endswith(":generateContent") and "/v1beta/models/" in path:
        return "gemini"
    return None


def _wrap(provider: str, text: str) -> dict[str, Any]:
    if provider == "openai":
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
        }
    if provider == "anthropic":
        return {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
        }
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}
        ]
    }


def _error_body(provider: str, status: int, message: str) -> dict[str, Any]:
    if provider == "anthropic":
        return {"type": "error", "error": {"type": "api_error", "message": message}}
    if provider == "gemini":
        return {"error": {"code": status, "message": message, "status": "UNAVAILABLE"}}
    return {"error": {"message": message, "type": "server_error", "code": str(status)}}


def _prompt(provider: str, body: dict[str, Any]) -> tuple[str, str]:
    if provider == "openai":
        messages = body["messages"]
        return messages[0]["content"], messages[-1]["content"]
    if provider == "anthropic":
        return body["system"], body["messages"][0]["content"]
    return body["systemInstruction"]["parts"][0]["text"], body["contents"][0]["parts"][0]["text"]


def _authorised(provider: str, headers: dict[str, str], key: str) -> bool:
    if provider == "openai":
        return headers.get("authorization") == f"Bearer {key}"
    if provider == "anthropic":
        return headers.get("x-api-key") == key and bool(headers.get("anthropic-version"))
    return headers.get("x-goog-api-key") == key


class FakeLLM:
    """The server; ``url`` is ``http://127.0.0.1:<port>``."""

    def __init__(self) -> None:
        self.seen: list[Seen] = []
        self.replies: deque[Reply] = deque()
        self.answer: Callable[[str], str] = default_answer
        self.api_key = API_KEY
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        self.running = True

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    def queue(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    def stop(self) -> None:
        if self.running:
            self.running = False
            self.stopping.set()
            self.httpd.shutdown()
            self.httpd.server_close()

    def _next(self) -> Reply | None:
        with self._lock:
            return self.replies.popleft() if self.replies else None


def _handler(server: FakeLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def _send(self, status: int, payload: bytes, headers: dict[str, str]) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
            except OSError:
                pass  # the client gave up (timeout); nothing to do

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            provider = _route(self.path)
            if provider is None:
                self._send(404, b'{"error": {"message": "no such endpoint"}}', {})
                return
            body = json.loads(raw)
            headers = {k.lower(): v for k, v in self.headers.items()}
            system, prompt = _prompt(provider, body)
            server.seen.append(Seen(provider, self.path, headers, body, prompt, system))
            if not _authorised(provider, headers, server.api_key):
                payload = json.dumps(_error_body(provider, 401, "invalid api key")).encode()
                self._send(401, payload, {})
                return
            reply = server._next() or Reply()
            if reply.delay and server.stopping.wait(reply.delay):
                return
            if reply.raw is not None:
                payload = reply.raw
            elif reply.status >= 400:
                message = reply.error or f"scripted {reply.status}"
                payload = json.dumps(_error_body(provider, reply.status, message)).encode()
            else:
                text = reply.text if reply.text is not None else server.answer(prompt)
                payload = json.dumps(_wrap(provider, text)).encode()
            self._send(reply.status, payload, reply.headers)

    return Handler


def calls(*specs: str | tuple[str, dict[str, Any]]) -> list[ToolCall]:
    """``calls("a", ("b", {"x": 1}))`` → ToolCalls."""
    out = []
    for spec in specs:
        tool, args = (spec, {}) if isinstance(spec, str) else spec
        out.append(ToolCall(tool=tool, args=args))
    return out


@attrs.frozen
class Pairs:
    """An alignment as core hands it to the judge: only ``pairs`` is read."""

    pairs: tuple[tuple[int, int], ...]
