"""Expected calls from Python dicts, with the ``$`` JSON matcher forms honoured.

Why: ``toolscore eval`` reads ``{"$regex": "..."}`` in gold files as a matcher, so the same
gold written as a Python dict must score the same through ``evaluate()``. ``{"$literal": v}``
is the escape for a value that really is such an object (a MongoDB query argument).

Only calls whose arguments contain a ``$`` key are rebuilt; the others pass through untouched,
so large plain gold lists cost one walk over their arguments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    for index, item in enumerate(items):
        if isinstance(item, dict):
            args = item.get("args")
            if isinstance(args, dict) and has_json_form(args):
                path = f"$[{index}].args"
                items[index] = {**item, "args": convert_json_forms(args, plugin_manager, path=path)}
    try:
        return calls_from_dicts(items)
    except ValueError as exc:
        error = exc
    from toolscore.gold_rules import item_error

    for index, item in enumerate(items):
        if not isinstance(item, ToolCall) and not (isinstance(item, Mapping) and item.get("tool")):
            raise item_error(item, source=None, path=f"$[{index}]", index=index) from None
    raise error
