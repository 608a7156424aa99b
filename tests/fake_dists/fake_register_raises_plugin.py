"""A plugin whose registration hook raises at call time."""

import toolscore


@toolscore.hookimpl
def toolscore_register_metrics():
    raise RuntimeError("metric registry exploded")
