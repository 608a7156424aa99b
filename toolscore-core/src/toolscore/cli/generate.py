"""``toolscore generate --from-openai SCHEMA``: write a synthetic gold file from function schemas.

Exit codes: 0 written; 1 a missing file, invalid JSON or a bad definition; 2 usage errors.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from toolscore.cli.options import progress_verbose_option
from toolscore.cli.output import handled_errors
from toolscore.schema_values import DEFAULT_SEED


@click.command(name="generate")
@click.option(
    "--from-openai",
    "from_openai",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    required=True,
    help="OpenAI function definitions JSON (bare, or tools-array {'type': 'function', ...}).",
)
@click.option(
    "-n",
    "--count",
    type=click.IntRange(min=0),
    default=10,
    show_default=True,
    help="Test cases per function.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("gold_calls.json"),
    show_default=True,
    help="Gold file to write.",
)
@click.option(
    "--no-edge-cases", is_flag=True, help="Only normal cases (no boundary or edge values)."
)
@click.option(
    "--seed",
    type=int,
    default=DEFAULT_SEED,
    show_default=True,
    help="Random seed; the same seed writes the same file.",
)
@progress_verbose_option
def command(
    from_openai: Path, count: int, output: Path, no_edge_cases: bool, seed: int, verbose: bool
) -> None:
    """Generate synthetic test cases from function schemas.

    Writes COUNT gold calls per function: 60% normal values, 20% boundary values and 20%
    edge values (or only normal ones with --no-edge-cases), reproducibly for a given --seed.

    Example schema file:

        [{"name": "get_weather", "description": "Get current weather",
          "parameters": {"type": "object",
                         "properties": {"location": {"type": "string"}},
                         "required": ["location"]}}]
    """
    from toolscore.cli.paths import refuse_outputs_onto_inputs

    refuse_outputs_onto_inputs(click.get_current_context())
    from rich.markup import escape
    from rich.panel import Panel
    from rich.table import Table

    from toolscore.cli.output import stdout_console
    from toolscore.generators import generate_from_openai_schema, save_gold_standard

    console = stdout_console()
    read_errors = (
        (FileNotFoundError, "File not found: "),
        (json.JSONDecodeError, f"Invalid JSON in schema file: {from_openai}: "),
    )
    with handled_errors(verbose, "Failed to generate test cases: ", expected=read_errors):
        if verbose:
            console.print(f"> Loading function schema from: {from_openai}", markup=False)
        cases = generate_from_openai_schema(
            from_openai, count=count, include_edge_cases=not no_edge_cases, seed=seed
        )
        if verbose:
            console.print(f"> Generated {len(cases)} test cases", markup=False)
        path = save_gold_standard(cases, output)

    console.print()
    console.print(
        Panel.fit(f"[green]OK[/green] Generated {len(cases)} test cases", border_style="green")
    )
    info = Table(show_header=False, box=None, padding=(0, 1))
    info.add_column(style="dim")
    info.add_column()
    info.add_row("Output file:", str(path))
    info.add_row("Test cases:", str(len(cases)))
    info.add_row("Functions:", str(len({case["tool"] for case in cases})))
    info.add_row(
        "Variations:",
        "Normal cases only" if no_edge_cases else "Normal + Edge cases + Boundary values",
    )
    info.add_row("Seed:", str(seed))
    console.print(info)
    console.print()
    console.print("[bold]Next steps:[/bold]")
    console.print(f"  1. Review generated test cases: [cyan]{escape(str(path))}[/cyan]")
    console.print("  2. Capture your agent's trace to [cyan]trace.json[/cyan]")
    console.print(f"  3. Run: [cyan]toolscore eval {escape(str(path))} trace.json[/cyan]")
    console.print()
