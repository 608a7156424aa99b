"""The ``toolscore`` command line: a click group that finds plugin commands lazily.

Built-in commands resolve from a table without touching entry points; plugin commands are
collected through ``toolscore_register_commands`` the first time a name is not built in or the
whole list is needed (``plugins list``). A plugin that fails to add its commands is recorded
and never breaks the others.

``toolscore --help`` imports no command module and builds no plugin manager when it need not:
core's commands and every plugin's are listed from their command tables
(:mod:`toolscore.command_table`, :mod:`toolscore.plugins.command_listing`). Only when a plugin
cannot be listed that way (no table, or it fails to load) is every plugin asked, as before.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from toolscore.builtin.commands import BUILTIN_COMMANDS, load_builtin_command
from toolscore.cli.output import ExitCode, fail
from toolscore.first_party import install_hint, provider_of

ROOT_HELP = "Toolscore: LLM Tool Usage Evaluation Package."
#: Under the command list of ``toolscore --help``: the three first things a user runs.
ROOT_EPILOG = """\b
Examples:
  toolscore demo                                   # grade the bundled sample MCP server
  toolscore eval gold.json trace.json --fail-under B --html report.html
  toolscore mcp test "python my_server.py" --ci    # grade your MCP server in CI

\b
Docs: docs/index.md in the toolscore repository; docs/cli.md lists every command and option.
"""
#: The longest command summary ``--help`` shows before cutting it (click's default is 45).
SUMMARY_LIMIT = 200
#: The plugin that contributes core's commands through ``toolscore_register_commands``.
BUILTIN_COMMANDS_PLUGIN = "toolscore.builtin.commands"


class ToolscoreGroup(click.Group):
    """A click group whose commands come from core's table and from plugins, both lazily."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._plugins_loaded = False
        self._builtins_loaded = False

    def _load_plugin_commands(self, ctx: click.Context, *, with_builtins: bool = False) -> None:
        """Let plugins add their commands; core's own come from its table unless the whole
        list is wanted (``--help``, ``plugins list``), which imports every command module."""
        if self._plugins_loaded and (self._builtins_loaded or not with_builtins):
            return
        self._plugins_loaded = True
        self._builtins_loaded = self._builtins_loaded or with_builtins
        pm = plugin_manager_for(ctx)
        pm.register_commands(self, exclude=() if with_builtins else (BUILTIN_COMMANDS_PLUGIN,))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = self.commands.get(cmd_name)
        if command is not None:
            return command
        builtin = load_builtin_command(cmd_name)
        if builtin is not None:
            self.add_command(builtin, cmd_name)
            return builtin
        self._load_plugin_commands(ctx)
        return self.commands.get(cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else ""
        distribution = provider_of("commands", name)
        if distribution is not None and self.get_command(ctx, name) is None:
            ctx.fail(f"'toolscore {name}' is provided by {install_hint(distribution)}")
        return super().resolve_command(ctx, args)

    def __call__(self, args: Sequence[str] | None = None, **extra: Any) -> Any:
        """Run as the console script: ``prog_name`` is ``toolscore`` whatever the launcher, and
        an unexpected error is one line unless ``-v``/``--verbose`` asks for the traceback.

        ``CliRunner().invoke`` calls :meth:`main` directly, so tests still see the exception.
        """
        extra.setdefault("prog_name", "toolscore")
        try:
            return self.main(args=args, **extra)
        except Exception as exc:
            argv = list(args) if args is not None else sys.argv
            if "-v" in argv or "--verbose" in argv:
                raise
            fail(
                f"Unexpected error: {exc} (run with -v for the traceback; --no-plugins skips "
                "plugins)",
                ExitCode.ERROR,
            )

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command with Python warnings shown as ``Warning: ...`` lines on stderr."""
        from toolscore.cli.output import warnings_as_lines

        with warnings_as_lines():
            return super().invoke(ctx)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list with whole summaries, wrapped rather than cut at 45 characters;
        from the command tables when they say it all (see the module), so that ``--help``
        imports no command."""
        rows = []
        declared = _declared_summaries(ctx)
        if declared is not None:
            for name in sorted(set(declared) | set(self.commands)):
                loaded = self.commands.get(name)
                if loaded is None:
                    rows.append((name, declared[name]))
                elif not loaded.hidden:
                    rows.append((name, loaded.get_short_help_str(limit=SUMMARY_LIMIT)))
        else:
            for name in self.list_commands(ctx):
                command = self.get_command(ctx, name)
                if command is not None and not command.hidden:
                    rows.append((name, command.get_short_help_str(limit=SUMMARY_LIMIT)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._load_plugin_commands(ctx, with_builtins=True)
        return sorted(set(self.commands) | set(BUILTIN_COMMANDS))


def _declared_summaries(ctx: click.Context) -> dict[str, str] | None:
    """Every command's summary by name, from core's table and the plugins' tables, or
    ``None`` when the plugin manager must be asked: this invocation has one already (an
    embedder's or a test's, which may hold plugins of its own), hook tracing is on, or a
    plugin cannot be listed from its table."""
    from toolscore.plugins.loading import env_flag

    root = ctx.find_root()
    if isinstance(root.obj, dict) and "plugin_manager" in root.obj:
        return None
    if env_flag("TOOLSCORE_TRACE_HOOKS"):
        return None
    from toolscore.plugins.command_listing import declared_commands

    params = root.params
    plugin_commands = declared_commands(
        disabled=tuple(params.get("disable_plugin") or ()),
        no_plugins=True if params.get("no_plugins") else None,
    )
    if plugin_commands is None:
        return None
    summaries = {name: entry.summary for name, entry in plugin_commands.items()}
    # core's own commands come first: a plugin's command of the same name is never added
    summaries.update((name, entry.summary) for name, entry in BUILTIN_COMMANDS.items())
    return summaries


def plugin_manager_for(ctx: click.Context) -> Any:
    """The plugin manager for this invocation, honouring ``--no-plugins``/``--disable-plugin``."""
    root = ctx.find_root()
    if isinstance(root.obj, dict) and "plugin_manager" in root.obj:
        return root.obj["plugin_manager"]
    from toolscore.plugins import create_plugin_manager, use_plugin_manager

    params = root.params
    pm = create_plugin_manager(
        disabled=tuple(params.get("disable_plugin") or ()),
        no_plugins=True if params.get("no_plugins") else None,
    )
    # This invocation's manager, for helpers that ask for none; it ends with the command.
    root.with_resource(use_plugin_manager(pm))
    if not isinstance(root.obj, dict):
        root.obj = {}
    root.obj["plugin_manager"] = pm
    return pm


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from toolscore._version import version

    click.echo(f"toolscore, version {version()}")
    ctx.exit()


@click.group(
    "toolscore",
    cls=ToolscoreGroup,
    help=ROOT_HELP,
    epilog=ROOT_EPILOG,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and exit.",
)
@click.option(
    "--no-plugins",
    is_flag=True,
    # eager, like --help: ``toolscore --no-plugins --help`` lists core's commands only
    is_eager=True,
    help="Load only core's built-in plugins (also TOOLSCORE_NO_PLUGINS=1).",
)
@click.option(
    "--disable-plugin",
    multiple=True,
    is_eager=True,
    metavar="NAME",
    help="Do not load this plugin (entry-point or distribution name); repeatable.",
)
@click.pass_context
def cli(ctx: click.Context, no_plugins: bool, disable_plugin: tuple[str, ...]) -> None:
    ctx.ensure_object(dict)


#: The console script and ``python -m toolscore`` call this; it is the click group itself (so
#: ``CliRunner().invoke(main, [...])`` works), and calling it turns unexpected
#: errors into one line (:meth:`ToolscoreGroup.__call__`).
main = cli


__all__ = ["ToolscoreGroup", "cli", "main", "plugin_manager_for"]
