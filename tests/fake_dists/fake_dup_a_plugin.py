"""Registers a metric named like the other duplicate plugin's."""

import toolscore
from toolscore.specs import MetricSpec


class Dup:
    def compute(self, context):
        return "a"


@toolscore.hookimpl
def toolscore_register_metrics():
    yield MetricSpec(name="dup_metric", factory=Dup, summary="from dup a")
