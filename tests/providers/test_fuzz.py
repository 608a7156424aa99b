"""Property-based tests: any JSON, however odd, gets a confidence in [0, 1] and either a list of
calls or an :class:`InputError`, from every extractor; never any other exception."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from providers_support import ALL, EXTRACTORS, FIXTURES, load_fixture
from toolscore.builtin.capture_format import CaptureExtractor
from toolscore.errors import InputError
from toolscore.extraction import Probe
from toolscore.model import ToolCall

#: Keys every format looks for, so that random documents reach deep into the readers.
KEYS = [
    "role",
    "content",
    "tool_calls",
    "function",
    "name",
    "arguments",
    "args",
    "id",
    "type",
    "choices",
    "message",
    "delta",
    "index",
    "object",
    "output",
    "call_id",
    "input",
    "messages",
    "candidates",
    "parts",
    "functionCall",
    "function_call",
    "functionResponse",
    "response",
    "automaticFunctionCallingHistory",
    "contents",
    "tool_use_id",
    "is_error",
    "partial_json",
    "content_block",
    "lc",
    "kwargs",
    "data",
    "tool",
    "tool_input",
    "action",
    "action_input",
    "tool_call_id",
    "status",
    "intermediate_steps",
    "kind",
    "part_kind",
    "tool_name",
    "new_items",
    "raw_item",
    "parent_tool_use_id",
    "tools_results",
    "tool_args",
    "jsonrpc",
    "method",
    "params",
    "result",
    "error",
    "format",
    "resourceSpans",
    "scopeSpans",
    "spans",
    "attributes",
    "key",
    "value",
    "stringValue",
    "intValue",
    "startTimeUnixNano",
    "spanId",
    "parentSpanId",
    "traceId",
    "item",
    "output_index",
    "item_id",
    "custom",
    "structuredContent",
    "isError",
    "code",
    "requestId",
    "started_at",
    "finished_at",
    "outcome",
    "tasks_output",
]
VALUES = [
    "function",
    "custom",
    "tool_use",
    "server_tool_use",
    "mcp_tool_use",
    "tool_result",
    "mcp_tool_result",
    "assistant",
    "user",
    "tool",
    "system",
    "model",
    "ai",
    "human",
    "chat.completion",
    "chat.completion.chunk",
    "response",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "mcp_call",
    "web_search_call",
    "message",
    "message_start",
    "content_block_start",
    "content_block_delta",
    "message_delta",
    "input_json_delta",
    "tool-call",
    "tool-return",
    "retry-prompt",
    "request",
    "tool_call_item",
    "tool_call_output_item",
    "tool_usage_started",
    "tool_usage_finished",
    "tool_usage_error",
    "2.0",
    "tools/call",
    "notifications/cancelled",
    "mcp",
    "execute_tool",
    "gen_ai.tool.name",
    "gen_ai.operation.name",
    "gen_ai.tool.call.arguments",
    "mcp.method.name",
    "response.output_item.added",
    "response.function_call_arguments.delta",
    "response.completed",
    "error",
    "failed",
    "retried",
    '{"a": 1}',
    '{"a":',
    "",
    "x",
]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(VALUES),
    st.text(max_size=8),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), inner, max_size=6),
    ),
    max_leaves=40,
)


def _check(name: str, payload: Any) -> None:
    extractor = EXTRACTORS[name]
    score = extractor.confidence(payload)
    assert isinstance(score, float)
    assert 0.0 <= score <= 1.0
    error: InputError | None = None
    try:
        calls = extractor.extract(payload)
    except InputError as exc:
        error = exc
    if error is not None:
        # Either the whole payload is unreadable, or one item is malformed and named by its path.
        message = str(error)
        assert "\n" not in message, message
        assert (error.path or "").startswith("$"), message
        assert message.startswith(f"{error.path}: "), message
        return
    assert isinstance(calls, list)
    for call in calls:
        assert isinstance(call, ToolCall)
        assert call.tool
        assert isinstance(call.args, dict)
        json.dumps(call.metadata["format"])


@pytest.mark.parametrize("name", sorted(EXTRACTORS))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=json_values)
def test_any_json_is_read_or_rejected_cleanly(name: str, payload: Any) -> None:
    _check(name, payload)


@pytest.mark.parametrize("name", sorted(EXTRACTORS))
@settings(max_examples=40, deadline=None)
@given(payload=st.lists(json_values, min_size=1, max_size=8))
def test_any_list_is_read_or_rejected_cleanly(name: str, payload: list[Any]) -> None:
    _check(name, payload)


@pytest.mark.parametrize("name", sorted(EXTRACTORS))
@pytest.mark.parametrize("payload", [None, 0, 1.5, "text", True, [], {}, [[]], [None], [{}]])
def test_scalars_and_empty_containers(name: str, payload: Any) -> None:
    _check(name, payload)


def _rated_together(payload: Any) -> None:
    """Every format rating one payload through one shared probe (what detection does) gives
    what each gives alone: the shared description of the messages is never another's."""
    alone = {name: extractor.confidence(payload) for name, extractor in EXTRACTORS.items()}
    probe = Probe(payload)
    together = {name: extractor.rate(probe) for name, extractor in EXTRACTORS.items()}
    assert together == alone


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=json_values | st.lists(json_values, min_size=1, max_size=8))
def test_a_shared_probe_rates_as_confidence_does(payload: Any) -> None:
    _rated_together(payload)
    _rated_together({"messages": payload})


