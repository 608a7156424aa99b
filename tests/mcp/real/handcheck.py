"""Hand-check the ground-truth manifests against the real servers.

For each manifest in ``servers/`` this starts a fresh :class:`toolscore_mcp.sandbox.sandbox.Sandbox`,
fills the ``{sandbox}`` / ``{sandbox_url}`` placeholders, launches the server over stdio with
the official ``mcp`` SDK (no toolscore code in the path: this is the independent evidence),
checks that the server lists exactly the tools the manifest names, runs each tool's setup calls
and then calls every ``works`` / ``setup`` tool with its hand-written ``arguments``.

    uv run python tests/mcp/real/handcheck.py --bin-path /tmp/mcp-real/venvs/x/bin:... [name...]

Exit 0 only when every ``works`` / ``setup`` tool succeeded (``isError`` false, no JSON-RPC
error, no timeout) and every tool list matched. ``--probe NAME`` instead prints the tool
list with schemas, and ``--call NAME TOOL JSON`` makes one call (both for writing manifests).

Importable: :func:`load_manifests`, :func:`check_server`, :class:`Server`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SERVERS_DIR = HERE / "servers"
OFFLINE_CLASSES = ("works", "setup", "network", "credentials", "binary", "broken")
#: Classes whose tools succeed here with the manifest's arguments.
CALLED = ("works", "setup")
#: Classes whose tools the hand check calls: the working ones, and the broken ones (which must
#: still fail on those valid arguments, with the recorded ``failure`` text).
REPLAYED = (*CALLED, "broken")
GRADES = "ABCDF"


# -- manifests -----------------------------------------------------------------------------------


def load_manifests(names: Iterable[str] = ()) -> list[dict[str, Any]]:
    """The manifests in ``servers/`` (all, or those named), each checked for shape."""
    wanted = list(names)
    found = {p.stem: p for p in sorted(SERVERS_DIR.glob("*.json"))}
    unknown = [n for n in wanted if n not in found]
    if unknown:
        raise SystemExit(f"unknown server(s): {', '.join(unknown)}; known: {', '.join(found)}")
    manifests = []
    for stem in wanted or list(found):
        manifest = json.loads(found[stem].read_text(encoding="utf-8"))
        problems = validate_manifest(manifest)
        if manifest.get("name") != stem:
            problems.append(f"name {manifest.get('name')!r} differs from the file name {stem!r}")
        if problems:
            raise SystemExit(f"{found[stem].name}: " + "; ".join(problems))
        manifests.append(manifest)
    return manifests


def validate_manifest(m: Mapping[str, Any]) -> list[str]:
    """Shape problems in one manifest (empty when it is well formed)."""
    problems: list[str] = []
    for key in ("name", "package", "command", "domains", "fair_grade", "tools"):
        if key not in m:
            problems.append(f"missing {key!r}")
    if problems:
        return problems
    package = m["package"]
    kinds = set(package) & {"pypi", "npm"} if isinstance(package, dict) else set()
    if len(kinds) != 1 or not set(package) <= {"pypi", "npm", "also"}:
        problems.append("package must be {'pypi': 'name==X'} or {'npm': 'name@X'}")
    elif "also" in package and (
        "pypi" not in package or not all("==" in p for p in package["also"])
    ):
        problems.append("package.also holds extra exact PyPI pins (name==X)")
    elif "pypi" in package and "==" not in package["pypi"]:
        problems.append("the PyPI package must be pinned with ==")
    elif "npm" in package and "@" not in package["npm"].lstrip("@"):
        problems.append("the npm package must be pinned with @version")
    grade = m["fair_grade"]
    best = str(grade.get("best")) if isinstance(grade, dict) else ""
    worst = str(grade.get("worst")) if isinstance(grade, dict) else ""
    if not (
        len(best) == 1
        and len(worst) == 1
        and best in GRADES
        and worst in GRADES
        and GRADES.index(best) <= GRADES.index(worst)
    ):
        problems.append("fair_grade must be {'best': X, 'worst': Y} with X no worse than Y")
    for name, tool in m["tools"].items():
        offline = tool.get("offline")
        if offline not in OFFLINE_CLASSES:
            problems.append(f"tool {name}: offline must be one of {OFFLINE_CLASSES}")
        if offline in REPLAYED and "arguments" not in tool:
            problems.append(f"tool {name}: a {offline} tool needs 'arguments'")
        if offline == "broken" and not tool.get("failure"):
            problems.append(f"tool {name}: a broken tool needs the 'failure' text it answers")
        if not isinstance(tool.get("signals_errors", True), bool):
            problems.append(f"tool {name}: signals_errors is true or false")
        if offline == "setup" and not tool.get("setup"):
            problems.append(f"tool {name}: an offline=setup tool needs setup calls")
        if not tool.get("note") and offline not in CALLED:
            problems.append(f"tool {name}: say why in 'note'")
        for step in tool.get("setup", []):
            if not ("tool" in step or "write_file" in step):
                problems.append(f"tool {name}: a setup step is a tool call or a write_file")
    for key in LIE_LISTS:
        for lie in m.get(key, []):
            if lie.get("tool") not in m["tools"] or "arguments" not in lie or not lie.get("text"):
                problems.append(f"{key}: each entry needs a listed tool, arguments and text")
    lying = {lie.get("tool") for lie in m.get("errors_as_success", [])}
    for name, tool in m["tools"].items():
        if tool.get("signals_errors") is False and name not in lying:
            problems.append(f"tool {name}: signals_errors false needs an errors_as_success entry")
    return problems


def signals_errors(manifest: Mapping[str, Any], tool: str) -> bool:
    """Whether the hand check found ``tool`` answering its failures with ``isError: true``.

    ``signals_errors`` in the tool's entry when set; otherwise false exactly when a failure of
    the tool is recorded in ``errors_as_success``.
    """
    entry = manifest["tools"][tool]
    if "signals_errors" in entry:
        return bool(entry["signals_errors"])
    return not any(lie.get("tool") == tool for lie in manifest.get("errors_as_success", []))


SUMMARY_CLASSES = ("works", "setup", "network", "credentials", "binary", "broken")


def summary_table(manifests: Sequence[Mapping[str, Any]]) -> str:
    """The README's summary table: one row per server, then the totals."""
    rows = [
        "| server | package | domains | tools | "
        + " | ".join(SUMMARY_CLASSES)
        + " | fair grade | start-up (s) |",
        "| --- " * (len(SUMMARY_CLASSES) + 6) + "|",
    ]
    totals = [0] * (len(SUMMARY_CLASSES) + 1)
    for m in sorted(manifests, key=lambda m: str(m["name"])):
        package = m["package"]
        pin = package.get("pypi") or package.get("npm")
        registry = "PyPI" if "pypi" in package else "npm"
        counts = [len(m["tools"])] + [
            sum(1 for tool in m["tools"].values() if tool["offline"] == kind)
            for kind in SUMMARY_CLASSES
        ]
        totals = [a + b for a, b in zip(totals, counts)]
        grade = m["fair_grade"]
        fair = (
            grade["best"]
            if grade["best"] == grade["worst"]
            else f"{grade['best']}-{grade['worst']}"
        )
        rows.append(
            f"| [{m['name']}](#{m['name']}) | `{pin}` ({registry}) | {', '.join(m['domains'])} | "
            + " | ".join(map(str, counts))
            + f" | {fair} | {m.get('startup_seconds', '')} |"
        )
    rows.append(
        f"| **total** | {len(manifests)} servers | | " + " | ".join(map(str, totals)) + " | | |"
    )
    return "\n".join(rows) + "\n"


