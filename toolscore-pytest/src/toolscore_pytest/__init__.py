"""toolscore pytest plugin: snapshot testing of agent tool calls, fixtures and the approve/record/init commands."""
