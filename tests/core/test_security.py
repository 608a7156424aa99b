"""Credentials in tool arguments (what ``security_metrics`` counts) and their redaction."""

from __future__ import annotations

from typing import Any

import pytest
from toolscore.evaluation import evaluate
from toolscore.metrics.security import find_secrets, redact_secrets
from toolscore.model import calls_from_dicts
from toolscore.plugins import create_plugin_manager

GITHUB = "ghp_" + "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"
AWS = "AKIAIOSFODNN7EXAMPLE"
OPENAI = "sk-proj-" + "Ab1" * 12
ANTHROPIC = "sk-ant-" + "Xy9" * 8
GOOGLE = "AIza" + "B" * 20 + "c1_-" + "d" * 11
SLACK = "xoxb-123456789012-abcdefABCDEF"
STRIPE = "sk_live_" + "a1B2" * 6
PRIVATE = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA"


@pytest.mark.parametrize(
    ("text", "kind", "preview"),
    [
        (GITHUB, "github_token", "ghp_…J6"),
        ("github_pat_" + "A1b" * 21, "github_token", "gith…1b"),
        (AWS, "aws_access_key_id", "AKIA…LE"),
        (OPENAI, "openai_api_key", "sk-p…b1"),
        ("sk-" + "a1B" * 11, "openai_api_key", "sk-a…1B"),
        (ANTHROPIC, "anthropic_api_key", "sk-a…y9"),
        (GOOGLE, "google_api_key", "AIza…dd"),
        (SLACK, "slack_token", "xoxb…EF"),
        (STRIPE, "stripe_secret_key", "sk_l…B2"),
        (PRIVATE, "private_key", "-----BEGIN … PRIVATE KEY-----"),
    ],
)
def test_each_credential_kind_is_found_with_a_redacted_preview(
    text: str, kind: str, preview: str
) -> None:
    report = find_secrets(calls_from_dicts([{"tool": "t", "args": {"v": f"x {text} y"}}]))
    assert report["secret_count"] == 1
    assert report["secrets"][0] == {
        "index": 0,
        "tool": "t",
        "path": "v",
        "kind": kind,
        "preview": preview,
    }


@pytest.mark.parametrize(
    "text",
    [
        "sk-some-very-long-kebab-case-identifier-name-abcdefgh",  # does not look random
        "sk-" + "a" * 40,  # no digit, no upper case
        "AKIA123",  # too short
        "plain text with no secrets",
        "",
    ],
)
def test_ordinary_values_are_not_reported(text: str) -> None:
    assert find_secrets(calls_from_dicts([{"tool": "t", "args": {"v": text}}]))["secret_count"] == 0


def test_paths_reach_every_string_at_any_depth() -> None:
    args: dict[str, Any] = {
        "headers": {"Authorization": f"Bearer {GITHUB}"},
        "files": [{"content": AWS}, "clean", [PRIVATE]],
        "n": 3,
        "nested": ({"deeper": {"x": SLACK}},),
    }
    report = find_secrets(calls_from_dicts([{"tool": "a"}, {"tool": "http", "args": args}]))
    assert [(s["index"], s["path"], s["kind"]) for s in report["secrets"]] == [
        (1, "headers.Authorization", "github_token"),
        (1, "files[0].content", "aws_access_key_id"),
        (1, "files[2][0]", "private_key"),
        (1, "nested[0].deeper.x", "slack_token"),
    ]


def test_a_span_claimed_by_a_stronger_pattern_is_not_reported_again() -> None:
    report = find_secrets(calls_from_dicts([{"tool": "t", "args": {"k": ANTHROPIC}}]))
    assert [s["kind"] for s in report["secrets"]] == ["anthropic_api_key"]
    two = find_secrets(calls_from_dicts([{"tool": "t", "args": {"k": f"{AWS} and {GITHUB}"}}]))
    assert [s["kind"] for s in two["secrets"]] == ["github_token", "aws_access_key_id"]


def test_redaction() -> None:
    assert (
        redact_secrets(f"token {GITHUB} and {AWS}")
        == "token [REDACTED github_token: ghp_…J6] and [REDACTED aws_access_key_id: AKIA…LE]"
    )
    assert redact_secrets("nothing here") == "nothing here"


def test_secrets_never_change_the_score_and_stay_in_the_record() -> None:
    pm = create_plugin_manager(load_entrypoints=False)
    calls = [{"tool": "http", "args": {"token": GITHUB}}]
    result = evaluate(calls, calls, plugin_manager=pm)
    assert result.score == 1.0
    assert result.metrics["security_metrics"]["secret_count"] == 1
    assert result.to_dict()["calls"]["actual"][0]["args"]["token"] == GITHUB
