"""Helpers for the toolscore-providers tests: fixtures and the extractors as detection sees them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from toolscore.builtin.canonical import CanonicalExtractor, CustomExtractor
from toolscore_providers.plugin import toolscore_register_extractors

FIXTURES = Path(__file__).parent / "fixtures"

SPECS = {spec.name: spec for spec in toolscore_register_extractors()}
EXTRACTORS: dict[str, Any] = {name: spec.factory() for name, spec in SPECS.items()}
#: Ours plus core's own formats, as format detection sees them.
ALL: dict[str, Any] = {**EXTRACTORS, "canonical": CanonicalExtractor(), "custom": CustomExtractor()}


def load_fixture(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def summary(calls: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    """(tool, args) of each call: what most assertions compare."""
    return [(call.tool, dict(call.args or {})) for call in calls]


def ranking(payload: Any, extractors: dict[str, Any] | None = None) -> list[tuple[float, str]]:
    """Every positive confidence for ``payload``, best first."""
    pool = ALL if extractors is None else extractors
    ranked = [(float(e.confidence(payload)), name) for name, e in pool.items()]
    return sorted((r for r in ranked if r[0] > 0), key=lambda r: (-r[0], r[1]))


def winner(payload: Any, extractors: dict[str, Any] | None = None) -> str:
    """The single most confident format; fails on a tie (core's detection errors on one)."""
    ranked = ranking(payload, extractors)
    assert ranked, "no extractor recognises the payload"
    top = [name for score, name in ranked if score == ranked[0][0]]
    assert len(top) == 1, f"tie between {top} at {ranked[0][0]}"
    return top[0]
