"""From a payload to tool calls: detect the format, pick the extractor, read the calls.

Every way calls enter toolscore goes through here: ``evaluate(actual=...)`` and
``auto_extract`` (:func:`calls_from_payload`), ``from_<format>`` helpers
(:func:`calls_with`), ``load_trace``/``toolscore validate``/batch cases
(:func:`calls_from_document`). The steps are the same for all of them:

1. A plain list of call dicts (or ToolCalls) is converted directly, without a plugin
   manager; that is the common case and must stay cheap.
2. Otherwise the format is named (``resolve_format``: names and aliases, with an install
   hint for formats of first-party distributions) or detected: the plugin manager's
   ``toolscore_detect_format`` hook, whose core fallback (:func:`choose_format`) lets every
   extractor rate the whole payload and takes the most confident one. A tie is an
   :class:`AmbiguousFormatError`, because a silently wrong choice is worse than asking.
3. The chosen extractor (built once per registry, :func:`extractor_for`) reads the payload.

Callers differ only in how they report failure: in-memory payloads raise ``TypeError``
(nothing recognises it) or ``ValueError``; files raise a one-line
:class:`~toolscore.errors.InputError` that names the file and the JSON path.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from toolscore.errors import InputError, MissingPluginError, ToolscoreError
from toolscore.first_party import FIRST_PARTY, provider_of
from toolscore.model import ToolCall, calls_from_dicts
from toolscore.plugins import manager_or_default

if TYPE_CHECKING:
    from toolscore.plugins.manager import ToolscorePluginManager
    from toolscore.plugins.registry import Registry
    from toolscore.protocols import Extractor
    from toolscore.specs import ExtractorSpec

__all__ = [
    "AmbiguousFormatError",
    "Probe",
    "calls_from_document",
    "calls_from_payload",
    "calls_with",
    "choose_format",
    "detect",
    "detect_document_format",
    "distribution_for_format",
    "extractor_for",
    "is_call_list",
    "known_formats",
    "model_dumped",
    "providers_hint",
    "rank_formats",
    "resolve_format",
]


class AmbiguousFormatError(ToolscoreError, ValueError):
    """Several extractors claim a payload equally; ``candidates`` names them."""

    def __init__(self, candidates: tuple[str, ...], confidence: float) -> None:
        self.candidates = candidates
        self.confidence = confidence
        names = ", ".join(candidates)
        super().__init__(
            f"ambiguous trace format: {names} all read it with confidence {confidence:g}; "
            f"pass format= (or --format) with one of them"
        )


# -- the extractors of a registry --------------------------------------------------------------

#: Extractor instances, built once per registry (so per plugin manager).
_INSTANCES: weakref.WeakKeyDictionary[Registry[ExtractorSpec], dict[str, Extractor]] = (
    weakref.WeakKeyDictionary()
)


def extractor_for(registry: Registry[ExtractorSpec], name: str) -> Extractor:
    """The (cached) extractor instance registered as ``name`` in ``registry``."""
    cache = _INSTANCES.setdefault(registry, {})
    extractor = cache.get(name)
    if extractor is None:
        extractor = registry[name].factory()
        cache[name] = extractor
    return extractor


def known_formats(registry: Registry[ExtractorSpec]) -> list[str]:
    """Format names to list in messages: every registered extractor, sorted."""
    return registry.names()


# -- naming a format -------------------------------------------------------------------------


def distribution_for_format(name: str) -> str | None:
    """The first-party distribution that provides format ``name`` (or ``from_<name>``)."""
    return provider_of("functions", name) or provider_of("formats", name.removeprefix("from_"))


def providers_hint(registry: Registry[ExtractorSpec]) -> str:
    """``". Provider formats ... pip install toolscore-providers"`` for each first-party
    distribution of formats none of which is registered (empty when they all are)."""
    registered = set(registry.names())
    missing = [p for p in FIRST_PARTY if p.formats and not registered.intersection(p.formats)]
    return "".join(
        f". Provider formats (OpenAI, Anthropic, Gemini, MCP, LangChain, OpenTelemetry, ...) "
        f"need the {p.distribution} distribution: pip install {p.distribution}"
        for p in missing
    )


def resolve_format(name: str, registry: Registry[ExtractorSpec]) -> str:
    """The registered extractor behind a format name or alias.

    :raises MissingPluginError: a format a first-party distribution provides, not installed.
    :raises InputError: ``Unsupported format: X. Available formats: ...`` for anything else.
    """
    available = ["auto", *registry.names()]
    unsupported = f"Unsupported format: {name}. Available formats: {', '.join(available)}"
    if not isinstance(name, str):
        raise InputError(unsupported)
    lowered = name.strip().lower()
    candidates = [name, lowered, lowered.replace("-", "_"), lowered.replace("_", "-")]
    for candidate in candidates:
        if candidate in registry:
            return candidate
    for spec_name in registry.names():
        aliases = registry[spec_name].aliases
        if any(candidate in aliases for candidate in candidates):
            return spec_name
    distribution = distribution_for_format(name)
    if distribution is not None:
        raise MissingPluginError(
            f"format {name!r} needs the {distribution} distribution: pip install {distribution}"
        )
    raise InputError(unsupported)


# -- detecting a format ----------------------------------------------------------------------


class Probe:
    """One payload being rated by every extractor, and a memo the extractors share.

    An extractor may offer ``rate(probe) -> float`` next to ``confidence(payload)``: detection
    then calls ``rate`` with the one probe of the payload, so that what several extractors
    would each compute (a description of the payload's messages, say) is computed by the first
    and read from ``memo`` by the others. ``memo`` is theirs to key as they like; it lives for
    one detection only, so a payload changed between two calls is never described stale.
    Extractors without ``rate`` are asked ``confidence(payload)`` as before.

    When :func:`calls_from_payload` reads an in-memory payload, the one probe serves its
    detection and its reading: an extractor that offers ``extract_probed(probe) -> calls``
    (next to ``extract(payload)``) is handed the probe, memo included, so that it need not
    check again what the detection found. Nothing runs between the two, so the memo cannot
    go stale.
    """

    __slots__ = ("memo", "payload")

    def __init__(self, payload: Any) -> None:
        self.payload = payload
        self.memo: dict[Any, Any] = {}


#: How detection asks one extractor: its ``rate`` (given the probe) or its ``confidence``
#: (given the payload), found once.
_Rater = tuple[str, "Callable[[Any], Any]", bool, "frozenset[str] | None"]


class _Raters:
    """The extractors detection asks of one registry, in name order, and which of them a
    plain dict is asked by: those whose ``detection_keys`` it has, and those without keys.

    Why: a JSON object is read by a handful of formats, and checking each format's keys
    against the object's keys cost as much as the one rating that follows. The keys of every
    format are joined once; an object's keys among them pick the formats to ask, a choice
    remembered per set of keys (payloads of one kind share it).
    """

    __slots__ = ("every", "keys", "picked")

    def __init__(self, every: list[_Rater]) -> None:
        self.every = every
        self.keys: frozenset[str] = frozenset().union(*(r[3] for r in every if r[3] is not None))
        self.picked: dict[frozenset[str], list[_Rater]] = {}

    def for_object(self, payload: dict[Any, Any]) -> list[_Rater]:
        """The extractors to ask of ``payload``, a plain dict, in name order."""
        present = self.keys.intersection(payload)
        picked = self.picked.get(present)
        if picked is None:
            picked = [r for r in self.every if r[3] is None or not r[3].isdisjoint(present)]
            if len(self.picked) < _PICKS_KEPT:
                self.picked[present] = picked
        return picked


#: At most this many sets of keys are remembered per registry (payloads hold any keys).
_PICKS_KEPT = 256

#: Per registry, its :class:`_Raters`, once every extractor was built.
_RATERS: weakref.WeakKeyDictionary[Registry[ExtractorSpec], _Raters] = weakref.WeakKeyDictionary()


def _detection_keys(extractor: Extractor) -> frozenset[str] | None:
    """The extractor's ``detection_keys`` (see :class:`toolscore.protocols.Extractor`), if any."""
    keys = getattr(extractor, "detection_keys", None)
    if keys is None:
        return None
    return frozenset(keys)


def _rater(name: str, extractor: Extractor) -> _Rater:
    rate = getattr(extractor, "rate", None)
    if rate is not None:
        return (name, rate, True, _detection_keys(extractor))
    return (name, extractor.confidence, False, _detection_keys(extractor))


def _raters(registry: Registry[ExtractorSpec]) -> _Raters:
    """The extractors detection asks, in name order, each with its detection keys; an
    extractor whose factory fails is left out (and asked again next time: the list is kept
    only when every factory succeeded).

    Why: every in-memory payload is rated by every extractor, and looking each one up by name
    (:func:`extractor_for`, a weak-keyed cache) and then its ``rate`` cost as much as many
    ratings.
    """
    cached = _RATERS.get(registry)
    if cached is not None:
        return cached
    every: list[_Rater] = []
    complete = True
    for name in registry.names():
        try:
            every.append(_rater(name, extractor_for(registry, name)))
        except Exception:  # a plugin's factory must never break detection
            complete = False
    raters = _Raters(every)
    if complete:
        _RATERS[registry] = raters
    return raters


def rank_formats(payload: Any, registry: Registry[ExtractorSpec]) -> list[tuple[float, str]]:
    """Every extractor's positive confidence for ``payload``, best first (ties by name).

    A plain dict that has none of an extractor's ``detection_keys`` is rated 0.0 without
    asking it: a JSON object is read by a handful of formats, and asking every one of them
    cost more than the extraction itself. Extractors that offer ``rate`` share one
    :class:`Probe` of the payload.
    """
    ranked: list[tuple[float, str]] = []
    probe = _READING.get()
    if probe is None or probe.payload is not payload:
        probe = Probe(payload)
    raters = _raters(registry)
    asked = raters.for_object(payload) if type(payload) is dict else raters.every
    for name, rate, probed, _keys in asked:
        try:
            score = float(rate(probe if probed else payload))
        except Exception:  # a plugin's rating must never break detection
            continue
        if score > 0.0:
            ranked.append((min(score, 1.0), name))
    if len(ranked) > 1:
        ranked.sort(key=_best_first)
    return ranked


def _best_first(pair: tuple[float, str]) -> tuple[float, str]:
    return (-pair[0], pair[1])


#: The probe of the payload :func:`calls_from_payload` is reading now (``None`` otherwise).
_READING: ContextVar[Probe | None] = ContextVar("toolscore_reading", default=None)


def choose_format(payload: Any, registry: Registry[ExtractorSpec]) -> str | None:
    """The single best extractor for ``payload``; ``None`` when nothing recognises it."""
    ranked = rank_formats(payload, registry)
    if not ranked:
        return None
    best = ranked[0][0]
    top = tuple(name for score, name in ranked if score == best)
    if len(top) > 1:
        raise AmbiguousFormatError(top, best)
    return top[0]


def detect(payload: Any, plugin_manager: ToolscorePluginManager | None = None) -> str | None:
    """Ask ``plugin_manager`` (default: the process-wide one) which extractor reads ``payload``."""
    return manager_or_default(plugin_manager).detect_format(payload)


# -- in-memory payloads ----------------------------------------------------------------------

_NOT_DETECTED = (
    "Cannot auto-detect provider format from {kind}. Pass a raw OpenAI/Anthropic/Gemini/"
    "LangGraph/PydanticAI/OpenAIAgents/ClaudeAgentSDK response, or a list of dicts with "
    "'tool' and 'args' keys."
)


def is_call_list(actual: Any) -> bool:
    """``[]``, or a list whose first item is a ToolCall or a dict with ``"tool"``: read as is."""
    if not isinstance(actual, list):
        return False
    if not actual:
        return True
    first = actual[0]
    return isinstance(first, ToolCall) or (isinstance(first, dict) and "tool" in first)


def model_dumped(actual: Any) -> Any:
    """``actual.model_dump()`` for an object that offers only that (a pydantic response no
    extractor reads as an object); ``None`` when there is nothing to dump."""
    if actual is None or isinstance(actual, (Mapping, list, tuple, str, bytes, int, float)):
        return None
    dump = getattr(actual, "model_dump", None)
    if not callable(dump):
        return None
    try:
        value = dump()
    except Exception:
        return None
    return value if isinstance(value, (Mapping, list)) else None


def calls_from_payload(
    actual: Any, *, plugin_manager: ToolscorePluginManager | None = None
) -> list[ToolCall]:
    """The calls in ``actual``: a list of call dicts or ToolCalls, or any supported response.

    :raises TypeError: no extractor recognises ``actual`` (nor its ``model_dump()``).
    :raises ValueError: ``actual`` is malformed, or several extractors claim it equally.
    """
    if is_call_list(actual):
        return calls_from_dicts(actual)
    pm = manager_or_default(plugin_manager)
    registry = pm.get_extractors()
    probe = Probe(actual)
    token = _READING.set(probe)
    try:
        chosen = pm.detect_format(actual)
        if chosen is None and (dumped := model_dumped(actual)) is not None:
            actual = dumped
            chosen = pm.detect_format(actual)
        if chosen is None:
            message = _NOT_DETECTED.format(kind=type(actual).__name__)
            looked_for = ", ".join(known_formats(registry))
            raise TypeError(
                f"{message} Formats looked for: {looked_for}{providers_hint(registry)}."
            )
        extractor = extractor_for(registry, chosen)
        read = getattr(extractor, "extract_probed", None)
        if read is not None and probe.payload is actual:
            return list(read(probe))
        return list(extractor.extract(actual))
    finally:
        _READING.reset(token)


def calls_with(
    spec_name: str, payload: Any, *, plugin_manager: ToolscorePluginManager | None = None
) -> list[ToolCall]:
    """The calls the extractor registered as ``spec_name`` reads from ``payload`` (no
    detection); an object it cannot read is tried again as its ``model_dump()``."""
    extractor = extractor_for(manager_or_default(plugin_manager).get_extractors(), spec_name)
    try:
        return list(extractor.extract(payload))
    except InputError:
        dumped = model_dumped(payload)
        if dumped is None:
            raise
        return list(extractor.extract(dumped))


# -- decoded files ---------------------------------------------------------------------------


def calls_from_document(
    data: Any,
    format: str = "auto",
    *,
    plugin_manager: ToolscorePluginManager | None = None,
    source: str = "<trace>",
    locate: Callable[[InputError], InputError] | None = None,
) -> list[ToolCall]:
    """The calls of a decoded trace document; every failure is an InputError about ``source``.

    ``locate`` refines an extractor's error (``load_trace`` adds the JSON Lines line).
    A forced ``format`` that reads nothing from a document another format reads calls from
    is refused: that is a wrong ``--format``, not a trace without calls.
    """
    pm = manager_or_default(plugin_manager)
    registry = pm.get_extractors()
    if format == "auto":
        chosen = detect_document_format(data, plugin_manager=pm, source=source)
    else:
        chosen = resolve_format(format, registry)
    try:
        calls = list(extractor_for(registry, chosen).extract(data))
    except InputError as exc:
        if exc.source:
            raise
        located = InputError(exc.detail, source=source, path=exc.path)
        raise (locate(located) if locate is not None else located) from None
    except ValueError as exc:
        raise InputError(f"not a valid {chosen} trace: {exc}", source=source) from None
    if not calls and format != "auto" and data:
        _refuse_mismatch(data, chosen, pm, source=source)
    return calls


def detect_document_format(
    payload: Any,
    *,
    plugin_manager: ToolscorePluginManager | None = None,
    source: str | None = None,
) -> str:
    """The format name detection picks for a decoded file, or a one-line InputError."""
    pm = manager_or_default(plugin_manager)
    try:
        chosen = pm.detect_format(payload)
    except AmbiguousFormatError as exc:
        raise InputError(str(exc), source=source, path="$") from None
    if chosen is None:
        registry = pm.get_extractors()
        raise InputError(
            f"could not detect the trace format (looked for: {', '.join(known_formats(registry))}"
            f"); pass format= (or --format) explicitly{providers_hint(registry)}",
            source=source,
            path="$",
        )
    return chosen


def _refuse_mismatch(data: Any, chosen: str, pm: ToolscorePluginManager, *, source: str) -> None:
    try:
        other = pm.detect_format(data)
        if other is None or other == chosen:
            return
        found = len(extractor_for(pm.get_extractors(), other).extract(data))
    except Exception:  # probing another format must never hide the user's own result
        return
    if found:
        raise InputError(
            f"no tool calls read as {chosen}, but the file reads as {other} "
            f"({found} call{'s' if found != 1 else ''}); "
            f"pass --format {other} (format={other!r}) or leave the format out",
            source=source,
            path="$",
        )