def substitute(value: Any, fill: Any) -> Any:
    """``value`` with ``fill`` (str -> str) applied to every string inside it."""
    if isinstance(value, str):
        return fill(value)
    if isinstance(value, list):
        return [substitute(v, fill) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, fill) for k, v in value.items()}
    return value


# -- the client ----------------------------------------------------------------------------------


@dataclass
class CallOutcome:
    """What one ``tools/call`` gave back."""

    ok: bool
    is_error: bool = False
    text: str = ""
    rpc_error: dict[str, Any] | None = None
    timed_out: bool = False
    crashed: bool = False
    seconds: float = 0.0
    raw: dict[str, Any] = field(default_factory=dict)

    def summary(self, limit: int = 160) -> str:
        if self.timed_out:
            kind = "TIMEOUT"
        elif self.crashed:
            kind = "CRASHED"
        elif self.rpc_error is not None:
            kind = f"RPC-ERROR {self.rpc_error.get('code')}"
        elif self.is_error:
            kind = "isError"
        else:
            kind = "ok"
        text = " ".join(self.text.split())
        if len(text) > limit:
            text = text[: limit - 3] + "..."
        return f"{kind}: {text}" if text else kind


def _text_of(content: Any) -> str:
    parts: list[str] = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, Mapping):
            continue
        if block.get("type") == "text":
            parts.append(str(block.get("text", "")))
        elif block.get("type") == "resource":
            resource = block.get("resource") or {}
            parts.append(str(resource.get("text") or f"<resource {resource.get('uri')}>"))
        else:
            parts.append(f"<{block.get('type')} block>")
    return "\n".join(parts)


