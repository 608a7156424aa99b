"""Fuzzing every extractor with mutated real payloads (the recorded fixtures).

One node of a valid payload is replaced by an arbitrary JSON value, or removed. Whatever
comes out, it is a list of well-formed calls or an :class:`InputError` whose one line starts
with a JSON path into the payload; never another exception. A tool name replaced by a value
that is not a string is never read as a call with that value coerced to text.

Budget: fixed and derandomized (same examples on every run), a few seconds in all.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from providers_support import EXTRACTORS, FIXTURES, load_fixture
from toolscore.errors import InputError
from toolscore.model import ToolCall

#: Fixture file -> the format it records (the file names start with the format, but not all).
FORMAT_OF = {
    "claude_agent_sdk": "claude_agent_sdk",
    "langgraph": "langchain",
    "openai_agents": "openai_agents",
    "pydantic_ai": "pydantic_ai",
}
FIXTURE_NAMES = sorted(p.name for p in FIXTURES.glob("*.json"))

BUDGET = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**64), max_value=2**64),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.sampled_from(["", "tool_use", "function", "tools/call", "execute_tool", "\ud800"]),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
NOT_A_STRING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def format_of(fixture: str) -> str:
    for prefix, name in FORMAT_OF.items():
        if fixture.startswith(prefix):
            return name
    return fixture.split("_", 1)[0]


def nodes(value: Any, trail: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every node below the root, depth first."""
    found: list[tuple[Any, ...]] = []
    children = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, child in children:
        found.append((*trail, key))
        found.extend(nodes(child, (*trail, key)))
    return found


def parent_of(payload: Any, trail: tuple[Any, ...]) -> Any:
    node = payload
    for key in trail[:-1]:
        node = node[key]
    return node


def check(fmt: str, payload: Any) -> list[ToolCall]:
    """Read ``payload``; assert the outcome is calls or a one-line error naming a JSON path."""
    extractor = EXTRACTORS[fmt]
    score = extractor.confidence(payload)
    assert 0.0 <= score <= 1.0
    error: InputError | None = None
    calls: list[ToolCall] = []
    try:
        calls = extractor.extract(payload)
    except InputError as exc:
        error = exc
    if error is not None:
        message = str(error)
        assert "\n" not in message
        assert (error.path or "").startswith("$"), message
        assert message.startswith(f"{error.path}: "), message
        return []
    for call in calls:
        assert isinstance(call, ToolCall)
        assert isinstance(call.tool, str)
        assert call.tool
        assert isinstance(call.args, dict)
    json.dumps([c.metadata.get("format") for c in calls])
    return calls


@pytest.mark.parametrize("fixture", FIXTURE_NAMES)
def test_every_fixture_is_read_by_its_extractor(fixture: str) -> None:
    assert check(format_of(fixture), load_fixture(fixture))


@pytest.mark.parametrize("fixture", FIXTURE_NAMES)
@BUDGET
@given(data=st.data(), replacement=JSON, remove=st.booleans())
def test_a_mutated_payload_is_read_or_rejected_with_a_path(
    fixture: str, data: st.DataObject, replacement: Any, remove: bool
) -> None:
    payload = load_fixture(fixture)
    trail = data.draw(st.sampled_from(nodes(payload)))
    parent = parent_of(payload, trail)
    if remove:
        del parent[trail[-1]]
    else:
        parent[trail[-1]] = replacement
    check(format_of(fixture), payload)


NAME_KEYS = ("name", "tool_name", "tool", "gen_ai.tool.name")


def name_nodes(payload: Any, names: set[str]) -> list[tuple[Any, ...]]:
    """Paths of the string fields holding a tool name (including OTLP ``stringValue``s)."""
    found = []
    for trail in nodes(payload):
        value = parent_of(payload, trail)[trail[-1]]
        if not isinstance(value, str) or value not in names:
            continue
        if trail[-1] in NAME_KEYS or trail[-1] == "stringValue":
            found.append(trail)
    return found


@pytest.mark.parametrize("fixture", FIXTURE_NAMES)
@BUDGET
@given(data=st.data(), value=NOT_A_STRING)
def test_a_tool_name_that_is_not_a_string_is_never_coerced(
    fixture: str, data: st.DataObject, value: Any
) -> None:
    fmt = format_of(fixture)
    payload = load_fixture(fixture)
    names = {call.tool for call in EXTRACTORS[fmt].extract(payload)}
    candidates = name_nodes(payload, names)
    if not candidates:
        return
    trail = data.draw(st.sampled_from(candidates))
    mutated = copy.deepcopy(payload)
    parent_of(mutated, trail)[trail[-1]] = value
    calls = check(fmt, mutated)
    coerced = {str(value), json.dumps(value)}
    assert not [call.tool for call in calls if call.tool in coerced and call.tool not in names]
