"""A plugin whose hook implementation asks for an argument the hook does not have."""

import toolscore


@toolscore.hookimpl
def toolscore_register_metrics(no_such_argument):
    return ()
