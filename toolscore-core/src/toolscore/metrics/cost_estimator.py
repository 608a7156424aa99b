"""Rough LLM cost arithmetic for traces: list prices, token estimates, savings.

A library helper, not a metric plugin: no command and no evaluation uses it. It answers "what
would this trace roughly cost on model X?" when a trace records no cost of its own, and
"how much did an optimization save?". Token counts are estimates (four characters per token);
use a real tokenizer where the figure matters.

Prices are US dollars per million tokens, ``(input, output)``, as listed by the providers.
A model name is priced by the longest key of :data:`MODEL_PRICING` it contains, so
``"gpt-4o-mini-2024-07-18"`` gets the gpt-4o-mini price rather than gpt-4o's (the first key in
table order that the name contains would be gpt-4o); an unknown model is priced as
:data:`DEFAULT_MODEL`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

__all__ = [
    "DEFAULT_MODEL",
    "MODEL_PRICING",
    "calculate_cost_savings",
    "calculate_llm_cost",
    "estimate_json_tokens",
    "estimate_tokens",
    "estimate_trace_cost",
    "format_cost",
    "pricing_for",
]

#: ``model name fragment -> (input, output)`` in USD per million tokens.
MODEL_PRICING: Final[Mapping[str, tuple[float, float]]] = {
    "gpt-5": (1.25, 10.0),
    "gpt-5-mini": (0.25, 2.0),
    "gpt-5-nano": (0.05, 0.4),
    "gpt-4o": (2.5, 10.0),
    "gpt-4o-mini": (0.15, 0.6),
    "claude-opus-4-6": (15.0, 75.0),
    "claude-sonnet-4-5": (3.0, 15.0),
    "claude-haiku-4-5": (1.0, 5.0),
    "claude-opus-4-1": (15.0, 75.0),
    "claude-3-5-sonnet": (3.0, 15.0),
    "claude-3-sonnet": (3.0, 15.0),
    "claude-3-opus": (15.0, 75.0),
    "claude-3-haiku": (0.25, 1.25),
    "gemini-2.5-pro": (1.25, 10.0),
    "gemini-2.5-flash": (0.3, 2.5),
    "gemini-2.5-flash-lite": (0.1, 0.4),
    "gemini-2.0-flash": (0.1, 0.4),
    "gemini-1.5-pro": (1.25, 5.0),
    "gemini-1.5-flash": (0.075, 0.3),
}

#: The price used for a model name that no key of :data:`MODEL_PRICING` matches.
DEFAULT_MODEL: Final = "gpt-4o-mini"

#: Share of a trace's tokens counted as input when only the total is known.
_INPUT_SHARE: Final = 0.7
_OUTPUT_SHARE: Final = 0.3


def pricing_for(model: str) -> tuple[float, float]:
    """``(input, output)`` USD per million tokens for ``model`` (case does not matter)."""
    name = model.lower()
    best: str | None = None
    for key in MODEL_PRICING:
        if key in name and (best is None or len(key) > len(best)):
            best = key
    return MODEL_PRICING[best if best is not None else DEFAULT_MODEL]


def calculate_llm_cost(model: str, input_tokens: int = 0, output_tokens: int = 0) -> float:
    """USD cost of ``input_tokens`` in and ``output_tokens`` out on ``model``."""
    input_price, output_price = pricing_for(model)
    return input_tokens / 1_000_000 * input_price + output_tokens / 1_000_000 * output_price


def estimate_tokens(text: str) -> int:
    """About how many tokens ``text`` is: one per four characters (0 for empty text)."""
    return len(text) // 4 if text else 0


def estimate_json_tokens(data: Any) -> int:
    """:func:`estimate_tokens` of ``data`` as ``json.dumps`` writes it."""
    return estimate_tokens(json.dumps(data))


def estimate_trace_cost(trace_data: Any, model: str = DEFAULT_MODEL) -> float:
    """Rough USD cost of producing ``trace_data`` on ``model``.

    A dict counts as its JSON text; in a list, dicts count as their JSON text and strings as
    they are (other items count nothing). Seventy percent of the tokens are priced as input
    and thirty as output, each rounded down.
    """
    tokens = 0
    if isinstance(trace_data, dict):
        tokens = estimate_json_tokens(trace_data)
    elif isinstance(trace_data, list):
        for item in trace_data:
            if isinstance(item, dict):
                tokens += estimate_json_tokens(item)
            elif isinstance(item, str):
                tokens += estimate_tokens(item)
    return calculate_llm_cost(model, int(tokens * _INPUT_SHARE), int(tokens * _OUTPUT_SHARE))


def format_cost(cost: float) -> str:
    """``$0.0042`` below one cent (four decimals), ``$1.25`` from one cent up."""
    return f"${cost:.4f}" if cost < 0.01 else f"${cost:.2f}"


def calculate_cost_savings(baseline_cost: float, optimized_cost: float) -> dict[str, float | str]:
    """What going from ``baseline_cost`` to ``optimized_cost`` saves.

    ``absolute_savings`` (USD, negative when the cost grew), ``percentage_savings`` (of the
    baseline; 0.0 when the baseline is not positive) and ``formatted_savings`` such as
    ``"$0.75 (75.0% reduction)"``.
    """
    saved = baseline_cost - optimized_cost
    percentage = saved / baseline_cost * 100 if baseline_cost > 0 else 0.0
    return {
        "absolute_savings": saved,
        "percentage_savings": percentage,
        "formatted_savings": f"{format_cost(saved)} ({percentage:.1f}% reduction)",
    }
