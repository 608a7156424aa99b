"""Helpers shared by every extractor: duck-typed access, argument decoding, call drafts.

Payloads arrive either as decoded JSON (dicts and lists) or as the SDK objects a provider's
client returned (pydantic models, dataclasses, plain objects). Extractors never import an SDK:
they read both forms through :func:`get`, which looks up a key in a mapping or an attribute on
an object, so the JSON dump of an object and the object itself are read by the same code.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from json import scanner as _json_scanner
from typing import Any

from toolscore.errors import InputError
from toolscore.model import ToolCall

__all__ = [
    "CallDraft",
    "Drafts",
    "MalformedItemError",
    "action_input",
    "decode_json",
    "fields_of",
    "finish",
    "get",
    "is_list",
    "items",
    "json_kind",
    "locate",
    "located",
    "messages_of",
    "module_root",
    "note_unreadable_args",
    "parse_args",
    "plain",
    "present",
    "scan_once",
    "text_of",
    "unreadable",
]

#: How many items confidence checks look at; enough for any realistic mix of messages, and it
#: keeps detection cheap on huge payloads.
SCAN_LIMIT = 500

_MISSING = object()

# The C scanner behind json.loads, called directly: it skips two Python-level wrappers per
# call, which is most of the cost for the small argument strings of tool calls. Anything it
# does not consume exactly (surrounding whitespace, errors) goes through json.loads.
scan_once = _json_scanner.make_scanner(json.JSONDecoder())  # type: ignore[arg-type]


def get(obj: Any, *names: str, default: Any = None) -> Any:
    """The first of ``names`` that ``obj`` has with a non-None value, as a key or attribute.

    Works on dicts (JSON) and SDK objects alike. Lists, strings and numbers have no fields.
    """
    if type(obj) is dict:  # decoded JSON, the common case: no ABC check
        for name in names:
            value = obj.get(name)
            if value is not None:
                return value
        return default
    if isinstance(obj, Mapping):
        for name in names:
            value = obj.get(name)
            if value is not None:
                return value
        return default
    if obj is None or isinstance(obj, (str, bytes, int, float, list, tuple)):
        return default
    for name in names:
        try:
            value = getattr(obj, name, None)
        except Exception:
            value = None
        if value is not None and not callable(value):
            return value
    return default


def fields_of(obj: Any) -> Callable[[str], Any]:
    """``get(obj, name)`` as a one-argument function: a plain dict's own ``get``, which does
    the same for decoded JSON at a fraction of the cost (confidence checks read many keys
    of every payload)."""
    if type(obj) is dict:
        return obj.get
    return partial(get, obj)


def text(obj: Any, *names: str) -> str | None:
    """The first of ``names`` as a string (for tags like ``type``), else ``None``."""
    value = get(obj, *names)
    return value if isinstance(value, str) else None


def has(obj: Any, name: str) -> bool:
    """Whether ``obj`` carries ``name`` as a key or an attribute (even when it is None)."""
    if type(obj) is dict or isinstance(obj, Mapping):
        return name in obj
    if obj is None or isinstance(obj, (str, bytes, int, float, list, tuple)):
        return False
    try:
        return hasattr(obj, name)
    except Exception:
        return False


def present(value: Any, key: str) -> bool:
    """Whether ``key`` is given: a mapping's key (even with a null value), an object's non-None field."""
    if isinstance(value, Mapping):
        return key in value
    return get(value, key) is not None


def is_list(value: Any) -> bool:
    """Lists and tuples (the JSON arrays of both forms)."""
    return isinstance(value, (list, tuple))


def items(value: Any) -> list[Any]:
    """``value`` as a list when it is an array, else ``[]``."""
    if isinstance(value, list):
        return value
    if isinstance(value, tuple):
        return list(value)
    return []


def is_object(value: Any) -> bool:
    """A mapping or an SDK object: something with fields (not a scalar or an array)."""
    if type(value) is dict:  # decoded JSON, the common case
        return True
    return value is not None and not isinstance(value, (str, bytes, int, float, bool, list, tuple))


def messages_of(payload: Any) -> list[Any] | None:
    """A payload's messages: its items when it is an array, else its ``messages`` array, else
    ``None``. A list comes back as it is (not a copy): read it, never change it."""
    if isinstance(payload, (list, tuple)):
        return items(payload)
    if is_object(payload):
        messages = get(payload, "messages")
        if is_list(messages):
            return items(messages)
    return None


def module_root(obj: Any) -> str:
    """The top-level package that defined ``obj``'s class (``"openai"``, ``"anthropic"``, ...).

    Remembered per module name: every format asks it of every payload it rates.
    """
    module = type(obj).__module__
    root = _ROOTS.get(module) if type(module) is str else None
    if root is None:
        root = module.split(".", 1)[0]
        if type(module) is str and len(_ROOTS) < _ROOTS_KEPT:
            _ROOTS[module] = root
    return root


#: :func:`module_root` by module name, at most :data:`_ROOTS_KEPT` of them.
_ROOTS: dict[str, str] = {}
_ROOTS_KEPT = 1024


def class_name(obj: Any) -> str:
    return type(obj).__name__


def sample(values: list[Any]) -> list[Any]:
    """The items a confidence check looks at: all of them, up to :data:`SCAN_LIMIT`."""
    return values if len(values) <= SCAN_LIMIT else values[:SCAN_LIMIT]


def unreadable(fmt: str, expected: str, payload: Any, path: str = "$") -> InputError:
    """The error for a payload that holds nothing this format knows."""
    return InputError(
        f"not a {fmt} payload: expected {expected}, got {_describe(payload)}", path=path
    )


def _describe(payload: Any) -> str:
    if isinstance(payload, Mapping):
        keys = ", ".join(repr(k) for k in list(payload)[:6])
        return f"an object with keys {keys}" if keys else "an empty object"
    if isinstance(payload, (list, tuple)):
        return f"an array of {len(payload)} items"
    if payload is None:
        return "null"
    return type(payload).__name__


class MalformedItemError(InputError):
    """An item of a payload is certainly a tool call (or a span, a request) but malformed.

    Raised deep inside an extractor, where only the offending node is at hand: ``node`` is the
    JSON object holding the bad field and ``key`` the field. :func:`located` turns it into an
    :class:`InputError` whose path is the node's JSON path in the whole payload.
    """

    def __init__(self, message: str, node: Any, key: str | int | None) -> None:
        super().__init__(message)
        self.node = node
        self.key = key


def json_kind(value: Any) -> str:
    """The JSON name of ``value``'s type (``null``, ``integer``, ``object``...) for messages."""
    from toolscore.serialization import json_type_name

    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, tuple):
        return "array"
    return json_type_name(value)


