"""A well-behaved plugin: one metric and one command."""

import click

import toolscore
from toolscore.context import EvaluationContext
from toolscore.specs import MetricSpec


class CallCount:
    def compute(self, context: EvaluationContext) -> int:
        return len(context.actual)


@toolscore.hookimpl
def toolscore_register_metrics():
    yield MetricSpec(name="fake_call_count", factory=CallCount, summary="number of actual calls")


@toolscore.hookimpl
def toolscore_register_commands(cli):
    @cli.command(name="fake-hello")
    def hello():
        """Say hello from a fake plugin."""
        click.echo("hello from fake_good")
