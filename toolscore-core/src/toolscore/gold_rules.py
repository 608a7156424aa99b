"""What a gold item and its argument values may be, and how each mistake is named.

Why: gold is read by several front ends (``evaluate()``, ``match_trajectory()``,
``load_gold_standard``, ``toolscore eval``, ``toolscore validate``, ``evaluate_dataset``). A
typo must be caught by each of them with the same one line, a
:class:`~toolscore.errors.GoldFileError` naming the JSON path, instead of being scored as a
literal (``{"$regx": "b"}``) or reported as a missing ``tool``.

The rules:

* An item is a call (it has ``tool``) or a step: ``optional``, ``repeat`` (with ``min`` and
  ``max``), ``any_order`` or ``one_of``. An item without ``tool`` whose keys are neither is an
  unknown key, named with the closest valid one.
* In argument values, a one-key object whose key starts with ``$`` is a matcher form: a
  registered one (``$regex``, ``$contains``, ``$one_of``, ``$any``, ``$approx``, ``$type`` and
  every form a plugin registers) or ``$literal``, whose operand is the value itself, unread.
  Any other ``$`` key is an unknown matcher. An object with several keys is a plain value
  whatever its keys are (``{"$gt": 1, "$lt": 5}``), and so is anything inside ``$literal``:
  ``{"$literal": {"$gt": 1}}`` is how a one-key ``$`` object is written as a value.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from toolscore.errors import GoldFileError

__all__ = [
    "LITERAL_KEY",
    "STEP_KEYS",
    "forms_used",
    "item_error",
    "read_arg_forms",
    "step_key_error",
    "unknown_form",
]

#: The keys that make a gold item a step instead of a call.
STEP_KEYS = ("optional", "repeat", "any_order", "one_of")
#: The escape for a value that looks like a matcher form.
LITERAL_KEY = "$literal"
#: The keys a gold call reads into its fields (every other key lands in its metadata).
_CALL_KEYS = ("tool", "args", "side_effects", "description", "schema", "metadata")
_STEPS_TEXT = (
    'a gold item is a call ("tool") or a step: "optional", "repeat" (with "min" and "max"), '
    '"any_order" or "one_of"'
)

Forms = Mapping[str, Callable[[Any], Any]]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean "x"?)`` for the closest of ``choices``, or nothing."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f' (did you mean "{close[0]}"?)' if close else ""


def _kind(value: Any) -> str:
    names = {bool: "a boolean", dict: "an object", list: "an array", str: "a string"}
    if value is None:
        return "null"
    return next((n for t, n in names.items() if isinstance(value, t)), type(value).__name__)


def _quoted(names: Iterable[str]) -> str:
    return ", ".join(f'"{name}"' for name in names)


def item_error(
    item: Any, *, source: str | None, path: str, index: int | None = None
) -> GoldFileError:
    """The mistake in a gold item that is not a readable call.

    ``index`` is given for in-memory lists of calls (``match_trajectory()``, a flat
    ``evaluate()`` list): a step is then refused as such, and a missing tool also says
    ``Item at index N is missing 'tool' key``, the wording earlier versions raised.
    """
    legacy = "" if index is None else f" (Item at index {index} is missing 'tool' key)"
    if not isinstance(item, Mapping):
        legacy = "" if index is None else f" (Item at index {index} is not a dict)"
        return GoldFileError(
            f"expected a call or step object, got {_kind(item)}{legacy}", source=source, path=path
        )
    if "tool" not in item:
        steps = [key for key in STEP_KEYS if key in item]
        if len(steps) == 1 and index is not None:
            return GoldFileError(
                f'a "{steps[0]}" step is not a single call; evaluate() scores steps',
                source=source,
                path=path,
            )
        if len(steps) > 1:
            return GoldFileError(
                f"expected one step per object, got {_quoted(steps)}; {_STEPS_TEXT}",
                source=source,
                path=path,
            )
        known = {*_CALL_KEYS, *STEP_KEYS, "min", "max"}
        unknown = [key for key in item if key not in known]
        if unknown and not steps:
            key = str(unknown[0])
            hint = did_you_mean(key, ("tool", "args", *STEP_KEYS, "min", "max"))
            return GoldFileError(
                f'unknown key "{key}"{hint}; {_STEPS_TEXT}', source=source, path=path
            )
    tool = item.get("tool")
    got = "nothing" if "tool" not in item else _kind(tool) if tool != "" else "an empty string"
    return GoldFileError(
        f"expected a non-empty tool name, got {got}{legacy}", source=source, path=f"{path}.tool"
    )


def step_key_error(
    key: str, step: str, allowed: Iterable[str], *, source: str | None, path: str
) -> GoldFileError:
    """An unexpected key in a step (``{"repeat": ..., "mx": 3}``)."""
    allowed = sorted(allowed)
    return GoldFileError(
        f'unexpected key "{key}" in a "{step}" step{did_you_mean(key, allowed)}; '
        f"its keys are {_quoted(allowed)}",
        source=source,
        path=path,
    )


def unknown_form(value: Any, forms: Forms) -> tuple[tuple[str | int, ...], str] | None:
    """Where in ``value`` the first unknown ``$`` form is, and its key; ``None`` if none.

    It walks the value as :func:`~toolscore.matching.matchers.matcher_from_json` converts it:
    into objects and lists, into the operands of ``$contains`` and ``$one_of``, never into
    ``$literal`` or another form's operand.
    """
    if isinstance(value, dict):
        if len(value) == 1:
            ((key, operand),) = value.items()
            if isinstance(key, str) and key.startswith("$"):
                if key == LITERAL_KEY:
                    return None
                if key not in forms:
                    return (), key
                if key not in ("$contains", "$one_of"):
                    return None
                found = unknown_form(operand, forms)
                return None if found is None else ((key, *found[0]), found[1])
        for key, item in value.items():
            found = unknown_form(item, forms)
            if found is not None:
                return (key, *found[0]), found[1]
    elif isinstance(value, list):
        for position, item in enumerate(value):
            found = unknown_form(item, forms)
            if found is not None:
                return (position, *found[0]), found[1]
    return None


def _unknown_form_error(key: str, forms: Forms, *, source: str | None, path: str) -> GoldFileError:
    names = sorted({*forms, LITERAL_KEY})
    return GoldFileError(
        f'unknown matcher "{key}"{did_you_mean(key, names)}; the matchers are '
        f"{', '.join(names)} (a value that is a one-key object with a $ key is written "
        f'{{"{LITERAL_KEY}": ...}})',
        source=source,
        path=path,
    )


def read_arg_forms(
    args: Mapping[str, Any], plugin_manager: Any = None, *, source: str | None, path: str
) -> dict[str, Any]:
    """``args`` (of the call at ``path``) with every ``$`` form turned into its matcher.

    ``plugin_manager`` ``None``: the built-in forms, and the running command's (or the
    process-wide) plugin manager's only when a value uses a form that is not built in.

    :raises GoldFileError: an unknown form, or a form with a bad operand
        (``$[0].args.q: invalid matcher: $regex needs a pattern string, got 5``).
    """
    from toolscore.matching.matchers import json_forms, matcher_from_json
    from toolscore.serialization import json_path

    forms = json_forms(plugin_manager)
    out: dict[str, Any] = {}
    for key, value in args.items():
        where = path + json_path([key])[1:]
        found = unknown_form(value, forms)
        if found is not None and plugin_manager is None:
            from toolscore.plugins import manager_or_default

            plugin_manager = manager_or_default(None)
            forms = json_forms(plugin_manager)
            found = unknown_form(value, forms)
        if found is not None:
            inner, form = found
            raise _unknown_form_error(form, forms, source=source, path=where + json_path(inner)[1:])
        try:
            out[key] = matcher_from_json(value, registry=forms)
        except (ValueError, TypeError, re.error) as exc:
            raise GoldFileError(f"invalid matcher: {exc}", source=source, path=where) from None
    return out


def forms_used(value: Any, counts: dict[str, int] | None = None) -> dict[str, int]:
    """How many times each ``$`` form (``$literal`` included) is written in ``value``."""
    counts = {} if counts is None else counts
    if isinstance(value, dict):
        if len(value) == 1:
            ((key, operand),) = value.items()
            if isinstance(key, str) and key.startswith("$"):
                counts[key] = counts.get(key, 0) + 1
                if key in ("$contains", "$one_of"):
                    forms_used(operand, counts)
                return counts
        for item in value.values():
            forms_used(item, counts)
    elif isinstance(value, list):
        for item in value:
            forms_used(item, counts)
    return counts
