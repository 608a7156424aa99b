"""The data model: frozen value types shared by every part of toolscore.

Expected ("gold") and actual ("trace") calls are both :class:`ToolCall`. On an expected call
``args=None`` means "do not check arguments" and ``{}`` means "expect no arguments"; values may
be matchers. On an actual call ``args=None`` reads as ``{}`` everywhere.

These types are not meant to be subclassed; plugins carry their own data in ``metadata``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

__all__ = ["ToolCall", "call_from_dict", "calls_from_dicts", "own_metadata"]


def _empty_metadata() -> dict[str, Any]:
    return {}


class _CallSlots:
    """The storage of :class:`ToolCall`'s fields: the same slots, without the frozen guard.

    Why: :meth:`ToolCall.from_fields` fills a new call here with plain attribute stores (the
    interpreter's fastest way to set a slot) and then makes it a ``ToolCall`` by assigning
    ``__class__``, which the shared layout allows. Writing through ``ToolCall``'s frozen
    ``__setattr__`` is impossible, and calling each slot's ``__set__`` cost twice as much; the
    calls are built once per item of every trace, and building them was a quarter of an
    ``evaluate()``.
    """

    __slots__ = (
        "__weakref__",
        "args",
        "cost",
        "duration",
        "error",
        "id",
        "is_error",
        "metadata",
        "result",
        "timestamp",
        "tool",
    )


@attrs.frozen(eq=True, hash=False)
class ToolCall(_CallSlots):
    """One tool call, expected or actual."""

    #: The tool's name; never empty.
    tool: str
    #: Arguments; ``None`` on an expected call means "do not check".
    args: Mapping[str, Any] | None = None
    #: What the tool returned, when the trace recorded it.
    result: Any = None
    #: The error message, when the call failed with one.
    error: str | None = None
    #: Whether the call failed. A non-empty ``error`` always sets it, and so does a failure
    #: recorded in ``metadata`` (``"is_error": true`` or an ``"error"`` message).
    is_error: bool = False
    #: Wall time in seconds.
    duration: float | None = None
    #: Cost in USD.
    cost: float | None = None
    #: When the call started (seconds since the epoch), if known.
    timestamp: float | None = None
    #: The provider's call id, if any.
    id: str | None = None
    #: Anything else the source told: format, provider flags, side effects, description, ...
    metadata: Mapping[str, Any] = attrs.field(factory=_empty_metadata)

    def __attrs_post_init__(self) -> None:
        if not self.tool:
            raise ValueError("Tool name cannot be empty")
        if not self.is_error and (self.error or _failed_in(self.metadata)):
            object.__setattr__(self, "is_error", True)

    @classmethod
    def from_fields(
        cls,
        tool: str,
        args: Mapping[str, Any] | None = None,
        result: Any = None,
        error: str | None = None,
        is_error: bool = False,
        duration: float | None = None,
        cost: float | None = None,
        timestamp: float | None = None,
        id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> ToolCall:
        """The same call as ``ToolCall(...)``, built without the checks, for converters.

        Why: converters (:func:`call_from_dict`, the extractors) build one call per item of
        traces with thousands of calls, and the frozen ``__init__`` (one ``object.__setattr__``
        per field, then the post-init check) is most of their cost. This fills the slots
        directly (see :class:`_CallSlots`), several times faster. The caller guarantees
        what ``__init__`` would check: ``tool`` is a non-empty string, and ``is_error`` is set
        when ``error`` is.
        """
        if cls is not ToolCall:  # a subclass may add slots: filled one by one instead
            return _filled(
                cls, tool, args, result, error, is_error, duration, cost, timestamp, id, metadata
            )
        call: Any = _new(_CallSlots)
        call.tool = tool
        call.args = args
        call.result = result
        call.error = error
        call.is_error = is_error
        call.duration = duration
        call.cost = cost
        call.timestamp = timestamp
        call.id = id
        call.metadata = {} if metadata is None else metadata
        call.__class__ = cls
        built: ToolCall = call
        return built

    @property
    def actual_args(self) -> Mapping[str, Any]:
        """Arguments as an actual call reads them: ``None`` becomes ``{}``."""
        return self.args if self.args is not None else {}

    def to_dict(self) -> dict[str, Any]:
        """The plain-dict form: ``tool`` and ``args`` always, other fields when set.

        ``metadata`` leaves out the ``id`` and ``error`` copies of the fields of the same name
        (:func:`own_metadata`); :func:`call_from_dict` puts them back.
        """
        out: dict[str, Any] = {"tool": self.tool, "args": self.args}
        for key in ("result", "error", "duration", "cost", "timestamp", "id"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.is_error:
            out["is_error"] = True
        metadata = own_metadata(self)
        if metadata:
            out["metadata"] = metadata
        return out


def _filled(cls: type[ToolCall], *values: Any) -> ToolCall:
    """A ``cls`` call with ``values`` in field order, set through ``object.__setattr__``."""
    call = _new(cls)
    for name, value in zip(_FIELD_NAMES, values, strict=True):
        object.__setattr__(call, name, value)
    if call.metadata is None:
        object.__setattr__(call, "metadata", {})
    return call


def _failed_in(metadata: Mapping[str, Any]) -> bool:
    """Whether ``metadata`` records a failure: ``"is_error": true`` or an ``"error"`` message."""
    if not metadata:
        return False
    error = metadata.get("error")
    return metadata.get("is_error") is True or (bool(error) and not isinstance(error, bool))


def own_metadata(call: ToolCall) -> dict[str, Any]:
    """``call.metadata`` without the copies of its fields: ``metadata["id"]`` equal to
    ``call.id`` and ``metadata["error"]`` equal to ``call.error``.

    Why: :func:`call_from_dict` keeps a call's ``id`` and error message in its metadata too
    (code written for earlier versions reads them there), and written files (``to_dict()``,
    the JSON report) must not hold each of them twice.
    """
    metadata = dict(call.metadata)
    if "id" in metadata and call.id is not None and metadata["id"] == call.id:
        del metadata["id"]
    if "error" in metadata and call.error is not None and metadata["error"] == call.error:
        del metadata["error"]
    return metadata


_new = object.__new__
_FIELD_NAMES = tuple(field.name for field in attrs.fields(ToolCall))
# ToolCall adds no slot of its own to _CallSlots (its fields are the same slots): what lets
# ``from_fields`` turn a filled _CallSlots into a ToolCall.
assert ToolCall.__basicsize__ == _CallSlots.__basicsize__
assert {field.name for field in attrs.fields(ToolCall)} == set(_CallSlots.__slots__[1:])


def call_from_dict(item: Any, index: int = 0) -> ToolCall:
    """Build a :class:`ToolCall` from an ``evaluate()``-style dict.

    Error semantics: a bool ``error`` sets the flag; any other truthy
    ``error`` becomes the message (``str()`` of it) and marks the call failed; a bool
    ``is_error`` then overrides the flag, but a non-empty message always wins. ``error`` and
    ``is_error`` inside ``metadata`` count too (producers record failures there too); the
    top-level keys take precedence over them. The call's ``id`` and error message are also
    kept in its metadata (``metadata["id"]``, unless the metadata has its own, and
    ``metadata["error"]``), where code written for earlier versions reads them.
    """
    # Plain dicts skip the (slow) abstract-class check; evaluate() converts every call.
    if type(item) is not dict and not isinstance(item, Mapping):
        raise ValueError(f"Item at index {index} is not a dict")
    get = item.get
    tool = get("tool")
    if not tool:
        raise ValueError(f"Item at index {index} is missing 'tool' key")
    raw_meta = get("metadata")
    metadata: dict[str, Any] = (
        {} if raw_meta is None or not isinstance(raw_meta, Mapping) else dict(raw_meta)
    )
    # Failures may sit in the call's metadata: top-level ``error``/``is_error``
    # are written over ``metadata``'s, then ``is_error is True`` or a truthy ``error`` fails
    # the call. Reading both in that order gives the same verdict for every combination.
    error_value = metadata.get("error")
    flag_value = metadata.get("is_error")
    if "error" in item:
        top_error = get("error")
        if isinstance(top_error, bool):
            flag_value = top_error
        elif top_error:
            error_value = top_error if isinstance(top_error, str) else str(top_error)
            flag_value = True
    is_error_value = get("is_error")
    if isinstance(is_error_value, bool):
        flag_value = is_error_value
    message: str | None = None
    if error_value and not isinstance(error_value, bool):
        message = error_value if isinstance(error_value, str) else str(error_value)
    flag = flag_value is True or bool(error_value)
    call_id = get("id")
    if call_id is not None:
        call_id = call_id if type(call_id) is str else str(call_id)
        if "id" not in metadata:
            metadata["id"] = call_id
    if message is not None:
        metadata["error"] = message
    return ToolCall.from_fields(
        tool if type(tool) is str else str(tool),
        get("args"),
        get("result"),
        message,
        flag,
        get("duration"),
        get("cost"),
        get("timestamp"),
        call_id,
        metadata,
    )


def calls_from_dicts(items: Any) -> list[ToolCall]:
    """Convert a list of call dicts (or ToolCalls) into ToolCalls, validating each item.

    A dict with only ``tool`` (a non-empty string) and ``args``, the usual shape of both
    expected and actual calls, is built directly: :func:`call_from_dict` would read eight
    absent keys to reach the same call, which was most of converting such lists.
    """
    out: list[ToolCall] = []
    append = out.append
    build = ToolCall.from_fields
    for index, item in enumerate(items):
        if type(item) is dict and len(item) <= 2:
            tool = item.get("tool")
            if type(tool) is str and tool and (len(item) == 1 or "args" in item):
                append(build(tool, item.get("args"), None, None, False, None, None, None, None, {}))
                continue
        append(item if isinstance(item, ToolCall) else call_from_dict(item, index))
    return out
