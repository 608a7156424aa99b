"""Every command's typed options refuse a bad value with exit code 2, as the README promises.

The walk covers every command and subcommand the installed distributions provide: each option
whose type can reject a value (numbers, ranges, choices, paths that must exist, toolscore's own
NAME=VALUE/format/report types) gets a value it must reject, and the command must end with
click's usage error (exit 2), never a handled error (1) or a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from toolscore.cli import cli
from toolscore.cli.options import OptionType, ReportType, ThresholdType, WeightType

BAD_VALUE = "\u00a7bad\u00a7"
#: Options whose bad value needs a specific spelling to be bad.
BAD_BY_TYPE: dict[type, str] = {
    WeightType: "argumnt_f1=0.5",
    ThresholdType: "abc",
    OptionType: "novalue",
    ReportType: "no-such-format",
}


def _commands(group: click.Group, ctx: click.Context, path: tuple[str, ...]) -> Iterator[tuple]:
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is None:
            continue
        if isinstance(command, click.Group):
            yield from _commands(command, ctx, (*path, name))
        else:
            yield (*path, name), command


def _bad_value(param: click.Option) -> str | None:
    kind = param.type
    for type_, value in BAD_BY_TYPE.items():
        if isinstance(kind, type_):
            return value
    if param.name == "trace_format":
        return "opneai"
    if isinstance(kind, (click.types.IntParamType, click.types.FloatParamType)):
        return BAD_VALUE
    if isinstance(kind, click.Choice):
        return BAD_VALUE
    if isinstance(kind, click.Path) and kind.exists:
        return "/no/such/file/anywhere.json"
    return None


def _cases() -> Iterator[tuple[tuple[str, ...], str, str]]:
    ctx = click.Context(cli)
    for path, command in _commands(cli, ctx, ()):
        for param in command.params:
            if isinstance(param, click.Option) and not param.is_flag:
                bad = _bad_value(param)
                if bad is not None:
                    yield path, param.opts[-1], bad


CASES = sorted(set(_cases()))


def test_the_walk_covers_the_options_the_issue_names() -> None:
    assert (("eval",), "--format", "opneai") in CASES
    assert (("eval",), "--weight", "argumnt_f1=0.5") in CASES
    assert (("eval",), "--report", "no-such-format") in CASES
    assert len({case[0] for case in CASES}) >= 5


def _arguments(command: click.Command, existing: str) -> list[str]:
    """Valid-looking positional arguments, so that the bad option is what click rejects."""
    out: list[str] = []
    for param in command.params:
        if isinstance(param, click.Argument) and param.required:
            out.append(existing)
    return out


@pytest.mark.parametrize(("path", "option", "value"), CASES, ids=lambda v: str(v))
def test_a_bad_option_value_is_a_usage_error(
    path: tuple[str, ...], option: str, value: str, tmp_path: Path
) -> None:
    existing = tmp_path / "calls.json"
    existing.write_text(json.dumps([{"tool": "search", "args": {}}]), encoding="utf-8")
    ctx = click.Context(cli)
    command: click.Command = cli
    for name in path:
        assert isinstance(command, click.Group)
        found = command.get_command(ctx, name)
        assert found is not None
        command = found
    args = [*path, *_arguments(command, str(existing)), option, value]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, (args, result.output, result.exception)
    assert "Invalid value" in result.output or "does not exist" in result.output, result.output