def _find(root: Any, node: Any, limit: int = 200_000) -> list[str | int] | None:
    """The keys leading from ``root`` to the object ``node`` (found by identity), or ``None``."""
    stack: list[tuple[Any, list[str | int]]] = [(root, [])]
    seen = 0
    while stack and seen < limit:
        value, trail = stack.pop()
        seen += 1
        if value is node:
            return trail
        if isinstance(value, Mapping):
            stack.extend((v, [*trail, str(k)]) for k, v in reversed(list(value.items())))
        elif isinstance(value, (list, tuple)):
            stack.extend((v, [*trail, i]) for i, v in reversed(list(enumerate(value))))
    return None


def locate(payload: Any, error: MalformedItemError) -> InputError:
    """``error`` as an :class:`InputError` naming its JSON path (``$.messages[3].content[1].name``).

    The path is found by looking for the offending node in ``payload``; a node that was built
    by the extractor (a joined stream fragment) or lives in an SDK object has no path of its
    own, and the error then names the field only.
    """
    from toolscore.serialization import json_path

    trail = _find(payload, error.node) if error.node is not None else None
    if trail is None:
        where = error.key if isinstance(error.key, str) else None
        return InputError(f"{where}: {error.detail}" if where else error.detail, path="$")
    if error.key is not None:
        trail = [*trail, error.key]
    return InputError(error.detail, path=json_path(trail))


def located(extract: Callable[[Any], list[ToolCall]]) -> Callable[[Any], list[ToolCall]]:
    """Wrap an extractor's ``extract`` so that malformed items are reported with their path."""

    def wrapper(payload: Any) -> list[ToolCall]:
        try:
            return extract(payload)
        except MalformedItemError as exc:
            raise locate(payload, exc) from None

    wrapper.__name__ = getattr(extract, "__name__", "extract")
    wrapper.__doc__ = extract.__doc__
    return wrapper


# -- values ------------------------------------------------------------------------------------


