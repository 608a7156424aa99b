"""What the judge is asked: the system prompt, the batched prompt and the one-pair prompt.

The wording is versioned: :data:`PROMPT_VERSION` is part of every verdict's cache key, so a
change here makes old verdicts stale instead of mixing answers to two different questions.
Bump it whenever the text or the rendering of a call changes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import Any, Final

from toolscore.model import ToolCall

__all__ = [
    "PROMPT_VERSION",
    "SYSTEM_PROMPT",
    "batch_prompt",
    "canonical_pair",
    "pair_prompt",
]

PROMPT_VERSION: Final = "toolscore-judge/1"

SYSTEM_PROMPT: Final = (
    "You review the tool calls an AI agent made and decide whether each one does what the "
    "expected call would have done. You answer with JSON only."
)

_GUIDE: Final = """How to judge:
- A different tool name is fine when that tool does the same job (for example "search" and "web_search").
- Different argument names are fine when they carry the same information ("query" and "q").
- Values may be worded differently when they mean the same ("NYC" and "New York City").
- Leaving out an optional argument is fine unless it changes what the call does.
- The order of arguments never matters.
- In an expected call, {"$regex": ...}, {"$any": true}, {"$one_of": [...]}, {"$contains": ...},
  {"$approx": ...} and {"$type": ...} are patterns: any actual value they describe is correct.

Scale:
- 1.0: the same intent and the same data
- 0.8 to 0.9: small differences that do not change the meaning
- 0.5 to 0.7: a related intent with a real difference
- 0.1 to 0.4: another intent, or critical information missing
- 0.0: an unrelated tool or wrong arguments"""


def _jsonable(value: Any) -> Any:
    """``json.dumps`` fallback: matchers become their file form, anything else its repr."""
    try:
        to_json = import_module("toolscore.matching.matchers").matcher_to_json
    except (ImportError, AttributeError):
        return repr(value)
    converted = to_json(value)
    return repr(value) if converted is value else converted


def _call_form(call: ToolCall, *, expected: bool) -> dict[str, Any]:
    args: Any = call.args
    if args is None and not expected:
        args = {}
    return {"tool": call.tool, "args": args}


def canonical_pair(expected: ToolCall, actual: ToolCall) -> str:
    """The pair as canonical JSON: what is judged, and what the verdict cache is keyed on.

    Only the tool names and arguments count; ids, results and timings do not change a verdict.
    """
    return json.dumps(
        {
            "expected": _call_form(expected, expected=True),
            "actual": _call_form(actual, expected=False),
        },
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
        default=_jsonable,
    )


def _render_call(label: str, form: Mapping[str, Any]) -> str:
    args = form["args"]
    if args is None:
        rendered = "(not specified: any arguments are acceptable)"
    else:
        rendered = json.dumps(args, indent=2, sort_keys=True, ensure_ascii=False, default=_jsonable)
    return (
        f"{label} call: tool {json.dumps(form['tool'], ensure_ascii=False)}\narguments: {rendered}"
    )


def _render_pair(canonical: str) -> str:
    data = json.loads(canonical)
    return (
        _render_call("Expected", data["expected"]) + "\n\n" + _render_call("Actual", data["actual"])
    )


def batch_prompt(pairs: Sequence[str]) -> str:
    """One request for every pair (given as :func:`canonical_pair` strings), indexed from 0."""
    count = len(pairs)
    blocks = "\n\n".join(f"## Pair {i}\n{_render_pair(p)}" for i, p in enumerate(pairs))
    return (
        f"Below are {count} pair(s) of tool calls. In each pair the expected call is what a "
        "correct agent would do and the actual call is what the agent did. Rate how well each "
        "actual call serves the purpose of its expected call.\n\n"
        f"{_GUIDE}\n\n{blocks}\n\n"
        "Reply with one JSON object and nothing else:\n"
        '{"verdicts": [{"index": 0, "score": <number from 0.0 to 1.0>, '
        '"explanation": "<one sentence>"}, ...]}\n'
        f"with exactly {count} entries, one per pair, index 0 to {count - 1}."
    )


def pair_prompt(pair: str) -> str:
    """A request for one pair; used when the batched answer left this pair unusable."""
    return (
        "Rate how well the actual tool call serves the purpose of the expected tool call.\n\n"
        f"{_GUIDE}\n\n{_render_pair(pair)}\n\n"
        "Reply with one JSON object and nothing else:\n"
        '{"score": <number from 0.0 to 1.0>, "explanation": "<one sentence>"}'
    )
