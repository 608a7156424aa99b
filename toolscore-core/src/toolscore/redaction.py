"""Credential redaction for everything a person reads: consoles, reports, listings.

Why one module: a trace, a tool name, an MCP server's answer or a plugin's error can carry an
API key, a private key or a password, and every human-facing output (the console summary,
``toolscore validate``, Markdown, HTML, CSV, JUnit, SARIF, TAP, snapshot listings, the MCP
scorecard) may end up in a CI log or a shared file. They all call :func:`redact`, so a format
recognised here is hidden everywhere at once.

Two tables live here:

* :data:`CREDENTIAL_PATTERNS`, the formats the ``security_metrics`` metric *counts*.
  Those counts are scored numbers that must not drift (docs/compat.md), so this table is frozen.
* :data:`REDACTION_PATTERNS`, what :func:`redact` *hides*. It is broader on purpose: whole PEM
  blocks (header, base64 body, footer, also with newlines escaped as ``\\n`` inside JSON
  strings), keys glued to a word (``leak_AKIA...``), newer key shapes, JWTs, bearer tokens and
  ``password=``-style assignments. Hiding an ordinary value by mistake costs a reader little;
  printing a credential cannot be undone.

Each credential becomes ``[REDACTED <kind>: <preview>]`` (first four and last two characters)
or, for secrets too short to preview safely (passwords, bearer tokens), ``[REDACTED <kind>]``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

__all__ = [
    "CREDENTIAL_PATTERNS",
    "REDACTION_PATTERNS",
    "looks_random",
    "preview",
    "redact",
    "redact_strings",
    "redaction_spans",
]

#: (kind, pattern) that ``security_metrics`` reports, most specific first. Frozen:
#: changing it changes scored numbers. A span claimed by one is not reported again.
_CREDENTIAL_SOURCES: tuple[tuple[str, str], ...] = (
    ("private_key", r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----"),
    ("anthropic_api_key", r"\bsk-ant-[A-Za-z0-9_-]{20,}"),
    ("openai_api_key", r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{32,}"),
    ("openai_api_key", r"\bsk-[A-Za-z0-9]{32,}"),
    ("github_token", r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b"),
    ("github_token", r"\bgithub_pat_[A-Za-z0-9_]{60,}"),
    ("aws_access_key_id", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    ("google_api_key", r"\bAIza[0-9A-Za-z_-]{35}\b"),
    ("slack_token", r"\bxox[abprs]-[0-9A-Za-z-]{10,}"),
    ("stripe_secret_key", r"\b(?:sk|rk)_live_[0-9A-Za-z]{24,}"),
)

if TYPE_CHECKING:
    CREDENTIAL_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...]


@functools.cache
def _credential_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((kind, re.compile(source)) for kind, source in _CREDENTIAL_SOURCES)


def __getattr__(name: str) -> Any:
    # CREDENTIAL_PATTERNS is compiled on first use: only the security metric needs it, and
    # compiling costs milliseconds every command would pay.
    if name == "CREDENTIAL_PATTERNS":
        return _credential_patterns()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def looks_random(text: str) -> bool:
    """True when ``text`` has a digit, a lower-case and an upper-case letter.

    Formats that are only a prefix plus a charset must look random to be *counted*, so
    identifiers such as ``sk-some-long-kebab-case-name`` are not reported.
    """
    return (
        any(c.isdigit() for c in text)
        and any(c.islower() for c in text)
        and any(c.isupper() for c in text)
    )


def _not_plain_words(text: str) -> bool:
    """Looser than :func:`looks_random`, for hiding: an upper-case letter or a digit.

    Why: real keys without digits exist (``sk-proj-`` keys are mixed-case base64url), while
    all-lower-case kebab or snake identifiers (``sk-proj-plan-for-the-new-website``) are names.
    """
    return any(c.isdigit() or c.isupper() for c in text)


def _has_digit(text: str) -> bool:
    return any(c.isdigit() for c in text)


def _mixed_case(text: str) -> bool:
    return any(c.islower() for c in text) and any(c.isupper() for c in text)


#: Escapes a key may follow in JSON or Python text (``"\\nghp_..."``, ``'\\x00sk-...'``): their
#: last character is a letter or digit, yet the key starts right after them.
_AFTER_ESCAPE = r"(?<=\\[nrt])|(?<=\\x[0-9a-fA-F]{2})|(?<=\\u[0-9a-fA-F]{4})"
#: Not preceded by a letter or digit. Unlike ``\b`` this lets a key glued to ``_``
#: (``leak_AKIA...``, ``token_ghp_...``) be found, and still skips ``task-1234`` for ``sk-``.
_START = rf"(?:(?<![A-Za-z0-9])|{_AFTER_ESCAPE})"
#: The same for the upper-case-only AWS key ids (``fooAKIA...`` glued to a lower-case word too).
_START_UPPER = rf"(?:(?<![A-Z0-9])|{_AFTER_ESCAPE})"
#: The keys of ``key=value`` and ``"key": "value"`` assignments whose value is a secret. The
#: key may carry a prefix (``db_password``, ``x-api-key``) but must end with the word.
_SECRET_KEY = (
    r"[A-Za-z0-9_.-]*?(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey"
    r"|access[_-]?key|private[_-]?key|auth[_-]?key|credentials?)"
)
#: Every key :data:`_SECRET_KEY` matches contains one of these (case-folded).
_SECRET_KEY_ANCHORS = ("pass", "secret", "token", "key", "credential")
#: A PEM private key: the whole block up to its footer; a block whose footer is missing (cut
#: short, or never there) loses everything that could be key material after the header.
_PEM = (
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
    r"(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"
    r"|(?:[A-Za-z0-9+/=\s:,.-]|\\[nrt])*)"
)


#: A value that only says where a secret goes (``api_key=...``, ``token=<your token>``,
#: ``password=$DB_PASSWORD``, ``key=YOUR_API_KEY``): advice to a reader, not a credential.
_PLACEHOLDER = re.compile(
    r"(?:[.\u2026*xX_-]+"  # ..., …, ***, xxx
    r"|<[^<>]*>|\{[^{}]*\}|\[[^\[\]]*\]"  # <your key>, {KEY}, [KEY]
    r"|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?"  # $NAME, ${NAME}
    r"|(?i:(?:your|my)[-_ ]?(?:[a-z]+[-_ ])?(?:key|token|secret|password)(?:[-_ ]?here)?))"
    r"[)\].,;:]*"
)


def _not_a_placeholder(secret: str) -> bool:
    """Whether an assigned value may be a real secret rather than a placeholder."""
    return _PLACEHOLDER.fullmatch(secret) is None


class _Rule:
    """One redaction format: what it hides, how it is shown and when a match counts.

    ``anchors`` are lower-case strings of which every match contains at least one. A text
    (case-folded) with none of them cannot match, so the expression is neither compiled nor
    run: most text has no credential, and compiling all of them costs about 25 ms a command.
    """

    __slots__ = ("_compiled", "anchors", "check", "flags", "kind", "show_preview", "source")

    def __init__(
        self,
        kind: str,
        pattern: str,
        *,
        anchors: tuple[str, ...],
        flags: int = 0,
        check: Callable[[str], bool] | None = None,
        show_preview: bool = True,
    ) -> None:
        self.kind = kind
        self.source = pattern
        self.flags = flags
        self.anchors = anchors
        self.check = check
        self.show_preview = show_preview
        self._compiled: re.Pattern[str] | None = None

    @property
    def pattern(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.source, self.flags)
        return self._compiled

    def may_match(self, lowered: str) -> bool:
        return any(anchor in lowered for anchor in self.anchors)

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where the secret part of each match is: its named group when it has one (the key of
        ``password=...`` stays readable), else the whole match."""
        found: list[tuple[int, int]] = []
        for match in self.pattern.finditer(text):
            start, end = match.span(match.lastgroup or 0)
            secret = text[start:end]
            if not secret or secret.startswith("[REDACTED"):
                continue  # nothing there, or already hidden (redacting twice changes nothing)
            if self.check is not None and not self.check(secret):
                continue
            found.append((start, end))
        return found


