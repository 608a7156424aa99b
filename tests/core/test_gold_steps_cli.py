"""Gold files with steps or turns through the CLI: ``toolscore validate`` accepts them (one
parser decides what is valid), and ``toolscore eval``'s turn mode honours the options that
make sense per turn or per conversation, and refuses the single-evaluation reports."""

from __future__ import annotations

import importlib.util
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from toolscore.cli import cli
from toolscore.plugins import create_plugin_manager

DOC = Path(__file__).resolve().parents[2] / "docs" / "matching.md"

TURNS = [
    [{"tool": "weather", "args": {"city": "Paris"}}],
    [{"tool": "search", "args": {"q": "bistro"}}],
]
#: Turn 1 right; turn 2 with an extra lookup first (0.65, so 0.82 combined).
CONVERSATION = [
    [{"tool": "weather", "args": {"city": "Paris"}}],
    [{"tool": "log", "args": {}}, {"tool": "search", "args": {"q": "bistro"}}],
]


def run(args: list[str], cwd: Path) -> Result:
    """Invoke the CLI in ``cwd`` with a plugin manager holding core's built-ins only."""
    pm = create_plugin_manager(load_entrypoints=False)
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(cli, args, obj={"plugin_manager": pm})
    finally:
        os.chdir(old)


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _documented_golds(tmp_path: Path) -> list[Any]:
    """The step and turn gold documents of docs/matching.md: each Python example's ``gold``
    (or the gold.json it writes) that holds steps or turns, and every JSON block."""
    from toolscore.expectations.document import is_step_gold

    text = DOC.read_text(encoding="utf-8")
    found: list[Any] = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, re.S)]
    for code in re.findall(r"```python\n(.*?)```", text, flags=re.S):
        namespace: dict[str, Any] = {"__name__": "docs_example"}
        exec(compile(code, str(DOC), "exec"), namespace)
        if "folder" in namespace:
            found.append(json.loads((namespace["folder"] / "gold.json").read_text()))
        elif is_step_gold(namespace.get("gold")):
            found.append(namespace["gold"])
    return found


@pytest.mark.requires("toolscore_providers")  # the docs' turn examples are provider messages
def test_validate_accepts_every_documented_step_and_turn_gold(tmp_path: Path) -> None:
    from toolscore.serialization import validate_document

    golds = _documented_golds(tmp_path)
    assert any("turns" in g for g in golds if isinstance(g, dict))
    assert sum(1 for g in golds if "one_of" in json.dumps(g)) >= 2
    for index, gold in enumerate(golds):
        path = write(tmp_path / f"gold{index}.json", gold)
        result = run(["validate", str(path)], tmp_path)
        assert result.exit_code == 0, (gold, result.output)
        if "turns" in gold or "one_of" in json.dumps(gold):
            assert "Valid gold file" in result.output
        validate_document(gold, "gold", source=str(path))  # the shipped schema agrees


@pytest.mark.parametrize(
    ("gold", "line"),
    [
        (
            {"calls": [{"tool": "a"}, {"repeat": {"tool": "p"}, "min": 2, "max": 1}]},
            "$.calls[1].max: expected an integer >= min (2) and >= 1, or null, got 1",
        ),
        (
            {"turns": [[{"tool": "a"}], [{"optional": {"tool": ""}}]]},
            "$.turns[1][0].optional.tool: expected a non-empty tool name",
        ),
        ([{"one_of": [[{"tool": "a"}]]}], "$[0].one_of: expected at least two alternatives"),
        ({"turns": [[], {"tool": "a"}]}, "$.turns[1]: expected an array of calls"),
    ],
)
def test_validate_rejects_a_malformed_step_naming_file_and_path(
    tmp_path: Path, gold: Any, line: str
) -> None:
    path = write(tmp_path / "gold.json", gold)
    result = run(["validate", str(path)], tmp_path)
    assert result.exit_code == 1
    assert f"Invalid gold file: {path}: {line}" in " ".join(result.output.split())


def test_the_flat_loader_names_a_step_it_cannot_hold(tmp_path: Path) -> None:
    from toolscore.errors import InputError
    from toolscore.loading import load_gold_standard

    path = write(tmp_path / "gold.json", {"calls": [{"tool": "a"}, {"optional": {"tool": "b"}}]})
    with pytest.raises(InputError, match=r"gold.json: \$\.calls\[1\]: a gold step"):
        load_gold_standard(path)


# -- eval in turn mode -------------------------------------------------------------------


@pytest.fixture
def turn_files(tmp_path: Path) -> tuple[Path, Path]:
    return (
        write(tmp_path / "gold.json", {"turns": TURNS}),
        write(tmp_path / "conversation.json", CONVERSATION),
    )


def _report(tmp_path: Path, name: str = "toolscore.json") -> dict[str, Any]:
    report: dict[str, Any] = json.loads((tmp_path / name).read_text())["turns"]
    return report


def test_fail_under_gates_the_combined_score(tmp_path: Path, turn_files: tuple[Path, Path]) -> None:
    gold, conversation = turn_files
    failing = run(["eval", str(gold), str(conversation), "--fail-under", "0.9"], tmp_path)
    assert failing.exit_code == 1
    assert "Score 0.82 is below the required 0.90." in failing.output
    assert round(_report(tmp_path)["score"], 3) == 0.825  # the JSON report is still written
    passing = run(["eval", str(gold), str(conversation), "--fail-under", "0.8"], tmp_path)
    assert passing.exit_code == 0, passing.output
    graded = run(["eval", str(gold), str(conversation), "--fail-under", "A"], tmp_path)
    assert graded.exit_code == 1
    assert "Grade B is below the required A." in graded.output


