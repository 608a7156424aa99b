"""Reading the JSON (or Python) form of gold steps, with one-line errors naming the JSON path."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolscore.errors import GoldFileError
from toolscore.expectations.model import AnyOrder, OneOf, OptionalStep, Repeat, Step

__all__ = ["STRUCTURE_KEYS", "is_structured", "parse_steps"]

#: The keys that make a gold item a structured step instead of a call.
STRUCTURE_KEYS = frozenset({"optional", "repeat", "any_order", "one_of"})


def _is_step(item: Any) -> bool:
    if type(item) is dict and "tool" in item:  # a plain call: skips the abstract-class check
        return False
    return isinstance(item, Mapping) and "tool" not in item and bool(STRUCTURE_KEYS & set(item))


def is_structured(items: Any) -> bool:
    """Whether a gold list holds any structured step (else it is a plain flat list)."""
    return isinstance(items, list) and any(_is_step(item) for item in items)


def parse_steps(
    items: Any, *, plugin_manager: Any = None, source: str | None = None, path: str = "$"
) -> tuple[Step, ...]:
    """The steps of a gold list; calls get their ``$`` matcher forms read.

    :raises toolscore.errors.GoldFileError: ``<source>: <json path>: <what was expected>``.
    """
    if not isinstance(items, list):
        raise GoldFileError(
            f"expected an array of steps, got {_kind(items)}", source=source, path=path
        )
    return tuple(
        _step(item, plugin_manager, source, f"{path}[{index}]") for index, item in enumerate(items)
    )


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return next((n for t, n in names.items() if isinstance(value, t)), type(value).__name__)


def _step(item: Any, pm: Any, source: str | None, path: str) -> Step:
    if not isinstance(item, Mapping):
        raise GoldFileError(
            f"expected a call or step object, got {_kind(item)}", source=source, path=path
        )
    if "tool" in item:
        return _call(item, pm, source, path)
    keys = STRUCTURE_KEYS & set(item)
    if len(keys) != 1:
        from toolscore.gold_rules import item_error

        raise item_error(item, source=source, path=path)
    (key,) = keys
    allowed = {"repeat": {"repeat", "min", "max"}}.get(key, {key})
    unknown = [k for k in item if k not in allowed]
    if unknown:
        from toolscore.gold_rules import step_key_error

        raise step_key_error(str(unknown[0]), key, allowed, source=source, path=path)
    value = item[key]
    if key == "optional":
        return OptionalStep(_step(value, pm, source, f"{path}.optional"))
    if key == "repeat":
        return _repeat(item, pm, source, path)
    if key == "any_order":
        steps = parse_steps(value, plugin_manager=pm, source=source, path=f"{path}.any_order")
        if not steps:
            raise GoldFileError(
                "expected at least one step", source=source, path=f"{path}.any_order"
            )
        return AnyOrder(steps)
    return _one_of(value, pm, source, f"{path}.one_of")


def _json(value: Any) -> str:
    """``value`` as JSON writes it (``"x"``, ``null``, ``1.5``), for messages about a file."""
    import json

    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _repeat(item: Mapping[str, Any], pm: Any, source: str | None, path: str) -> Repeat:
    low, high = item.get("min", 1), item.get("max")
    if isinstance(low, bool) or not isinstance(low, int) or low < 0:
        raise GoldFileError(
            f"expected an integer >= 0, got {_json(low)}", source=source, path=f"{path}.min"
        )
    if high is not None and (
        isinstance(high, bool) or not isinstance(high, int) or high < max(low, 1)
    ):
        raise GoldFileError(
            f"expected an integer >= min ({low}) and >= 1, or null, got {_json(high)}",
            source=source,
            path=f"{path}.max",
        )
    return Repeat(_step(item["repeat"], pm, source, f"{path}.repeat"), low, high)


def _one_of(value: Any, pm: Any, source: str | None, path: str) -> OneOf:
    named: Sequence[tuple[str, Any, str]]
    if isinstance(value, Mapping):
        named = [(str(name), alt, f"{path}.{name}") for name, alt in value.items()]
    elif isinstance(value, list):
        named = [(str(i + 1), alt, f"{path}[{i}]") for i, alt in enumerate(value)]
    else:
        raise GoldFileError(
            f"expected an array or object of alternatives, got {_kind(value)}",
            source=source,
            path=path,
        )
    if len(named) < 2:
        raise GoldFileError("expected at least two alternatives", source=source, path=path)
    alternatives = tuple(
        parse_steps(alt, plugin_manager=pm, source=source, path=where) for _, alt, where in named
    )
    return OneOf(tuple(name for name, _, _ in named), alternatives)


def _call(item: Mapping[str, Any], pm: Any, source: str | None, path: str) -> Step:
    from toolscore.matching._expected import has_json_form
    from toolscore.model import call_from_dict

    tool = item.get("tool")
    if not isinstance(tool, str) or not tool:
        raise GoldFileError(
            f"expected a non-empty tool name, got {_kind(tool)}", source=source, path=f"{path}.tool"
        )
    args = item.get("args")
    if args is not None and not isinstance(args, Mapping):
        raise GoldFileError(
            f"expected an object or null, got {_kind(args)}", source=source, path=f"{path}.args"
        )
    if args is not None and has_json_form(args):
        from toolscore.gold_rules import read_arg_forms

        args = read_arg_forms(args, pm, source=source, path=f"{path}.args")
    gold = {"tool": tool, "args": args, "metadata": _metadata(item)}
    try:
        return call_from_dict(gold)
    except (TypeError, ValueError) as exc:
        raise GoldFileError(f"invalid call: {exc}", source=source, path=path) from None


def _metadata(item: Mapping[str, Any]) -> dict[str, Any]:
    """Every key but ``tool``/``args`` lands in metadata, as in a flat gold file."""
    nested = item.get("metadata")
    out: dict[str, Any] = dict(nested) if isinstance(nested, Mapping) else {}
    out.update((k, v) for k, v in item.items() if k not in ("tool", "args", "metadata"))
    out.setdefault("side_effects", {})
    return out
