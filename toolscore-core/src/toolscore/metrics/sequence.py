"""``sequence_metrics``: edit distance between the expected and actual lists of tool names.

Each tool name is one symbol; insertions, deletions and substitutions cost 1 (no
transpositions); arguments are ignored.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import TYPE_CHECKING

from toolscore._markers import hookimpl
from toolscore.specs import MetricSpec

if TYPE_CHECKING:
    from toolscore.context import EvaluationContext
    from toolscore.model import ToolCall


def levenshtein(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Levenshtein distance between two sequences of hashable symbols.

    Common prefix and suffix are stripped, then Myers' bit-parallel algorithm (in Hyyrö's
    formulation) runs one column per symbol of the longer sequence, with the shorter one as
    a bit vector: O(n·m/word) with Python integers as the vectors.
    """
    if a == b:
        return 0
    start = 0
    limit = min(len(a), len(b))
    while start < limit and a[start] == b[start]:
        start += 1
    end_a, end_b = len(a), len(b)
    while end_a > start and end_b > start and a[end_a - 1] == b[end_b - 1]:
        end_a -= 1
        end_b -= 1
    text, pattern = a[start:end_a], b[start:end_b]
    if len(text) < len(pattern):
        text, pattern = pattern, text
    m = len(pattern)
    if m == 0:
        return len(text)
    masks: dict[Hashable, int] = {}
    bit = 1
    for symbol in pattern:
        masks[symbol] = masks.get(symbol, 0) | bit
        bit <<= 1
    full = (1 << m) - 1
    positive, negative = full, 0
    lookup = masks.get
    for symbol in text:
        eq = lookup(symbol, 0)
        vertical = eq | negative
        horizontal = (((eq & positive) + positive) ^ positive) | eq
        h_positive = ((negative | (full ^ (horizontal | positive))) << 1) | 1
        h_negative = (positive & horizontal) << 1
        positive = (h_negative | (full ^ (vertical | h_positive))) & full
        negative = h_positive & vertical
    # The vectors hold the last column's vertical steps (+1, -1) from the top cell, whose
    # value is len(text): summing them at the end, rather than tracking the bottom cell
    # column by column, saves two big-integer operations per symbol.
    return len(text) + positive.bit_count() - negative.bit_count()


def calculate_edit_distance(
    gold_calls: Sequence[ToolCall], trace_calls: Sequence[ToolCall]
) -> dict[str, float]:
    """``edit_distance`` (a float), ``normalized_distance``, ``sequence_accuracy``.

    The Levenshtein distance between the two sequences of tool names, divided by the longer
    length (at least 1); the accuracy is one minus that.
    """
    return _distances([c.tool for c in gold_calls], [c.tool for c in trace_calls])


def _distances(expected: list[str], actual: list[str]) -> dict[str, float]:
    """:func:`calculate_edit_distance` from the two lists of tool names."""
    distance = levenshtein(expected, actual)
    normalized = distance / max(len(expected), len(actual), 1)
    return {
        "edit_distance": float(distance),
        "normalized_distance": normalized,
        "sequence_accuracy": 1.0 - normalized,
    }


class SequenceMetrics:
    """The metric object registered for ``sequence_metrics``."""

    def compute(self, context: EvaluationContext) -> dict[str, float]:
        summary = context.summary
        return _distances(summary.expected_tools, summary.actual_tools)


@hookimpl
def toolscore_register_metrics() -> Iterator[MetricSpec]:
    yield MetricSpec(
        name="sequence_metrics",
        factory=SequenceMetrics,
        summary="edit distance between the expected and actual tool-name sequences",
        order=40,
    )
