"""Expected calls from Python dicts, with the ``$`` JSON matcher forms honoured.

Why: ``toolscore eval`` reads ``{"$regex": "..."}`` in gold files as a matcher, so the same
gold written as a Python dict must score the same through ``evaluate()``. ``{"$literal": v}``
is the escape for a value that really is such an object (a MongoDB query argument).

Only calls whose arguments contain a ``$`` key are rebuilt; the others pass through untouched.
Most gold lists hold no ``$`` at all, which one C-level encoding of every argument set
shows at once (:func:`_may_hold_json_form`); only when that text has a ``"$`` is each call
walked in Python (:func:`has_json_form`).
"""

from __future__ import annotations

import json.encoder
import marshal
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from toolscore.model import ToolCall, calls_from_dicts

__all__ = ["convert_json_forms", "expected_calls", "has_json_form"]


def has_json_form(value: Any) -> bool:
    """Whether ``value`` holds, at any depth, a one-key dict whose key starts with ``$``."""
    if isinstance(value, dict):
        if len(value) == 1:
            (key,) = value
            if isinstance(key, str) and key.startswith("$"):
                return True
        return any(has_json_form(v) for v in value.values())
    if isinstance(value, list):
        return any(has_json_form(v) for v in value)
    return False


class _NotPlain(Exception):
    """Raised by the encoder of :func:`_may_hold_json_form` for a value JSON cannot hold."""


def _refuse(value: Any) -> Any:
    raise _NotPlain


def _make_text_of() -> Callable[[Any], str] | None:
    """JSON text of a value by CPython's C encoder (``None`` on other interpreters).

    Built once: without circular-reference markers the encoder keeps no state between calls
    (a cycle is a ``RecursionError``); a value JSON cannot hold raises :class:`_NotPlain`.
    """
    make: Any = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # pragma: no cover - other interpreters
        return None
    encoder = make(
        None, _refuse, json.encoder.encode_basestring, None, ":", ",", False, False, True
    )

    def text_of(value: Any) -> str:
        return "".join(encoder(value, 0))

    return text_of


_TEXT_OF = _make_text_of()


def _may_hold_json_form(args_list: list[Any]) -> bool:
    """Whether any of ``args_list`` might hold a ``$`` form; ``False`` only when none does.

    Why: walking every gold call's arguments in Python (:func:`has_json_form`) was about a
    sixth of an ``evaluate()``, and almost no gold list has a ``$`` form. In the JSON text of
    the arguments every string key appears as ``"`` plus its characters (``$`` is never
    escaped), so a key starting with ``$`` leaves ``"$`` in it; a text without ``"$`` rules
    them all out in one C-level pass. A string value starting with ``$`` or a tuple only
    costs the exact walk; so does a value JSON cannot hold (a matcher, an object, a cycle).
    """
    try:
        # Cheaper still: marshal writes every string as its UTF-8 bytes and takes only exact
        # built-in types, so no ``$`` byte at all means no ``$`` anywhere. A ``$`` byte may
        # also be part of a number or a length: then the JSON text decides.
        if b"$" not in marshal.dumps(args_list):
            return False
    except (ValueError, TypeError, RecursionError):  # a subclass, an object, deep nesting
        pass
    if _TEXT_OF is None:  # pragma: no cover - other interpreters
        return True
    try:
        return '"$' in _TEXT_OF(args_list)
    except (_NotPlain, TypeError, ValueError, RecursionError):
        return True


def convert_json_forms(
    args: Mapping[str, Any], plugin_manager: Any = None, *, path: str = "$.args"
) -> dict[str, Any]:
    """``args`` with every ``$`` form turned into its matcher (``$literal`` unwrapped).

    :raises toolscore.errors.GoldFileError: an unknown ``$`` form or a bad operand
        (:func:`toolscore.gold_rules.read_arg_forms`).
    """
    from toolscore.gold_rules import read_arg_forms

    return read_arg_forms(args, plugin_manager, source=None, path=path)


def expected_calls(expected: Sequence[Any], plugin_manager: Any = None) -> list[ToolCall]:
    """:func:`~toolscore.model.calls_from_dicts` for expected calls, ``$`` forms converted.

    :raises toolscore.errors.GoldFileError: an item that is not a call (named by its JSON
        path, ``$[1]``), or an unknown or malformed ``$`` form.
    """
    items: list[Any] = list(expected)
    if _may_hold_json_form([item.get("args") for item in items if isinstance(item, dict)]):
        for index, item in enumerate(items):
            if isinstance(item, dict):
                args = item.get("args")
                if isinstance(args, dict) and has_json_form(args):
                    path = f"$[{index}].args"
                    items[index] = {
                        **item,
                        "args": convert_json_forms(args, plugin_manager, path=path),
                    }
    try:
        return calls_from_dicts(items)
    except ValueError as exc:
        error = exc
    from toolscore.gold_rules import item_error

    for index, item in enumerate(items):
        if not isinstance(item, ToolCall) and not (isinstance(item, Mapping) and item.get("tool")):
            raise item_error(item, source=None, path=f"$[{index}]", index=index) from None
    raise error
