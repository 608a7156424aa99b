"""One redaction for every human-facing output: real-format fake secrets go, look-alikes stay.

The secrets below are fakes in the real formats (built from pieces so that no scanner takes
them for leaks). Each must vanish from ``redact``'s output; each look-alike must come out as it
went in.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from toolscore.metrics.security import find_secrets, redact_secrets
from toolscore.model import calls_from_dicts
from toolscore.redaction import redact, redact_strings

PEM_BODY = "MIIEowIBAAKCAQEA7bq98Zk2" + "Jx4mS1fZq3Lk9" * 4
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    f"{PEM_BODY}\n"
    "Vd3KqP0zXwYh8sT2uN6bR1mC4eJ7aG5fL9oI0pQ==\n"
    "-----END RSA PRIVATE KEY-----"
)

#: name -> (text holding a secret, the part that must not survive)
SECRETS: dict[str, tuple[str, str]] = {
    "pem block": (f"key: {PEM}\nafter", PEM_BODY),
    "pem footer base64": (PEM, "Vd3KqP0zXwYh8sT2uN6bR1mC4eJ7aG5fL9oI0pQ"),
    "pem inside a JSON string": (json.dumps({"key": PEM}), PEM_BODY),
    "pem without a footer": (
        json.dumps({"key": "-----BEGIN PRIVATE KEY-----\n" + PEM_BODY}),
        PEM_BODY[:12],
    ),
    "openssh key": (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA"
        "\n-----END OPENSSH PRIVATE KEY-----",
        "b3BlbnNzaC1rZXktdjEAAAAA",
    ),
    "sk-proj without digits": (
        "key sk-proj-" + "AbCdEfGhIjKlMnOpQrStUvWxYz_-AbCdEfGhIjKl",
        "AbCdEfGhIjKlMnOpQrStUvWxYz",
    ),
    "sk-proj with digits": ("sk-proj-" + "Ab1Cd2" * 8, "Ab1Cd2Ab1Cd2"),
    "sk-svcacct": ("sk-svcacct-" + "Zx9Yw8" * 6, "Zx9Yw8Zx9Yw8"),
    "sk-admin": ("sk-admin-" + "Qr7St6" * 6, "Qr7St6Qr7St6"),
    "legacy sk": ("sk-" + "T3BlbkFJ" * 6, "T3BlbkFJT3BlbkFJ"),
    "anthropic": ("sk-ant-api03-" + "Lm4No5Pq6" * 10, "Lm4No5Pq6Lm4No5Pq6"),
    "aws after underscore": ("leak_" + "AKIA" + "IOSFODNN7EXAMPLE", "IOSFODNN7EXAMPLE"),
    "aws session key": ("id=" + "ASIA" + "Y34FZKBOKMUTVV7A", "Y34FZKBOKMUTVV7A"),
    "github ghp": ("ghp_" + "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6", "aB3dE6gH9jK2mN5pQ8sT"),
    "github gho glued": ("token_gho_" + "Z" * 10 + "y7" * 13, "ZZZZZZZZZZy7y7"),
    "github ghs": ("ghs_" + "x1Y2" * 9, "x1Y2x1Y2x1Y2"),
    "github pat": ("github_pat_" + "11ABCDEFG0" + "a1B2c3" * 4 + "_" + "Z9y8" * 15, "Z9y8Z9y8"),
    "slack": ("xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKl", "1234567890123-AbCd"),
    "google": ("AIza" + "SyD" + "x1y2z3" * 5 + "AbCdEf", "x1y2z3x1y2z3"),
    "stripe live": ("sk_live_" + "51Hx" * 7, "51Hx51Hx51Hx"),
    "stripe restricted": ("rk_live_" + "9Kq" * 9, "9Kq9Kq9Kq9Kq"),
    "hugging face": ("hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh", "AbCdEfGhIjKlMnOpQr"),
    "jwt": (
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "dozjgNryP4J3jVmNHl0w5N",
    ),
    "bearer": ("Authorization: Bearer " + "9f8e7d6c5b4a3f2e1d0c", "9f8e7d6c5b4a3f2e1d0c"),
    "password=": ("login user=bob password=Hunter2!x", "Hunter2!x"),
    "secret=": ("secret = 'correct horse battery'", "correct horse battery"),
    "token= in a query": ("https://api.example.com/v1?token=abc123xyz&page=2", "abc123xyz"),
    "api_key=": ("API_KEY=qwerty-uiop-1", "qwerty-uiop-1"),
    "JSON password": ('{"password": "s3cr3t pass"}', "s3cr3t pass"),
    "escaped JSON password": (json.dumps(json.dumps({"db_password": "pw-42"})), "pw-42"),
    "python repr api_key": ("{'api_key': 'abcd1234'}", "abcd1234"),
    "url credentials": ("postgres://admin:Pa55word@db.internal/app", "Pa55word"),
}

#: Text that looks a little like a secret and must come out unchanged.
LOOK_ALIKES = [
    "sketch-proj-plan",
    "task-1234",
    "sk-proj-plan-for-the-new-website-and-the-old-one",
    "sk-some-very-long-kebab-case-identifier-name-abcdefgh",
    "123e4567-e89b-12d3-a456-426614174000",  # a UUID
    "commit 0c3b1d7e5f4a6b8c9d0e1f2a3b4c5d6e7f8a9b0c",  # a git SHA
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
    "YPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",  # an ordinary image
    "the password reset flow sends a secret link",
    "Enter your password: at least 8 characters",
    "AKIAPROPERTYMANAGEMENTLTD",  # AKIA inside a longer capitalised word
    "XAKIAIOSFODNN7EXAMPLE",  # the 20-char shape inside a longer word
    "AKIA123",
    "max_tokens=100 token_count=5",
    '{"secret_count": 0, "password_reset_url": "https://example.com/reset"}',
    "the bearer of bad news; Bearer authentication",
    "hf_hub_download and ghp_short",
    "-----BEGIN CERTIFICATE-----",
    "[REDACTED github_token: ghp_…J6] password=[REDACTED secret_assignment]",
]


@pytest.mark.parametrize(("text", "secret"), list(SECRETS.values()), ids=list(SECRETS))
def test_every_real_format_secret_is_redacted(text: str, secret: str) -> None:
    assert secret in text
    redacted = redact(text)
    assert secret not in redacted
    assert "[REDACTED " in redacted


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_look_alikes_are_left_alone(text: str) -> None:
    assert redact(text) == text


def test_a_private_key_block_is_hidden_whole_and_text_around_it_stays() -> None:
    assert redact(f"before {PEM} after") == (
        "before [REDACTED private_key: -----BEGIN … PRIVATE KEY-----] after"
    )


def test_assignments_keep_their_key_and_show_no_part_of_the_value() -> None:
    assert redact("password=Hunter2!x") == "password=[REDACTED secret_assignment]"
    assert redact('"api_key": "abcd1234"') == '"api_key": "[REDACTED secret_assignment]"'
    assert redact("Bearer 9f8e7d6c5b4a3f2e1d0c") == "Bearer [REDACTED bearer_token]"


@pytest.mark.parametrize(
    "advice",
    [
        "Set OPENAI_API_KEY or pass JudgeConfig(api_key=...).",
        "api_key=\u2026 in the config",
        "token=<your token>",
        "password=$DB_PASSWORD",
        "password=${DB_PASSWORD}",
        "--api-key={KEY}",
        "api_key=YOUR_API_KEY",
        "token=your-token-here",
        '"password": "***"',
    ],
)
def test_advice_on_where_a_secret_goes_is_not_redacted(advice: str) -> None:
    assert redact(advice) == advice


@pytest.mark.parametrize(
    "assignment", ["token=yourself99Q", "api_key=xyz123abc", "password=my.dog.Rex1", "secret=..a9"]
)
def test_values_that_only_start_like_a_placeholder_are_still_hidden(assignment: str) -> None:
    assert "[REDACTED secret_assignment]" in redact(assignment)


def test_redacting_twice_changes_nothing() -> None:
    text = " | ".join(text for text, _ in SECRETS.values())
    once = redact(text)
    assert redact(once) == once


def test_the_public_redact_secrets_is_the_same_redaction() -> None:
    text = f"leak_AKIAIOSFODNN7EXAMPLE {PEM}"
    assert redact_secrets(text) == redact(text)
    assert PEM_BODY not in redact_secrets(text)


def test_redact_strings_keeps_the_structure_of_a_document() -> None:
    document = {"runs": [{"message": {"text": "password=Hunter2!x"}, "level": 3}]}
    assert redact_strings(document) == {
        "runs": [{"message": {"text": "password=[REDACTED secret_assignment]"}, "level": 3}]
    }


def test_the_security_metric_still_counts_only_the_spec_formats() -> None:
    # Redaction hides more than the metric counts; the metric's numbers must not drift
    # (docs/compat.md#what-stays-the-same).
    args = {
        "a": "password=Hunter2!x",
        "b": "Bearer 9f8e7d6c5b4a3f2e1d0c",
        "c": "leak_AKIAIOSFODNN7EXAMPLE",  # no word boundary before the key: not counted
        "d": "AKIAIOSFODNN7EXAMPLE",
        "e": PEM,
    }
    report = find_secrets(calls_from_dicts([{"tool": "t", "args": args}]))
    assert [(s["path"], s["kind"]) for s in report["secrets"]] == [
        ("d", "aws_access_key_id"),
        ("e", "private_key"),
    ]


_PIECES = [
    "sk-ant-",
    "sk-proj-",
    "sk-",
    "ghp_",
    "github_pat_",
    "AKIA",
    "ASIA",
    "AIza",
    "xoxb-",
    "sk_live_",
    "rk_test_",
    "hf_",
    "eyJ",
    ".eyJ",
    "https://",
    "user:",
    "@",
    "Bearer ",
    "bearer ",
    "Basic ",
    "password",
    "PASSWORD",
    "paſſword",
    "api_key",
    "toKen",
    '"',
    "'",
    "=",
    ": ",
    "\\n",
    "-----BEGIN RSA PRIVATE KEY-----",
    "-----END RSA PRIVATE KEY-----",
    "Ab3dEf9hIj2kLm4nOp6qRs8tUv0wXy1zAb3dEf9h",
    "ABCDEFGHIJKLMNOP",
    "abc123",
    " ",
    "_",
    "-",
]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join))
def test_skipping_rules_whose_anchors_are_absent_never_changes_what_is_hidden(text: str) -> None:
    from toolscore.redaction import REDACTION_PATTERNS, redaction_spans

    every_rule: list[tuple[int, int, object]] = []
    for rule in REDACTION_PATTERNS:
        for start, end in rule.spans(text):
            if not any(start < c_end and c_start < end for c_start, c_end, _ in every_rule):
                every_rule.append((start, end, rule))
    assert redaction_spans(text) == sorted(every_rule, key=lambda span: span[0])
