"""A command never writes over one of its own inputs.

``eval-batch cases.jsonl --out cases.jsonl`` emptied the dataset and reported "0 cases";
``eval gold.json trace.json -o gold.json`` replaced the gold file with a report. Before any
work, :func:`refuse_outputs_onto_inputs` compares every output path of the command with every
input path, symlinks and hard links followed, and stops with a usage error (exit 2).

Inputs and outputs are read from the command's own parameters: a ``click.Path`` that must
exist is an input; one that need not exist and cannot be a folder is an output.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

import click

__all__ = ["command_paths", "refuse_outputs_onto_inputs", "same_file"]


def same_file(first: Path, second: Path) -> bool:
    """Whether two paths name one file: the same resolved path, or one inode (a hard link)."""
    if os.path.realpath(first) == os.path.realpath(second):
        return True
    try:
        return os.path.samefile(first, second)
    except OSError:  # one of them does not exist yet
        return False


def command_paths(ctx: click.Context) -> tuple[list[tuple[str, Path]], list[tuple[str, Path]]]:
    """``(inputs, outputs)`` of the running command, each as ``(option label, path)``."""
    inputs: list[tuple[str, Path]] = []
    outputs: list[tuple[str, Path]] = []
    for param in ctx.command.params:
        kind = param.type
        if not isinstance(kind, click.Path):
            continue
        label = param.opts[-1] if isinstance(param, click.Option) else param.human_readable_name
        for value in _values(ctx.params.get(param.name or "")):
            if kind.exists:
                inputs.append((label, value))
            elif not kind.dir_okay:
                outputs.append((label, value))
    return inputs, outputs


def refuse_outputs_onto_inputs(
    ctx: click.Context, extra_outputs: Iterable[tuple[str, Path]] = ()
) -> None:
    """Exit 2 with one line when an output of this command is also one of its inputs."""
    from toolscore.cli.output import ExitCode, fail

    inputs, outputs = command_paths(ctx)
    for out_label, out_path in [*outputs, *extra_outputs]:
        for in_label, in_path in inputs:
            if in_path.is_file() and same_file(out_path, in_path):
                fail(
                    f"{out_label} {out_path} is the input {in_label} {in_path}: writing it would "
                    "destroy the input; choose another output path",
                    ExitCode.USAGE,
                )


def _values(value: object) -> Iterator[Path]:
    if isinstance(value, Path):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            if isinstance(item, Path):
                yield item
