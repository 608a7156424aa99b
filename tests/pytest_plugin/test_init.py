"""``toolscore init``: framework detection, and a scaffold that passes on its first run for
every framework choice."""

from __future__ import annotations

from pathlib import Path

import pytest
from toolscore_pytest.frameworks import FRAMEWORKS, detect_frameworks, requirement_name


def test_requirement_names_are_normalised() -> None:
    assert (
        requirement_name("Pydantic_AI[openai]>=0.1 ; python_version > '3.9'  # agent")
        == "pydantic-ai"
    )
    assert requirement_name("langgraph==0.2") == "langgraph"
    assert requirement_name("openai @ https://example.invalid/openai.whl") == "openai"
    assert requirement_name("   # only a comment") == ""


def test_detects_from_every_pyproject_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        """
[project]
dependencies = ["openai>=1", "requests"]
[project.optional-dependencies]
graph = ["langgraph"]
[dependency-groups]
dev = ["pytest", {include-group = "graph"}, "claude_agent_sdk"]
[tool.poetry.dependencies]
python = "^3.11"
CrewAI = "*"
""",
        encoding="utf-8",
    )
    assert detect_frameworks(tmp_path) == ["langgraph", "crewai", "claude_agent_sdk", "openai"]


def test_detects_from_requirements_files(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text(
        "-r base.txt\n# anthropic\nopenai-agents==0.1\n", encoding="utf-8"
    )
    (tmp_path / "requirements-dev.txt").write_text("pydantic-ai-slim[openai]\n", encoding="utf-8")
    assert detect_frameworks(tmp_path) == ["pydantic_ai", "openai_agents"]


def test_imports_are_scanned_only_when_dependencies_say_nothing(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "main.py").write_text(
        "import os\nfrom agents import Runner\nimport anthropic.types\n", encoding="utf-8"
    )
    (tmp_path / ".venv" / "lib").mkdir(parents=True)
    (tmp_path / ".venv" / "lib" / "x.py").write_text("import langgraph\n", encoding="utf-8")
    assert detect_frameworks(tmp_path) == ["openai_agents", "anthropic"]
    (tmp_path / "requirements.txt").write_text("openai\n", encoding="utf-8")
    assert detect_frameworks(tmp_path) == ["openai"]


def test_nothing_found_means_generic(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("not [valid toml", encoding="utf-8")
    assert detect_frameworks(tmp_path) == ["generic"]


def test_init_messages_and_files(tmp_path: Path, helpers) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "pyproject.toml").write_text(
        '[project]\ndependencies = ["openai>=1", "langgraph"]\n', encoding="utf-8"
    )
    result = helpers.cli(["init", "--dir", tmp_path])
    assert result.exit_code == 0, result.output
    assert "Toolscore init - scaffolding a tool-call test suite" in result.output
    assert "Detected frameworks: LangGraph, OpenAI (raw SDK)" in result.output
    for shown in (
        "tests/test_agent_tools.py",
        ".toolscore/snapshots/.gitkeep",
        ".github/workflows/toolscore.yml",
    ):
        assert f"created {shown}" in result.output
    assert "Done! Next steps:" in result.output
    assert "toolscore demo" in result.output
    assert "toolscore approve --all" in result.output
    assert "LangGraph" in (tmp_path / "tests" / "test_agent_tools.py").read_text(encoding="utf-8")
    workflow = (tmp_path / ".github" / "workflows" / "toolscore.yml").read_text(encoding="utf-8")
    assert "pip install toolscore pytest" in workflow
    assert "tool-scorer" not in workflow
    assert "actions/checkout@v4" in workflow
    assert "actions/setup-python@v5" in workflow

    again = helpers.cli(["init", "--dir", tmp_path, "--framework", "openai"])
    assert again.exit_code == 1
    target = tmp_path / "tests" / "test_agent_tools.py"
    assert f"ERROR {target} already exists. Re-run with --force to overwrite it." in again.output
    forced = helpers.cli(["init", "--dir", tmp_path, "--framework", "openai", "--force", "--no-ci"])
    assert forced.exit_code == 0
    assert "Framework: OpenAI (raw SDK)" in forced.output
    assert "created .github" not in forced.output
    assert "created .toolscore/snapshots/.gitkeep" not in forced.output


def test_init_without_a_framework_in_sight(tmp_path: Path, helpers) -> None:  # type: ignore[no-untyped-def]
    result = helpers.cli(["init", "--dir", tmp_path, "--yes", "--no-ci"])
    assert "No framework detected - using generic (works anywhere)." in result.output
    assert not (tmp_path / ".github").exists()


@pytest.mark.parametrize(
    "framework",
    [
        # a provider-native stand-in response needs the extractors of toolscore-providers
        f if f == "generic" else pytest.param(f, marks=pytest.mark.requires("toolscore_providers"))
        for f in FRAMEWORKS
    ],
)
def test_every_scaffold_passes_on_its_first_run_and_then_catches_drift(
    framework: str,
    pytester: pytest.Pytester,
    helpers,
    monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
) -> None:
    created = helpers.cli(["init", "--framework", framework, "--dir", pytester.path])
    assert created.exit_code == 0, created.output

    first = pytester.runpytest()
    first.assert_outcomes(passed=1, warnings=1)
    first.stdout.fnmatch_lines(["toolscore: 1 snapshot created (pending approval)"])

    approved = helpers.cli(
        ["approve", "--all", "--dir", pytester.path / ".toolscore" / "snapshots"]
    )
    assert "Approved 1 snapshot(s)." in approved.output
    # what the workflow runs, in CI
    monkeypatch.setenv("CI", "true")
    replay = pytester.runpytest("--rootdir=.", "tests/", "-q")
    replay.assert_outcomes(passed=1)
    replay.stdout.fnmatch_lines(["toolscore: 1 passed"])

    test_file = pytester.path / "tests" / "test_agent_tools.py"
    source = test_file.read_text(encoding="utf-8")
    assert source.count('"toolscore"') == 1  # the one query value of the stand-in response
    test_file.write_text(source.replace('"toolscore"', '"something else"'), encoding="utf-8")
    drift = pytester.runpytest()
    drift.assert_outcomes(failed=1)
    drift.stdout.fnmatch_lines(["*Expected vs Actual Tool Calls*"])