def _leaf(exc: BaseException) -> BaseException:
    """The first real exception inside (possibly nested) exception groups."""
    while isinstance(getattr(exc, "exceptions", None), tuple) and exc.exceptions:  # type: ignore[attr-defined]
        exc = exc.exceptions[0]  # type: ignore[attr-defined]
    return exc


def resolve_command(command: Sequence[str], bin_path: str) -> list[str]:
    """argv with its program looked up on ``bin_path`` first, then on PATH."""
    program = command[0]
    found = shutil.which(program, path=bin_path) if bin_path else None
    found = found or shutil.which(program)
    if found is None:
        raise FileNotFoundError(f"{program!r} is not on --bin-path nor PATH (run install.py)")
    return [found, *command[1:]]


class Server:
    """One stdio session with a server, through the SDK's raw request path.

    Raw requests (not ``ClientSession.call_tool``) so that what the server really sent is seen:
    the SDK's own result validation must not turn a server's answer into our exception.
    """

    def __init__(
        self,
        command: Sequence[str],
        env: Mapping[str, str] | None = None,
        *,
        bin_path: str = "",
        cwd: str | None = None,
        timeout: float = 30.0,
    ) -> None:
        self.command = list(command)
        self.env = dict(env or {})
        self.bin_path = bin_path
        self.cwd = cwd
        self.timeout = timeout
        self.startup_seconds = 0.0
        self.server_info: dict[str, Any] = {}
        self.closed = False
        self._stack = contextlib.AsyncExitStack()
        self._dispatcher: Any = None
        self._stderr: Any = None
        self._headers: dict[str, str] = {}

    async def __aenter__(self) -> Server:
        try:
            await self._open()
        except BaseException:
            await self.aclose()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        with contextlib.suppress(Exception):
            await self._stack.aclose()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    async def _open(self) -> None:
        import mcp_types as types
        from mcp.client.session import ClientSession
        from mcp.client.stdio import StdioServerParameters, stdio_client
        from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher

        argv = resolve_command(self.command, self.bin_path)
        path = os.pathsep.join(p for p in (self.bin_path, os.environ.get("PATH", "")) if p)
        env = {**os.environ, "PATH": path, **self.env}
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed in aclose
        params = StdioServerParameters(command=argv[0], args=argv[1:], env=env, cwd=self.cwd)
        start = time.perf_counter()
        read, write = await self._stack.enter_async_context(
            stdio_client(params, errlog=self._stderr)
        )
        self._dispatcher = JSONRPCDispatcher(read, write)

        async def no_roots(context: Any) -> Any:
            return types.ListRootsResult(roots=[])

        session = ClientSession(
            dispatcher=self._dispatcher,
            read_timeout_seconds=self.timeout,
            list_roots_callback=no_roots,
            client_info=types.Implementation(name="toolscore-handcheck", version="1"),
        )
        await self._stack.enter_async_context(session)
        result = await asyncio.wait_for(session.initialize(), self.timeout)
        from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER

        version = session.protocol_version or ""
        self._headers = {MCP_PROTOCOL_VERSION_HEADER: version} if version else {}
        info = result.server_info
        self.server_info = {"name": info.name, "version": info.version} if info else {}
        self.tools = await self.list_tools()
        self.startup_seconds = time.perf_counter() - start

    async def request(
        self, method: str, params: Mapping[str, Any] | None, timeout: float | None = None
    ) -> dict[str, Any]:
        opts: dict[str, Any] = {"timeout": timeout or self.timeout}
        if self._headers:
            opts["headers"] = dict(self._headers)
        result: dict[str, Any] = await self._dispatcher.send_raw_request(method, params, opts)
        return result

    async def list_tools(self) -> list[dict[str, Any]]:
        tools: list[dict[str, Any]] = []
        cursor = None
        for _ in range(50):
            page = await self.request("tools/list", {"cursor": cursor} if cursor else None)
            tools.extend(t for t in page.get("tools", []) if isinstance(t, dict))
            cursor = page.get("nextCursor")
            if not cursor:
                break
        return tools

    async def call(
        self, name: str, arguments: Mapping[str, Any], timeout: float | None = None
    ) -> CallOutcome:
        start = time.perf_counter()
        try:
            raw = await asyncio.wait_for(
                self.request("tools/call", {"name": name, "arguments": dict(arguments)}, timeout),
                (timeout or self.timeout) + 5,
            )
        except (TimeoutError, asyncio.TimeoutError):
            return CallOutcome(False, timed_out=True, seconds=time.perf_counter() - start)
        except Exception as exc:  # the SDK raises MCPError for a JSON-RPC error answer
            leaf = _leaf(exc)
            code = getattr(leaf, "code", None)
            if code == -32001:
                return CallOutcome(False, timed_out=True, seconds=time.perf_counter() - start)
            if code == -32000 or code is None:
                self.closed = code == -32000
                return CallOutcome(
                    False,
                    crashed=True,
                    text=f"{type(leaf).__name__}: {leaf}",
                    seconds=time.perf_counter() - start,
                )
            error = {"code": code, "message": str(leaf)}
            return CallOutcome(
                False, rpc_error=error, text=str(leaf), seconds=time.perf_counter() - start
            )
        is_error = bool(raw.get("isError"))
        return CallOutcome(
            not is_error,
            is_error=is_error,
            text=_text_of(raw.get("content")),
            seconds=time.perf_counter() - start,
            raw=raw,
        )

    async def call_as_task(
        self, name: str, arguments: Mapping[str, Any], timeout: float | None = None
    ) -> CallOutcome:
        """Call a tool that declares ``execution.taskSupport: required``: a task-augmented
        ``tools/call``, then ``tasks/get`` until it is done and ``tasks/result``."""
        start = time.perf_counter()
        limit = timeout or self.timeout
        try:
            created = await self.request(
                "tools/call",
                {"name": name, "arguments": dict(arguments), "task": {"ttl": 60000}},
                limit,
            )
            task_id = created["task"]["taskId"]
            status = created["task"].get("status")
            while status in ("working", "submitted", "input_required"):
                if time.perf_counter() - start > limit:
                    return CallOutcome(False, timed_out=True, seconds=time.perf_counter() - start)
                await asyncio.sleep(0.5)
                status = (await self.request("tasks/get", {"taskId": task_id}, limit)).get("status")
            raw = await self.request("tasks/result", {"taskId": task_id}, limit)
        except Exception as exc:
            return CallOutcome(
                False, rpc_error={"message": str(exc)}, text=f"{type(exc).__name__}: {exc}"
            )
        is_error = bool(raw.get("isError")) or status != "completed"
        return CallOutcome(
            not is_error,
            is_error=is_error,
            text=_text_of(raw.get("content")),
            seconds=time.perf_counter() - start,
            raw=raw,
        )

    async def alive(self) -> bool:
        try:
            await self.request("ping", None, 5)
        except Exception:
            return False
        return True

    def stderr_tail(self, limit: int = 600) -> str:
        if self._stderr is None:
            return ""
        with contextlib.suppress(OSError, ValueError):
            self._stderr.flush()
            self._stderr.seek(0)
            text: str = self._stderr.read().decode("utf-8", "replace")
            return text[-limit:]
        return ""


