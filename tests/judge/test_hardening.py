"""Hostile judge servers: redirects to another origin, dripping answers, huge and garbled ones.

Every server is real (``http.server`` or a raw socket server in a thread on 127.0.0.1); the
judge is run the way ``evaluate_trace(judge=...)`` runs it, and through the real CLI for the
console warning.
"""

from __future__ import annotations

import json
import socketserver
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import toolscore_judge.plugin
from click.testing import CliRunner
from judge_support import API_KEY, MODELS, PROVIDERS, FakeLLM, Reply, calls
from toolscore.judging import run_judge
from toolscore.plugins import create_plugin_manager
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore_judge.config import JudgeConfig

EXPECTED = calls(("search", {"q": "x"}), ("open", {"id": 1}), ("save", {"path": "/a"}))
ACTUAL = calls(("search", {"q": "x"}), ("open", {"id": 1}), ("store", {"path": "/a"}))

BASE_ENV = {
    "openai": ("OPENAI_BASE_URL", "/v1"),
    "anthropic": ("ANTHROPIC_BASE_URL", ""),
    "gemini": ("GOOGLE_GEMINI_BASE_URL", ""),
}


class Server:
    """A ``socketserver`` in a daemon thread; ``url`` is ``http://127.0.0.1:<port>``."""

    def __init__(self, handler: type[socketserver.BaseRequestHandler]) -> None:
        self.stopping = threading.Event()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.httpd.owner = self  # type: ignore[attr-defined]
        threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        ).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_port}"

    def stop(self) -> None:
        self.stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()


def owner(handler: socketserver.BaseRequestHandler) -> Any:
    return handler.server.owner  # type: ignore[attr-defined]


class Recorder(BaseHTTPRequestHandler):
    """Records the headers of every request, whatever the method, and answers 200."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _record(self) -> None:
        owner(self).received.append({k.lower(): v for k, v in self.headers.items()})
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        payload = b'{"choices": [{"message": {"content": "[]"}}]}'
        self.send_response(200)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = do_PUT = _record


class Redirector(BaseHTTPRequestHandler):
    """Answers every POST with ``owner.status`` to the same path on ``owner.target``."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        server = owner(self)
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        server.hits += 1
        self.send_response(server.status)
        self.send_header("Location", server.target + self.path)
        self.send_header("Content-Length", "0")
        self.end_headers()


class Dripper(socketserver.StreamRequestHandler):
    """Reads the request, then sends a valid answer one byte per second.

    ``owner.head_first``: send status line and headers at once and drip only the body. At most
    ``owner.limit`` bytes are dripped, so that even a client without a deadline finishes.
    """

    def handle(self) -> None:
        server = owner(self)
        length = 0
        while line := self.rfile.readline():
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
            if line in (b"\r\n", b"\n"):
                break
        self.rfile.read(length)
        body = b'{"choices": [{"message": {"content": "[]"}}]}'
        head = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body)
        try:
            if server.head_first:
                self.wfile.write(head)
                self.wfile.flush()
            for byte in (body if server.head_first else head + body)[: server.limit]:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                if server.stopping.wait(1.0):
                    return
        except OSError:
            pass  # the client cut the connection: what the deadline is for


