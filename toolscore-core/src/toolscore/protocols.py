"""What the factories in spec objects must return.

Plugins implement these structurally; nothing needs to subclass them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from toolscore.context import EvaluationContext
    from toolscore.model import ToolCall
    from toolscore.result import EvaluationResult


@runtime_checkable
class Metric(Protocol):
    """Computes one entry of ``EvaluationResult.metrics``.

    Return :data:`toolscore.context.NOT_APPLICABLE` to leave the key out (for example
    ``policy_metrics`` when no rules were given).
    """

    def compute(self, context: EvaluationContext) -> Any: ...


@runtime_checkable
class Extractor(Protocol):
    """Reads tool calls from one provider's or framework's payload."""

    def confidence(self, payload: Any) -> float:
        """How sure this extractor is that ``payload`` is its format: 0.0 (not mine) to 1.0.

        Optionally, an extractor also defines ``rate(probe)``: the same rating, given a
        :class:`toolscore.extraction.Probe` whose ``memo`` every extractor of one detection
        shares. Detection calls ``rate`` when it exists, ``confidence`` otherwise.

        Optionally too, ``detection_keys``: the top-level keys ``confidence`` reads in a plain
        ``dict``. A dict with none of them must rate 0.0; detection then does not ask.
        """
        ...

    def extract(self, payload: Any) -> list[ToolCall]:
        """Return the calls in ``payload``; raise ``ValueError`` for a malformed payload.

        Optionally, an extractor also defines ``extract_probed(probe) -> list[ToolCall]``:
        the calls of ``probe.payload``, the same as ``extract(probe.payload)``, given the
        :class:`toolscore.extraction.Probe` its detection just rated (``memo`` included).
        :func:`toolscore.extraction.calls_from_payload` calls it on the chosen extractor,
        right after the detection of the same payload, so that the extractor may reuse what
        its ``rate`` found (a conversation it already checked message by message) instead of
        checking it again. Every other path (a named format, a file) calls ``extract``.
        """
        ...


@runtime_checkable
class Judge(Protocol):
    """Scores the semantic equivalence of aligned (expected, actual) call pairs."""

    def judge(
        self, pairs: Sequence[tuple[ToolCall, ToolCall]], *, gold_count: int, trace_count: int
    ) -> dict[str, Any]:
        """Return the ``semantic_metrics`` mapping for these pairs."""
        ...


@runtime_checkable
class Reporter(Protocol):
    """Renders an evaluation as text (a file's content or a terminal view)."""

    def render(self, result: EvaluationResult, *, verbose: bool = False) -> str: ...