def test_match_applies_to_every_turn(tmp_path: Path, turn_files: tuple[Path, Path]) -> None:
    gold, conversation = turn_files
    args = ["eval", str(gold), str(conversation), "--match", "superset"]
    result = run(args, tmp_path)
    assert result.exit_code == 0, result.output
    assert "conversation: score 1.00 (A)" in result.output
    assert [t["score"] for t in _report(tmp_path)["turns"]] == [1.0, 1.0]


def test_the_gold_files_match_object_applies_without_the_option(tmp_path: Path) -> None:
    gold = write(tmp_path / "gold.json", {"match": {"mode": "superset"}, "turns": TURNS})
    conversation = write(tmp_path / "conversation.json", CONVERSATION)
    result = run(["eval", str(gold), str(conversation)], tmp_path)
    assert result.exit_code == 0, result.output
    assert _report(tmp_path)["score"] == 1.0


def test_tools_checks_each_turns_arguments(tmp_path: Path, turn_files: tuple[Path, Path]) -> None:
    gold, _ = turn_files
    conversation = write(
        tmp_path / "conversation.json",
        [[{"tool": "weather", "args": {"city": 7}}], [{"tool": "search", "args": {"q": "bistro"}}]],
    )
    tools = write(
        tmp_path / "tools.json",
        {"weather": {"type": "object", "properties": {"city": {"type": "string"}}}},
    )
    result = run(["eval", str(gold), str(conversation), "--tools", str(tools)], tmp_path)
    assert result.exit_code == 0, result.output
    first = _report(tmp_path)["turns"][0]
    assert any("city" in fix and "string" in fix for fix in first["fixes"]), first["fixes"]


def test_forbidden_rules_apply_per_turn_and_fail_on_violations_counts_them(
    tmp_path: Path, turn_files: tuple[Path, Path]
) -> None:
    gold, conversation = turn_files
    rules = write(tmp_path / "rules.json", [{"tool": "log"}])
    args = ["eval", str(gold), str(conversation), "--forbidden", str(rules)]
    result = run(args, tmp_path)
    assert result.exit_code == 0, result.output
    assert "1 forbidden call(s) (--forbidden)" in result.output
    assert [t["policy_violations"] for t in _report(tmp_path)["turns"]] == [0, 1]
    gated = run([*args, "--fail-on-violations"], tmp_path)
    assert gated.exit_code == 1
    assert "1 forbidden call(s) or credential(s) found (--fail-on-violations)" in gated.output


def test_a_bad_step_in_a_turn_names_file_and_path(tmp_path: Path) -> None:
    gold = write(tmp_path / "gold.json", {"turns": [[], [{"repeat": {"tool": "a"}, "max": 0}]]})
    conversation = write(tmp_path / "conversation.json", [])
    result = run(["eval", str(gold), str(conversation)], tmp_path)
    assert result.exit_code == 1
    assert "gold.json: $.turns[1][0].max: expected an integer" in " ".join(result.output.split())


@pytest.mark.parametrize(
    "option",
    [
        ["--html", "r.html"],
        ["--csv", "r.csv"],
        ["--markdown", "r.md"],
        ["--junit", "r.xml"],
        ["--report", "json=r2.json"],
        ["--llm-judge"],
        ["--save-baseline", "base.json"],
    ],
    ids=lambda option: option[0],
)
def test_single_evaluation_reports_are_refused_with_a_usage_error(
    tmp_path: Path, turn_files: tuple[Path, Path], option: list[str]
) -> None:
    gold, conversation = turn_files
    result = run(["eval", str(gold), str(conversation), *option], tmp_path)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert "not a gold file with turns" in lines[0]
    assert not (tmp_path / "toolscore.json").exists()
    if len(option) == 2:
        assert not (tmp_path / option[1].rpartition("=")[2]).exists()


@pytest.mark.skipif(
    importlib.util.find_spec("toolscore_providers") is None,
    reason="provider message formats come from toolscore-providers",
)
def test_format_reads_every_turn_with_the_given_extractor(tmp_path: Path) -> None:
    gold = write(tmp_path / "gold.json", {"turns": TURNS[:1]})
    conversation = write(
        tmp_path / "conversation.json",
        [
            {"role": "user", "content": "weather in Paris?"},
            {
                "role": "assistant",
                "tool_calls": [
                    {
                        "id": "1",
                        "type": "function",
                        "function": {"name": "weather", "arguments": '{"city": "Paris"}'},
                    }
                ],
            },
        ],
    )
    pm = create_plugin_manager()
    args = ["eval", str(gold), str(conversation)]
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        right = CliRunner().invoke(cli, [*args, "--format", "openai"], obj={"plugin_manager": pm})
        assert right.exit_code == 0, right.output
        assert _report(tmp_path)["score"] == 1.0
        wrong = CliRunner().invoke(
            cli, [*args, "--format", "anthropic"], obj={"plugin_manager": pm}
        )
    finally:
        os.chdir(old)
    # Read as Anthropic messages, the OpenAI tool call is not there: the option is honoured.
    assert wrong.exit_code != 0 or _report(tmp_path)["score"] < 1.0, wrong.output
