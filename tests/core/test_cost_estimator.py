"""toolscore.metrics.cost_estimator: list prices, token estimates and savings."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
import toolscore.metrics as metrics
from toolscore.metrics.cost_estimator import (
    MODEL_PRICING,
    calculate_cost_savings,
    calculate_llm_cost,
    estimate_json_tokens,
    estimate_tokens,
    estimate_trace_cost,
    format_cost,
    pricing_for,
)

REFERENCE = os.environ.get("TOOLSCORE_REFERENCE_PYTHON")


@pytest.mark.parametrize(
    ("model", "price"),
    [
        ("gpt-4o-mini", (0.15, 0.6)),
        ("GPT-4o-mini-2024-07-18", (0.15, 0.6)),
        ("gpt-4o", (2.5, 10.0)),
        ("openai/gpt-5-mini", (0.25, 2.0)),
        ("gpt-5", (1.25, 10.0)),
        ("gemini-2.5-flash-lite-preview", (0.1, 0.4)),
        ("gemini-2.5-flash", (0.3, 2.5)),
        ("claude-3-haiku-20240307", (0.25, 1.25)),
        ("some-local-model", MODEL_PRICING["gpt-4o-mini"]),
    ],
)
def test_a_model_is_priced_by_the_longest_name_it_contains(
    model: str, price: tuple[float, float]
) -> None:
    assert pricing_for(model) == price


def test_a_million_input_tokens_on_gpt_4o_mini_cost_its_own_price() -> None:
    # Priced as gpt-4o-mini, not as gpt-4o ($2.50): docs/compat.md#model-pricing.
    assert calculate_llm_cost("gpt-4o-mini", 1_000_000, 0) == pytest.approx(0.15)
    assert calculate_llm_cost("claude-opus-4-6", 1_000_000, 1_000_000) == pytest.approx(90.0)


def test_tokens_are_a_quarter_of_the_characters() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abc") == 0
    assert estimate_tokens("abcdefgh") == 2
    assert estimate_json_tokens({"a": [1, 2, 3]}) == len('{"a": [1, 2, 3]}') // 4


def test_trace_cost_splits_tokens_seventy_thirty_rounding_down() -> None:
    data = {"a": "x" * 400}  # 409 characters of JSON: 102 tokens -> 71 in, 30 out
    assert estimate_trace_cost(data, "gpt-4o") == pytest.approx((71 * 2.5 + 30 * 10.0) / 1e6)
    # In a list, dicts count as JSON and strings as text; anything else counts nothing.
    mixed = [{"a": "x" * 400}, "y" * 40, 12345, None]
    assert estimate_trace_cost(mixed, "gpt-4o") == pytest.approx(
        (int(112 * 0.7) * 2.5 + int(112 * 0.3) * 10.0) / 1e6
    )
    assert estimate_trace_cost("not a trace") == 0.0


@pytest.mark.parametrize(
    ("cost", "text"),
    [
        (0.0, "$0.0000"),
        (0.0042, "$0.0042"),
        (0.00999, "$0.0100"),
        (0.01, "$0.01"),
        (12.345, "$12.35"),
    ],
)
def test_costs_below_a_cent_keep_four_decimals(cost: float, text: str) -> None:
    assert format_cost(cost) == text


def test_savings_are_absolute_percentage_and_a_sentence() -> None:
    assert calculate_cost_savings(1.0, 0.25) == {
        "absolute_savings": 0.75,
        "percentage_savings": 75.0,
        "formatted_savings": "$0.75 (75.0% reduction)",
    }
    grew = calculate_cost_savings(1.0, 2.0)
    assert grew["percentage_savings"] == -100.0
    assert grew["formatted_savings"] == "$-1.0000 (-100.0% reduction)"
    assert calculate_cost_savings(0.0, 1.0)["percentage_savings"] == 0.0


def test_the_reference_names_are_importable_from_toolscore_metrics() -> None:
    for name in (
        "calculate_cost_savings",
        "calculate_llm_cost",
        "estimate_tokens",
        "estimate_trace_cost",
        "format_cost",
    ):
        assert name in metrics.__all__
        assert callable(getattr(metrics, name))


_REFERENCE_SNIPPET = """
import json, sys
from toolscore.metrics.cost_estimator import calculate_llm_cost, estimate_trace_cost, format_cost
cases = json.loads(sys.stdin.read())
print(json.dumps([
    [calculate_llm_cost(m, 123456, 7890), estimate_trace_cost(data, m), format_cost(c)]
    for m, data, c in cases
]))
"""


@pytest.mark.skipif(
    not REFERENCE or not Path(REFERENCE).exists(),
    reason="set TOOLSCORE_REFERENCE_PYTHON to compare with the reference",
)
def test_agrees_with_the_reference_where_no_quirk_applies() -> None:
    # Every model whose name contains no shorter priced name, plus an unknown one.
    models = [m for m in MODEL_PRICING if not any(k != m and k in m for k in MODEL_PRICING)] + [
        "unknown-model"
    ]
    trace = [{"tool": "search", "args": {"q": "weather in Paris" * 7}}, "thinking " * 30]
    cases = [[m, trace, cost] for m in models for cost in (0.0004, 0.5, 3.14159)]
    assert REFERENCE is not None
    done = subprocess.run(
        [REFERENCE, "-c", _REFERENCE_SNIPPET],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
        cwd="/",
        timeout=120,
    )
    theirs = json.loads(done.stdout)
    ours = [
        [calculate_llm_cost(m, 123456, 7890), estimate_trace_cost(d, m), format_cost(c)]
        for m, d, c in cases
    ]
    assert ours == theirs