def parse_args(value: Any) -> tuple[Mapping[str, Any], str | None]:
    """Arguments as a mapping, plus the JSON error when a string could not be decoded.

    * a mapping is used as it is (SDK objects are converted with :func:`plain`);
    * a JSON string is decoded; ``""`` and ``null`` mean no arguments;
    * a string that is not JSON gives ``{}`` (nothing is invented for the score), and
      the error is returned: the caller records it and the raw text with
      :func:`note_unreadable_args`, so nothing is lost and the CLI can warn;
    * any other JSON value (a number, an array) becomes ``{"value": value}``.
    """
    if isinstance(value, dict):
        return value, None
    if isinstance(value, str):
        try:
            decoded, end = scan_once(value, 0)
            if end != len(value):
                raise ValueError
        except (StopIteration, ValueError, RecursionError):
            if not value.strip():
                return {}, None
            try:
                decoded = json.loads(value)
            except (ValueError, RecursionError) as exc:
                return {}, _json_error(exc)
        return _wrap(decoded), None
    if value is None:
        return {}, None
    return _wrap(plain(value)), None


#: Metadata keys for arguments that could not be decoded: the decoder's error (the key
#: :mod:`toolscore.input_checks` reads) and the text as it arrived.
ARGS_PARSE_ERROR = "args_parse_error"
RAW_ARGUMENTS = "raw_arguments"


def note_unreadable_args(metadata: dict[str, Any], problem: str, raw: Any) -> None:
    """Record in a call's ``metadata`` that its arguments could not be decoded, and their text.

    Called when :func:`parse_args` returned a problem; the call's args are then ``{}``.
    """
    metadata[ARGS_PARSE_ERROR] = problem
    if isinstance(raw, str):
        metadata[RAW_ARGUMENTS] = raw


def _wrap(decoded: Any) -> Mapping[str, Any]:
    if isinstance(decoded, dict):
        return decoded
    if decoded is None:
        return {}
    return {"value": decoded}