@pytest.mark.parametrize("fixture", sorted(p.name for p in FIXTURES.glob("*.json")))
def test_a_shared_probe_rates_every_fixture_as_confidence_does(fixture: str) -> None:
    _rated_together(load_fixture(fixture))


_DETECTORS = {**ALL, "capture": CaptureExtractor()}
#: Every top-level key some format reads, and the fuzz keys.
_TOP_KEYS = sorted({*KEYS, *(k for e in _DETECTORS.values() for k in e.detection_keys)})


_TOP_VALUES = [*VALUES, None, True, 1, [], {}, [{}], [{"type": "tool_use"}], {"parts": []}]


@pytest.mark.parametrize("name", sorted(_DETECTORS))
def test_a_one_key_dict_without_the_detection_keys_rates_zero(name: str) -> None:
    """Every other key, with every value the fuzz knows: confidence 0.0."""
    extractor = _DETECTORS[name]
    for key in _TOP_KEYS:
        if key not in extractor.detection_keys:
            for value in _TOP_VALUES:
                assert extractor.confidence({key: value}) == 0.0, (key, value)


@pytest.mark.parametrize("name", sorted(_DETECTORS))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_dict_without_the_detection_keys_rates_zero(name: str, data: Any) -> None:
    """Detection skips a format for a plain dict that has none of its ``detection_keys``:
    its confidence there is 0.0 whatever the dict holds."""
    extractor = _DETECTORS[name]
    others = [k for k in _TOP_KEYS if k not in extractor.detection_keys]
    values = st.sampled_from(_TOP_VALUES) | json_values
    payload = data.draw(
        st.dictionaries(
            st.sampled_from(others)
            | st.text(max_size=4).filter(lambda key: key not in extractor.detection_keys),
            values,
            max_size=8,
        )
    )
    assert extractor.confidence(payload) == 0.0


_plain_messages = st.fixed_dictionaries(
    {},
    optional={
        "role": st.sampled_from(["user", "assistant", "tool", "system", "developer", "model", "ai"])
        | scalars,
        "content": st.none() | st.text(max_size=3) | st.just([{"type": "text"}]),
        "tool_calls": st.none()
        | st.lists(
            st.fixed_dictionaries(
                {},
                optional={
                    "function": st.none() | st.just({"name": "f"}),
                    "custom": st.none() | st.just({}),
                    "name": st.none() | st.just("n"),
                    "args": st.none() | st.just({}),
                    "type": st.sampled_from(["tool_call", "function"]),
                },
            )
            | scalars,
            max_size=3,
        )
        | scalars,
        "tool_call_id": st.none() | st.just("c1") | st.just(0),
        "name": st.none() | st.just("n"),
    },
)


@settings(max_examples=300, deadline=None)
@given(message=_plain_messages)
def test_plain_chat_messages_are_tagged_as_every_check_tags_them(message: dict[str, Any]) -> None:
    """The shortcut for plain chat messages (tags by shape, remembered) gives the tags the
    full check gives, the first time and when the shape was seen before."""
    from toolscore_providers import _shapes

    full = _shapes._tags(message)
    assert _shapes.tags(message) == full
    assert _shapes.tags(dict(message)) == full


def test_every_plain_chat_shape_is_tagged_as_every_check_tags_it() -> None:
    """Each combination of role, content, calls and call id, in turn: a shape seen before
    never lends its tags to a message whose tags differ."""
    from toolscore_providers import _shapes

    roles = ["user", "assistant", "tool", "system", "developer", "function", "model", "ai", "x"]
    contents: list[Any] = [None, "", "text"]
    calls: list[Any] = [None, [], [{"function": {"name": "f"}}], [{"name": "n", "args": {}}]]
    for role, content, made, call_id in itertools.product(roles, contents, calls, [None, "c"]):
        message = {"role": role, "content": content, "tool_calls": made, "tool_call_id": call_id}
        assert _shapes.tags(message) == _shapes._tags(message), message


_entries = st.fixed_dictionaries(
    {
        "function": st.fixed_dictionaries(
            {"name": st.sampled_from(["f", "g"]), "arguments": st.sampled_from(['{"a": 1}', "{"])}
        )
    },
    optional={"id": st.sampled_from(["c1", "c2", "", 7])},
)
_conversation = st.lists(
    _plain_messages
    | st.fixed_dictionaries(
        {"role": st.just("assistant"), "content": st.none(), "tool_calls": st.lists(_entries)}
    )
    | st.fixed_dictionaries(
        {
            "role": st.just("tool"),
            "tool_call_id": st.sampled_from(["c1", "c2", 7]),
            "content": st.sampled_from(['{"ok": 1}', "text"]),
        }
    ),
    max_size=8,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=_conversation)
def test_calls_read_after_detection_are_those_read_alone(messages: list[Any]) -> None:
    """``calls_from_payload`` hands the chosen extractor what the payload's detection found
    (``extract_probed``): the calls are those the extractor reads from the payload alone."""
    from toolscore.extraction import AmbiguousFormatError, calls_from_payload, detect

    for payload in ({"messages": messages}, messages):
        try:
            chosen = detect(payload)
        except AmbiguousFormatError:
            continue
        if chosen is None or chosen not in EXTRACTORS:
            continue
        try:
            alone: Any = EXTRACTORS[chosen].extract(payload)
        except InputError as exc:
            alone = str(exc)
        try:
            through: Any = calls_from_payload(payload)
        except InputError as exc:
            through = str(exc)
        assert through == alone
        if isinstance(alone, list):
            assert [list(c.metadata.items()) for c in through] == [
                list(c.metadata.items()) for c in alone
            ]
