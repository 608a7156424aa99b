"""Fuzzing every loader: trace and gold files (JSON and JSON Lines), and snapshot names.

Arbitrary JSON-like documents, mutated valid files and arbitrary text lines are written to a
file and loaded; the only exception that may escape is :class:`InputError` (one line, naming
the file), or :class:`MissingPluginError` for a format whose distribution is absent. Any
snapshot name maps to a file name under 255 UTF-8 bytes inside the store's folder.

Budget: fixed and derandomized (same examples on every run), a few seconds in all.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolscore.errors import InputError, MissingPluginError
from toolscore.loading import load_gold_standard, load_trace, read_json
from toolscore.plugins import create_plugin_manager
from toolscore.snapshots import SnapshotStore

PM = create_plugin_manager(load_entrypoints=False)
BUDGET = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
KEY_NAMES = (
    *("tool", "name", "function", "args", "arguments", "calls", "tool_calls", "result", "id"),
    *("metadata", "duration", "cost", "error", "is_error", "$regex", "$any", "$type"),
)
KEYS = st.sampled_from(KEY_NAMES) | st.text(max_size=4)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(["", "search", "\ud800", "\x00"])
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=20,
)
CALL = st.fixed_dictionaries(
    {"tool": st.sampled_from(["search", "open"]) | SCALARS},
    optional={"args": st.dictionaries(KEYS, JSON, max_size=3) | JSON, "result": JSON},
)
FORMATS = st.sampled_from(["auto", "canonical", "custom", "openai", "nope"])
LOADERS = st.sampled_from(["trace", "gold", "json"])


def load(path: Path, loader: str, fmt: str) -> None:
    """Load ``path``; fail the test on any exception but the documented ones."""
    error: Exception | None = None
    try:
        if loader == "trace":
            load_trace(path, format=fmt, plugin_manager=PM)
        elif loader == "gold":
            load_gold_standard(path, plugin_manager=PM)
        else:
            read_json(path)
    except (InputError, MissingPluginError) as exc:
        error = exc
    if isinstance(error, InputError):
        message = str(error)
        assert "\n" not in message
        assert message.startswith(str(path)) or "format" in message, message


def write(text: str, suffix: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="fuzz-loaders-"))
    path = folder / f"input{suffix}"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


@BUDGET
@given(doc=JSON, loader=LOADERS, fmt=FORMATS, suffix=st.sampled_from([".json", ".jsonl"]))
def test_any_json_document_loads_or_is_an_input_error(
    doc: Any, loader: str, fmt: str, suffix: str
) -> None:
    load(write(json.dumps(doc), suffix), loader, fmt)


@BUDGET
@given(
    calls=st.lists(CALL | JSON, max_size=5),
    loader=LOADERS,
    fmt=FORMATS,
    blank=st.booleans(),
    suffix=st.sampled_from([".json", ".jsonl"]),
)
def test_json_lines_of_calls_load_or_name_the_line(
    calls: list[Any], loader: str, fmt: str, blank: bool, suffix: str
) -> None:
    separator = "\n\n" if blank else "\n"
    load(write(separator.join(json.dumps(c) for c in calls), suffix), loader, fmt)


@BUDGET
@given(
    lines=st.lists(
        st.text(max_size=12) | st.sampled_from(['{"tool": "a"}', "[1]", "{"]), max_size=4
    ),
    loader=LOADERS,
    suffix=st.sampled_from([".json", ".jsonl"]),
)
def test_arbitrary_text_lines_never_crash_a_loader(
    lines: list[str], loader: str, suffix: str
) -> None:
    load(write("\n".join(lines), suffix), loader, "auto")


@BUDGET
@given(name=st.text(max_size=300) | st.text(alphabet="😀é\x00/\\.:\ud800 ", max_size=200))
def test_any_snapshot_name_makes_a_safe_file_name(name: str) -> None:
    store = SnapshotStore("/store")
    path = store.path_for(name)
    assert path.parent == Path("/store")
    assert len(path.name.encode("utf-8")) <= 255 - 14  # the atomic write's temp name adds 14
    assert not any(ch < " " or ch in "/\\\x7f" for ch in path.name)
    assert path.name not in (".json", "..json")