def _json_error(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "arguments are nested too deeply to decode"
    return f"invalid JSON arguments: {exc}"


def action_input(raw: Any) -> Any:
    """An agent action's ``tool_input`` as LangChain reads it (CrewAI writes the same shape).

    A string holding a JSON object is decoded; any other string is kept as ``{"input": text}``;
    values that are not strings come back unchanged.
    """
    if not isinstance(raw, str):
        return raw
    try:
        decoded = json.loads(raw)
    except (ValueError, RecursionError):
        decoded = None
    return decoded if isinstance(decoded, dict) else {"input": raw}


def decode_json(value: Any) -> Any:
    """A JSON-string value decoded when possible (tool results often are), else unchanged."""
    if isinstance(value, str) and value[:1] in ("{", "[", '"'):
        try:
            decoded, end = scan_once(value, 0)  # what json.loads does, less its wrappers
            if end == len(value):
                return decoded
        except (StopIteration, ValueError, RecursionError):
            pass
        try:  # trailing whitespace, or an error: json.loads decides
            return json.loads(value)
        except (ValueError, RecursionError):
            return value
    return value


def plain(value: Any, _depth: int = 0) -> Any:
    """A JSON-like copy of an SDK value: pydantic models dumped, dataclasses and mappings walked.

    Plain JSON values come back unchanged (no copy). Unknown objects are kept as they are.
    """
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if _depth > 50:
        return value
    if isinstance(value, dict):
        if all(v is None or isinstance(v, (str, int, float, bool)) for v in value.values()):
            return value
        return {k: plain(v, _depth + 1) for k, v in value.items()}
    if isinstance(value, Mapping):
        return {k: plain(v, _depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v, _depth + 1) for v in value]
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            return dump(mode="json", exclude_unset=True)
        except TypeError:
            # A model_dump() that takes no options (not pydantic's): call it bare.
            try:
                return plain(dump(), _depth + 1)
            except Exception:
                return value
        except Exception:
            return value
    fields = getattr(value, "__dataclass_fields__", None)
    if isinstance(fields, Mapping):
        return {
            name: plain(getattr(value, name, None), _depth + 1)
            for name in fields
            if not name.startswith("_")
        }
    return value


def text_of(content: Any) -> Any:
    """The text of a message's content: a string as is, text parts joined with newlines.

    Content that holds no text (images, structured data) is returned in JSON form.
    """
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        texts: list[str] = []
        for part in content:
            if isinstance(part, str):
                texts.append(part)
                continue
            text = get(part, "text")
            if isinstance(text, str):
                texts.append(text)
            else:
                return plain(content)
        return "\n".join(texts)
    return plain(content)


def number(value: Any) -> float | None:
    """A finite JSON number as float; bools, strings and others are not numbers."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    result = float(value)
    return result if result == result and result not in (float("inf"), float("-inf")) else None


# -- drafts ------------------------------------------------------------------------------------


class CallDraft:
    """A call being assembled; results and errors may arrive later in the payload."""

    __slots__ = (
        "args",
        "duration",
        "error",
        "id",
        "is_error",
        "metadata",
        "result",
        "timestamp",
        "tool",
    )

    def __init__(
        self,
        tool: str,
        args: Mapping[str, Any],
        *,
        id: Any = None,
        metadata: dict[str, Any],
    ) -> None:
        self.tool = tool
        self.args = args
        self.id: str | None = None if id is None or id == "" else str(id)
        self.metadata = metadata
        self.result: Any = None
        self.error: str | None = None
        self.is_error = False
        self.duration: float | None = None
        self.timestamp: float | None = None

    def fail(self, message: Any) -> None:
        """Mark the call failed; ``message`` (any value) becomes the error text when non-empty."""
        self.is_error = True
        if message is not None and message != "" and self.error is None:
            self.error = (
                message
                if isinstance(message, str)
                else json.dumps(plain(message), default=str, ensure_ascii=False)
            )

    def build(self) -> ToolCall:
        """The frozen call; the draft's name is never empty and ``is_error`` follows ``error``,
        so it takes :meth:`ToolCall.from_fields` (a large payload builds thousands)."""
        return ToolCall.from_fields(
            self.tool,
            self.args,
            self.result,
            self.error,
            self.is_error or bool(self.error),
            self.duration,
            None,
            self.timestamp,
            self.id,
            self.metadata,
        )


def new_draft(
    fmt: str,
    name: Any,
    raw_args: Any,
    *,
    id: Any = None,
    kind: str | None = None,
    extra: Mapping[str, Any] | None = None,
    where: Any = None,
    key: str = "name",
    required: bool = False,
) -> CallDraft | None:
    """A draft for a named call, its arguments decoded.

    A name that is not a string (a number, an object, ``true``) is never coerced: it raises
    :class:`MalformedItemError` for ``where[key]`` (``where`` is the JSON node that holds the
    name, so the error can name its path). A missing, null or empty name returns ``None``
    (the item is not a call), unless ``required`` says the item is certainly a call (a
    ``tool_use`` block, a ``tools/call`` request): then it is an error too, never a silent drop.
    """
    if not isinstance(name, str) and name is not None:
        raise MalformedItemError(f"expected a string, got {json_kind(name)}", where, key)
    if not name:
        if required:
            got = "null" if name is None else "an empty string"
            raise MalformedItemError(f"expected a non-empty tool name, got {got}", where, key)
        return None
    args, problem = parse_args(raw_args)
    metadata: dict[str, Any] = {"format": fmt}
    if kind is not None:
        metadata["kind"] = kind
    if extra:
        metadata.update(extra)
    if problem is not None:
        note_unreadable_args(metadata, problem, raw_args)
    if isinstance(id, bool) or not isinstance(id, (str, int)):
        id = None
    return CallDraft(name, args, id=id, metadata=metadata)


def finish(drafts: Iterable[CallDraft]) -> list[ToolCall]:
    """Build the frozen calls, in order."""
    return [draft.build() for draft in drafts]


class ResultIndex:
    """Drafts by call id, so that results found later in a payload attach to their call."""

    def __init__(self) -> None:
        self._by_id: dict[str, CallDraft] = {}

    def add(self, draft: CallDraft) -> None:
        if draft.id is not None:
            self._by_id.setdefault(draft.id, draft)

    def find(self, call_id: Any) -> CallDraft | None:
        if call_id is None or isinstance(call_id, (bool, dict, list, tuple)):
            return None
        return self._by_id.get(str(call_id))


class Drafts:
    """The calls of one payload in the order found, indexed by id for the results that follow.

    The extractors' readers extend it; a reader with no state of its own uses it as it is.
    """

    def __init__(self) -> None:
        self.drafts: list[CallDraft] = []
        self.index = ResultIndex()

    def add(self, draft: CallDraft | None) -> CallDraft | None:
        """Keep ``draft`` (when there is one) and index it by its id; returns it."""
        if draft is not None:
            self.drafts.append(draft)
            self.index.add(draft)
        return draft
