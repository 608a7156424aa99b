"""``toolscore generate`` and ``toolscore.generators``: reproducible gold files from schemas."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from toolscore.cli import cli
from toolscore.errors import InputError
from toolscore.generators import (
    generate_cases,
    generate_value_from_schema,
    read_function_definitions,
)

WEATHER = {
    "name": "get_weather",
    "description": "Get current weather",
    "parameters": {
        "type": "object",
        "properties": {
            "location": {"type": "string", "description": "City name"},
            "unit": {"type": "string", "enum": ["C", "F"]},
            "max_results": {"type": "integer", "minimum": 1, "maximum": 50},
        },
        "required": ["location"],
    },
}


def _write(tmp_path: Path, data: object, name: str = "functions.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_same_seed_writes_the_same_file_and_another_seed_differs(tmp_path: Path) -> None:
    schema = _write(tmp_path, [WEATHER])
    outputs = []
    for name, seed in (("a.json", "0"), ("b.json", "0"), ("c.json", "7")):
        code, _, err = _run(
            "generate",
            "--from-openai",
            str(schema),
            "-n",
            "10",
            "--seed",
            seed,
            "-o",
            str(tmp_path / name),
        )
        assert code == 0, err
        outputs.append((tmp_path / name).read_text(encoding="utf-8"))
    assert outputs[0] == outputs[1]
    assert outputs[0] != outputs[2]


def test_default_seed_is_fixed(tmp_path: Path) -> None:
    schema = _write(tmp_path, [WEATHER])
    for name in ("a.json", "b.json"):
        assert _run("generate", "--from-openai", str(schema), "-o", str(tmp_path / name))[0] == 0
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_tools_array_wrapper_is_unwrapped(tmp_path: Path) -> None:
    schema = _write(tmp_path, [{"type": "function", "function": WEATHER}])
    out = tmp_path / "nested" / "gold.json"
    code, stdout, err = _run("generate", "--from-openai", str(schema), "-n", "5", "-o", str(out))
    assert code == 0, err
    cases = json.loads(out.read_text(encoding="utf-8"))
    assert {case["tool"] for case in cases} == {"get_weather"}
    assert all("location" in case["args"] for case in cases)
    assert "Generated 5 test cases" in stdout


def test_case_mix_and_layout(tmp_path: Path) -> None:
    cases = generate_cases(read_function_definitions([WEATHER]), 5)
    # 60 % normal, 20 % boundary, rest edge: 3 / 1 / 1 of 5
    assert len(cases) == 5
    boundary, edge = cases[3], cases[4]
    assert boundary["args"] == {"location": "x", "unit": "F", "max_results": 1}
    assert edge["args"] == {"location": "aaaaaaaaaa", "unit": "C", "max_results": 50}
    first = cases[0]
    assert list(first) == ["tool", "args", "result", "timestamp", "duration", "cost", "metadata"]
    assert first["metadata"]["description"] == "Get current weather"
    assert first["metadata"]["schema"]["max_results"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 50,
        "required": False,
    }
    assert first["metadata"]["schema"]["location"]["required"] is True


def test_no_edge_cases_gives_only_normal_cases(tmp_path: Path) -> None:
    cases = generate_cases(read_function_definitions([WEATHER]), 4, include_edge_cases=False)
    assert len(cases) == 4
    for case in cases:
        assert isinstance(case["args"]["location"], str)
        assert case["args"].get("unit", "C") in ("C", "F")
        assert 1 <= case["args"].get("max_results", 1) <= 21


def test_generated_file_loads_as_a_gold_file(tmp_path: Path) -> None:
    from toolscore.loading import load_gold_standard

    schema = _write(tmp_path, {"tools": [{"type": "function", "function": WEATHER}]})
    out = tmp_path / "gold.json"
    assert _run("generate", "--from-openai", str(schema), "-n", "3", "-o", str(out))[0] == 0
    calls = load_gold_standard(out)
    assert [c.tool for c in calls] == ["get_weather"] * 3


@pytest.mark.parametrize(
    ("schema", "variation", "expected"),
    [
        ({"type": "string", "examples": ["Paris"]}, "normal", "Paris"),
        ({"type": "integer", "default": 7}, "normal", 7),
        (
            {"type": "string", "description": "IANA zone, e.g. 'Europe/Paris'"},
            "normal",
            "Europe/Paris",
        ),
        ({"type": "string", "format": "date"}, "normal", "2026-01-15"),
        ({"type": ["null", "integer"], "minimum": 3}, "boundary", 3),
        ({"type": "number", "maximum": 9.5}, "edge", 9.5),
        ({"type": "boolean"}, "edge", True),
        ({"type": "array", "items": {"type": "integer"}, "minItems": 2}, "boundary", None),
        ({"enum": ["a", "b", "c"]}, "edge", "a"),
        ({"enum": ["a", "b", "c"]}, "boundary", "c"),
        (
            {"type": "object", "properties": {"city": {"type": "string"}}},
            "edge",
            {"city": "San Francisco"},
        ),
        ({"type": "mystery"}, "normal", None),
    ],
)
def test_value_generation_rules(
    schema: dict[str, object], variation: str, expected: object
) -> None:
    value = generate_value_from_schema("param", schema, variation, random.Random(1))
    if schema.get("type") == "array":
        assert isinstance(value, list)
        assert len(value) == 2
        assert all(isinstance(v, int) for v in value)
    else:
        assert value == expected


def test_keyword_strings_and_ranges() -> None:
    rng = random.Random(3)
    assert generate_value_from_schema("search_query", {"type": "string"}, "normal", rng) in (
        "wireless headphones",
        "laptop",
        "coffee maker",
    )
    assert (
        generate_value_from_schema("note_id", {"type": "string"}, "normal", rng) == "sample_note_id"
    )
    for _ in range(50):
        assert (
            10
            <= generate_value_from_schema("n", {"type": "integer", "minimum": 10}, "normal", rng)
            <= 30
        )
    # an impossible range never crashes
    assert (
        generate_value_from_schema(
            "n", {"type": "integer", "minimum": 5, "maximum": 2}, "normal", rng
        )
        == 5
    )


def test_missing_name_is_one_clear_error(tmp_path: Path) -> None:
    schema = _write(tmp_path, [WEATHER, {"parameters": {}}])
    code, stdout, stderr = _run(
        "generate", "--from-openai", str(schema), "-o", str(tmp_path / "g.json")
    )
    assert code == 1
    message = (stdout + stderr).strip()
    assert "Failed to generate test cases" in message
    assert "$[1].name" in message
    assert str(schema) in message
    assert "Traceback" not in message
    assert not (tmp_path / "g.json").exists()


def test_invalid_json_exits_1(tmp_path: Path) -> None:
    schema = tmp_path / "bad.json"
    schema.write_text("[{", encoding="utf-8")
    code, stdout, stderr = _run(
        "generate", "--from-openai", str(schema), "-o", str(tmp_path / "g.json")
    )
    assert code == 1
    assert "Invalid JSON in schema file" in stdout + stderr


def test_missing_schema_file_is_a_usage_error(tmp_path: Path) -> None:
    code, _, stderr = _run("generate", "--from-openai", str(tmp_path / "nope.json"))
    assert code == 2
    assert "does not exist" in stderr


def test_read_function_definitions_rejects_bad_parameters() -> None:
    with pytest.raises(InputError, match=r"\$\[0\]\.parameters"):
        read_function_definitions(
            [{"name": "x", "parameters": ["not", "a", "schema"]}], source="f.json"
        )
