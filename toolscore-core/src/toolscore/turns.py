"""Multi-turn conversations scored turn by turn: ``evaluate_turns``.

Why: in a conversation the user speaks several times, and each answer has its own right tool
calls. One flat score over the whole conversation hides which turn went wrong; here each turn
gets its own :class:`~toolscore.result.EvaluationResult` (score, metrics, fix list) against
its own expectations, and the conversation's score is the **mean** of the turn scores (every
turn counts the same, however many calls it has).

Splitting a conversation into turns:

1. if every extracted call carries a turn index (``metadata["turn"]``, an int), calls are
   grouped by it;
2. otherwise the provider's messages are split *before* extraction at each user message
   (``role`` ``"user"``/``"human"``, LangChain ``type`` ``"human"``) that is not a tool result
   (Anthropic ``tool_result`` blocks, Gemini ``functionResponse`` parts, which providers send
   with the user role), and each part is read by the format detected for the whole
   conversation. Messages before the first user message (a system prompt) join turn 1.

Accepted conversations: a message list, or a document holding one under ``messages``,
``contents`` (Gemini) or ``input`` (OpenAI Responses); or a list of per-turn call lists.

If the conversation has fewer turns than expected, the missing turns have no calls; if it
has more, the extra turns are expected to make none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from toolscore.diff import FixSuggestion
    from toolscore.model import ToolCall
    from toolscore.plugins.manager import ToolscorePluginManager
    from toolscore.result import EvaluationResult

__all__ = ["TurnsResult", "evaluate_turns", "split_turns"]

_CONTAINERS = ("messages", "contents", "input")


@attrs.frozen
class TurnsResult:
    """Per-turn results and their mean."""

    turns: tuple[EvaluationResult, ...]

    @property
    def score(self) -> float:
        """The mean of the turn scores (1.0 for a conversation with no turns)."""
        if not self.turns:
            return 1.0
        return round(sum(t.score for t in self.turns) / len(self.turns), 12)

    @property
    def grade(self) -> str:
        """The letter grade of :attr:`score`."""
        from toolscore.result import letter_grade

        return letter_grade(self.score)

    def fixes(self) -> list[list[FixSuggestion]]:
        """Each turn's "Top issues to fix" list."""
        from toolscore.reporters._common import fix_list

        return [fix_list(turn) for turn in self.turns]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: the combined score, and per turn its score, grade, fixes and the
        number of calls that matched a forbidden rule."""
        return {
            "score": self.score,
            "grade": self.grade,
            "combined_by": "mean",
            "turns": [
                {
                    "turn": number,
                    "score": turn.score,
                    "grade": turn.grade,
                    "expected": [c.tool for c in turn.gold_calls],
                    "actual": [c.tool for c in turn.trace_calls],
                    "fixes": [f"{fix.problem}: {fix.fix}" for fix in fixes],
                    "policy_violations": len(turn.policy_violations),
                }
                for number, (turn, fixes) in enumerate(zip(self.turns, self.fixes()), start=1)
            ],
        }


def _is_user_turn(message: Any) -> bool:
    if not isinstance(message, Mapping):
        return False
    role = message.get("role") or message.get("type")
    if role not in ("user", "human"):
        return False
    content = message.get("content")
    if isinstance(content, list) and content:
        kinds = {block.get("type") for block in content if isinstance(block, Mapping)}
        if kinds and kinds <= {"tool_result"}:
            return False
    parts = message.get("parts")
    answers = isinstance(parts, list) and any(
        isinstance(p, Mapping) and ("functionResponse" in p or "function_response" in p)
        for p in parts
    )
    return not answers


def _messages(conversation: Any) -> tuple[list[Any], str | None]:
    """The message list and the key it sits under (``None``: the conversation is the list)."""
    if isinstance(conversation, list):
        return conversation, None
    if isinstance(conversation, Mapping):
        for key in _CONTAINERS:
            value = conversation.get(key)
            if isinstance(value, list):
                return value, key
    raise TypeError(
        "a conversation is a message list or a document with 'messages', 'contents' or "
        f"'input'; got {type(conversation).__name__}"
    )


def split_turns(
    conversation: Any,
    *,
    plugin_manager: ToolscorePluginManager | None = None,
    format: str = "auto",
) -> list[list[ToolCall]]:
    """The calls of each user turn, in order (see the module docstring).

    :param format: ``"auto"`` (detected), or the extractor to read every turn with, for a
        conversation detection gets wrong or cannot settle (``toolscore eval --format``).
    """
    from toolscore.extraction import calls_from_payload, calls_with, is_call_list
    from toolscore.model import calls_from_dicts
    from toolscore.plugins import manager_or_default

    if (
        format == "auto"
        and isinstance(conversation, list)
        and conversation
        and all(is_call_list(turn) for turn in conversation)
    ):
        return [calls_from_dicts(turn) for turn in conversation]
    if format == "auto":
        calls = calls_from_payload(conversation, plugin_manager=plugin_manager)
    else:
        calls = calls_with(format, conversation, plugin_manager=plugin_manager)
    indexes = [c.metadata.get("turn") for c in calls]
    if calls and all(isinstance(i, int) and not isinstance(i, bool) for i in indexes):
        by_turn: dict[int, list[ToolCall]] = {}
        for call, index in zip(calls, indexes):
            by_turn.setdefault(int(index), []).append(call)  # type: ignore[arg-type]
        return [by_turn.get(i, []) for i in range(min(by_turn), max(by_turn) + 1)]
    messages, key = _messages(conversation)
    pm = manager_or_default(plugin_manager)
    chosen = pm.detect_format(conversation) if format == "auto" else format
    if chosen is None:  # calls_from_payload succeeded, so the detection above cannot fail
        raise TypeError("the conversation's format could not be detected")
    segments: list[list[Any]] = [[]]
    seen_user = False
    for message in messages:
        if _is_user_turn(message):
            if seen_user:
                segments.append([])
            seen_user = True
        segments[-1].append(message)
    out: list[list[ToolCall]] = []
    for segment in segments:
        payload: Any = segment if key is None else {**conversation, key: segment}
        out.append(calls_with(chosen, payload, plugin_manager=pm))
    return out


def evaluate_turns(
    expected_turns: Sequence[list[Any]],
    conversation: Any,
    *,
    plugin_manager: ToolscorePluginManager | None = None,
    format: str = "auto",
    **options: Any,
) -> TurnsResult:
    """Score each turn of ``conversation`` against its expectations; the total is the mean.

    :param expected_turns: one expected list per user turn (each may hold the steps of
        docs/matching.md: ``optional``, ``repeat``, ``any_order``, ``one_of``), or a gold
        document ``{"turns": [[...], [...]]}``.
    :param conversation: see :func:`split_turns`.
    :param format: as in :func:`split_turns`.
    :param options: passed to :func:`toolscore.evaluate` for every turn (``weights``,
        ``strict``, ``match``, ``tools``, ...).
    """
    from toolscore.evaluation import evaluate

    if isinstance(expected_turns, Mapping):
        expected_turns = expected_turns.get("turns")  # type: ignore[assignment]
    if not isinstance(expected_turns, list) or not all(isinstance(t, list) for t in expected_turns):
        raise TypeError("expected_turns must be a list of per-turn expected call lists")
    actual_turns = split_turns(conversation, plugin_manager=plugin_manager, format=format)
    count = max(len(expected_turns), len(actual_turns))
    results = []
    for index in range(count):
        want = expected_turns[index] if index < len(expected_turns) else []
        got = actual_turns[index] if index < len(actual_turns) else []
        results.append(evaluate(want, got, plugin_manager=plugin_manager, **options))
    return TurnsResult(tuple(results))
