"""A plugin implementing a hook that does not exist (a typo, or a newer toolscore)."""

import toolscore


@toolscore.hookimpl
def toolscore_register_metricz():
    return ()
