"""Every command, built-in or contributed by a plugin, answers --help; plugins list is accurate."""

from __future__ import annotations

import importlib.util
import json

import click
import pytest
from toolscore.cli import cli
from toolscore.plugins import create_plugin_manager

FIRST_PARTY = {
    "toolscore_providers": "toolscore-providers",
    "toolscore_mcp": "toolscore-mcp",
    "toolscore_pytest": "toolscore-pytest",
    "toolscore_judge": "toolscore-judge",
    "toolscore_example_metric": "toolscore-example-metric",
}


#: These read the example metric plugin, which nox's ``integration`` session installs (the
#: workspace's default environment holds the first-party distributions only).
needs_example_plugin = pytest.mark.skipif(
    importlib.util.find_spec("toolscore_example_metric") is None,
    reason="the example plugins are installed by nox -s integration",
)


def all_command_paths() -> list[list[str]]:
    ctx = click.Context(cli, obj={"plugin_manager": create_plugin_manager()})
    paths: list[list[str]] = []

    def walk(group: click.Group, prefix: list[str], gctx: click.Context) -> None:
        for name in group.list_commands(gctx):
            command = group.get_command(gctx, name)
            assert command is not None, f"{' '.join([*prefix, name])} listed but not resolvable"
            paths.append([*prefix, name])
            if isinstance(command, click.Group):
                walk(command, [*prefix, name], click.Context(command, parent=gctx))

    walk(cli, [], ctx)
    return paths


def test_top_level_help_lists_builtin_and_plugin_commands(toolscore_cli) -> None:  # type: ignore[no-untyped-def]
    result = toolscore_cli(["--help"])
    assert result.returncode == 0, result.stderr
    for name in (
        "eval",
        "validate",
        "plugins",
        "mcp",
        "demo",
        "approve",
        "snapshots",
        "record",
        "init",
    ):
        assert f"  {name}" in result.stdout, f"{name} missing from --help"


def test_top_level_help_shows_examples_docs_and_whole_summaries(toolscore_cli) -> None:  # type: ignore[no-untyped-def]
    result = toolscore_cli(["--help"], env={"COLUMNS": "80"})
    assert result.returncode == 0, result.stderr
    help_text = result.stdout
    examples = help_text.split("Examples:")[1].split("Docs:")[0]
    assert [line.split()[:2] for line in examples.strip().splitlines()] == [
        ["toolscore", "demo"],
        ["toolscore", "eval"],
        ["toolscore", "mcp"],
    ]
    assert "docs/cli.md" in help_text
    # Summaries are wrapped, never cut with "...".
    commands = help_text.split("Commands:")[1].split("Examples:")[0]
    assert "..." not in commands
    assert "no API" in commands
    assert "key." in commands


def test_version(toolscore_cli) -> None:  # type: ignore[no-untyped-def]
    result = toolscore_cli(["--version"])
    assert result.returncode == 0
    assert result.stdout.startswith("toolscore, version ")


@pytest.mark.parametrize("path", all_command_paths(), ids=" ".join)
def test_every_command_has_working_help(path: list[str]) -> None:
    from click.testing import CliRunner

    result = CliRunner().invoke(cli, [*path, "--help"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output


@needs_example_plugin
def test_plugins_list_json_shows_every_first_party_plugin(toolscore_cli) -> None:  # type: ignore[no-untyped-def]
    result = toolscore_cli(["plugins", "list", "--json"])
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["schema_version"] == 1
    plugins = {p["name"]: p for p in document["plugins"]}
    for name, distribution in FIRST_PARTY.items():
        assert plugins[name]["distribution"] == distribution
        assert plugins[name]["status"] == "active", plugins[name]["error"]
        assert plugins[name]["version"]
    assert "call_budget" in plugins["toolscore_example_metric"]["provides"]["metrics"]
    assert "openai" in plugins["toolscore_providers"]["provides"]["extractors"]
    assert "mcp" in plugins["toolscore_mcp"]["provides"]["commands"]
    assert not any(p["builtin"] for p in document["plugins"])


def test_plugins_list_all_includes_builtins_with_what_they_provide(toolscore_cli) -> None:  # type: ignore[no-untyped-def]
    result = toolscore_cli(["plugins", "list", "--all", "--json"])
    plugins = {p["name"]: p for p in json.loads(result.stdout)["plugins"]}
    assert plugins["toolscore.metrics.selection"]["status"] == "builtin"
    assert plugins["toolscore.metrics.selection"]["provides"] == {"metrics": ["selection_accuracy"]}
    assert "eval" in plugins["toolscore.builtin.commands"]["provides"]["commands"]


@needs_example_plugin
def test_plugins_list_table_and_verbose_location(toolscore_cli) -> None:  # type: ignore[no-untyped-def]
    result = toolscore_cli(["plugins", "list", "-v"], env={"COLUMNS": "200"})
    assert result.returncode == 0, result.stderr
    assert "toolscore_example_metric" in result.stdout
    assert "metrics: call_budget" in result.stdout
    assert "toolscore_example_metric" in result.stdout
    assert "__init__.py" in result.stdout


@needs_example_plugin
def test_no_plugins_and_disable_plugin(toolscore_cli) -> None:  # type: ignore[no-untyped-def]
    result = toolscore_cli(["--no-plugins", "plugins", "list", "--json"])
    assert json.loads(result.stdout)["plugins"] == []
    result = toolscore_cli(
        ["--disable-plugin", "toolscore-example-metric", "plugins", "list", "--json"]
    )
    plugins = {p["name"]: p for p in json.loads(result.stdout)["plugins"]}
    assert plugins["toolscore_example_metric"]["status"] == "disabled"
    assert plugins["toolscore_mcp"]["status"] == "active"


def test_load_plugins_allow_list(toolscore_cli) -> None:  # type: ignore[no-untyped-def]
    result = toolscore_cli(
        ["plugins", "list", "--json"], env={"TOOLSCORE_LOAD_PLUGINS": "toolscore-mcp"}
    )
    assert [p["name"] for p in json.loads(result.stdout)["plugins"]] == ["toolscore_mcp"]
    result = toolscore_cli(["--help"], env={"TOOLSCORE_LOAD_PLUGINS": ""})
    assert "  eval" in result.stdout
    assert "  mcp" not in result.stdout


@needs_example_plugin
def test_example_metric_appears_in_evaluate() -> None:
    import toolscore

    result = toolscore.evaluate([{"tool": "a"}], [{"tool": "a"}, {"tool": "a"}])
    assert result.metrics["call_budget"]["over_budget"] == 1


def test_the_documented_json_schema_matches_the_output(toolscore_cli) -> None:  # type: ignore[no-untyped-def]
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "plugins" / "index.md").read_text()
    document = json.loads(toolscore_cli(["plugins", "list", "--json"]).stdout)
    assert f'"schema_version": {document["schema_version"]}' in doc
    for key in document["plugins"][0]:
        assert f'"{key}":' in doc, f"key {key!r} of plugins list --json is not documented"
