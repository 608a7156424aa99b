"""``toolscore mcp record``: a transparent stdio proxy that records ``tools/call`` traffic.

The MCP client (an IDE, an agent) launches ``toolscore mcp record -o session.json -- <server
command>`` instead of the server. Lines from the client go to the server unchanged, server
lines go back to the client unchanged (flushed line by line), server stderr passes through.
Each ``tools/call`` request with an int or str id, and the response with the same id (a copy
with ``"duration"`` added), are kept; after every completed call and at exit the session file
is rewritten atomically:

    {"format": "mcp", "recorded_by": "toolscore mcp record", "server_command": [...],
     "messages": [requests and responses in arrival order]}

which ``toolscore eval gold.json session.json`` reads as an MCP trace. Standard library only.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

__all__ = ["MCPRecorder"]

_STOP_WAIT = 10.0


def _messages(line: bytes) -> list[Any]:
    try:
        decoded = json.loads(line)
    except ValueError:
        return []
    return decoded if isinstance(decoded, list) else [decoded]


def _valid_id(value: Any) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


class MCPRecorder:
    """Proxy one server process between our stdin/stdout and record its tool calls."""

    def __init__(
        self,
        command: Sequence[str],
        output: str | Path,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
        *,
        stdin: IO[bytes] | None = None,
        stdout: IO[bytes] | None = None,
        startup_timeout: float | None = None,
    ) -> None:
        if not command:
            raise ValueError("MCPRecorder needs a server command.")
        self.command = list(command)
        self.output = Path(output)
        self.env = dict(env) if env else None
        self.cwd = cwd
        self._in = stdin if stdin is not None else sys.stdin.buffer
        self._out = stdout if stdout is not None else sys.stdout.buffer
        self._lock = threading.Lock()
        self._messages: list[Any] = []
        self._pending: dict[Any, float] = {}
        self.calls_recorded = 0
        #: Seconds the server may take to answer the client's ``initialize``; None: no bound.
        self.startup_timeout = startup_timeout
        self._initialize_id: Any = None
        self._initialized = threading.Event()
        self._process: subprocess.Popen[bytes] | None = None

    def run(self) -> int:
        """Proxy until the client closes stdin or the server exits; the server's exit code
        (128+N when killed by signal N). Raises OSError if the server cannot start."""
        import os

        env = {**os.environ, **self.env} if self.env else None
        process = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=self.cwd
        )
        assert process.stdin is not None
        assert process.stdout is not None
        self._process = process
        pump = threading.Thread(target=self._server_to_client, args=(process.stdout,), daemon=True)
        # The server is never left running: every way out below goes through _stop (an
        # unwritable output file included).
        try:
            pump.start()
            self._write()
            for line in iter(self._in.readline, b""):
                self._seen_from_client(line)
                try:
                    process.stdin.write(line)
                    process.stdin.flush()
                except (BrokenPipeError, OSError):
                    break
        except KeyboardInterrupt:
            pass
        finally:
            code = self._stop(process)
            if pump.is_alive() or pump.ident is not None:
                pump.join(timeout=2.0)
        self._write()
        return code

    def _stop(self, process: subprocess.Popen[bytes]) -> int:
        try:
            if process.stdin is not None:
                process.stdin.close()
        except OSError:
            pass
        try:
            code = process.wait(timeout=_STOP_WAIT)
        except subprocess.TimeoutExpired:
            process.terminate()
            try:
                code = process.wait(timeout=_STOP_WAIT)
            except subprocess.TimeoutExpired:
                process.kill()
                code = process.wait()
        return 128 - code if code < 0 else code

    def _seen_from_client(self, line: bytes) -> None:
        now = time.perf_counter()
        with self._lock:
            for message in _messages(line):
                if (
                    isinstance(message, dict)
                    and message.get("method") == "initialize"
                    and _valid_id(message.get("id"))
                    and self._initialize_id is None
                ):
                    self._initialize_id = message["id"]
                    self._watch_startup(message["id"])
                if (
                    isinstance(message, dict)
                    and message.get("method") == "tools/call"
                    and _valid_id(message.get("id"))
                ):
                    self._messages.append(message)
                    self._pending[message["id"]] = now

    def _server_to_client(self, stream: IO[bytes]) -> None:
        for line in iter(stream.readline, b""):
            try:
                self._out.write(line)
                self._out.flush()
            except (BrokenPipeError, OSError, ValueError):
                pass
            completed = False
            now = time.perf_counter()
            with self._lock:
                for message in _messages(line):
                    if not isinstance(message, dict) or "method" in message:
                        continue
                    request_id = message.get("id")
                    if _valid_id(request_id) and request_id == self._initialize_id:
                        self._initialized.set()
                    if _valid_id(request_id) and request_id in self._pending:
                        started = self._pending.pop(request_id)
                        self._messages.append({**message, "duration": round(now - started, 6)})
                        self.calls_recorded += 1
                        completed = True
            if completed:
                self._write()

    def _watch_startup(self, request_id: Any) -> None:
        """Past ``startup_timeout`` with no answer to ``initialize``, answer the client with a
        JSON-RPC error in the server's place and stop the server."""
        if self.startup_timeout is None:
            return
        limit = self.startup_timeout

        def watch() -> None:
            if self._initialized.wait(limit):
                return
            text = f"Timed out after {limit}s waiting for the MCP server to answer 'initialize'."
            print(f"toolscore: {text}", file=sys.stderr)
            error = {"code": -32001, "message": f"toolscore mcp record: {text}"}
            answer = {"jsonrpc": "2.0", "id": request_id, "error": error}
            try:
                self._out.write(json.dumps(answer).encode() + b"\n")
                self._out.flush()
            except (BrokenPipeError, OSError, ValueError):
                pass
            if self._process is not None and self._process.poll() is None:
                self._process.kill()

        threading.Thread(target=watch, name="toolscore-record-startup", daemon=True).start()

    def _write(self) -> None:
        from toolscore.fileio import atomic_write_text

        with self._lock:
            payload = {
                "format": "mcp",
                "recorded_by": "toolscore mcp record",
                "server_command": self.command,
                "messages": list(self._messages),
            }
        atomic_write_text(self.output, json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
