"""An example third-party toolscore plugin: finance and market values for ``toolscore mcp test``.

``toolscore mcp test`` builds happy-path arguments from evidence, asking value providers for
candidates parameter by parameter (see :mod:`toolscore_mcp.providers`). The built-in ones know
paths, URLs, timezones, SQL, ids and free text, but not markets: a ``symbol`` described as a
"Stock ticker symbol" gets a generated string, which a quote server rightly rejects. This
plugin adds one provider, ``finance`` (priority 62: above the built-in ``meaning`` at 60,
below ``harvested`` at 65), which offers, labelled with the evidence ``"finance"``:

* stock ticker symbols (``AAPL``, ``MSFT``, ``GOOGL``) for a parameter named or described as
  a ticker, a stock, or a symbol of a market/quote/stock tool;
* ISO 4217 currency pairs (``EUR/USD``, ``EURUSD``, ...) when the parameter is a pair or its
  description speaks of a currency pair, forex or FX; in the format the description shows;
* base and quote currencies (``EUR`` then ``USD``) for ``from``/``to``-style currency
  parameters, so a conversion is never from a currency to itself;
* ISINs (``US0378331005``) for an ``isin``;
* exchange MIC codes (ISO 10383, ``XNAS``) for a ``mic`` or a stock exchange.

Only the parameter's name, description and schema, its tool's name and description and its
sibling parameters are consulted. Every value is fitted to the schema's ``pattern``,
``minLength``/``maxLength`` and ``enum`` (upper case first, lower case when the pattern or the
description asks for it); values that cannot fit are not offered.

Install it next to toolscore-mcp and it is used on every run; the entry point lives in
``pyproject.toml``::

    [project.entry-points.toolscore]
    toolscore_example_values = "toolscore_example_values"
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import toolscore
from toolscore.lazy_pattern import lazy_pattern
from toolscore_mcp.providers import (
    Candidate,
    Parameter,
    SynthesisContext,
    ValueProviderSpec,
    name_tokens,
)

__all__ = [
    "CURRENCY_PAIRS",
    "ISINS",
    "MICS",
    "PRIORITY",
    "SOURCE",
    "TICKERS",
    "finance_candidates",
    "finance_kind",
    "fits",
    "isin_is_valid",
    "toolscore_mcp_register_value_providers",
]

#: The evidence label of every candidate (``Candidate.source``) and the provider's name.
SOURCE = "finance"
#: Above the built-in ``meaning`` (60), below ``harvested`` (65).
PRIORITY = 62

#: Large, long-listed US stocks: any quote service knows them.
TICKERS: tuple[str, ...] = ("AAPL", "MSFT", "GOOGL")
#: (base, quote) ISO 4217 codes of the most traded currency pairs.
CURRENCY_PAIRS: tuple[tuple[str, str], ...] = (("EUR", "USD"), ("GBP", "USD"), ("USD", "JPY"))
#: Apple and Microsoft common stock (ISO 6166, valid check digits).
ISINS: tuple[str, ...] = ("US0378331005", "US5949181045")
#: Nasdaq, New York Stock Exchange, London Stock Exchange (ISO 10383).
MICS: tuple[str, ...] = ("XNAS", "XNYS", "XLON")
#: Exchange names, for an ``exchange`` parameter that does not ask for a MIC.
_EXCHANGE_NAMES: tuple[str, ...] = ("NASDAQ", "NYSE", "LSE")

_TICKER_WORDS = frozenset({"ticker", "tickers", "stock", "stocks"})
_SYMBOL_WORDS = frozenset({"symbol", "symbols"})
_PAIR_WORDS = frozenset({"pair", "pairs", "forex", "fx", "currencypair", "currencypairs"})
_EXCHANGE_WORDS = frozenset({"exchange", "exchanges", "venue", "venues"})
_NOT_A_SYMBOL = frozenset(
    {"id", "ids", "quantity", "level", "levels", "count", "amount", "price", "rate", "rates",
     "number", "size", "status"}
)  # fmt: skip
_BASE_WORDS = frozenset({"from", "base", "source", "src", "sell", "origin", "have"})
_QUOTE_WORDS = frozenset(
    {"to", "quote", "target", "dest", "destination", "buy", "counter", "into", "want"}
)

#: Words that put a parameter in a market setting (whole words of the context text).
_FINANCE_WORDS = lazy_pattern(
    r"\b(?:stocks?|tickers?|equit(?:y|ies)|shares?|quotes?|quoted|markets?|trading|trades?"
    r"|exchanges?|nasdaq|nyse|forex|fx|currenc(?:y|ies)|isins?|portfolios?|securit(?:y|ies)"
    r"|dividends?|ohlcv?|candles?|candlesticks?|prices?|pricing|bonds?|etfs?|funds?"
    r"|brokerage|invest\w*|financ\w*|earnings|valuation|listed|listing)\b",
    re.IGNORECASE,
)
_CRYPTO = lazy_pattern(r"\b(?:crypto\w*|coins?|blockchain|tokens?|btc|eth|usdt|defi)\b", re.I)
_PAIR_TEXT = lazy_pattern(r"currency pairs?|forex|\bfx\b|foreign exchange", re.I)
#: "pair" next to something like EURUSD or EUR/USD (case matters: three capitals twice).
_PAIR_SHOWN = lazy_pattern(
    r"\b[A-Z]{3}[/_:-]?[A-Z]{3}\b.*\bpair|\bpair\b.*\b[A-Z]{3}[/_:-]?[A-Z]{3}\b"
)
_INVENTORY = lazy_pattern(r"\b(?:inventory|warehouse|sku|products?|in stock|out of stock)\b", re.I)
_PAIR_EXAMPLE = lazy_pattern(r"\b(EUR|USD|GBP|JPY|CHF|AUD|CAD|NZD)([/_:-]?)([A-Z]{3})\b")
_CURRENCY_TEXT = lazy_pattern(r"currency|ISO[ -]?4217", re.I)
_MIC_TEXT = lazy_pattern(r"\bMICs?\b|market identifier codes?|ISO[ -]?10383")
_ISIN_TEXT = lazy_pattern(r"\bISINs?\b|ISO[ -]?6166|international securities identification")
_TICKER_TEXT = lazy_pattern(r"\btickers?\b|\bstock symbols?\b|\bticker symbols?\b", re.I)
_LOWERCASE = lazy_pattern(r"lower[- ]?case", re.I)
_COMMA_LIST = lazy_pattern(r"comma[- ]?(?:separated|delimited)|separated by commas?", re.I)


# -- what a parameter is ----------------------------------------------------------------------


def _context_words(param: Parameter) -> set[str]:
    """Market words around a parameter, leaving out the words of its own name.

    The context is the parameter's description, the tool's name and description and the
    sibling parameters' names. A parameter called ``exchange`` is thus not a stock exchange
    just because of its name (a message broker has exchanges too): something else must say so.
    """
    parts = [
        param.description,
        " ".join(name_tokens(param.tool.name)),
        param.tool.description,
        *(" ".join(name_tokens(s)) for s in param.siblings if s != param.name),
    ]
    found = {m.group(0).lower() for m in _FINANCE_WORDS.finditer(" ".join(parts))}
    own = set(param.tokens)
    return {w for w in found if w not in own and w.rstrip("s") not in own}


def _crypto(param: Parameter) -> bool:
    return bool(_CRYPTO.search(f"{param.description} {param.tool.description}"))


def finance_kind(param: Parameter) -> str | None:
    """What market value a parameter asks for, or None when it is not a finance parameter.

    One of ``ticker``, ``pair``, ``isin``, ``mic``, ``exchange``, ``base-currency`` or
    ``quote-currency``. Decided from the parameter's name, description and tool only.
    """
    kind = param.json_type
    if kind == "array":
        items = param.schema.get("items")
        item_type = items.get("type") if isinstance(items, Mapping) else None
        if item_type not in (None, "string"):
            return None
    elif kind != "string":
        return None
    tokens = set(param.tokens)
    text = param.description
    if tokens & {"isin", "isins"} or _ISIN_TEXT.search(text):
        return "isin"
    if _MIC_TEXT.search(text) or (tokens & {"mic", "mics"} and _context_words(param)):
        return "mic"
    if tokens & _EXCHANGE_WORDS and not tokens & {"rate", "rates"}:
        context = _context_words(param)
        if context - {"currency", "currencies", "fx", "forex"}:
            return "exchange"
        return None
    says_pair = bool(_PAIR_TEXT.search(text) or _PAIR_SHOWN.search(text))
    if tokens & _PAIR_WORDS and (
        says_pair or _context_words(param) & {"currency", "currencies", "forex", "fx"}
    ):
        return "pair"
    if tokens & (_SYMBOL_WORDS | _TICKER_WORDS | {"instrument"}) and says_pair:
        return "pair"
    if tokens & {"currency", "currencies"} or (
        _CURRENCY_TEXT.search(text) and tokens & (_BASE_WORDS | _QUOTE_WORDS)
    ):
        if kind == "string" and tokens & _BASE_WORDS:
            return "base-currency"
        if kind == "string" and tokens & _QUOTE_WORDS:
            return "quote-currency"
        return None
    if tokens & _NOT_A_SYMBOL or (_crypto(param) and not _TICKER_TEXT.search(text)):
        return None
    if _INVENTORY.search(f"{text} {param.tool.description}") and not _TICKER_TEXT.search(text):
        return None  # stock as in goods on hand
    if tokens & _TICKER_WORDS or _TICKER_TEXT.search(text):
        return "ticker"
    if tokens & _SYMBOL_WORDS and _context_words(param):
        return "ticker"
    return None


# -- values that fit the schema ---------------------------------------------------------------


def fits(value: str, schema: Mapping[str, Any]) -> bool:
    """Does a string satisfy the schema's ``enum``, ``pattern`` and length bounds?"""
    enum = schema.get("enum")
    if isinstance(enum, list) and value not in enum:
        return False
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        try:
            if re.search(pattern, value) is None:
                return False
        except re.error:
            pass  # a pattern Python cannot read: let the synthesizer's validator decide
    low = schema.get("minLength")
    if isinstance(low, int) and not isinstance(low, bool) and len(value) < low:
        return False
    high = schema.get("maxLength")
    return not (isinstance(high, int) and not isinstance(high, bool) and len(value) > high)