class Flood(BaseHTTPRequestHandler):
    """Answers with ``owner.size`` bytes, with or without a Content-Length."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        server = owner(self)
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        if server.with_length:
            self.send_header("Content-Length", str(server.size))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        chunk = b" " * 4096
        try:
            for _ in range(server.size // len(chunk)):
                self.wfile.write(chunk)
        except OSError:
            pass


@pytest.fixture
def servers() -> Iterator[Callable[[type[socketserver.BaseRequestHandler]], Server]]:
    started: list[Server] = []

    def start(handler: type[socketserver.BaseRequestHandler]) -> Server:
        server = Server(handler)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def judge_at(
    url: str,
    provider: str,
    pm: ToolscorePluginManager,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    **overrides: Any,
) -> dict[str, Any]:
    variable, suffix = BASE_ENV[provider]
    monkeypatch.setenv(variable, url + suffix)
    options: dict[str, Any] = {
        "model": MODELS[provider],
        "api_key": API_KEY,
        "timeout": 1.0,
        "max_retries": 0,
        "cache_dir": str(tmp_path / "cache"),
        **overrides,
    }
    result = run_judge(JudgeConfig(**options), EXPECTED, ACTUAL, None, plugin_manager=pm)
    assert result is not None
    return result


# -- redirects ----------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini"])
def test_a_redirect_to_another_origin_never_receives_the_key(
    provider: str,
    status: int,
    servers: Callable[..., Server],
    judge_pm: ToolscorePluginManager,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    target = servers(Recorder)
    target.received = []  # type: ignore[attr-defined]
    redirector = servers(Redirector)
    redirector.target, redirector.status, redirector.hits = target.url, status, 0  # type: ignore[attr-defined]
    result = judge_at(redirector.url, provider, judge_pm, monkeypatch, tmp_path)
    leaked = [h for h in target.received if API_KEY in " ".join(h.values())]  # type: ignore[attr-defined]
    assert leaked == [], "the key went to the redirect target"
    assert target.received == [], "redirects are refused, not followed"  # type: ignore[attr-defined]
    assert redirector.hits == 1, "a refused redirect is not retried"  # type: ignore[attr-defined]
    assert result["semantic_score"] is None
    assert result["error"].startswith(f"HTTP {status} from {redirector.url}")
    assert "redirects are not followed" in result["error"]
    assert f"Location: {target.url}" in result["error"]
    assert API_KEY not in result["error"]


# -- time ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("head_first", [False, True], ids=["drip-headers", "drip-body"])
def test_a_dripping_server_is_cut_at_the_default_total_bound(
    head_first: bool,
    servers: Callable[..., Server],
    judge_pm: ToolscorePluginManager,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    drip = servers(Dripper)
    drip.head_first, drip.limit = head_first, 8  # type: ignore[attr-defined]
    started = time.monotonic()
    # every read gets a byte within the 1.5 s timeout; only the total bound can stop it:
    # (max_retries + 1) * timeout + max_retries * max_retry_wait = 1.5 s
    result = judge_at(drip.url, "openai", judge_pm, monkeypatch, tmp_path, timeout=1.5)
    elapsed = time.monotonic() - started
    assert 1.4 < elapsed < 2.5, elapsed
    assert result["semantic_score"] is None
    assert result["error"] == (
        f"no complete answer within the total deadline of 1.5s from {drip.url}/v1/chat/completions"
    )


def test_total_timeout_bounds_every_retry_too(
    servers: Callable[..., Server],
    judge_pm: ToolscorePluginManager,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    drip = servers(Dripper)
    drip.head_first, drip.limit = True, 30  # type: ignore[attr-defined]
    started = time.monotonic()
    result = judge_at(
        drip.url,
        "anthropic",
        judge_pm,
        monkeypatch,
        tmp_path,
        timeout=10.0,
        max_retries=3,
        total_timeout=2.0,
    )
    assert time.monotonic() - started < 2.8
    assert result["error"].startswith("no complete answer within the total deadline of 2s from ")


def test_a_retry_wait_that_would_pass_the_deadline_is_not_waited(
    llm: FakeLLM,
    judge_pm: ToolscorePluginManager,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    llm.queue(*[Reply(429, headers={"Retry-After": "30"})] * 3)
    started = time.monotonic()
    result = judge_at(
        llm.url,
        "openai",
        judge_pm,
        monkeypatch,
        tmp_path,
        max_retries=2,
        max_retry_wait=30.0,
        total_timeout=1.0,
    )
    assert time.monotonic() - started < 0.8
    assert len(llm.seen) == 1
    assert result["error"] == (
        f"no complete answer within the total deadline of 1s from {llm.url}/v1/chat/completions "
        "(last: HTTP 429: scripted 429)"
    )


# -- size ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("with_length", [True, False], ids=["content-length", "streamed"])
def test_an_answer_over_the_size_cap_is_refused(
    with_length: bool,
    servers: Callable[..., Server],
    judge_pm: ToolscorePluginManager,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    flood = servers(Flood)
    flood.size, flood.with_length = 4096 * 64, with_length  # type: ignore[attr-defined]
    result = judge_at(
        flood.url, "openai", judge_pm, monkeypatch, tmp_path, max_response_bytes=10_000
    )
    assert result["semantic_score"] is None
    assert result["error"] == (
        f"the answer from {flood.url}/v1/chat/completions is larger than 10000 bytes"
    )


# -- garbage ------------------------------------------------------------------------------------


@pytest.mark.parametrize("provider", PROVIDERS)
def test_garbage_answers_give_no_score_and_an_error_not_zero(
    provider: str, llm: FakeLLM, make_config: Callable[..., JudgeConfig], judge_pm: Any
) -> None:
    llm.answer = lambda prompt: "I refuse to answer in JSON. \x00\x07 ]]}{"
    result = run_judge(make_config(provider), EXPECTED, ACTUAL, None, plugin_manager=judge_pm)
    assert result is not None
    assert result["semantic_score"] is None
    assert result["per_call_scores"] == [None, None, None]
    assert result["failed_pairs"] == 3
    assert result["error"].startswith(
        "3 of 3 pair(s) could not be judged, so there is no semantic score "
        "(pair 0: Evaluation failed: no JSON in the answer"
    )


def test_the_cli_warns_in_one_line_when_answers_cannot_be_read(
    llm: FakeLLM, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from toolscore.cli import cli

    (tmp_path / "gold.json").write_text(json.dumps([{"tool": "search", "args": {"q": "x"}}]))
    (tmp_path / "trace.json").write_text(
        json.dumps({"calls": [{"tool": "web_search", "args": {"query": "x"}}]})
    )
    llm.api_key = "not-needed"
    llm.answer = lambda prompt: "garbage"
    pm = create_plugin_manager(load_entrypoints=False)
    pm.register(toolscore_judge.plugin, name="toolscore_judge")
    monkeypatch.chdir(tmp_path)
    args = ["eval", "gold.json", "trace.json", "--llm-judge", "--llm-model", "llama3.1"]
    args += ["--llm-base-url", f"{llm.url}/v1", "--llm-cache", "off", "-o", "out.json"]
    result = CliRunner().invoke(cli, args, obj={"plugin_manager": pm})
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if "LLM judge" in line]
    assert warnings == [
        "Warning: LLM judge: 1 of 1 pair(s) could not be judged, so there is no semantic "
        "score (pair 0: Evaluation failed: no JSON in the answer: 'garbage')"
    ]
    semantic = json.loads((tmp_path / "out.json").read_text())["metrics"]["semantic_metrics"]
    assert semantic["semantic_score"] is None
    assert semantic["per_call_scores"] == [None]
