"""Production capture: save what an agent really did, then turn good runs into tests.

Decorate the function that runs your agent; whatever tool calls it returns (a list, or a dict
with a ``"tools"`` list) are written to ``<dataset_dir>/<name>_<YYYYmmdd_HHMMSS>.json``::

    from toolscore import TraceCapture

    capture = TraceCapture(dataset_dir="traces")

    @capture.trace(name="weather")
    def run_agent(query):
        ...
        return {"tools": [{"tool": "get_weather", "args": {"city": "Paris"}}], "answer": "..."}

Capture files are a trace format of their own: ``toolscore eval gold.json traces/weather_*.json``
and ``load_trace()`` read them directly, and :meth:`TraceCapture.to_gold_standard`
turns one into a gold file. Files are written atomically and a second capture within the same
second gets a ``_2`` suffix instead of overwriting the first. Nothing is created on import.
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar, cast

from toolscore.fileio import atomic_create_text
from toolscore.model import ToolCall

__all__ = ["CAPTURE_KEYS", "TraceCapture", "capture_trace", "is_capture_payload"]

F = TypeVar("F", bound=Callable[..., Any])

#: Top-level keys every capture file has.
CAPTURE_KEYS = frozenset({"id", "name", "timestamp", "tools"})

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def is_capture_payload(payload: Any) -> bool:
    """Whether ``payload`` has the shape of a capture file."""
    return (
        isinstance(payload, Mapping)
        and payload.keys() >= CAPTURE_KEYS
        and isinstance(payload.get("tools"), list)
    )


def _safe_name(name: str) -> str:
    cleaned = _UNSAFE.sub("_", name).strip("._")
    return cleaned or "trace"


def _tool_dict(tool: Any) -> Any:
    if isinstance(tool, ToolCall):
        out: dict[str, Any] = {"tool": tool.tool, "args": dict(tool.args or {})}
        if tool.result is not None:
            out["result"] = tool.result
        if tool.is_error:
            out["is_error"] = True
            if tool.error:
                out["error"] = tool.error
        for key in ("duration", "cost", "id"):
            value = getattr(tool, key)
            if value is not None:
                out[key] = value
        return out
    return tool


def _tools_of(result: Any) -> list[Any]:
    if isinstance(result, Mapping) and "tools" in result:
        tools = result["tools"]
    elif isinstance(result, (list, tuple)):
        tools = result
    else:
        return []
    if not isinstance(tools, (list, tuple)):
        return []
    return [_tool_dict(t) for t in tools]


class TraceCapture:
    """Captures agent runs into a folder of trace files (or memory, with ``auto_save=False``)."""

    def __init__(
        self, dataset_dir: str | os.PathLike[str] = "traces", auto_save: bool = True
    ) -> None:
        self.dataset_dir = Path(dataset_dir)
        self.auto_save = auto_save
        #: Traces kept in memory when ``auto_save`` is off; :meth:`save_all` writes them.
        self.captured_traces: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    # -- capturing ----------------------------------------------------------------------------

    def trace(self, name: str | None = None, save_on_error: bool = True) -> Callable[[F], F]:
        """Decorator: record every call of the function (sync or async) as one trace.

        The trace is saved after the function returns and, when ``save_on_error`` is true, also
        when it raises (with ``metadata.error`` set); the exception is always re-raised.
        """

        def decorator(func: F) -> F:
            trace_name: str = name or str(getattr(func, "__name__", "trace"))

            if inspect.iscoroutinefunction(func):

                @functools.wraps(func)
                async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                    try:
                        result = await func(*args, **kwargs)
                    except Exception:
                        if save_on_error:
                            self._record(trace_name, args, kwargs, None, error=True)
                        raise
                    self._record(trace_name, args, kwargs, result, error=False)
                    return result

                return cast("F", async_wrapper)

            @functools.wraps(func)
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                try:
                    result = func(*args, **kwargs)
                except Exception:
                    if save_on_error:
                        self._record(trace_name, args, kwargs, None, error=True)
                    raise
                self._record(trace_name, args, kwargs, result, error=False)
                return result

            return cast("F", wrapper)

        return decorator

    def _record(
        self,
        name: str,
        args: tuple[Any, ...],
        kwargs: Mapping[str, Any],
        result: Any,
        *,
        error: bool,
    ) -> None:
        from toolscore.reporters._common import json_safe

        data = {
            "id": "",
            "name": name,
            "timestamp": datetime.now().isoformat(),
            "tools": _tools_of(result),
            "metadata": {
                "args": str(args) if args else None,
                "kwargs": json_safe(dict(kwargs)),
                "error": error,
            },
        }
        if self.auto_save:
            self._write(data)
        else:
            with self._lock:
                self.captured_traces.append(data)

    def capture_tools(
        self,
        tools: Sequence[ToolCall] | Sequence[Mapping[str, Any]],
        name: str,
        description: str = "",
        metadata: Mapping[str, Any] | None = None,
    ) -> Path:
        """Save a list of calls (ToolCalls or dicts) you already have as one capture file."""
        data = {
            "id": "",
            "name": name,
            "description": description,
            "timestamp": datetime.now().isoformat(),
            "tools": [_tool_dict(t) for t in tools],
            "metadata": dict(metadata or {}),
        }
        return self._write(data)

    def save_all(self) -> list[Path]:
        """Write the traces kept in memory and forget them; returns the files written."""
        with self._lock:
            pending, self.captured_traces = self.captured_traces, []
        return [self._write(data) for data in pending]

    # -- writing ------------------------------------------------------------------------------

    def _write(self, data: dict[str, Any]) -> Path:
        """Write ``data`` atomically under a name no other capture has taken.

        The id (and file name) is ``<name>_<YYYYmmdd_HHMMSS>``, then ``_2``, ``_3``... when that
        file exists. The content goes to a temporary file that is hard-linked into place, which
        fails instead of overwriting if another process took the name first.
        """
        from toolscore.reporters._common import json_safe

        folder = self.dataset_dir
        folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now().strftime("%Y%m%d_%H%M%S")
        base = f"{_safe_name(str(data.get('name') or 'trace'))}_{stamp}"
        for attempt in range(1, 10_000):
            trace_id = base if attempt == 1 else f"{base}_{attempt}"
            target = folder / f"{trace_id}.json"
            if target.exists():
                continue
            text = (
                json.dumps(json_safe({**data, "id": trace_id}), indent=2, ensure_ascii=False) + "\n"
            )
            if atomic_create_text(target, text):
                data["id"] = trace_id
                return target
        raise FileExistsError(f"could not find a free capture file name for {base!r} in {folder}")

    # -- turning captures into tests ----------------------------------------------------------

    def to_gold_standard(
        self,
        trace_file: str | os.PathLike[str],
        output_file: str | os.PathLike[str],
        description: str = "",
    ) -> Path:
        """Write a gold file expecting exactly the calls of a capture file.

        Each call becomes ``{"tool", "args"}`` plus ``description`` (the argument, else the
        capture's description). Results are not turned into side-effect checks: there is no
        check that could verify them.
        """
        from toolscore.fileio import atomic_write_json
        from toolscore.loading import read_json

        data = read_json(trace_file)
        calls = calls_from_capture(data, source=str(trace_file))
        text = description or (data.get("description") if isinstance(data, Mapping) else "") or ""
        gold: list[dict[str, Any]] = []
        for call in calls:
            item: dict[str, Any] = {"tool": call.tool, "args": dict(call.args or {})}
            if text:
                item["description"] = text
            gold.append(item)
        return atomic_write_json(output_file, gold)


def calls_from_capture(payload: Any, *, source: str = "<capture>") -> list[ToolCall]:
    """The calls of a capture file's content.

    Items that are call dicts (``{"tool", "args", ...}``) are read directly; a list in a
    provider's shape is handed to auto-detection.
    """
    from toolscore.errors import InputError
    from toolscore.model import call_from_dict

    if not is_capture_payload(payload):
        raise InputError("expected a capture file with a 'tools' list", source=source, path="$")
    tools = payload["tools"]
    if all(isinstance(t, Mapping) and t.get("tool") for t in tools):
        calls: list[ToolCall] = []
        for index, item in enumerate(tools):
            try:
                calls.append(call_from_dict(item, index))
            except ValueError as exc:
                raise InputError(str(exc), source=source, path=f"$.tools[{index}]") from None
        return calls
    from toolscore.extraction import calls_from_payload

    return calls_from_payload(tools)


_default_capture: TraceCapture | None = None


def _default() -> TraceCapture:
    global _default_capture
    if _default_capture is None:
        _default_capture = TraceCapture()
    return _default_capture


def capture_trace(name: str | None = None, save_on_error: bool = True) -> Callable[[F], F]:
    """Decorator using a default :class:`TraceCapture` that writes to ``traces/``."""
    return _default().trace(name=name, save_on_error=save_on_error)