# -- checking --------------------------------------------------------------------------------------


@dataclass
class ToolCheck:
    tool: str
    offline: str
    outcome: CallOutcome | None = None
    setup_failures: list[str] = field(default_factory=list)

    #: For a broken tool, the failure text it must still answer (``...`` for any text).
    failure: str = ""

    @property
    def ok(self) -> bool:
        if self.offline == "broken":
            return self.outcome is not None and not failure_problem(self.failure, self.outcome)
        if self.offline not in CALLED:
            return True
        return self.outcome is not None and self.outcome.ok and not self.setup_failures


@dataclass
class ServerCheck:
    name: str
    startup_seconds: float = 0.0
    server_info: dict[str, Any] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)  # listed by the server, not in manifest
    extra: list[str] = field(default_factory=list)  # in the manifest, not listed
    tools: list[ToolCheck] = field(default_factory=list)
    launch_error: str = ""
    #: errors_as_success / accepted_bad_input entries replayed: (list, tool, problem or "").
    lies: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (
            not self.launch_error
            and not self.missing
            and not self.extra
            and all(t.ok for t in self.tools)
            and not any(problem for _, _, problem in self.lies)
        )


def open_sandbox() -> Any:
    from toolscore_mcp.sandbox.sandbox import Sandbox

    return Sandbox.create()


