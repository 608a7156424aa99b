"""Every Python example in docs/matching.md runs and its assertions hold."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "matching.md"
TEXT = DOC.read_text(encoding="utf-8")
PYTHON = re.findall(r"```python\n(.*?)```", TEXT, flags=re.S)
JSON = re.findall(r"```json\n(.*?)```", TEXT, flags=re.S)


def test_the_page_has_examples() -> None:
    assert len(PYTHON) >= 7


@pytest.mark.parametrize("code", PYTHON, ids=[f"example{i + 1}" for i in range(len(PYTHON))])
def test_python_example_runs(code: str) -> None:
    exec(compile(code, str(DOC), "exec"), {"__name__": "docs_example"})


@pytest.mark.parametrize("text", JSON)
def test_json_example_is_a_valid_gold_file(text: str, tmp_path: Path) -> None:
    from toolscore.matching._gold import load_match

    (tmp_path / "gold.json").write_text(text)
    assert load_match(tmp_path / "gold.json") is not None
    assert json.loads(text)["calls"]
