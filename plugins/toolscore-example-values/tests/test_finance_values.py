"""The ``finance`` provider's candidates, parameter by parameter, and inside the synthesizer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from toolscore.plugins import get_plugin_manager
from toolscore_example_values import (
    ISINS,
    SOURCE,
    finance_candidates,
    finance_kind,
    fits,
    isin_is_valid,
)
from toolscore_mcp.model import MCPToolDef
from toolscore_mcp.providers import Parameter, SynthesisContext
from toolscore_mcp.synthesis import ToolSynthesizer, collect_value_providers

STRING: dict[str, Any] = {"type": "string"}


def _tool(
    properties: Mapping[str, Mapping[str, Any]],
    *,
    name: str = "lookup",
    description: str = "",
    required: Sequence[str] = (),
) -> MCPToolDef:
    schema = {"type": "object", "properties": dict(properties), "required": list(required)}
    return MCPToolDef(name, description, schema)


def _param(
    name: str,
    schema: Mapping[str, Any],
    *,
    tool: str = "lookup",
    tool_description: str = "",
    siblings: Sequence[str] = (),
) -> Parameter:
    properties = {name: schema, **dict.fromkeys(siblings, STRING)}
    mcp_tool = _tool(properties, name=tool, description=tool_description)
    return Parameter(mcp_tool, name, schema, siblings=tuple(properties))


def _values(param: Parameter) -> list[Any]:
    candidates = list(finance_candidates(param, SynthesisContext()))
    assert all(c.source == SOURCE for c in candidates)
    assert all(c.setup == () for c in candidates)
    return [c.value for c in candidates]


# -- stock tickers ----------------------------------------------------------------------------


def test_symbol_described_as_a_stock_ticker() -> None:
    param = _param("symbol", {"type": "string", "description": "Stock ticker symbol"})
    assert finance_kind(param) == "ticker"
    assert _values(param) == ["AAPL", "MSFT", "GOOGL"]


@pytest.mark.parametrize("name", ["ticker", "stockSymbol", "stock_ticker", "tickers"])
def test_ticker_names_need_no_description(name: str) -> None:
    assert _values(_param(name, STRING))[0] == "AAPL"


def test_bare_symbol_of_a_market_tool_is_a_ticker() -> None:
    param = _param("symbol", STRING, tool="get_price_history", tool_description="Daily OHLC bars.")
    assert _values(param)[0] == "AAPL"


def test_lowercase_when_the_pattern_says_so() -> None:
    param = _param("symbol", {"type": "string", "pattern": "^[a-z]{1,5}$"}, tool="get_quote")
    assert _values(param) == ["aapl", "msft", "googl"]


def test_lowercase_first_when_the_description_says_so() -> None:
    param = _param("ticker", {"type": "string", "description": "Lowercase ticker, like nasdaq"})
    assert _values(param)[0] == "aapl"


def test_max_length_is_respected() -> None:
    param = _param("ticker", {"type": "string", "maxLength": 4})
    assert _values(param) == ["AAPL", "MSFT"]


def test_a_list_of_tickers() -> None:
    schema = {"type": "array", "items": {"type": "string"}, "description": "Stock tickers"}
    assert _values(_param("symbols", schema)) == [["AAPL", "MSFT"], ["AAPL"]]
    assert _values(_param("symbols", {**schema, "maxItems": 1})) == [["AAPL"]]


def test_a_comma_separated_string_of_tickers() -> None:
    schema = {"type": "string", "description": "Comma-separated stock tickers"}
    assert _values(_param("tickers", schema))[:2] == ["AAPL,MSFT", "AAPL"]


# -- currency pairs and currencies ------------------------------------------------------------


def test_currency_pair_defaults_to_a_slash_then_no_separator() -> None:
    param = _param("pair", {"type": "string", "description": "Currency pair to quote"})
    assert finance_kind(param) == "pair"
    assert _values(param) == ["EUR/USD", "EURUSD", "GBP/USD", "USD/JPY"]


def test_pair_in_the_format_the_description_shows() -> None:
    param = _param("symbol", {"type": "string", "description": "Forex pair, for example EURUSD"})
    assert _values(param)[:2] == ["EURUSD", "EUR/USD"]
    underscored = _param("instrument", {"type": "string", "description": "FX pair as EUR_USD"})
    assert _values(underscored)[0] == "EUR_USD"


def test_pair_fitted_to_the_pattern() -> None:
    schema = {"type": "string", "description": "Currency pair", "pattern": "^[A-Z]{3}_[A-Z]{3}$"}
    assert _values(_param("pair", schema)) == ["EUR_USD", "GBP_USD", "USD_JPY"]


def test_pair_from_a_forex_tool() -> None:
    param = _param("pair", STRING, tool="get_forex_rate")
    assert _values(param)[0] == "EUR/USD"


def test_conversion_is_never_from_a_currency_to_itself() -> None:
    siblings = ("from_currency", "to_currency", "amount")
    base = _param("from_currency", STRING, tool="convert", siblings=siblings)
    quote = _param("to_currency", STRING, tool="convert", siblings=siblings)
    assert _values(base)[0] == "EUR"
    assert _values(quote)[0] == "USD"
    described = _param("base", {"type": "string", "description": "ISO 4217 currency code"})
    assert _values(described)[0] == "EUR"


# -- ISINs and exchanges ----------------------------------------------------------------------


def test_isin() -> None:
    assert _values(_param("isin", STRING)) == list(ISINS)
    described = _param("security", {"type": "string", "description": "The security's ISIN"})
    assert _values(described)[0] == "US0378331005"


def test_every_offered_isin_has_a_valid_check_digit() -> None:
    assert all(isin_is_valid(isin) for isin in ISINS)
    assert not isin_is_valid("US0378331006")
    assert not isin_is_valid("AAPL")


def test_mic() -> None:
    assert _values(_param("mic", STRING, tool="list_stock_listings")) == ["XNAS", "XNYS", "XLON"]
    described = _param("venue", {"type": "string", "description": "Market Identifier Code"})
    assert _values(described)[0] == "XNAS"


def test_stock_exchange_is_a_mic_then_its_name() -> None:
    param = _param("exchange", STRING, tool="get_stock_price", siblings=("symbol",))
    assert finance_kind(param) == "exchange"
    assert _values(param) == ["XNAS", "NASDAQ", "XNYS", "XLON"]
    four = _param("exchange", {"type": "string", "pattern": "^[A-Z]{4}$"}, tool="get_quote")
    assert _values(four) == ["XNAS", "XNYS", "XLON"]


# -- nothing for other parameters -------------------------------------------------------------


@pytest.mark.parametrize(
    "param",
    [
        _param("path", STRING, tool="read_file"),
        _param("query", {"type": "string", "description": "Words to look for."}),
        _param("limit", {"type": "integer"}, tool="get_stock_prices"),
        _param("stock", {"type": "integer", "description": "Units in stock"}),
        _param("stock_level", STRING, tool="update_inventory"),
        _param(
            "stock",
            {"type": "string", "description": "In stock or out of stock"},
            tool="set_availability",
            tool_description="Mark a product as available.",
        ),
        _param(
            "symbol",
            {"type": "string", "description": "Name of the function or class"},
            tool="find_references",
            tool_description="Find references to a code symbol in the workspace.",
        ),
        _param("symbol", {"type": "string", "description": "Crypto coin symbol"}),
        _param(
            "exchange",
            STRING,
            tool="publish_message",
            tool_description="Publish a message to an exchange of the message broker.",
        ),
        _param("pair", {"type": "string", "description": "A key/value pair to store"}),
        _param("currency", STRING),
        _param("exchange_rate", {"type": "number"}),
        _param("symbols", {"type": "array", "items": {"type": "integer"}}, tool="get_quote"),
    ],
    ids=lambda p: f"{p.tool.name}.{p.name}",
)
def test_no_candidates_for_unrelated_parameters(param: Parameter) -> None:
    assert finance_kind(param) is None
    assert _values(param) == []


@pytest.mark.parametrize(
    ("value", "schema", "ok"),
    [
        ("AAPL", {}, True),
        ("AAPL", {"pattern": "^[A-Z]+$"}, True),
        ("AAPL", {"pattern": "^[a-z]+$"}, False),
        ("AAPL", {"maxLength": 3}, False),
        ("AAPL", {"minLength": 5}, False),
        ("AAPL", {"enum": ["MSFT"]}, False),
        ("AAPL", {"pattern": "(?<!"}, True),  # unreadable here: the validator decides
    ],
)
def test_fits(value: str, schema: dict[str, Any], ok: bool) -> None:
    assert fits(value, schema) is ok


# -- inside the synthesizer, with every installed provider -------------------------------------


def _argument_sets(tool: MCPToolDef) -> list[tuple[dict[str, Any], dict[str, str]]]:
    providers, problems = collect_value_providers(get_plugin_manager())
    assert not problems
    sets = ToolSynthesizer(tool, providers, SynthesisContext()).argument_sets(3)
    return [(s.arguments, s.evidence) for s in sets]


def test_synthesized_happy_paths_use_finance_values() -> None:
    symbol = {"type": "string", "description": "Stock ticker symbol"}
    tool = _tool({"symbol": symbol}, name="get_quote", required=["symbol"])
    assert _argument_sets(tool) == [
        ({"symbol": "AAPL"}, {"symbol": "finance"}),
        ({"symbol": "MSFT"}, {"symbol": "finance"}),
    ]


def test_synthesized_values_respect_the_schema() -> None:
    symbol = {"type": "string", "description": "Stock ticker symbol", "pattern": "^[a-z]+$"}
    tool = _tool({"symbol": symbol}, name="get_quote", required=["symbol"])
    assert _argument_sets(tool)[0] == ({"symbol": "aapl"}, {"symbol": "finance"})


def test_synthesized_conversion_uses_two_currencies() -> None:
    properties = {"from_currency": STRING, "to_currency": STRING, "amount": {"type": "number"}}
    tool = _tool(properties, name="convert", required=list(properties))
    arguments, evidence = _argument_sets(tool)[0]
    assert (arguments["from_currency"], arguments["to_currency"]) == ("EUR", "USD")
    assert evidence["from_currency"] == evidence["to_currency"] == "finance"