def prepare(manifest: Mapping[str, Any], sandbox: Any) -> dict[str, Any]:
    """The manifest with every placeholder filled for this sandbox."""
    return substitute(dict(manifest), sandbox.substitute)  # type: ignore[no-any-return]


async def check_server(
    manifest: Mapping[str, Any], bin_path: str = "", timeout: float = 60.0
) -> ServerCheck:
    """Start a sandbox and the server, then call every works/setup tool in manifest order."""
    report = ServerCheck(name=str(manifest["name"]))
    with open_sandbox() as sandbox:
        m = prepare(manifest, sandbox)
        try:
            server = Server(m["command"], m.get("env"), bin_path=bin_path, timeout=timeout)
            await server.__aenter__()
        except Exception as exc:  # reported, not raised
            leaf = _leaf(exc)
            report.launch_error = f"{type(leaf).__name__}: {leaf}"
            return report
        try:
            report.startup_seconds = server.startup_seconds
            report.server_info = server.server_info
            listed = [str(t.get("name")) for t in server.tools]
            report.missing = [n for n in listed if n not in m["tools"]]
            report.extra = [n for n in m["tools"] if n not in listed]
            for tool, entry in m["tools"].items():
                check = ToolCheck(tool, entry["offline"], failure=entry.get("failure", ""))
                report.tools.append(check)
                if entry["offline"] not in REPLAYED or tool in report.extra:
                    continue
                for step in entry.get("setup", []):
                    failure = await run_setup_step(server, step)
                    if failure:
                        check.setup_failures.append(failure)
                if entry.get("as_task"):
                    check.outcome = await server.call_as_task(tool, entry["arguments"])
                else:
                    check.outcome = await server.call(tool, entry["arguments"])
                if check.outcome.crashed and server.closed:
                    check.outcome.text += f" | stderr: {server.stderr_tail()}"
        finally:
            await server.aclose()
    if not report.launch_error and (
        manifest.get("errors_as_success") or manifest.get("accepted_bad_input")
    ):
        report.lies = await replay_lies(manifest, bin_path, timeout)
    return report


LIE_LISTS = ("errors_as_success", "accepted_bad_input")


def _normalise(text: str) -> str:
    return " ".join(text.split())


