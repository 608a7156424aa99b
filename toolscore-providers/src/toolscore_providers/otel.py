"""OpenTelemetry GenAI spans: ``execute_tool`` spans and MCP ``tools/call`` spans.

Inputs: an OTLP JSON export (``{"resourceSpans": [...]}``, or a list of them as a file exporter
writes), a list of span dicts (OTLP spans with key/value attributes, or spans with a plain
attribute mapping such as ``ReadableSpan.to_json()`` writes), SDK ``ReadableSpan`` objects
(from an ``InMemorySpanExporter``), or a single span.

A span is a tool span when ``gen_ai.tool.name`` is set and either
``gen_ai.operation.name == "execute_tool"`` or ``mcp.method.name == "tools/call"``; an MCP
``tools/call`` span without ``gen_ai.tool.name`` (the ``mcp`` SDK's client spans, named
``MCP send tools/call <tool>``) takes the tool from its span name. Per call:
arguments from ``gen_ai.tool.call.arguments``, result from ``gen_ai.tool.call.result`` (both
JSON-decoded), failure from an ERROR status or ``error.type`` (message: the status
description, an ``exception`` event's message, or the error type), duration from the span's
start and end, id from ``gen_ai.tool.call.id`` or ``jsonrpc.request.id``.

Several spans can describe one call: an agent framework's ``execute_tool`` span wraps the MCP
client span of the same call, and the MCP server's span may be in the same trace. Spans of one
trace are merged into one call when they share a ``gen_ai.tool.call.id``, when one is nested
(through any depth of parents) in a tool span of the same tool, or when they share an MCP
session and JSON-RPC request id. The outermost span gives the duration; the others fill in
what it lacks. Calls come in start-time order.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from toolscore.model import ToolCall

from toolscore_providers._common import (
    CallDraft,
    MalformedItemError,
    decode_json,
    finish,
    get,
    is_list,
    is_object,
    items,
    json_kind,
    module_root,
    new_draft,
    sample,
    unreadable,
)

FORMAT = "otel"

_EXPECTED = "an OTLP export (resourceSpans), a list of spans, or a span"
_ERROR_CODES = (2, "2", "STATUS_CODE_ERROR", "ERROR", "StatusCode.ERROR")


def _otlp_value(value: Any, depth: int = 0) -> Any:
    if not isinstance(value, Mapping) or depth > 50:
        return value
    for key in ("stringValue", "boolValue", "doubleValue", "bytesValue"):
        if key in value:
            return value[key]
    if "intValue" in value:
        raw = value["intValue"]
        try:
            return int(raw)
        except (TypeError, ValueError, OverflowError):
            return raw
    if "arrayValue" in value:
        return [_otlp_value(v, depth + 1) for v in items(get(value.get("arrayValue"), "values"))]
    if "kvlistValue" in value:
        return _kv_list(items(get(value.get("kvlistValue"), "values")), depth + 1)
    return None


def _kv_list(values: list[Any], depth: int = 0) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in values:
        if isinstance(item, Mapping) and isinstance(item.get("key"), str):
            out[item["key"]] = _otlp_value(item.get("value"), depth)
    return out


def _attributes(span: Any, *, strict: bool = False) -> dict[str, Any]:
    """A span's attributes as a mapping; ``strict`` (extraction, not detection) refuses a
    scalar in their place instead of reading the span as one without attributes."""
    raw = get(span, "attributes")
    if isinstance(raw, list):
        return _kv_list(raw)
    if isinstance(raw, Mapping):
        return dict(raw)
    if strict and isinstance(raw, (str, bytes, int, float)):
        raise MalformedItemError(
            f"expected an object or an array of key/value pairs, got {json_kind(raw)}",
            span,
            "attributes",
        )
    if raw is None or isinstance(raw, (str, bytes, int, float, tuple)):
        return {}
    try:
        return dict(raw)
    except (TypeError, ValueError):
        return {}


def _tool_name(attributes: Mapping[str, Any], span: Any) -> Any:
    """The span's tool: ``gen_ai.tool.name``, else, for an MCP ``tools/call`` span, the name
    after ``tools/call`` in the span's name: the ``mcp`` SDK's client spans
    (``MCP send tools/call <tool>``) carry the tool only there."""
    name = attributes.get("gen_ai.tool.name")
    if name or attributes.get("mcp.method.name") != "tools/call":
        return name
    span_name = get(span, "name")
    if isinstance(span_name, str):
        _, found, rest = span_name.partition("tools/call ")
        if found and rest.strip():
            return rest.strip()
    return None


def _is_tool_span(attributes: Mapping[str, Any], span: Any = None) -> bool:
    if not _tool_name(attributes, span):
        return False
    return (
        attributes.get("gen_ai.operation.name") == "execute_tool"
        or attributes.get("mcp.method.name") == "tools/call"
    )


def _spans(payload: Any) -> list[Any] | None:
    if isinstance(payload, (list, tuple)):
        values = list(payload)
        if values and all(isinstance(v, Mapping) and "resourceSpans" in v for v in values):
            return [s for export in values for s in _export_spans(export)]
        return values
    if not is_object(payload):
        return None
    if isinstance(payload, Mapping) and "resourceSpans" in payload:
        return _export_spans(payload)
    spans = get(payload, "spans")
    if is_list(spans):
        return list(spans)
    return [payload]


def _export_spans(export: Mapping[str, Any]) -> list[Any]:
    out: list[Any] = []
    for resource in items(export.get("resourceSpans")):
        scopes = get(resource, "scopeSpans", "instrumentationLibrarySpans")
        for scope in items(scopes):
            out.extend(items(get(scope, "spans")))
    return out


def _looks_like_span(value: Any) -> bool:
    if module_root(value) == "opentelemetry":
        return True
    return get(value, "attributes") is not None and (
        get(value, "spanId", "span_id", "traceId", "trace_id", "context") is not None
        or get(value, "startTimeUnixNano", "start_time") is not None
    )


#: The top-level keys :func:`confidence` reads in a plain dict: one with none of them rates
#: 0.0, and detection skips this format for it (``Extractor.detection_keys``).
DETECTION_KEYS = frozenset({"resourceSpans", "spans", "attributes"})


def confidence(payload: Any) -> float:
    if module_root(payload) == "opentelemetry":
        return 1.0
    if isinstance(payload, Mapping) and "resourceSpans" in payload:
        return 1.0
    if isinstance(payload, (list, tuple)):
        window = sample(list(payload))
        if not window:
            return 0.0
        if all(isinstance(v, Mapping) and "resourceSpans" in v for v in window):
            return 1.0
        spans = [v for v in window if _looks_like_span(v)]
        if not spans:
            return 0.0
        if any(_is_tool_span(_attributes(v), v) for v in window):
            return 0.95
        return 0.7 if len(spans) * 2 >= len(window) else 0.0
    if not is_object(payload):
        return 0.0
    spans = get(payload, "spans")
    if is_list(spans):
        return 0.9 if any(_is_tool_span(_attributes(v), v) for v in sample(list(spans))) else 0.0
    if _looks_like_span(payload) and _is_tool_span(_attributes(payload), payload):
        return 0.9
    return 0.0


# -- span fields -------------------------------------------------------------------------------


def _hex_id(value: Any, width: int) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return f"{value:0{width}x}" if value else None
    if isinstance(value, str) and value:
        ident: str = value.removeprefix("0x")
        # OTLP/JSON ids are hex (compare case-insensitively); protobuf JSON writes base64.
        return ident.lower() if all(c in "0123456789abcdefABCDEF" for c in ident) else ident
    return None


def _context_field(context: Any, name: str) -> Any:
    """A field of a span context: a JSON mapping's key, or an attribute of the SDK's
    ``SpanContext`` (a tuple subclass, which :func:`get` treats as an array)."""
    if context is None or isinstance(context, Mapping):
        return get(context, name)
    return getattr(context, name, None)


def _ids(span: Any) -> tuple[str | None, str | None, str | None]:
    """(trace id, span id, parent span id) as lowercase hex strings."""
    context = span.get("context") if isinstance(span, Mapping) else getattr(span, "context", None)
    trace = _hex_id(get(span, "traceId", "trace_id"), 32) or _hex_id(
        _context_field(context, "trace_id"), 32
    )
    span_id = _hex_id(get(span, "spanId", "span_id"), 16) or _hex_id(
        _context_field(context, "span_id"), 16
    )
    # OTLP JSON: parentSpanId; ReadableSpan.to_json(): parent_id; a ReadableSpan object: its
    # ``parent`` SpanContext. Without the last two, the SDK's span objects had no ids, so the
    # nested spans of one call were not merged and the call was counted twice.
    parent = get(span, "parentSpanId", "parent_id")
    if isinstance(parent, (str, int)):
        parent_id = _hex_id(parent, 16)
    else:
        if parent is None and not isinstance(span, Mapping):
            parent = getattr(span, "parent", None)
        parent_id = _hex_id(_context_field(parent, "span_id"), 16)
    return trace, span_id, parent_id


def _nanos(span: Any, json_key: str, sdk_attr: str) -> int | None:
    value = get(span, json_key, sdk_attr)
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value == value and abs(value) < 1e30 else None
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            pass
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        return int(moment.timestamp() * 1_000_000) * 1000
    return None


def _status(span: Any) -> tuple[bool, str | None]:
    status = get(span, "status")
    if status is None:
        return False, None
    code = get(status, "code", "status_code")
    if code is not None and not isinstance(code, (str, int)):
        code = get(code, "name")
    failed = not isinstance(code, bool) and code in _ERROR_CODES
    message = get(status, "message", "description")
    return failed, message if isinstance(message, str) and message else None


def _exception_message(span: Any) -> str | None:
    for event in items(get(span, "events")):
        if get(event, "name") == "exception":
            message = _attributes(event).get("exception.message")
            if isinstance(message, str) and message:
                return message
    return None


class _Span:
    __slots__ = ("attributes", "draft", "end", "parent", "position", "span_id", "start", "trace")

    def __init__(self, position: int, span: Any, attributes: dict[str, Any]) -> None:
        self.position = position
        self.attributes = attributes
        self.trace, self.span_id, self.parent = _ids(span)
        self.start = _nanos(span, "startTimeUnixNano", "start_time")
        self.end = _nanos(span, "endTimeUnixNano", "end_time")
        self.draft = _draft(span, attributes, self.start, self.end)


def _draft(
    span: Any, attributes: dict[str, Any], start: int | None, end: int | None
) -> CallDraft | None:
    call_id = attributes.get("gen_ai.tool.call.id") or attributes.get("jsonrpc.request.id")
    extra: dict[str, Any] = {}
    for key, meta in (
        ("mcp.method.name", "mcp_method"),
        ("mcp.session.id", "mcp_session_id"),
        ("jsonrpc.request.id", "jsonrpc_request_id"),
        ("gen_ai.tool.type", "tool_type"),
    ):
        value = attributes.get(key)
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            extra[meta] = value
    name = get(span, "name")
    if isinstance(name, str):
        extra["span_name"] = name
    tool_name = _tool_name(attributes, span)
    if "gen_ai.tool.name" not in attributes:
        extra["tool_name_from"] = "span_name"
    if not isinstance(tool_name, str):
        raise MalformedItemError(
            f"gen_ai.tool.name: expected a string, got {json_kind(tool_name)}", span, "attributes"
        )
    draft = new_draft(
        FORMAT,
        tool_name,
        attributes.get("gen_ai.tool.call.arguments"),
        id=call_id if isinstance(call_id, (str, int)) else None,
        kind="execute_tool" if attributes.get("gen_ai.operation.name") == "execute_tool" else "mcp",
        extra=extra,
    )
    if draft is None:
        return None
    raw_arguments = attributes.get("gen_ai.tool.call.arguments")
    if "args_parse_error" in draft.metadata and isinstance(raw_arguments, str):
        # A span's arguments that are not JSON are kept as {"value": text} (docs/compat.md).
        draft.args = {"value": raw_arguments}
    if "gen_ai.tool.call.result" in attributes:
        draft.result = decode_json(attributes["gen_ai.tool.call.result"])
    failed, message = _status(span)
    error_type = attributes.get("error.type")
    if failed or error_type:
        draft.fail(message or _exception_message(span) or (str(error_type) if error_type else None))
    if start is not None:
        draft.timestamp = start / 1e9
        if end is not None and end >= start:
            draft.duration = (end - start) / 1e9
    return draft


def _same_tool(a: _Span, b: _Span) -> bool:
    return a.draft is not None and b.draft is not None and a.draft.tool == b.draft.tool


# -- merging -----------------------------------------------------------------------------------


def _merge(primary: CallDraft, other: CallDraft) -> None:
    if not primary.args and other.args:
        primary.args = other.args
        if "args_parse_error" in other.metadata:
            primary.metadata["args_parse_error"] = other.metadata["args_parse_error"]
    if primary.result is None and other.result is not None:
        primary.result = other.result
    if other.is_error:
        primary.fail(other.error)
    if primary.id is None:
        primary.id = other.id
    for key, value in other.metadata.items():
        primary.metadata.setdefault(key, value)
    primary.metadata["spans"] = primary.metadata.get("spans", 1) + other.metadata.get("spans", 1)


def extract(payload: Any) -> list[ToolCall]:
    raw_spans = _spans(payload)
    if raw_spans is None:
        raise unreadable(FORMAT, _EXPECTED, payload)
    parents: dict[tuple[str | None, str], str | None] = {}
    tools: list[_Span] = []
    for position, span in enumerate(raw_spans):
        if not is_object(span):
            continue
        attributes = _attributes(span, strict=True)
        record_ids = _ids(span)
        if record_ids[1] is not None:
            parents[(record_ids[0], record_ids[1])] = record_ids[2]
        if _is_tool_span(attributes, span):
            tool = _Span(position, span, attributes)
            if tool.draft is not None:
                tools.append(tool)
    tools.sort(key=lambda t: (t.start if t.start is not None else 0, t.position))
    # Union-find over tool spans; the root of each group is its earliest span.
    root: list[int] = list(range(len(tools)))

    def find(i: int) -> int:
        while root[i] != i:
            root[i] = root[root[i]]
            i = root[i]
        return i

    def union(i: int, j: int) -> None:
        a, b = find(i), find(j)
        if a != b:
            root[max(a, b)] = min(a, b)

    by_key: dict[tuple[Any, ...], int] = {}
    by_span: dict[tuple[str | None, str], int] = {}
    for i, tool in enumerate(tools):
        if tool.span_id is not None:
            by_span[(tool.trace, tool.span_id)] = i
    for i, tool in enumerate(tools):
        attrs = tool.attributes
        keys: list[tuple[Any, ...]] = []
        call_id = attrs.get("gen_ai.tool.call.id")
        if isinstance(call_id, (str, int)) and not isinstance(call_id, bool) and call_id != "":
            keys.append((tool.trace, "call", str(call_id)))
        session, request = attrs.get("mcp.session.id"), attrs.get("jsonrpc.request.id")
        if (
            isinstance(session, str)
            and isinstance(request, (str, int))
            and not isinstance(request, bool)
        ):
            keys.append((tool.trace, "mcp", session, str(request)))
        for key in keys:
            if key in by_key:
                union(by_key[key], i)
            else:
                by_key[key] = i
        # Nested in a tool span of the same tool (through any parent chain)?
        seen: set[str] = set()
        parent = tool.parent
        while parent is not None and parent not in seen:
            seen.add(parent)
            ancestor = by_span.get((tool.trace, parent))
            if ancestor is not None and _same_tool(tools[ancestor], tool):
                union(ancestor, i)
                break
            parent = parents.get((tool.trace, parent))
    drafts: list[CallDraft] = []
    for i, tool in enumerate(tools):
        draft = tool.draft
        assert draft is not None
        head = find(i)
        if head == i:
            drafts.append(draft)
        else:
            primary = tools[head].draft
            assert primary is not None
            _merge(primary, draft)
    return finish(drafts)
