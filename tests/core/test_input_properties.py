"""Property tests: arbitrary JSON never escapes as anything but the documented errors."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolscore.errors import InputError
from toolscore.integrations import auto_extract, extract_calls
from toolscore.loading import load_gold_standard, load_trace
from toolscore.model import ToolCall
from toolscore.plugins import create_plugin_manager
from toolscore.serialization import _quick_valid, load_schema

#: Keys the built-in formats look at, so generated documents reach their code paths.
KEYS = st.sampled_from(
    [
        "tool",
        "name",
        "function",
        "args",
        "arguments",
        "input",
        "calls",
        "tool_calls",
        "result",
        "output",
        "duration",
        "elapsed",
        "cost",
        "time",
        "timestamp",
        "error",
        "is_error",
        "id",
        "metadata",
        "role",
        "side_effects",
        "description",
        "schema",
        "$regex",
        "$any",
        "$approx",
        "$type",
        "$one_of",
        "$contains",
    ]
) | st.text(max_size=5)

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.sampled_from(["search", "int", "str", "\\d+", "["])
)

JSON = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(KEYS, children, max_size=5),
    max_leaves=25,
)

PM = create_plugin_manager(load_entrypoints=False)

SETTINGS = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@SETTINGS
@given(JSON)
def test_auto_extract_raises_only_type_or_value_errors(data: Any) -> None:
    try:
        calls = auto_extract(data, plugin_manager=PM)
    except (TypeError, ValueError):
        return
    assert isinstance(calls, list)


@SETTINGS
@given(JSON)
def test_extract_calls_returns_toolcalls_or_documented_errors(data: Any) -> None:
    try:
        calls = extract_calls(data, plugin_manager=PM)
    except (TypeError, ValueError):
        return
    assert all(isinstance(call, ToolCall) and call.tool for call in calls)


@SETTINGS
@given(JSON, st.sampled_from(["auto", "custom", "canonical"]))
def test_load_trace_raises_only_input_errors(tmp_path: Path, data: Any, fmt: str) -> None:
    path = _write(tmp_path, data)
    try:
        calls = load_trace(path, format=fmt, plugin_manager=PM)
    except InputError as exc:
        message = str(exc)
    else:
        assert all(isinstance(call, ToolCall) and call.tool for call in calls)
        return
    assert "\n" not in message
    assert message.startswith(str(path))


@SETTINGS
@given(JSON)
def test_load_gold_standard_raises_only_input_errors(tmp_path: Path, data: Any) -> None:
    path = _write(tmp_path, data)
    try:
        calls = load_gold_standard(path)
    except InputError as exc:
        message = str(exc)
    else:
        assert all(call.tool for call in calls)
        return
    assert "\n" not in message
    assert message.startswith(str(path))


#: Call-shaped dicts: valid more often than not, so both verdicts get exercised.
CALL = st.fixed_dictionaries(
    {"tool": st.text(max_size=3)},
    optional={
        key: SCALARS | st.dictionaries(st.text(max_size=3), SCALARS, max_size=2)
        for key in ("args", "duration", "cost", "timestamp", "id", "metadata", "side_effects")
    },
)
DOCUMENTS = st.lists(CALL | SCALARS, max_size=3) | st.builds(
    lambda calls: {"calls": calls}, st.lists(CALL, max_size=3) | SCALARS
)


@pytest.mark.parametrize("schema", ["gold", "trace"])
def test_quick_check_agrees_with_jsonschema(schema: str) -> None:
    """The pure-Python pre-check may only skip jsonschema when jsonschema would agree."""
    from jsonschema import Draft202012Validator

    root = load_schema(schema)
    validator = Draft202012Validator(root)

    @settings(max_examples=200, deadline=None)
    @given(DOCUMENTS)
    def check(data: Any) -> None:
        assert _quick_valid(data, root, root) == validator.is_valid(data), data

    check()


def test_nan_durations_do_not_crash_loading(tmp_path: Path) -> None:
    path = tmp_path / "nan.json"
    path.write_text('[{"tool": "a", "duration": NaN}]', encoding="utf-8")
    (call,) = load_trace(path, plugin_manager=PM)
    assert call.duration is not None
    assert math.isnan(call.duration)
