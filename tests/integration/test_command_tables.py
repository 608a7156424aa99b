"""``toolscore --help`` lists commands from command tables, and says what the commands say.

The tables (core's ``BUILTIN_COMMANDS`` and each plugin's ``TOOLSCORE_COMMANDS``) let
``--help`` list every command without importing it or building a plugin manager; these tests
keep each summary equal to its command's own short help, and check that a plugin without a
table, or one that fails, is still listed or reported the way the plugin manager does it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Mapping
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from toolscore.builtin.commands import BUILTIN_COMMANDS
from toolscore.cli import SUMMARY_LIMIT, cli
from toolscore.command_table import CommandEntry
from toolscore.plugins import create_plugin_manager


def tables() -> dict[str, Mapping[str, CommandEntry]]:
    from toolscore_mcp.plugin import TOOLSCORE_COMMANDS as mcp_commands
    from toolscore_pytest.commands import TOOLSCORE_COMMANDS as pytest_commands

    return {
        "core": BUILTIN_COMMANDS,
        "toolscore-mcp": mcp_commands,
        "toolscore-pytest": pytest_commands,
    }


@pytest.mark.parametrize("owner", ["core", "toolscore-mcp", "toolscore-pytest"])
def test_each_summary_is_the_commands_own_short_help(owner: str) -> None:
    for name, entry in tables()[owner].items():
        command = entry.load()
        assert isinstance(command, click.Command), name
        assert not command.hidden, name
        assert entry.summary == command.get_short_help_str(limit=SUMMARY_LIMIT), name


def test_help_from_the_tables_is_the_help_the_plugins_give() -> None:
    from_tables = CliRunner().invoke(cli, ["--help"], catch_exceptions=False)
    from_manager = CliRunner().invoke(
        cli, ["--help"], obj={"plugin_manager": create_plugin_manager()}, catch_exceptions=False
    )
    assert from_tables.exit_code == from_manager.exit_code == 0
    assert from_tables.output == from_manager.output


def test_help_imports_no_command_module_nor_pluggy_nor_attrs() -> None:
    probe = (
        "import json, sys\nfrom toolscore.cli import cli\n"
        "try:\n    cli.main(['--help'], standalone_mode=False)\nexcept SystemExit:\n    pass\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    # the first-party plugins only: a third-party plugin (the examples under plugins/, when
    # installed) may import toolscore.specs, and with it attrs, when it is imported
    first_party = "toolscore-mcp,toolscore-pytest,toolscore-judge,toolscore-providers"
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "TOOLSCORE_LOAD_PLUGINS": first_party},
    )
    loaded = set(json.loads(out.stdout.strip().splitlines()[-1]))
    assert not {"pluggy", "attr", "attrs", "toolscore.plugins.manager"} & loaded
    commands = {
        entry.target.partition(":")[0] for table in tables().values() for entry in table.values()
    }
    assert not commands & loaded


def install(site: Path, name: str, plugin: str, modules: Mapping[str, str] = {}) -> None:
    """A distribution ``name`` in ``site`` whose ``[toolscore]`` plugin module is ``plugin``."""
    module = f"{name}_plugin"
    (site / f"{module}.py").write_text(textwrap.dedent(plugin), encoding="utf-8")
    for other, source in modules.items():
        (site / f"{other}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    info = site / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[toolscore]\n{name} = {module}\n")


def run(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    for name in ("TOOLSCORE_NO_PLUGINS", "TOOLSCORE_LOAD_PLUGINS", "TOOLSCORE_STRICT_PLUGINS"):
        env.pop(name, None)
    return subprocess.run(
        [sys.executable, "-c", "from toolscore.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


HELLO = """
    import click

    @click.command()
    def hello():
        "Say hello to the world."
        click.echo("hello")
"""


def test_a_tables_command_is_listed_without_importing_it_and_runs(tmp_path: Path) -> None:
    install(
        tmp_path,
        "tabled",
        """
        import toolscore
        from toolscore.command_table import CommandEntry, add_commands

        TOOLSCORE_COMMANDS = {"hello": CommandEntry("tabled_cli:hello", "Say hello to the world.")}

        @toolscore.hookimpl
        def toolscore_register_commands(cli):
            add_commands(cli, TOOLSCORE_COMMANDS)
        """,
        {
            "tabled_cli": "import sys\nif '--help' in sys.argv:\n    raise SystemExit('imported')\n"
            + textwrap.dedent(HELLO)
        },
    )
    listed = run(tmp_path, "--help")
    assert listed.returncode == 0, listed.stderr
    assert "  hello       Say hello to the world." in listed.stdout
    assert "imported" not in listed.stderr
    ran = run(tmp_path, "hello")
    assert (ran.returncode, ran.stdout) == (0, "hello\n"), ran.stderr


def test_a_plugin_without_a_table_is_asked_through_its_hook(tmp_path: Path) -> None:
    install(
        tmp_path,
        "hooked",
        """
        import toolscore

        @toolscore.hookimpl
        def toolscore_register_commands(cli):
            from hooked_cli import hello
            cli.add_command(hello)
        """,
        {"hooked_cli": HELLO},
    )
    listed = run(tmp_path, "--help")
    assert listed.returncode == 0, listed.stderr
    assert "  hello       Say hello to the world." in listed.stdout
    assert "  mcp" in listed.stdout


def test_a_plugin_that_fails_to_import_is_reported_by_help_once(tmp_path: Path) -> None:
    install(tmp_path, "broken", "raise RuntimeError('no luck')\n")
    listed = run(tmp_path, "--help")
    assert listed.returncode == 0, listed.stderr
    assert "  mcp" in listed.stdout
    assert (
        listed.stderr.count("plugin 'broken' (broken) failed to load: RuntimeError: no luck") == 1
    )


def test_plugin_options_before_help_apply_to_the_listing(tmp_path: Path) -> None:
    no_plugins = run(tmp_path, "--no-plugins", "--help")
    assert "  eval" in no_plugins.stdout
    assert "  mcp" not in no_plugins.stdout
    assert "  init" not in no_plugins.stdout
    without_mcp = run(tmp_path, "--disable-plugin", "toolscore-mcp", "--help")
    assert "  mcp" not in without_mcp.stdout
    assert "  init" in without_mcp.stdout
