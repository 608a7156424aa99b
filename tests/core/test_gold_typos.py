"""Gold typos are caught by every reader with the same one-line GoldFileError (issue 26).

An unknown ``$`` matcher and an unknown step key name the closest valid name and list the
valid ones; ``evaluate()``, ``match_trajectory()``, ``load_gold_standard``, ``toolscore eval``
and ``toolscore validate`` agree; ``$literal`` and objects with several keys stay values.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from toolscore import evaluate, hookimpl
from toolscore.cli import main
from toolscore.errors import GoldFileError, InputError
from toolscore.loading import load_gold_standard
from toolscore.matching import match_trajectory
from toolscore.matching.matchers import Matcher
from toolscore.plugins import create_plugin_manager
from toolscore.specs import MatcherSpec

REGX = [{"tool": "a", "args": {"q": {"$regx": "b"}}}]
OPTINAL = [{"tool": "a"}, {"optinal": {"tool": "b"}}]
BAD_REPEAT = [{"tool": "a"}, {"repeat": {"tool": "b"}, "min": "x"}]
ACTUAL = [{"tool": "a", "args": {"q": "b"}}, {"tool": "b", "args": {}}]
VALID_NAMES = "$any, $approx, $contains, $literal, $one_of, $regex, $type"


def _write(tmp_path: Path, data: Any, name: str = "gold.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from toolscore.cli import main; main()", *args],
        capture_output=True,
        text=True,
        check=False,
        env={"COLUMNS": "400", "PATH": ""},
    )


def test_an_unknown_matcher_names_the_closest_and_every_valid_one() -> None:
    with pytest.raises(GoldFileError) as info:
        evaluate(REGX, ACTUAL)
    message = str(info.value)
    assert message.startswith('$[0].args.q: unknown matcher "$regx" (did you mean "$regex"?)')
    assert VALID_NAMES in message
    assert "\n" not in message
    assert isinstance(info.value, InputError)
    assert isinstance(info.value, ValueError)


def test_an_unknown_matcher_deep_inside_a_value_is_named_by_its_path() -> None:
    gold = [{"tool": "a", "args": {"f": {"x": [1, {"$contains": {"$anyy": True}}]}}}]
    with pytest.raises(GoldFileError, match=r'^\$\[0\]\.args\.f\.x\[1\]\["\$contains"\]: '):
        evaluate(gold, ACTUAL)


def test_an_unknown_step_key_names_the_closest_and_the_step_keys() -> None:
    with pytest.raises(GoldFileError) as info:
        evaluate(OPTINAL, ACTUAL)
    assert str(info.value) == (
        '$[1]: unknown key "optinal" (did you mean "optional"?); a gold item is a call '
        '("tool") or a step: "optional", "repeat" (with "min" and "max"), "any_order" or '
        '"one_of"'
    )


def test_an_unknown_key_in_a_step_names_the_closest() -> None:
    gold = [{"repeat": {"tool": "a"}, "mx": 3}]
    with pytest.raises(GoldFileError, match=r'unexpected key "mx" in a "repeat" step \(did'):
        evaluate(gold, ACTUAL)


def test_a_bad_repeat_is_a_gold_file_error_with_its_json_path(tmp_path: Path) -> None:
    with pytest.raises(GoldFileError, match=r'^\$\[1\]\.min: expected an integer >= 0, got "x"$'):
        evaluate(BAD_REPEAT, ACTUAL)
    gold = _write(tmp_path, BAD_REPEAT)
    result = _cli("eval", str(gold), str(_write(tmp_path, ACTUAL, "trace.json")))
    assert result.returncode == 1
    assert f'{gold}: $[1].min: expected an integer >= 0, got "x"' in result.stderr


@pytest.mark.parametrize("gold", [REGX, OPTINAL])
def test_evaluate_match_trajectory_load_and_eval_give_the_same_message(
    tmp_path: Path, gold: list[Any]
) -> None:
    with pytest.raises(GoldFileError) as in_memory:
        evaluate(gold, ACTUAL)
    with pytest.raises(GoldFileError) as trajectory:
        match_trajectory(gold, ACTUAL)
    path = _write(tmp_path, gold)
    with pytest.raises(GoldFileError) as loaded:
        load_gold_standard(path)
    assert str(in_memory.value) == str(trajectory.value)
    assert str(loaded.value) == f"{path}: {in_memory.value}"
    result = _cli("eval", str(path), str(_write(tmp_path, ACTUAL, "trace.json")))
    assert result.returncode == 1
    (line,) = result.stderr.strip().splitlines()
    assert line.endswith(f"{path}: {in_memory.value}")


def test_validate_rejects_an_unknown_matcher_in_a_flat_gold_file(tmp_path: Path) -> None:
    gold = _write(tmp_path, REGX)
    result = CliRunner().invoke(main, ["validate", str(gold)])
    assert result.exit_code == 1
    assert "Valid trace file" not in result.output
    assert f'Invalid gold file: {gold}: $[0].args.q: unknown matcher "$regx"' in " ".join(
        result.output.split()
    )


def test_validate_rejects_a_misspelt_step(tmp_path: Path) -> None:
    result = _cli("validate", str(_write(tmp_path, OPTINAL)))
    assert result.returncode == 1
    assert 'unknown key "optinal" (did you mean "optional"?)' in result.stderr


def test_validate_prints_what_it_checked_in_a_gold_file(tmp_path: Path) -> None:
    gold = _write(
        tmp_path,
        {
            "match": {"mode": "superset"},
            "calls": [
                {"tool": "a", "args": {"q": {"$regex": "b.*"}, "f": {"$literal": {"$gt": 1}}}},
                {"tool": "b", "args": {"n": {"$any": True}, "m": {"$regex": "x"}}},
            ],
        },
    )
    result = _cli("validate", str(gold))
    assert result.returncode == 0, result.stderr
    assert "Valid gold file" in result.stdout
    assert "canonical" not in result.stdout
    assert "Calls: 2" in result.stdout
    assert "Match: superset" in result.stdout
    assert "Matchers: $any (1), $literal (1), $regex (2)" in result.stdout


def test_validate_counts_steps_and_reads_a_plain_list_as_a_trace(tmp_path: Path) -> None:
    steps = _write(tmp_path, [{"tool": "a"}, {"optional": {"tool": "b"}}])
    result = _cli("validate", str(steps))
    assert result.returncode == 0
    assert "Steps: 2" in result.stdout
    assert "Matchers: none" in result.stdout
    plain = _write(tmp_path, [{"tool": "a", "args": {}}], "plain.json")
    assert "Valid trace file" in _cli("validate", str(plain)).stdout
    forced = _cli("validate", "--gold", str(plain))
    assert "Valid gold file" in forced.stdout
    assert "Calls: 1" in forced.stdout


def test_a_trace_with_a_dollar_object_stays_a_trace(tmp_path: Path) -> None:
    trace = _write(tmp_path, [{"tool": "find", "args": {"q": {"$gt": 5}}, "result": []}])
    result = _cli("validate", str(trace))
    assert result.returncode == 0
    assert "Valid trace file" in result.stdout


def test_literal_and_several_key_objects_stay_values() -> None:
    gold = [
        {
            "tool": "find",
            "args": {
                "one": {"$literal": {"$gt": 1}},
                "two": {"$gt": 1, "$lt": 5},
                "three": {"$literal": {"$regex": "^a"}},
            },
        }
    ]
    actual = [
        {
            "tool": "find",
            "args": {"one": {"$gt": 1}, "two": {"$gt": 1, "$lt": 5}, "three": {"$regex": "^a"}},
        }
    ]
    assert evaluate(gold, actual).score == 1.0


def test_a_plain_missing_tool_keeps_the_earlier_wording() -> None:
    with pytest.raises(GoldFileError, match=r"Item at index 1 is missing 'tool' key"):
        evaluate([{"tool": "a"}, {"args": {}}], ACTUAL)
    with pytest.raises(GoldFileError, match=r"Item at index 0 is not a dict"):
        evaluate(["a"], ACTUAL)


class _StartsWith(Matcher):
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def matches(self, value: object) -> bool:
        return isinstance(value, str) and value.startswith(self.prefix)

    def __repr__(self) -> str:
        return f"StartsWith({self.prefix!r})"


class _StartsWithPlugin:
    @hookimpl
    def toolscore_register_matchers(self) -> Iterator[MatcherSpec]:
        yield MatcherSpec(
            name="startswith", factory=_StartsWith, json_key="$startswith", from_json=_StartsWith
        )


def test_plugin_matchers_are_valid_names(tmp_path: Path) -> None:
    pm = create_plugin_manager(load_entrypoints=False)
    pm.register(_StartsWithPlugin(), name="startswith-plugin")
    gold = [{"tool": "a", "args": {"q": {"$startswith": "b"}}}]
    assert evaluate(gold, ACTUAL[:1], plugin_manager=pm).score == 1.0
    assert load_gold_standard(_write(tmp_path, gold), plugin_manager=pm)[0].args is not None
    with pytest.raises(GoldFileError) as info:
        evaluate([{"tool": "a", "args": {"q": {"$startwith": "b"}}}], ACTUAL, plugin_manager=pm)
    assert 'did you mean "$startswith"?' in str(info.value)
    assert "$startswith" in str(info.value).split("the matchers are ")[1]
    builtin = create_plugin_manager(load_entrypoints=False)
    with pytest.raises(GoldFileError, match=r'unknown matcher "\$startswith"'):
        evaluate(gold, ACTUAL, plugin_manager=builtin)


def test_valid_gold_scores_are_unchanged() -> None:
    gold = [
        {"tool": "a", "args": {"q": {"$regex": "b"}}},
        {"tool": "b", "args": {"n": {"$one_of": [1, 2]}}},
    ]
    actual = [{"tool": "a", "args": {"q": "b"}}, {"tool": "b", "args": {"n": 3}}]
    result = evaluate(gold, actual)
    assert 0.0 < result.score < 1.0
    assert result.score == evaluate(gold, actual).score


def test_jsonl_gold_errors_keep_their_line_and_type(tmp_path: Path) -> None:
    path = tmp_path / "gold.jsonl"
    path.write_text('{"tool": "a"}\n\n{"tool": "b", "args": {"q": {"$regx": "b"}}}\n')
    with pytest.raises(GoldFileError, match=rf"^{path}:3: \$\[1\]\.args\.q: unknown matcher"):
        load_gold_standard(path)
