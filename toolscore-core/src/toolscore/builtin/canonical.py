"""Core's own trace formats: ``canonical`` and ``custom``.

* ``canonical`` is toolscore's own shape: a list of ``{"tool", "args", ...}`` dicts (what
  ``evaluate()`` takes) or an object whose ``"calls"`` list holds them (canonical trace files
  and snapshot files). Every call field is kept: result, error, is_error, duration, cost,
  timestamp, id, metadata.
* ``custom`` is the lenient fallback for payloads nothing else claims: names may be under
  ``tool``, ``name`` or ``function``, arguments under ``args``, ``arguments`` or ``input``, the
  list under ``calls`` or ``tool_calls``, and everything else goes to metadata.

Both report a confidence, so format detection can weigh them against provider extractors:
canonical is certain of its own shape, custom only claims payloads nobody else explains.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from toolscore._markers import hookimpl
from toolscore.errors import InputError
from toolscore.model import ToolCall, call_from_dict
from toolscore.specs import ExtractorSpec

__all__ = ["CanonicalExtractor", "CustomExtractor", "toolscore_register_extractors"]


def _has_tool(item: Any) -> bool:
    return isinstance(item, Mapping) and isinstance(item.get("tool"), str) and bool(item["tool"])


def _is_agent_action(item: Any) -> bool:
    return isinstance(item, Mapping) and "tool_input" in item and "args" not in item


def _canonical_items(payload: Any) -> tuple[list[Any], str] | None:
    """The call list of a canonical payload and the JSON path prefix of its items."""
    if isinstance(payload, list):
        return payload, "$"
    if isinstance(payload, Mapping) and isinstance(payload.get("calls"), list):
        return payload["calls"], "$.calls"
    return None


class CanonicalExtractor:
    """Reads ``[{"tool", "args", ...}]`` lists and ``{"calls": [...]}`` documents."""

    #: An object is read only through its ``calls`` (see ``Extractor``).
    detection_keys = frozenset({"calls"})

    def confidence(self, payload: Any) -> float:
        """1.0 when every item is a call dict; 0.9 when the first is (errors then name a path)."""
        found = _canonical_items(payload)
        if found is None:
            return 0.0
        items, _ = found
        if not items:
            return 1.0 if isinstance(payload, list) else 0.9
        if any(_is_agent_action(item) for item in items[:50]):
            # LangChain / CrewAI agent actions ({"tool", "tool_input"}): their readers keep
            # the arguments that this format would drop.
            return 0.5
        if all(_has_tool(item) for item in items):
            return 1.0
        first = items[0]
        return 0.9 if isinstance(first, Mapping) and "tool" in first else 0.0

    def extract(self, payload: Any) -> list[ToolCall]:
        """Every call, validated; a bad item raises :class:`InputError` naming its JSON path."""
        found = _canonical_items(payload)
        if found is None:
            raise InputError(
                'expected an array of tool calls, or an object with a "calls" array', path="$"
            )
        items, prefix = found
        from toolscore.serialization import validate_document

        validate_document(payload, "trace")
        calls: list[ToolCall] = []
        for index, item in enumerate(items):
            try:
                calls.append(call_from_dict(item, index))
            except ValueError as exc:  # pragma: no cover - the schema check above catches these
                raise InputError(str(exc), path=f"{prefix}[{index}]") from exc
        return calls


# -- custom ----------------------------------------------------------------------------------

#: Keys the custom format reads into call fields; all others go to metadata.
_CUSTOM_FIELDS = frozenset(
    {
        "tool",
        "name",
        "function",
        "args",
        "arguments",
        "input",
        "result",
        "output",
        "timestamp",
        "time",
        "duration",
        "elapsed",
        "cost",
    }
)
#: Keys that keep their ``evaluate()`` meaning (failure, id, metadata).
_PASSED_THROUGH = ("error", "is_error", "id")


def _custom_name(item: Mapping[str, Any]) -> Any:
    return item.get("tool") or item.get("name") or item.get("function")


def _custom_list(payload: Any) -> Any:
    """The call list of a custom payload: ``calls``, else ``tool_calls``, else the payload itself
    when it names a tool (may be a non-list)."""
    if isinstance(payload, Mapping):
        calls = payload["calls"] if "calls" in payload else payload.get("tool_calls", [])
        if not calls:
            calls = [payload] if "tool" in payload or "name" in payload else []
        return calls
    return payload


def _looks_like_custom_call(item: Any) -> bool:
    """A dict naming a tool by a plain string, and not a chat message."""
    if not isinstance(item, Mapping) or "role" in item:
        return False
    return any(isinstance(item.get(k), str) and item.get(k) for k in ("tool", "name", "function"))


def _number(value: Any, path: str, what: str, *, keep_zero: bool = False) -> float | None:
    """A numeric field: falsy (``0``, ``""``) reads as not recorded, except a kept zero."""
    if value is None or (not value and not keep_zero):
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"expected {what}, got {type(value).__name__}", path=path)
    return value


class CustomExtractor:
    """The lenient generic format, and auto-detection's fallback when no other format fits."""

    #: An object is a call list (``calls``, ``tool_calls``) or names a tool (see ``Extractor``).
    detection_keys = frozenset({"calls", "tool_calls", "tool", "name", "function"})

    def confidence(self, payload: Any) -> float:
        """0.3 when every item looks like a named call, 0.1 when some do, else 0."""
        if isinstance(payload, Mapping) and not isinstance(
            payload.get("calls", payload.get("tool_calls")), list
        ):
            return 0.2 if _looks_like_custom_call(payload) else 0.0
        items = _custom_list(payload)
        if not isinstance(items, list) or not items:
            return 0.0
        hits = sum(1 for item in items if _looks_like_custom_call(item))
        if hits == len(items):
            return 0.3
        return 0.1 if hits else 0.0

    def extract(self, payload: Any) -> list[ToolCall]:
        if payload is None:
            raise ValueError("Trace data cannot be None")
        if not isinstance(payload, (Mapping, list)):
            raise ValueError(f"Trace data must be dict or list, got {type(payload).__name__}")
        items = _custom_list(payload)
        if not isinstance(items, list):
            raise ValueError("Expected list of calls in custom trace")
        prefix = "$.calls" if isinstance(payload, Mapping) and "calls" in payload else "$"
        if isinstance(payload, Mapping) and "calls" not in payload and "tool_calls" in payload:
            prefix = "$.tool_calls"
        return [self._call(item, f"{prefix}[{index}]") for index, item in self._named(items)]

    @staticmethod
    def _named(items: list[Any]) -> Iterator[tuple[int, Mapping[str, Any]]]:
        for index, item in enumerate(items):
            if isinstance(item, Mapping) and _custom_name(item):
                yield index, item

    @staticmethod
    def _call(item: Mapping[str, Any], path: str) -> ToolCall:
        name = _custom_name(item)
        if not isinstance(name, str):  # never coerced: {"name": 5} is an error, not "5"
            from toolscore.serialization import json_type_name

            key = next(k for k in ("tool", "name", "function") if item.get(k))
            raise InputError(f"expected a string, got {json_type_name(name)}", path=f"{path}.{key}")
        args = item.get("args") or item.get("arguments") or item.get("input") or {}
        if not isinstance(args, Mapping):
            args = {"value": args}
        metadata = {k: v for k, v in item.items() if k not in _CUSTOM_FIELDS}
        record: dict[str, Any] = {
            "tool": name,
            "args": dict(args),
            "result": item.get("result") or item.get("output") or None,
            "timestamp": _number(
                item.get("timestamp") or item.get("time"), f"{path}.timestamp", "a number"
            ),
            "duration": _number(
                item.get("duration") or item.get("elapsed"),
                f"{path}.duration",
                "a number of seconds",
            ),
            "cost": _number(item.get("cost"), f"{path}.cost", "a number", keep_zero=True),
        }
        for key in _PASSED_THROUGH:
            if key in metadata:
                record[key] = metadata.pop(key)
        nested = metadata.pop("metadata", None)
        if isinstance(nested, Mapping):
            metadata = {**nested, **metadata}
        elif nested is not None:
            metadata["metadata"] = nested
        if record.get("id") is not None and isinstance(record["id"], (dict, list)):
            metadata["id"] = record.pop("id")
        record["metadata"] = metadata
        return call_from_dict(record)


@hookimpl
def toolscore_register_extractors() -> Iterator[ExtractorSpec]:
    """Core's two formats; provider formats come from toolscore-providers."""
    yield ExtractorSpec(
        name="canonical",
        factory=CanonicalExtractor,
        summary='toolscore\'s own call lists: [{"tool", "args", ...}] or {"calls": [...]}',
        aliases=("toolscore", "snapshot"),
    )
    yield ExtractorSpec(
        name="custom",
        factory=CustomExtractor,
        summary="generic JSON: tool/name/function, args/arguments/input, calls/tool_calls",
        aliases=("generic",),
    )
