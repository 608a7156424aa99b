"""OpenAI Agents SDK: run results, run items and serialized run states.

Reads:

* a ``RunResult`` / ``RunResultStreaming`` (its ``new_items``), ``{"new_items": [...]}``, a
  list of run items (objects or ``{"type": "tool_call_item", "raw_item": {...}}`` dicts), and
  a ``RunState.to_json()`` document (its ``generated_items``);
* ``tool_call_item``s: their ``raw_item`` is a Responses API item (function calls, custom
  tools, hosted MCP and search calls, computer and shell calls; see
  :mod:`toolscore_providers._responses`);
* results from ``tool_call_output_item``s (``output``, matched by ``call_id``).

* a ``raw_item`` without a ``type`` (``{"name", "arguments"}`` as an object or dict) as a
  function call (a bare name and arguments can only be one);
* handoffs (``handoff_call_item``): the model called ``transfer_to_<agent>`` as a tool, so it
  is a call, marked ``handoff: True`` in its metadata (with ``handoff_to``, the target agent's
  name, from the ``handoff_output_item``). Scoring what the model
  actually called lets a gold file expect a handoff (docs/compat.md).

A list of plain Responses items (``result.to_input_list()``) is read too, though the
``openai`` format claims it first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolscore.model import ToolCall

from toolscore_providers import _responses
from toolscore_providers._common import (
    CallDraft,
    Drafts,
    decode_json,
    finish,
    get,
    is_list,
    is_object,
    module_root,
    new_draft,
    plain,
    sample,
    unreadable,
)

FORMAT = "openai_agents"

_EXPECTED = "a run result (new_items), run items (type/raw_item) or a serialized run state"


def _is_run_item(value: Any) -> bool:
    kind = get(value, "type")
    return isinstance(kind, str) and kind.endswith("_item") and get(value, "raw_item") is not None


def _item_list(payload: Any) -> list[Any] | None:
    if isinstance(payload, (list, tuple)):
        return list(payload)
    if not is_object(payload):
        return None
    for key in ("new_items", "generated_items"):
        value = get(payload, key)
        if is_list(value):
            return list(value)
    return None


#: The top-level keys :func:`confidence` reads in a plain dict: one with none of them rates
#: 0.0, and detection skips this format for it (``Extractor.detection_keys``).
DETECTION_KEYS = frozenset({"new_items", "generated_items", "type"})


def confidence(payload: Any) -> float:
    if module_root(payload) == "agents":
        return 1.0
    if isinstance(payload, (list, tuple)):
        window = sample(list(payload))
        if not window:
            return 0.0
        if all(module_root(v) == "agents" for v in window):
            return 1.0
        run_items = sum(1 for v in window if _is_run_item(v))
        if run_items and run_items * 4 >= len(window) * 3:
            return 0.95
        if all(_responses.is_item(v) or _responses.is_message_item(v) for v in window) and any(
            _responses.is_item(v) for v in window
        ):
            return 0.6
        return 0.0
    if not is_object(payload):
        return 0.0
    if is_list(get(payload, "new_items")):
        return 0.95
    if is_list(get(payload, "generated_items")) and get(payload, "$schemaVersion") is not None:
        return 0.95
    if _is_run_item(payload):
        return 0.9
    return 0.0


def extract(payload: Any) -> list[ToolCall]:
    values = _item_list(payload)
    if values is None:
        if is_object(payload) and _is_run_item(payload):
            values = [payload]
        else:
            raise unreadable(FORMAT, _EXPECTED, payload)
    found = Drafts()
    for item in values:
        kind = get(item, "type")
        kind = kind if isinstance(kind, str) else None  # a list or dict type is no run item
        raw = get(item, "raw_item")
        if kind in _CALL_ITEMS:
            draft = found.add(_call(raw))
            if draft is not None and kind == "handoff_call_item":
                draft.metadata["handoff"] = True
        elif kind in _OUTPUT_ITEMS:
            draft = found.index.find(get(raw, "call_id", "id"))
            if draft is None:
                continue
            output = get(item, "output") if _has_output(item) else get(raw, "output")
            draft.result = decode_json(plain(output))
            target = get(get(item, "target_agent"), "name")
            if kind == "handoff_output_item" and isinstance(target, str):
                draft.metadata["handoff_to"] = target
        elif raw is None and _responses.is_item(item):
            draft = _responses.call_from_item(item, FORMAT)
            if found.add(draft) is None:
                _responses.apply_output(item, found.index)
    return finish(found.drafts)


#: Run items that carry a call the model made, and those that carry its output.
_CALL_ITEMS = frozenset({"tool_call_item", "handoff_call_item"})
_OUTPUT_ITEMS = frozenset({"tool_call_output_item", "handoff_output_item"})


def _call(raw: Any) -> CallDraft | None:
    """The call in a run item's ``raw_item``: a Responses item, or (no ``type``) a bare
    ``name``/``arguments`` pair, read as a function call."""
    if get(raw, "type") is not None:
        return _responses.call_from_item(raw, FORMAT)
    return new_draft(
        FORMAT,
        get(raw, "name"),
        get(raw, "arguments"),
        id=get(raw, "call_id", "id"),
        kind="function_call",
        where=raw,
    )


def _has_output(item: Any) -> bool:
    if isinstance(item, Mapping):
        return "output" in item
    return get(item, "output") is not None
