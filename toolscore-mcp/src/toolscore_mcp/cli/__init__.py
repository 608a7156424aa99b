"""The ``toolscore mcp`` command line, one module per command group."""
