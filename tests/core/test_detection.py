"""Format detection: every extractor rates the whole payload; the most confident one reads it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
import toolscore
from toolscore.builtin.detection import AmbiguousFormatError, detect, rank_formats
from toolscore.integrations import extract_calls
from toolscore.model import ToolCall
from toolscore.plugins.manager import ToolscorePluginManager
from toolscore.specs import ExtractorSpec


class FixedExtractor:
    """Claims payloads that carry its marker key with a fixed confidence."""

    built = 0

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        FixedExtractor.built += 1

    def confidence(self, payload: Any) -> float:
        return self.score if isinstance(payload, dict) and "marker" in payload else 0.0

    def extract(self, payload: Any) -> list[ToolCall]:
        return [ToolCall(tool=self.name, args={})]


class RaisingExtractor:
    def confidence(self, payload: Any) -> float:
        raise RuntimeError("broken plugin")

    def extract(self, payload: Any) -> list[ToolCall]:  # pragma: no cover - never chosen
        raise AssertionError("never chosen")


class ExtractorPlugin:
    """A real plugin object registering extractors through the hook."""

    def __init__(self, *specs: ExtractorSpec) -> None:
        self.specs = specs

    @toolscore.hookimpl
    def toolscore_register_extractors(self) -> Iterator[ExtractorSpec]:
        yield from self.specs


def spec(name: str, score: float) -> ExtractorSpec:
    return ExtractorSpec(name=name, factory=lambda: FixedExtractor(name, score))


def test_canonical_lists_and_documents(builtin_pm: ToolscorePluginManager) -> None:
    assert detect([{"tool": "a", "args": {}}], builtin_pm) == "canonical"
    assert detect({"calls": [{"tool": "a"}]}, builtin_pm) == "canonical"
    assert detect([], builtin_pm) == "canonical"


def test_custom_shapes(builtin_pm: ToolscorePluginManager) -> None:
    assert detect([{"name": "s", "arguments": {}}], builtin_pm) == "custom"
    assert detect({"tool": "one"}, builtin_pm) == "custom"
    assert detect({"tool_calls": [{"name": "x"}]}, builtin_pm) == "custom"


@pytest.mark.parametrize(
    "payload",
    [
        {"foo": 1},
        5,
        None,
        "text",
        [1, 2],
        # chat messages are never read as custom calls, even when they carry a name
        [{"role": "user", "content": "hi"}, {"role": "tool", "name": "search", "content": "r"}],
    ],
)
def test_nothing_recognised_returns_none(builtin_pm: ToolscorePluginManager, payload: Any) -> None:
    assert detect(payload, builtin_pm) is None


def test_whole_payload_is_rated_not_only_the_first_item(builtin_pm: ToolscorePluginManager) -> None:
    # The first item has no name; the rest do: still custom (with lower confidence).
    assert detect([{"x": 1}, {"name": "a"}], builtin_pm) == "custom"
    ranked = rank_formats([{"x": 1}, {"name": "a"}], builtin_pm.get_extractors())
    assert ranked == [(0.1, "custom")]


def test_most_confident_plugin_wins(builtin_pm: ToolscorePluginManager) -> None:
    builtin_pm.register(ExtractorPlugin(spec("low", 0.2), spec("high", 0.8)), name="test-plugin")
    assert detect({"marker": 1}, builtin_pm) == "high"
    assert [c.tool for c in extract_calls({"marker": 1}, plugin_manager=builtin_pm)] == ["high"]


def test_tie_at_the_top_names_the_candidates(builtin_pm: ToolscorePluginManager) -> None:
    builtin_pm.register(
        ExtractorPlugin(spec("alpha", 0.7), spec("beta", 0.7), spec("gamma", 0.1)), name="tie"
    )
    with pytest.raises(AmbiguousFormatError) as info:
        detect({"marker": 1}, builtin_pm)
    assert info.value.candidates == ("alpha", "beta")
    assert "alpha, beta" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_an_extractor_that_raises_counts_as_zero(builtin_pm: ToolscorePluginManager) -> None:
    builtin_pm.register(
        ExtractorPlugin(ExtractorSpec(name="broken", factory=RaisingExtractor)), name="broken"
    )
    assert detect([{"tool": "a"}], builtin_pm) == "canonical"


def test_a_plugin_detector_takes_precedence(builtin_pm: ToolscorePluginManager) -> None:
    class Detector:
        @toolscore.hookimpl
        def toolscore_detect_format(self, payload: Any) -> str | None:
            return "custom" if isinstance(payload, list) else None

    builtin_pm.register(Detector(), name="detector")
    assert detect([{"tool": "a"}], builtin_pm) == "custom"  # the plugin answered first
    assert detect({"calls": [{"tool": "a"}]}, builtin_pm) == "canonical"  # it passed


def test_extractors_are_built_once_per_manager(builtin_pm: ToolscorePluginManager) -> None:
    builtin_pm.register(ExtractorPlugin(spec("once", 0.5)), name="once")
    before = FixedExtractor.built
    for _ in range(3):
        detect({"marker": 1}, builtin_pm)
    assert FixedExtractor.built == before + 1


def test_direct_hook_call_uses_the_process_wide_manager(
    only_builtins: ToolscorePluginManager,
) -> None:
    assert only_builtins.detect_format([{"name": "x"}]) == "custom"
    assert detect([{"tool": "x"}]) == "canonical"


def test_extractors_with_rate_share_one_probe(builtin_pm: ToolscorePluginManager) -> None:
    seen: list[Any] = []

    class Rated(FixedExtractor):
        def rate(self, probe: Any) -> float:
            seen.append(probe)
            probe.memo[self.name] = True
            return self.confidence(probe.payload)

    builtin_pm.register(
        ExtractorPlugin(
            ExtractorSpec(name="r1", factory=lambda: Rated("r1", 0.4)),
            ExtractorSpec(name="r2", factory=lambda: Rated("r2", 0.6)),
            spec("plain", 0.5),  # confidence only: still asked
        ),
        name="rated",
    )
    payload = {"marker": 1}
    assert rank_formats(payload, builtin_pm.get_extractors()) == [
        (0.6, "r2"),
        (0.5, "plain"),
        (0.4, "r1"),
    ]
    assert len(seen) == 2
    assert seen[0] is seen[1]
    assert seen[0].payload is payload
    assert seen[0].memo == {"r1": True, "r2": True}


def test_hook_monitors_see_every_detection(builtin_pm: ToolscorePluginManager) -> None:
    # Core's detector is called directly when alone; a monitor (TOOLSCORE_TRACE_HOOKS) must
    # still see each call, with the same answer, and stop seeing them once removed.
    builtin_pm.get_extractors()  # built before the monitor: only detections are seen
    seen: list[str] = []
    undo = builtin_pm.add_hookcall_monitoring(
        lambda name, impls, kwargs: seen.append(name), lambda *args: None
    )
    assert detect({"calls": [{"tool": "a"}]}, builtin_pm) == "canonical"
    assert detect([{"tool": "a"}], builtin_pm) == "canonical"
    assert seen == ["toolscore_detect_format"] * 2
    undo()
    undo()  # a second undo changes nothing
    assert detect({"calls": [{"tool": "a"}]}, builtin_pm) == "canonical"
    assert seen == ["toolscore_detect_format"] * 2


class KeyedExtractor:
    """Claims any payload, and names the one dict key it reads (``detection_keys``)."""

    asked: ClassVar[list[str]] = []

    def __init__(self, name: str, key: str | None) -> None:
        self.name = name
        if key is not None:
            self.detection_keys = frozenset({key})

    def confidence(self, payload: Any) -> float:
        KeyedExtractor.asked.append(self.name)
        return 0.5 if self.name == "keyless" else 0.9

    def extract(self, payload: Any) -> list[ToolCall]:
        return [ToolCall(tool=self.name, args={})]


def test_a_dict_is_rated_by_the_formats_whose_keys_it_has(
    builtin_pm: ToolscorePluginManager,
) -> None:
    builtin_pm.register(
        ExtractorPlugin(
            *(
                ExtractorSpec(name=name, factory=lambda n=name, k=key: KeyedExtractor(n, k))
                for name, key in (("keyed_a", "a"), ("keyed_b", "b"), ("keyless", None))
            )
        ),
        name="keyed",
    )
    for payload, expected, asked in [
        ({"a": 1}, "keyed_a", ["keyed_a", "keyless"]),
        ({"b": 1, "x": 2}, "keyed_b", ["keyed_b", "keyless"]),
        ({"a": 1, "x": 2}, "keyed_a", ["keyed_a", "keyless"]),  # the same choice, remembered
        ({"x": 1}, "keyless", ["keyless"]),
        ([{"a": 1}], None, ["keyed_a", "keyed_b", "keyless"]),  # not a dict: every format
    ]:
        KeyedExtractor.asked = []
        if expected is None:
            with pytest.raises(AmbiguousFormatError):
                detect(payload, builtin_pm)
        else:
            assert detect(payload, builtin_pm) == expected
        assert KeyedExtractor.asked == asked