def lie_problem(expected: str, outcome: CallOutcome) -> str:
    """Why a replayed errors_as_success entry did not reproduce ("" when it did).

    It must still come back with ``isError: false``, and its text must equal the recorded
    one; an ``...`` in the record stands for any text (the recorded parts must appear in
    order, the first at the start).
    """
    if not outcome.ok:
        return f"no longer isError false: {outcome.summary()}"
    return text_problem(expected, outcome)


def failure_problem(expected: str, outcome: CallOutcome) -> str:
    """Why a broken tool's call did not fail as recorded ("" when it did): any failure
    (``isError``, a JSON-RPC error, a crash or timeout) whose text matches ``expected``."""
    if outcome.timed_out or outcome.crashed:
        return ""
    return text_problem(expected, outcome)


def text_problem(expected: str, outcome: CallOutcome) -> str:
    """Why ``outcome``'s text differs from ``expected`` ("" when it matches; ``...`` in
    ``expected`` stands for any text, the first part anchored at the start)."""
    actual = _normalise(outcome.text)
    parts = [_normalise(p) for p in expected.split("...")]
    position = 0
    for index, part in enumerate(parts):
        if not part:
            continue
        found = actual.find(part, position)
        if found < 0 or (index == 0 and found != 0):
            return f"text differs: {actual[:200]!r}"
        position = found + len(part)
    if parts[-1] and not actual.endswith(parts[-1]):
        return f"text differs: {actual[:200]!r}"
    return ""


async def replay_lies(
    manifest: Mapping[str, Any], bin_path: str = "", timeout: float = 60.0
) -> list[tuple[str, str, str]]:
    """Replay every errors_as_success / accepted_bad_input entry on a fresh sandbox and
    server, each after its own ``setup`` steps."""
    found: list[tuple[str, str, str]] = []
    with open_sandbox() as sandbox:
        m = prepare(manifest, sandbox)
        async with Server(m["command"], m.get("env"), bin_path=bin_path, timeout=timeout) as srv:
            for key in LIE_LISTS:
                for lie in m.get(key, []):
                    problem = ""
                    for step in lie.get("setup", []):
                        problem = problem or await run_setup_step(srv, step)
                    if not problem:
                        outcome = await srv.call(lie["tool"], lie["arguments"])
                        problem = lie_problem(lie["text"], outcome)
                    found.append((key, lie["tool"], problem))
    return found


async def run_setup_step(server: Server, step: Mapping[str, Any]) -> str:
    """Run one setup step; an empty string when it worked, else what went wrong.

    A step is a call to another tool of the same server (``{"tool", "arguments"}``), or, for
    state that no tool of the server can make (an uncommitted change for git_commit), a file
    the harness writes itself: ``{"write_file": path, "content": text}``.
    """
    if "write_file" in step:
        try:
            path = Path(step["write_file"])
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(step.get("content", ""), encoding="utf-8")
        except OSError as exc:
            return f"write_file {step['write_file']}: {exc}"
        return ""
    done = await server.call(step["tool"], step.get("arguments", {}))
    return "" if done.ok else f"{step['tool']}: {done.summary()}"


def print_report(report: ServerCheck, verbose: bool = False, out: Any = None) -> None:
    out = out or sys.stdout
    head = f"== {report.name}"
    if report.server_info:
        head += f" ({report.server_info.get('name')} {report.server_info.get('version')})"
    print(f"{head}  start-up {report.startup_seconds:.1f}s", file=out)
    if report.launch_error:
        print(f"  LAUNCH FAILED: {report.launch_error}", file=out)
        return
    if report.missing:
        print(f"  TOOLS NOT IN MANIFEST: {', '.join(report.missing)}", file=out)
    if report.extra:
        print(f"  MANIFEST TOOLS NOT LISTED: {', '.join(report.extra)}", file=out)
    for check in report.tools:
        if check.offline not in REPLAYED:
            if verbose:
                print(f"  -    {check.tool:32} {check.offline} (not called)", file=out)
            continue
        mark = "ok  " if check.ok else "FAIL"
        line = check.outcome.summary(120 if not verbose else 400) if check.outcome else "-"
        print(f"  {mark} {check.tool:32} {line}", file=out)
        for failure in check.setup_failures:
            print(f"       setup failed: {failure}", file=out)
    for key, tool, problem in report.lies:
        if problem or verbose:
            mark = "FAIL" if problem else "ok  "
            print(f"  {mark} {key}: {tool} {problem or 'reproduced'}", file=out)
    if report.lies:
        reproduced = sum(1 for _, _, problem in report.lies if not problem)
        print(
            f"  {reproduced} of {len(report.lies)} recorded isError-false answers to bad input reproduced",
            file=out,
        )