def _fitted(variants: Sequence[str], schema: Mapping[str, Any]) -> str | None:
    """The first spelling (upper or lower case) that the schema accepts."""
    return next((v for v in variants if fits(v, schema)), None)


def _spellings(value: str, lower_first: bool) -> list[str]:
    cases = [value.lower(), value] if lower_first else [value, value.lower()]
    return list(dict.fromkeys(cases))


def _pair_formats(param: Parameter) -> list[str]:
    """Separators for a currency pair, the one the description shows first."""
    formats = ["/", ""]
    example = _PAIR_EXAMPLE.search(param.description)
    if example is not None:
        formats.insert(0, example.group(2))
    elif re.search(r"\bslash\b", param.description, re.I):
        formats.insert(0, "/")
    elif re.search(r"\bunderscore\b", param.description, re.I):
        formats.insert(0, "_")
    return list(dict.fromkeys([*formats, "_", "-"]))


def _values(param: Parameter, kind: str) -> list[list[str]]:
    """Each value the kind stands for, best first, in its formats (best first)."""
    if kind == "ticker":
        return [[t] for t in TICKERS]
    if kind == "isin":
        return [[i] for i in ISINS]
    if kind == "mic":
        return [[m] for m in MICS]
    if kind == "exchange":
        # A MIC first (the standard), the exchange's name as its other format.
        return [[mic, name] for mic, name in zip(MICS, _EXCHANGE_NAMES)]
    if kind == "base-currency":
        return [[base] for base, _ in CURRENCY_PAIRS[:1]] + [["GBP"]]
    if kind == "quote-currency":
        return [[quote] for _, quote in CURRENCY_PAIRS[:1]] + [["JPY"]]
    formats = _pair_formats(param)
    return [[sep.join(pair) for sep in formats] for pair in CURRENCY_PAIRS]


