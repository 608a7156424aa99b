"""The ground-truth manifests are well formed, cover the required domains and match the README.

No server is started here (``handcheck.py`` does that, after ``install.py``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import handcheck  # noqa: E402
import install  # noqa: E402

MANIFESTS = handcheck.load_manifests()
REQUIRED_DOMAINS = {
    "files",
    "git",
    "sql",
    "spreadsheets",
    "fetch",
    "web search",
    "memory",
    "time",
    "math",
}


def test_the_corpus_is_big_enough_and_covers_every_domain() -> None:
    assert len(MANIFESTS) >= 12
    covered = {domain for m in MANIFESTS for domain in m["domains"]}
    assert covered >= REQUIRED_DOMAINS, REQUIRED_DOMAINS - covered


@pytest.mark.parametrize("manifest", MANIFESTS, ids=[m["name"] for m in MANIFESTS])
def test_manifest_is_well_formed(manifest: dict[str, Any]) -> None:
    assert handcheck.validate_manifest(manifest) == []
    assert manifest["tools"], "every tool the server lists must appear"
    package = manifest["package"]
    pin = package.get("pypi") or package.get("npm")
    assert re.fullmatch(r"(@[\w.-]+/)?[\w.-]+(==|@)[\w.]+", pin), pin
    for entry in manifest.get("errors_as_success", []) + manifest.get("accepted_bad_input", []):
        assert entry["tool"] in manifest["tools"]
        assert entry["text"].strip()


@pytest.mark.parametrize("manifest", MANIFESTS, ids=[m["name"] for m in MANIFESTS])
def test_placeholders_are_only_the_sandbox_ones(manifest: dict[str, Any]) -> None:
    seen: list[str] = []

    def collect(text: str) -> str:
        seen.extend(re.findall(r"\{[a-z_]+\}", text))
        return text

    handcheck.substitute({k: manifest[k] for k in ("command", "env", "tools")}, collect)
    assert set(seen) <= {"{sandbox}", "{sandbox_url}"}


def test_readme_has_a_table_row_for_every_tool() -> None:
    readme = (HERE / "README.md").read_text(encoding="utf-8")
    sections = {s.split("\n", 1)[0].strip(): s for s in readme.split("\n## ")[1:]}
    for manifest in MANIFESTS:
        section = sections.get(manifest["name"], "")
        assert section, f"README has no section for {manifest['name']}"
        for tool in manifest["tools"]:
            assert f"| `{tool}` |" in section, (manifest["name"], tool)


def test_install_reads_the_same_manifests() -> None:
    assert [m["name"] for m in install.manifests()] == [m["name"] for m in MANIFESTS]


def test_readme_summary_table_is_made_from_the_manifests() -> None:
    readme = (HERE / "README.md").read_text(encoding="utf-8")
    assert handcheck.summary_table(MANIFESTS) in readme
