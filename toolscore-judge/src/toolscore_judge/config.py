"""Judge configuration: which model, which provider, which key, how patient.

:class:`JudgeConfig` is public as ``toolscore.JudgeConfig``. Its first six fields keep their
public order and defaults, so ``JudgeConfig("claude-3-5-haiku")`` works positionally as code
written for it expects (docs/compat.md#what-stays-the-same); the rest are keyword-only. Only impossible numbers (a negative retry count, a zero timeout) are
rejected when a config is built: the provider and the key are resolved when a judge runs,
and a problem then is recorded in ``semantic_metrics["error"]`` instead of stopping the
evaluation.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Final

import attrs

__all__ = [
    "API_KEY_ENV",
    "BUILTIN_PROVIDERS",
    "DEFAULT_CACHE_DIR",
    "DEFAULT_MODEL",
    "JudgeConfig",
    "MissingAPIKeyError",
]

#: The model used when none is named.
DEFAULT_MODEL: Final = "gpt-4o-mini"

#: Where verdicts are cached unless told otherwise (relative to the working directory).
DEFAULT_CACHE_DIR: Final = ".toolscore/judge-cache"

#: Providers this distribution ships a judge for; plugins may register more.
BUILTIN_PROVIDERS: Final = ("openai", "anthropic", "gemini", "openai_compatible")

#: Environment variables read for a provider's key, in order.
API_KEY_ENV: Final[Mapping[str, tuple[str, ...]]] = {
    "openai": ("OPENAI_API_KEY",),
    "openai_compatible": ("OPENAI_API_KEY",),
    "anthropic": ("ANTHROPIC_API_KEY",),
    "gemini": ("GOOGLE_API_KEY", "GEMINI_API_KEY"),
}

_CACHE_OFF: Final = frozenset({"off", "none", "false", "0", "no", ""})


class MissingAPIKeyError(ValueError):
    """No API key for a provider that needs one (a ``ValueError``: ``except ValueError`` code
    catches it)."""


@attrs.frozen
class JudgeConfig:
    """How to reach the LLM that judges semantic equivalence of tool calls.

    Provider inference (see :meth:`resolve_provider`): an explicit ``provider`` wins; a
    ``base_url`` means an OpenAI-compatible server (Ollama, vLLM, Groq, ...); otherwise the
    model name decides (``claude*`` → anthropic, ``gemini*`` → gemini, anything else → openai).

    Example::

        JudgeConfig("llama3.1", base_url="http://localhost:11434/v1")
        JudgeConfig("claude-3-5-haiku-latest", timeout=30, cache_dir="off")
    """

    #: Model name, e.g. ``gpt-4o-mini``, ``claude-3-5-haiku-latest``, ``gemini-2.0-flash``.
    model: str = DEFAULT_MODEL
    #: ``openai``, ``anthropic``, ``gemini``, ``openai_compatible`` or a plugin's judge name;
    #: ``None`` infers it.
    provider: str | None = None
    #: The key itself; ``None`` reads the provider's environment variable. Never shown in repr.
    api_key: str | None = attrs.field(default=None, repr=False)
    #: An OpenAI-compatible endpoint such as ``http://localhost:11434/v1``.
    base_url: str | None = None
    #: Sampling temperature; 0 for the most repeatable verdicts.
    temperature: float = 0.0
    #: Retries after a rate limit (429), a server error (5xx), a timeout or a dropped connection.
    max_retries: int = attrs.field(default=2, validator=attrs.validators.ge(0))
    #: Seconds any one network operation (connecting, each read) may take.
    timeout: float = attrs.field(default=60.0, kw_only=True, validator=attrs.validators.gt(0))
    #: Seconds one request may take in all: connection, reading, every retry and wait. ``None``
    #: is ``(max_retries + 1) * timeout + max_retries * max_retry_wait``. Enforced even when
    #: the server sends its answer one byte at a time.
    total_timeout: float | None = attrs.field(
        default=None,
        kw_only=True,
        validator=attrs.validators.optional(attrs.validators.gt(0)),
    )
    #: Largest answer, in bytes, read from the judge's API; a larger one is an error.
    max_response_bytes: int = attrs.field(
        default=4 * 1024 * 1024, kw_only=True, validator=attrs.validators.gt(0)
    )
    #: Read the key from this environment variable instead of the provider's usual one.
    api_key_env: str | None = attrs.field(default=None, kw_only=True)
    #: Folder of the verdict cache; ``None`` or ``"off"`` disables caching.
    cache_dir: str | os.PathLike[str] | None = attrs.field(default=DEFAULT_CACHE_DIR, kw_only=True)
    #: First retry delay in seconds; doubles on every further retry.
    retry_backoff: float = attrs.field(default=0.5, kw_only=True, validator=attrs.validators.ge(0))
    #: Longest single wait between retries, also the cap on a server's ``Retry-After``.
    max_retry_wait: float = attrs.field(
        default=20.0, kw_only=True, validator=attrs.validators.ge(0)
    )
    #: Upper bound on the length of the judge's answer (tokens), where the API asks for one.
    max_tokens: int = attrs.field(default=4096, kw_only=True, validator=attrs.validators.gt(0))
    #: Most pairs judged in one request; more pairs go out in several requests, so that a
    #: long trace neither overflows the model's context nor truncates its answer.
    max_batch_pairs: int = attrs.field(default=25, kw_only=True, validator=attrs.validators.gt(0))
    #: Most characters of rendered pairs in one request (a larger pair goes out alone).
    max_batch_chars: int = attrs.field(
        default=40_000, kw_only=True, validator=attrs.validators.gt(0)
    )

    def resolve_provider(self) -> str:
        """The provider this config talks to.

        :raises ValueError: ``openai_compatible`` without a ``base_url``, or another explicit
            provider combined with a ``base_url`` (the intent is ambiguous).
        """
        if self.provider is not None:
            provider = self.provider
            if provider == "openai_compatible":
                if not self.base_url:
                    raise ValueError(
                        "provider 'openai_compatible' needs a base_url, for example "
                        "JudgeConfig('llama3.1', provider='openai_compatible', "
                        "base_url='http://localhost:11434/v1'); or leave provider out to infer it "
                        "from the model name."
                    )
                return provider
            if self.base_url:
                raise ValueError(
                    f"provider {provider!r} conflicts with base_url={self.base_url!r}: a base_url "
                    "means an OpenAI-compatible server. Drop base_url, or use "
                    "provider='openai_compatible' (or no provider at all)."
                )
            return provider
        if self.base_url:
            return "openai_compatible"
        model = self.model.lower()
        if model.startswith("claude"):
            return "anthropic"
        if model.startswith("gemini"):
            return "gemini"
        return "openai"

    def key_env_names(self, provider: str) -> tuple[str, ...]:
        """Environment variables consulted for ``provider``'s key, in order."""
        if self.api_key_env:
            return (self.api_key_env,)
        return tuple(API_KEY_ENV.get(provider, ()))

    def resolve_api_key(self, provider: str) -> str | None:
        """The key from the config or the environment; ``None`` (or empty) counts as missing."""
        if self.api_key:
            return self.api_key
        for name in self.key_env_names(provider):
            value = os.environ.get(name)
            if value:
                return value
        return None

    def require_api_key(self, provider: str) -> str:
        """The key for ``provider``, or :class:`MissingAPIKeyError` when there is none.

        An ``openai_compatible`` server usually needs no key; it gets the placeholder
        ``"not-needed"`` unless ``api_key_env`` names a variable that must be set.

        :raises MissingAPIKeyError: no key was given or found.
        """
        key = self.resolve_api_key(provider)
        if key:
            return key
        if provider == "openai_compatible" and not self.api_key_env:
            return "not-needed"
        names = self.key_env_names(provider) or ("API_KEY",)
        raise MissingAPIKeyError(
            f"API key required for provider '{provider}'. Set the {names[0]} environment "
            "variable or pass JudgeConfig(api_key=...)."
        )

    @property
    def cache_enabled(self) -> bool:
        """Whether verdicts are read from and written to :attr:`cache_dir`."""
        return self.cache_dir is not None and str(self.cache_dir).strip().lower() not in _CACHE_OFF

    def identity(self, provider: str | None = None) -> str:
        """The judge's name in the verdict cache: ``provider:model``, plus a non-zero temperature.

        Two configs with the same identity are expected to give the same verdicts; a verdict
        cached under another identity for the same pair is reported as judge drift.
        """
        name = f"{provider or self.resolve_provider()}:{self.model}"
        if self.temperature:
            name += f"@t={self.temperature:g}"
        return name