# -- command line --------------------------------------------------------------------------------


async def _probe(manifest: Mapping[str, Any], bin_path: str, calls: list[tuple[str, Any]]) -> None:
    with open_sandbox() as sandbox:
        m = prepare(manifest, sandbox)
        print(f"sandbox: {sandbox.root}  url: {sandbox.url}")
        async with Server(m["command"], m.get("env"), bin_path=bin_path) as server:
            print(f"start-up {server.startup_seconds:.2f}s {server.server_info}")
            if not calls:
                print(json.dumps(server.tools, indent=1))
            for tool, arguments in calls:
                arguments = substitute(arguments, sandbox.substitute)
                outcome = await server.call(tool, arguments, timeout=30)
                print(f"--- {tool} {json.dumps(arguments)}")
                print(f"    {outcome.summary(2000)}")
                if outcome.crashed or not await server.alive():
                    print(f"    SERVER NOT ANSWERING; stderr: {server.stderr_tail()}")
                    break


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="manifest names (default: all)")
    parser.add_argument(
        "--bin-path", default="", help="os.pathsep-separated folders holding the servers"
    )
    parser.add_argument("--verbose", "-v", action="store_true")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per request")
    parser.add_argument("--probe", action="store_true", help="list tools with schemas")
    parser.add_argument(
        "--call",
        nargs=2,
        action="append",
        metavar=("TOOL", "JSON"),
        help="with --probe: call TOOL with JSON arguments (repeatable, same session)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    _quiet_sdk()
    manifests = load_manifests(args.names)
    if args.probe:
        calls = [(tool, json.loads(text)) for tool, text in args.call or []]
        for manifest in manifests:
            asyncio.run(_probe(manifest, args.bin_path, calls))
        return 0
    reports = []
    for manifest in manifests:
        report = asyncio.run(check_server(manifest, args.bin_path, args.timeout))
        reports.append(report)
        if not args.json:
            print_report(report, args.verbose)
    if args.json:
        print(json.dumps([_as_json(r) for r in reports], indent=1))
    failed = [r.name for r in reports if not r.ok]
    called = sum(1 for r in reports for t in r.tools if t.offline in CALLED)
    passed = sum(1 for r in reports for t in r.tools if t.offline in CALLED and t.ok)
    print(
        f"handcheck: {len(reports) - len(failed)} of {len(reports)} servers match their manifest;"
        f" {passed} of {called} works/setup tools succeeded"
        + (f"; FAILED: {', '.join(failed)}" if failed else ""),
        file=sys.stderr if args.json else sys.stdout,
    )
    return 1 if failed else 0


def _as_json(report: ServerCheck) -> dict[str, Any]:
    return {
        "name": report.name,
        "ok": report.ok,
        "startup_seconds": round(report.startup_seconds, 2),
        "server_info": report.server_info,
        "launch_error": report.launch_error,
        "not_in_manifest": report.missing,
        "not_listed": report.extra,
        "tools": [
            {
                "tool": t.tool,
                "offline": t.offline,
                "ok": t.ok,
                "result": t.outcome.summary(400) if t.outcome else None,
                "setup_failures": t.setup_failures,
            }
            for t in report.tools
        ],
        "errors_as_success": [
            {"list": key, "tool": tool, "reproduced": not problem, "problem": problem}
            for key, tool, problem in report.lies
        ],
    }


def _quiet_sdk() -> None:
    import logging

    logger = logging.getLogger("mcp")
    logger.addHandler(logging.NullHandler())
    logger.propagate = False


if __name__ == "__main__":
    sys.exit(main())
