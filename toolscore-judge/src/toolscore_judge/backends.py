"""The three wire formats a judge speaks, over plain HTTP (no SDK needed).

Each backend turns ``(system prompt, user prompt)`` into the model's raw text answer:

- OpenAI chat completions: ``POST {base}/chat/completions``; used for ``openai`` and for any
  OpenAI-compatible server (Ollama, vLLM, Groq, LM Studio, ...) given by ``base_url``.
- Anthropic messages: ``POST {base}/v1/messages``.
- Gemini ``generateContent``: ``POST {base}/v1beta/models/{model}:generateContent``.

The official endpoints can be redirected (a gateway, a proxy, a test server) with the same
environment variables the official SDKs read: ``OPENAI_BASE_URL``, ``ANTHROPIC_BASE_URL`` and
``GOOGLE_GEMINI_BASE_URL``. Keys travel in headers only, never in URLs or error messages.
"""

from __future__ import annotations

import os
import urllib.parse
from typing import Any, Final

from toolscore_judge.config import JudgeConfig
from toolscore_judge.transport import JudgeRequestError, RetryPolicy, post_json

__all__ = ["AnthropicBackend", "Backend", "GeminiBackend", "OpenAIBackend"]

OPENAI_URL: Final = "https://api.openai.com/v1"
ANTHROPIC_URL: Final = "https://api.anthropic.com"
GEMINI_URL: Final = "https://generativelanguage.googleapis.com"
ANTHROPIC_VERSION: Final = "2023-06-01"


class Backend:
    """Sends one prompt and returns the answer text; subclasses know one wire format.

    Built only when a request is really needed, so a fully cached re-run needs no key.

    :raises toolscore_judge.config.MissingAPIKeyError: (from ``__init__``) no key.
    """

    provider: str = ""

    def __init__(self, config: JudgeConfig, provider: str | None = None) -> None:
        self.config = config
        if provider is not None:
            self.provider = provider
        self.api_key = config.require_api_key(self.provider)
        self.policy = RetryPolicy(
            max_retries=config.max_retries,
            backoff=config.retry_backoff,
            max_wait=config.max_retry_wait,
        )

    def complete(self, system: str, prompt: str) -> str:
        """The model's answer text ("" when it gave none)."""
        raise NotImplementedError

    def _post(self, url: str, body: dict[str, Any], headers: dict[str, str]) -> Any:
        return post_json(
            url,
            body,
            headers=headers,
            timeout=self.config.timeout,
            policy=self.policy,
            total=self.config.total_timeout,
            max_bytes=self.config.max_response_bytes,
        )


def _base(configured: str | None, env: str, default: str) -> str:
    return (configured or os.environ.get(env) or default).rstrip("/")


def _unexpected(url: str, what: str) -> JudgeRequestError:
    return JudgeRequestError(f"unexpected answer from {url}: {what}")


class OpenAIBackend(Backend):
    """OpenAI chat completions, also for OpenAI-compatible servers (``base_url``)."""

    provider = "openai"

    def complete(self, system: str, prompt: str) -> str:
        configured = self.config.base_url if self.provider == "openai_compatible" else None
        url = _base(configured, "OPENAI_BASE_URL", OPENAI_URL) + "/chat/completions"
        body = {
            "model": self.config.model,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": prompt},
            ],
            "temperature": self.config.temperature,
            "response_format": {"type": "json_object"},
        }
        data = self._post(url, body, {"Authorization": f"Bearer {self.api_key}"})
        try:
            message = data["choices"][0]["message"]
        except (KeyError, IndexError, TypeError):
            raise _unexpected(url, "no choices[0].message") from None
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list):  # content parts
            return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
        return content if isinstance(content, str) else ""


class AnthropicBackend(Backend):
    """Anthropic messages API."""

    provider = "anthropic"

    def complete(self, system: str, prompt: str) -> str:
        url = _base(None, "ANTHROPIC_BASE_URL", ANTHROPIC_URL) + "/v1/messages"
        body = {
            "model": self.config.model,
            "max_tokens": self.config.max_tokens,
            "system": system,
            "messages": [{"role": "user", "content": prompt}],
            "temperature": self.config.temperature,
        }
        headers = {"x-api-key": self.api_key, "anthropic-version": ANTHROPIC_VERSION}
        data = self._post(url, body, headers)
        blocks = data.get("content") if isinstance(data, dict) else None
        if not isinstance(blocks, list):
            raise _unexpected(url, "no content blocks")
        return "".join(
            str(block.get("text", ""))
            for block in blocks
            if isinstance(block, dict) and block.get("type") == "text"
        )


class GeminiBackend(Backend):
    """Google Gemini ``generateContent`` (API-key authentication)."""

    provider = "gemini"

    def complete(self, system: str, prompt: str) -> str:
        model = self.config.model.removeprefix("models/")
        base = _base(None, "GOOGLE_GEMINI_BASE_URL", GEMINI_URL)
        url = f"{base}/v1beta/models/{urllib.parse.quote(model, safe='.-_')}:generateContent"
        body = {
            "systemInstruction": {"parts": [{"text": system}]},
            "contents": [{"role": "user", "parts": [{"text": prompt}]}],
            "generationConfig": {
                "temperature": self.config.temperature,
                "responseMimeType": "application/json",
            },
        }
        data = self._post(url, body, {"x-goog-api-key": self.api_key})
        if not isinstance(data, dict):
            raise _unexpected(url, "not a JSON object")
        candidates = data.get("candidates") or []
        if not candidates:
            return ""  # blocked or empty: judged as "no response"
        first = candidates[0] if isinstance(candidates[0], dict) else {}
        content = first.get("content")
        parts = content.get("parts") if isinstance(content, dict) else None
        if not isinstance(parts, list):
            return ""
        return "".join(
            str(part.get("text", ""))
            for part in parts
            if isinstance(part, dict) and not part.get("thought")
        )
