"""Example third-party toolscore plugin: a call-budget metric."""