def _strings(param: Parameter, kind: str, schema: Mapping[str, Any]) -> list[str]:
    """The kind's values, each in the first spelling (and case) the schema accepts.

    A value with several formats (a pair with or without a slash, an exchange as a MIC or a
    name) is offered first in its two best formats that fit, so a server that takes only
    ``EURUSD`` gets it as the alternative.
    """
    lower_first = bool(_LOWERCASE.search(param.description))
    out: list[str] = []
    for index, formats in enumerate(_values(param, kind)):
        fitting = [
            spelling
            for form in formats
            if (spelling := _fitted(_spellings(form, lower_first), schema)) is not None
        ]
        out.extend(fitting[:2] if index == 0 else fitting[:1])
    return list(dict.fromkeys(out))


def _array_bounds(schema: Mapping[str, Any]) -> tuple[int, int]:
    low, high = schema.get("minItems"), schema.get("maxItems")
    low_n = low if isinstance(low, int) and not isinstance(low, bool) else 0
    high_n = high if isinstance(high, int) and not isinstance(high, bool) else 1_000
    return low_n, high_n


def finance_candidates(param: Parameter, ctx: SynthesisContext) -> Iterator[Candidate]:
    """The ``finance`` provider: market values for the parameters that ask for them."""
    kind = finance_kind(param)
    if kind is None:
        return
    if param.json_type == "array":
        items = param.schema.get("items")
        item_schema: Mapping[str, Any] = items if isinstance(items, Mapping) else {}
        values = _strings(param, kind, item_schema)
        low, high = _array_bounds(param.schema)
        for size in (2, 1):
            if values and low <= size <= high and size <= len(values):
                yield Candidate(values[:size], SOURCE)
        return
    values = _strings(param, kind, param.schema)
    if kind in ("ticker", "isin") and _COMMA_LIST.search(param.description):
        joined = ",".join(_strings(param, kind, {})[:2])
        if fits(joined, param.schema):
            yield Candidate(joined, SOURCE)
    for value in values:
        yield Candidate(value, SOURCE)


def isin_is_valid(isin: str) -> bool:
    """The ISO 6166 check: two letters, nine alphanumerics, a Luhn check digit."""
    if not re.fullmatch(r"[A-Z]{2}[A-Z0-9]{9}[0-9]", isin):
        return False
    digits = "".join(str(int(c, 36)) for c in isin[:-1])
    total = 0
    for index, char in enumerate(reversed(digits)):
        n = int(char)
        if index % 2 == 0:
            n *= 2
            n = n - 9 if n > 9 else n
        total += n
    return (10 - total % 10) % 10 == int(isin[-1])


# -- hooks ------------------------------------------------------------------------------------


def _specs() -> list[ValueProviderSpec]:
    return [
        ValueProviderSpec(
            SOURCE,
            finance_candidates,
            PRIORITY,
            "stock tickers, currency pairs, ISINs, exchange MICs",
        )
    ]


# ``optionalhook``: the hook is toolscore-mcp's, and its specification is added when toolscore-mcp
# loads, which may be after this plugin (plugins load in distribution-name order).
@toolscore.hookimpl(optionalhook=True)
def toolscore_mcp_register_value_providers() -> list[ValueProviderSpec]:
    """Register the ``finance`` value provider."""
    return _specs()
