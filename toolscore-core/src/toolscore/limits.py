"""The size, depth and time bounds on work that a user's file can ask for.

Why one module: a schema (``toolscore generate``, ``toolscore mcp test``) or a gold file can
ask for far more than anyone means. ``{"minItems": 100000000}``, ``{"minLength": 1e9}``, a
``pattern`` of ``a{1000000000}``, a ``$ref`` that points back at itself or a ``$regex`` such
as ``(a|aa)+$`` would each take gigabytes or hours if taken at their word. Every generator
and matcher reads its bound here, so the numbers are named once and documented once.

The bounds sit far above what a real schema or gold file uses, so ordinary values (and the
values the generators draw for them) are untouched. A value cut short by a bound may break the
schema that asked for more: the generators do not try again, and the schema check
that follows (cheap: a length comparison) reports it, so the tool is shown as not callable
with valid arguments instead of hanging the run.
"""

from __future__ import annotations

__all__ = [
    "MAX_GENERATED_CHARS",
    "MAX_GENERATED_DEPTH",
    "MAX_GENERATED_ITEMS",
    "MAX_GENERATED_NODES",
    "MAX_GENERATED_STRING",
    "MAX_INPUT_DEPTH",
    "MAX_PATTERN_EXPANSION",
    "MAX_RECORD_BYTES",
    "REGEX_TIMEOUT_SECONDS",
    "SCHEMA_PATTERN_TIMEOUT_SECONDS",
    "GenerationBudget",
    "capped_count",
    "capped_length",
    "decode_json",
    "too_deep_at",
    "too_deep_in_json",
]

#: Nesting of arrays and objects in anything a user gives us (gold files, traces, dataset
#: records, snapshots, ``--option`` values). Real files nest a few dozen levels at most;
#: deeper ends in a clear input error, the same for ``validate`` as for ``eval``, instead of
#: the interpreter's recursion limit somewhere in the middle of a run.
MAX_INPUT_DEPTH = 200
#: Bytes in one dataset record (one JSON Lines line): a larger one is a bad record, never a
#: gigabyte of memory.
MAX_RECORD_BYTES = 32 * 1024 * 1024

#: Characters in one generated string (``minLength``, repeats in a ``pattern``).
MAX_GENERATED_STRING = 10_000
#: Items in one generated array (``minItems``).
MAX_GENERATED_ITEMS = 100
#: Nesting of generated arrays and objects (deep schemas, recursive ``$ref``).
MAX_GENERATED_DEPTH = 12
#: Values (strings, numbers, items, properties) in one generated argument, all levels
#: together: arrays of arrays of ``minItems: 100`` would otherwise multiply to billions.
MAX_GENERATED_NODES = 10_000
#: Characters in all the strings of one generated argument together.
MAX_GENERATED_CHARS = 100_000

#: Items a user's pattern may spell out once its minimum repeats are expanded: the ``regex``
#: engine compiles ``a{1000000000}`` into a billion items (minutes), so larger is refused.
MAX_PATTERN_EXPANSION = 100_000
#: Seconds one match of a user's pattern may take (gold ``$regex``, forbidden-call rules,
#: a gold schema's ``pattern``). Longer is an error that names the pattern.
REGEX_TIMEOUT_SECONDS = 1.0
#: Seconds one match of an MCP server's schema ``pattern`` may take while values are made
#: up for it; longer counts as "does not match" (the server's pattern is unusable).
SCHEMA_PATTERN_TIMEOUT_SECONDS = 0.1


def capped_length(length: int) -> int:
    """``length`` (a string length a schema asks for) within ``0..MAX_GENERATED_STRING``."""
    return max(0, min(length, MAX_GENERATED_STRING))


def capped_count(count: int) -> int:
    """``count`` (an item count a schema asks for) within ``0..MAX_GENERATED_ITEMS``."""
    return max(0, min(count, MAX_GENERATED_ITEMS))


class GenerationBudget:
    """How many more values and characters one generated argument may hold
    (:data:`MAX_GENERATED_NODES`, :data:`MAX_GENERATED_CHARS`).

    One budget is shared by every level of one value, so the total stays bounded however
    arrays and objects nest. Generators call :meth:`take` once per value they make and make
    no more once it returns False, and pass every string they make through :meth:`text`.
    """

    __slots__ = ("chars_left", "left")

    def __init__(self, nodes: int = MAX_GENERATED_NODES, chars: int = MAX_GENERATED_CHARS) -> None:
        self.left = nodes
        self.chars_left = chars

    def text(self, value: str) -> str:
        """``value``, cut to the characters left; what it keeps is spent."""
        if len(value) > self.chars_left:
            value = value[: max(self.chars_left, 0)]
        self.chars_left -= len(value)
        return value

    def take(self) -> bool:
        """Spend one value; False when the budget is already spent."""
        if self.left <= 0:
            return False
        self.left -= 1
        return True


def too_deep_at(value: object, limit: int = MAX_INPUT_DEPTH) -> str | None:
    """The JSON path of the first array or object nested deeper than ``limit``, else None.

    Iterative, so checking a value never hits the recursion limit itself.
    """
    stack: list[tuple[object, str, int]] = [(value, "$", 0)]
    while stack:
        node, path, depth = stack.pop()
        if not isinstance(node, (dict, list)):
            continue
        if depth >= limit:
            return path
        if depth == _PATH_SHOWN:
            path += "…"
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, child in items:
            if depth >= _PATH_SHOWN:
                step = ""
            else:
                step = f"[{key}]" if isinstance(node, list) else f".{key}"
            stack.append((child, path + step, depth + 1))
    return None


def too_deep_in_json(text: str | bytes, value: object, limit: int = MAX_INPUT_DEPTH) -> str | None:
    """:func:`too_deep_at` for ``value``, decoded from the JSON ``text``; without the walk when
    the text cannot nest that deep.

    Why: each level of nesting opens a bracket, so a text with at most ``limit`` of them (in
    strings or not) holds nothing deeper. Counting them is a C loop over the text, where the
    walk visits every value in Python: it was a fifth of ``eval-batch``'s time per case, on
    records that nest four levels.
    """
    if isinstance(text, bytes):
        brackets = text.count(b"[") + text.count(b"{")
    else:
        brackets = text.count("[") + text.count("{")
    if brackets <= limit:
        return None
    return too_deep_at(value, limit)


#: Levels of a too-deep value's path spelled out in the error (the rest is "…").
_PATH_SHOWN = 12


def decode_json(text: str | bytes) -> object:
    """``json.loads`` that refuses, with ``ValueError``, what the other readers cannot hold:
    nesting deeper than :data:`MAX_INPUT_DEPTH` (``nested deeper than 200 levels at $.a[0]``)."""
    import json

    try:
        value = json.loads(text)
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_INPUT_DEPTH} levels") from None
    where = too_deep_in_json(text, value)
    if where is not None:
        raise ValueError(f"nested deeper than {MAX_INPUT_DEPTH} levels at {where}")
    return value