#: What :func:`redact` hides, most specific first. A span claimed by one rule is left alone by
#: the rules after it.
REDACTION_PATTERNS: tuple[_Rule, ...] = (
    _Rule("private_key", _PEM, anchors=("private key",), flags=re.DOTALL),
    # Prefixes long and distinctive enough to be found glued to anything (``...\x1b[Hsk-proj-``).
    _Rule(
        "anthropic_api_key",
        r"sk-ant-[A-Za-z0-9_-]{20,}",
        anchors=("sk-ant-",),
        check=_not_plain_words,
    ),
    _Rule(
        "openai_api_key",
        r"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}",
        anchors=("sk-",),
        check=_not_plain_words,
    ),
    _Rule(
        "openai_api_key",
        _START + r"sk-[A-Za-z0-9]{32,}(?![A-Za-z0-9_-])",
        anchors=("sk-",),
        check=lambda s: _has_digit(s) or _mixed_case(s),
    ),
    _Rule(
        "github_token",
        _START + r"(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}",
        anchors=("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    ),
    _Rule("github_token", r"github_pat_[A-Za-z0-9_]{22,}", anchors=("github_pat_",)),
    _Rule(
        "aws_access_key_id",
        _START_UPPER + r"(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])",
        anchors=("akia", "asia"),
    ),
    _Rule("google_api_key", r"AIza[0-9A-Za-z_-]{35}", anchors=("aiza",)),
    _Rule("slack_token", r"xox[abprse]-[0-9A-Za-z-]{10,}", anchors=("xox",)),
    _Rule(
        "stripe_secret_key",
        r"(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{24,}",
        anchors=("k_live_", "k_test_"),
    ),
    _Rule(
        "huggingface_token", _START + r"hf_[A-Za-z0-9]{30,}", anchors=("hf_",), check=_mixed_case
    ),
    _Rule(
        "jwt",
        _START + r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*",
        anchors=("eyj",),
    ),
    _Rule(  # tried only where a run of scheme characters starts: linear in the text's length
        "url_password",
        r"(?<![A-Za-z0-9+.-])[0-9+.-]*[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@\"']+:(?P<secret>[^/\s@\"']+)@",
        anchors=("://",),
        show_preview=False,
    ),
    _Rule(
        "bearer_token",
        r"\bBearer\s+(?P<secret>[A-Za-z0-9._~+/-]{12,}=*)",
        anchors=("bearer",),
        flags=re.IGNORECASE,
        check=_has_digit,
        show_preview=False,
    ),
    _Rule(
        "basic_auth",
        r"\bBasic\s+(?P<secret>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])",
        anchors=("basic",),
        check=lambda s: _has_digit(s) or s.endswith("="),
        show_preview=False,
    ),
    _Rule(  # "password": "hunter2", also inside a JSON string (\"password\": \"hunter2\")
        "secret_assignment",
        r"(?i)\\?[\"']"
        + _SECRET_KEY
        + r"\\?[\"']\s*:\s*\\?[\"'](?P<secret>(?:[^\"'\\]|\\.)*?)\\?[\"']",
        anchors=_SECRET_KEY_ANCHORS,
        check=_not_a_placeholder,
        show_preview=False,
    ),
    _Rule(  # password=hunter2, ?token=abc&..., api_key = 'abc'
        "secret_assignment",
        "(?i)"
        + _START
        + r"(?<![_.-])"  # where a key can start, not inside one: linear on '----...'
        + _SECRET_KEY
        + r"\s*=\s*(?:[\"'](?P<secret>[^\"'\n]+)[\"']|(?P<bare>[^\s&;,\"'<>()\[\]{}][^\s&;,\"'<>)\]}]*))",
        anchors=_SECRET_KEY_ANCHORS,
        check=_not_a_placeholder,
        show_preview=False,
    ),
)


def redaction_spans(text: str) -> list[tuple[int, int, _Rule]]:
    """``(start, end, rule)`` of every secret :func:`redact` hides in ``text``, sorted, without
    overlaps (an earlier rule wins a span)."""
    claimed: list[tuple[int, int, _Rule]] = []
    lowered = text.casefold()
    for rule in REDACTION_PATTERNS:
        if not rule.may_match(lowered):
            continue
        for start, end in rule.spans(text):
            if any(start < c_end and c_start < end for c_start, c_end, _ in claimed):
                continue
            claimed.append((start, end, rule))
    return sorted(claimed, key=lambda span: span[0])


def preview(kind: str, secret: str) -> str:
    """What a report may show of a credential: four characters, ``…``, two characters.

    A private key only ever shows its header shape, never a byte of the key.
    """
    if kind == "private_key":
        return "-----BEGIN … PRIVATE KEY-----"
    return f"{secret[:4]}…{secret[-2:]}"


def _replacement(rule: _Rule, secret: str) -> str:
    if not rule.show_preview:
        return f"[REDACTED {rule.kind}]"
    return f"[REDACTED {rule.kind}: {preview(rule.kind, secret)}]"


def redact(text: str) -> str:
    """``text`` with every credential replaced by ``[REDACTED <kind>: <preview>]``.

    Call it on anything from data before a person sees it (tool names too: an agent can put a
    key anywhere). Redact before cutting text short: a credential cut in half no longer
    matches and would leak all but its tail.
    """
    spans = redaction_spans(text)
    if not spans:
        return text
    parts: list[str] = []
    position = 0
    for start, end, rule in spans:
        parts.append(text[position:start])
        parts.append(_replacement(rule, text[start:end]))
        position = end
    parts.append(text[position:])
    return "".join(parts)


def redact_strings(value: Any) -> Any:
    """``value`` with :func:`redact` applied to every string inside it (keys too), recursively.

    For JSON documents meant for people (SARIF): the structure stays valid, only text changes.
    """
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, Mapping):
        return {redact_strings(k): redact_strings(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_strings(v) for v in value]
    return value
